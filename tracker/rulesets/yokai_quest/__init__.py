"""Yōkai Quest: its rules data and pure resolvers.

A quest of the tracker is one scene; a story is a chain of scenes (the data's "stories"), and the
campaign's chain is the stories' scenes in the narrated order, or one story on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tracker.rulesets import data as rules_data
from tracker.rulesets.deck_actions import ACTIONS as DECK_ACTIONS
from tracker.rulesets.ruleset import GameRules, Ruleset
from tracker.rulesets.yokai_quest import campaign, describe, state
from tracker.rulesets.yokai_quest import outcome as decided
from tracker.rulesets.yokai_quest.actions import ACTIONS, SET_UP, SETUP_SCHEMA
from tracker.rulesets.yokai_quest.events import EVENTS


class YokaiQuestRules(GameRules):
    events = EVENTS
    setup_schema = SETUP_SCHEMA

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.options_schema = campaign.options_schema([story["id"] for story in data["stories"]])

    def fold(self, game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        return state.fold(game, change)

    def carry_over(self, progress, game, quest, outcome, options) -> dict[str, Any]:
        return campaign.carry_over(self.data, progress, game, quest, outcome, options)

    def chain(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        return campaign.chain(data, list(data.get("campaign", {}).get("chain") or []), options)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe.line(change)

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        return decided.verdict(game)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        return decided.end_refusal(next(q for q in self.data["quests"] if q["id"] == quest), game, outcome)


def load() -> Ruleset:
    data = rules_data.load(Path(__file__).with_name("ruleset.json"))
    own = {action.name for action in ACTIONS}
    return Ruleset(data, [a for a in DECK_ACTIONS if a.name not in own] + ACTIONS, rules=YokaiQuestRules(data), setup=SET_UP)
