"""Yōkai Quest's GameRules, built from the rules data it judges by: its scenes' stories, carry-over, turn order and
verdicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.ruleset import GameRules
from tracker.rulesets.yokai_quest import allowed as next_actions
from tracker.rulesets.yokai_quest import campaign, describe, setup, state, verdict, yokai_phase
from tracker.rulesets.yokai_quest.events import EVENTS


def _played_before(game: Mapping[str, Any]) -> bool:
    """A scene set up under 1.0.0 (no Yōkai phase in its state) is carried on by the rules it was played under."""
    return bool(game) and not yokai_phase.tracked(game)


class Rules(GameRules):
    events = EVENTS
    actor_fields = ("hero", "attacker")
    setup_schema = setup.SCHEMA
    # lookup.py: a hero's Health is needed from the set-up on (L278-L280); the table may state it there.
    lost_fact_uses = {"hero.health": {"quest_setup": True, "per_use": 'state it when the session starts: "setup": {"health": {"<hero>": n}}'}}

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.options_schema = campaign.options_schema([story["id"] for story in data["stories"]])

    def fold(self, game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        return state.fold(game, change)

    def carry_over(self, progress, game, quest, outcome, options) -> dict[str, Any]:
        if not _played_before(game):
            return campaign.carry_over(self.data, progress, game, quest, outcome, options)
        campaign.require_scene_end(game, outcome)  # 1.0.0 had no end refusal: its carry-over checked the end (a 422)
        carried = campaign.carry_over(self.data, progress, game, quest, outcome, options)
        carried.pop("in_play", None)  # 1.0.0 counted no yōkai in play: its progress keeps none
        return carried

    def chain(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        return campaign.chain(data, list(data.get("campaign", {}).get("chain") or []), options)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe.describe(change)

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        if _played_before(game):
            return super().allowed(quest, game, turn, actions)  # 1.0.0 kept no phases
        return next_actions.allowed_now(game, actions)

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        if _played_before(game):
            return None  # 1.0.0 recorded no verdicts: its sessions re-derive without one
        return verdict.verdict(game)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        if _played_before(game):
            return None  # 1.0.0's end checked the outcome against the scene's end in carry-over (a 422)
        return verdict.end_refusal(next(q for q in self.data["quests"] if q["id"] == quest), game, outcome)
