"""Yōkai Quest: its rules data and pure resolvers.

A quest of the tracker is one scene; a story is a chain of scenes (the data's "stories"), and the
campaign's chain is the stories' scenes in the narrated order, or one story on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tracker.rulesets import data as rules_data
from tracker.rulesets.deck_actions import ACTIONS as DECK_ACTIONS
from tracker.rulesets.ruleset import GameRules, Ruleset
from tracker.rulesets.yokai_quest import campaign, describe, state, versions
from tracker.rulesets.yokai_quest.actions import ACTIONS, SET_UP, SETUP_SCHEMA
from tracker.rulesets.yokai_quest.events import EVENTS
from tracker.rulesets.yokai_quest.views import VIEWS


class YokaiQuestRules(GameRules):
    events = EVENTS
    actor_fields = ("hero", "attacker")
    setup_schema = SETUP_SCHEMA
    # lookup.py: a hero's Health is needed from the set-up on (L278-L280); the table may state it there.
    lost_fact_uses = {"hero.health": {"quest_setup": True, "per_use": 'state it when the session starts: "setup": {"health": {"<hero>": n}}'}}

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.version = versions.of(data["version"])  # the rules of the version the campaign pinned
        self.options_schema = campaign.options_schema([story["id"] for story in data["stories"]])

    def fold(self, game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        return state.fold(game, change)

    def carry_over(self, progress, game, quest, outcome, options) -> dict[str, Any]:
        return self.version.carry_over(self.data, progress, game, quest, outcome, options)

    def chain(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        return campaign.chain(data, list(data.get("campaign", {}).get("chain") or []), options)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe.line(change)

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        return self.version.allowed(self, quest, game, turn, actions)

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        return self.version.verdict(game)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        return self.version.end_refusal(next(q for q in self.data["quests"] if q["id"] == quest), game, outcome)


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Yōkai Quest's ruleset over its data (an archived version's when given): carry-over and end refusals read it."""
    data = rules_data.load(Path(__file__).with_name("ruleset.json")) if data is None else data
    own = {action.name for action in ACTIONS}
    rules = YokaiQuestRules(data)
    game_actions = [rules.version.action(action) for action in ACTIONS]  # each as the pinned version published it
    return Ruleset(data, [a for a in DECK_ACTIONS if a.name not in own] + game_actions, rules=rules, setup=rules.version.action(SET_UP),
                   views=VIEWS)
