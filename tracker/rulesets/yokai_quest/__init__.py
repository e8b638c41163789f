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
from tracker.rulesets.yokai_quest import campaign, describe, state, yokai_phase
from tracker.rulesets.yokai_quest import outcome as decided
from tracker.rulesets.yokai_quest.actions import ACTIONS, SET_UP, SETUP_SCHEMA
from tracker.rulesets.yokai_quest.views import VIEWS


def _as_published(action: ActionType) -> ActionType:
    """The action as the pinned rules published it. Only 1.0.0's data lacks yokai_rules.coins (1.1.0 brought the Yōkai
    phase, with actions it did not have): under it an action is the 1.0.0 contract's or none, and reads only the
    parameters that contract's schema gave it, as 1.0.0's resolvers did (tracker/rulesets/versions/yokai-quest/)."""

    def resolve(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        if yokai_phase.kept(ctx.ruleset.data):
            return action.resolve(ctx, params, rng)
        schemas = {a["type"]: a["schema"] for a in ctx.ruleset.published["actions"]}
        if action.name not in schemas:
            raise Unprocessable(
                f"Yōkai Quest {ctx.ruleset.data['version']} has no '{action.name}' action",
                detail=f"This campaign plays the rules it was created with; their actions: {sorted(n for n in schemas if n != SET_UP.name)}.",
            )
        read = schemas[action.name].get("properties")
        return action.resolve(ctx, params if read is None else {k: v for k, v in params.items() if k in read}, rng)

    return replace(action, resolve=resolve)


def _played_before(game: Mapping[str, Any]) -> bool:
    """A scene set up under 1.0.0 (no Yōkai phase in its state) is carried on by the rules it was played under."""
    return bool(game) and not yokai_phase.tracked(game)


class YokaiQuestRules(GameRules):
    changes = state.CHANGES
    actor_fields = ("hero", "attacker")
    setup_schema = SETUP_SCHEMA
    # lookup.py: a hero's Health is needed from the set-up on (L278-L280); the table may state it there.
    lost_fact_uses = {"hero.health": {"quest_setup": True, "per_use": 'state it when the session starts: "setup": {"health": {"<hero>": n}}'}}

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.options_schema = campaign.options_schema([story["id"] for story in data["stories"]])

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


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Yōkai Quest's ruleset over its data (an archived version's when given): carry-over and end refusals read it."""
    data = rules_data.load(Path(__file__).with_name("ruleset.json")) if data is None else data
    own = {action.name for action in ACTIONS}
    game_actions = [_as_published(action) for action in ACTIONS]
    return Ruleset(data, [a for a in DECK_ACTIONS if a.name not in own] + game_actions, rules=YokaiQuestRules(data), setup=_as_published(SET_UP),
                   views=VIEWS)
