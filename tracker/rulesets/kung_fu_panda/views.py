"""Kung Fu Panda's read view: the campaign's standing (missions won and lost, Special Moves held, enemies knocked
out, rounds per mission, faces rolled), folded by the projections as the log grows (tracker/rulesets/engine/view.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.kung_fu_panda import said
from tracker.rulesets.kung_fu_panda.events import CHANGES
from tracker.rulesets.kung_fu_panda.standing import standing
from tracker.rulesets.engine.view import At, CampaignFold

# The kinds the standing reads; every other change leaves it as it was.
READS = frozenset({"mission-set-up", "round-started", "pool-rolled", "round-summarised", "enemy-knocked-out", "entry-corrected", "mission-won", "mission-lost"})


class Standing(CampaignFold):
    name = "kung-fu-panda-standing"
    kind = "standing"
    game = "kung-fu-panda"
    handles = tuple(CHANGES.events.values())

    def keep(self, event: Any, at: At) -> dict[str, Any] | None:
        return {"change": event.change} if event.change["kind"] in READS else None

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> dict[str, Any]:
        return standing(records)

    def said(self, answer: Any, names: Mapping[str, str], progress: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        return said.standing_said(answer, names)


VIEWS = (Standing(),)
