"""Yōkai Quest: its rules data and pure resolvers.

A quest of the tracker is one scene; a story is a chain of scenes (the data's "stories"), and the
campaign's chain is the stories' scenes in the narrated order, or one story on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dataclasses import replace

from tracker.errors import Unprocessable
from tracker.rulesets import data as rules_data
from tracker.rulesets.deck_actions import ACTIONS as DECK_ACTIONS
from tracker.rulesets.ruleset import ActionContext, ActionType, GameRules, Ruleset
from tracker.rulesets.yokai_quest import allowed as next_actions
from tracker.rulesets.yokai_quest import campaign, describe, state
from tracker.rulesets.yokai_quest import outcome as decided
from tracker.rulesets.yokai_quest.actions import ACTIONS, SET_UP, SETUP_SCHEMA
from tracker.rulesets.yokai_quest.events import EVENTS
from tracker.rulesets.yokai_quest.published_1_0 import actions as actions_1_0
from tracker.rulesets.yokai_quest.published_1_0 import campaign as campaign_1_0
from tracker.rulesets.yokai_quest.views import VIEWS

# Resolvers as published with earlier rules data, by its version: sessions pinned to it re-derive as they were played.
PUBLISHED = {"1.0.0": {a.name: a for a in [*actions_1_0.ACTIONS, actions_1_0.SET_UP]}}


def _played_before(game: Mapping[str, Any]) -> bool:
    """A scene set up under 1.0.0 (no Yōkai phase in its state) is carried on by the rules it was played under."""
    return bool(game) and "phase" not in game


def _by_version(action: ActionType) -> ActionType:
    """The action's resolver for the rules data the session pinned: the published one for an earlier version."""

    def resolve(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        published = PUBLISHED.get(ctx.ruleset.data["version"])
        if published is None:
            return action.resolve(ctx, params, rng)
        if action.name not in published:
            raise Unprocessable(
                f"Yōkai Quest {ctx.ruleset.data['version']} has no '{action.name}' action",
                detail=f"This campaign plays the rules it was created with; their actions: {sorted(n for n in published if n != SET_UP.name)}.",
            )
        return published[action.name].resolve(ctx, params, rng)

    return replace(action, resolve=resolve)


class YokaiQuestRules(GameRules):
    events = EVENTS
    actor_fields = ("hero", "attacker")
    setup_schema = SETUP_SCHEMA
    # lookup.py: a hero's Health is needed from the set-up on (L278-L280); the table may state it there.
    lost_fact_uses = {"hero.health": {"quest_setup": True, "per_use": 'state it when the session starts: "setup": {"health": {"<hero>": n}}'}}

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.options_schema = campaign.options_schema([story["id"] for story in data["stories"]])

    def fold(self, game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        return state.fold(game, change)

    def carry_over(self, progress, game, quest, outcome, options) -> dict[str, Any]:
        rules = campaign_1_0 if _played_before(game) else campaign
        return rules.carry_over(self.data, progress, game, quest, outcome, options)

    def chain(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        return campaign.chain(data, list(data.get("campaign", {}).get("chain") or []), options)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe.line(change)

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        if _played_before(game):
            return super().allowed(quest, game, turn, actions)  # 1.0.0 kept no phases
        return next_actions.allowed_now(game, actions)

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        if _played_before(game):
            return None  # 1.0.0 recorded no verdicts: its sessions re-derive without one
        return decided.verdict(game)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        if _played_before(game):
            return None  # 1.0.0's end checked the outcome against the scene's end in carry-over (a 422)
        return decided.end_refusal(next(q for q in self.data["quests"] if q["id"] == quest), game, outcome)


def load() -> Ruleset:
    data = rules_data.load(Path(__file__).with_name("ruleset.json"))
    own = {action.name for action in ACTIONS}
    game_actions = [_by_version(action) for action in ACTIONS]
    return Ruleset(data, [a for a in DECK_ACTIONS if a.name not in own] + game_actions, rules=YokaiQuestRules(data), setup=_by_version(SET_UP),
                   views=VIEWS)
