"""Descent's actions, its one ActionType list: the deck actions, then each rule's own actions, gathered from the small
modules that answer one rule each (in the order the ruleset publishes them), every one of them refused first out of its
moment of the turn (turn.py), then for a webbed hero where it spends movement points (movement.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine import correction
from tracker.rulesets.engine.deck_actions import ACTIONS as DECK_ACTIONS
from tracker.rulesets.descent import combat, conditions, conquest, crushing_trap, familiars, figure_conditions, figures, fissures, glyphs, monkey_kings, monster_turn
from tracker.rulesets.descent import movement, prisoners, prolonged, ready, secret_room, shop, spirits, summoning, temple, threat, tokens, turn, wounds, zorek
from tracker.rulesets.engine.ruleset import ActionContext, ActionType, action_schema

# The numbers on a hero's sheet the table may correct (tracker/rulesets/engine/correction.py).
CORRECTABLE = ("wounds", "fatigue", "armor", "coins", "curses", "frost")


def _correct(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    return [correction.change(ctx.game.get("heroes") or {}, params, int(ctx.state["version"]))]


CORRECT = ActionType("correct", correction.DESCRIPTION,
                     action_schema(correction.properties({"type": "string", "minLength": 1, "maxLength": 100}, CORRECTABLE, {"type": "integer", "minimum": 0, "maximum": 100}),
                                   correction.REQUIRED),
                     _correct, random=False)

OWN = [
    *threat.ACTIONS,
    *conquest.ACTIONS,
    *prolonged.ACTIONS,
    *conditions.ACTIONS,
    *shop.ACTIONS,
    *glyphs.ACTIONS,
    *summoning.ACTIONS,
    *zorek.ACTIONS,
    *prisoners.ACTIONS,
    *tokens.ACTIONS,
    *monkey_kings.ACTIONS,
    *fissures.ACTIONS,
    *temple.ACTIONS,
    *spirits.ACTIONS,
    *crushing_trap.ACTIONS,
    *secret_room.ACTIONS,
    *figures.ACTIONS,
    *figure_conditions.ACTIONS,
    *combat.ACTIONS,
    *wounds.ACTIONS,
    *ready.ACTIONS,
    *familiars.ACTIONS,
    *monster_turn.ACTIONS,
    CORRECT,
    *turn.ACTIONS,
]

# Every action refused first out of its moment of the turn (turn.py: where the version keeps the turn), then for a webbed hero.
ACTIONS = [*(turn.in_its_moment(turn.END_TURN_ACTION if action.name == turn.END_TURN else action) for action in DECK_ACTIONS),
           *(turn.in_its_moment(movement.guarded(action)) for action in OWN)]
