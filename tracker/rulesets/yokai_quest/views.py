"""Yōkai Quest's read view: the campaign's standing (scenes played and won per story, reattempts, achievements, each
hero's abilities and treasure cards), folded by the projections as the log grows (tracker/rulesets/engine/view.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine.view import At, CampaignFold
from tracker.rulesets.yokai_quest import said
from tracker.rulesets.yokai_quest.events import CHANGES
from tracker.rulesets.yokai_quest.standing import standing


class Standing(CampaignFold):
    """Every change of the game is kept: the standing folds each scene with the rules' own fold, which reads them all."""

    name = "yokai-quest-standing"
    kind = "standing"
    game = "yokai-quest"
    handles = tuple(CHANGES.events.values())

    def keep(self, event: Any, at: At) -> dict[str, Any] | None:
        return {"change": event.change}

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> dict[str, Any]:
        return standing(records)  # Yōkai Quest is cooperative: no side keeps a secret

    def said(self, answer: Any, names: Mapping[str, str], progress: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        return said.standing_said(answer, names, progress)


VIEWS = (Standing(),)
