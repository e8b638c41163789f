"""The Hall of the Monkey Kings (L492-L495): at the start of the overlord's turn, if a straight line between the two
living Monkey Kings passes through heroes, one power die decides what befalls each of them: 2 burn tokens on an
enhancement, 1 curse token on a surge, transformed into monkeys on a blank (what that does is not transcribed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.descent.common import NAME, quest, refuse, require_hero, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType


def line(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rule = quest(ctx).get("monkey_kings_line")
    if rule is None:
        raise refuse(f"{quest(ctx)['name']} has no Monkey Kings", "Only The Hall of the Monkey Kings has their line (L492).", "type")
    if ctx.game.get("lost") or ctx.game.get("won"):
        raise refuse("This quest is already decided", "The Monkey Kings' line needs both alive (L492).", "type")
    ctx.ruleset.rules.version.require_both_monkey_kings(ctx)  # L492: "(assuming both are alive)"
    turn = ctx.state["turn"]
    if turn in ctx.game.get("monkey_line_turns", []):
        raise refuse(f"The Monkey Kings' line was already rolled on turn {turn}", "It is rolled once, at the start of the overlord's turn (L492).", "type")
    heroes = list(dict.fromkeys(params["heroes"]))
    for hero in heroes:
        require_hero(ctx, hero)
    face = [params["face"]] if params.get("face") else None
    rolled = dice.roll_change(ctx.dice, {rule["die"]: 1}, {rule["die"]: face} if face else None, rng, "the Monkey Kings' line")
    result = rolled["roll"]["results"][rule["die"]][0]
    changes: list[dict[str, Any]] = [rolled, {"kind": "monkey-kings-line-struck", "turn": turn, "heroes": heroes, "result": result}]
    effect = rule[result]
    for hero in heroes:
        if "burn" in effect:
            changes.append({"kind": "condition-tokens-placed", "hero": hero, "condition": "burn", "count": effect["burn"], "source": "monkey-kings-line"})
        elif "curses" in effect:
            changes.append({"kind": "curses-gained", "hero": hero, "count": effect["curses"], "source": "monkey-kings-line"})
        else:
            changes.append({"kind": "hero-transformed", "hero": hero, "into": effect["transformed_into"]})
    return changes


ACTIONS = [
    ActionType("monkey-kings-line", "The Hall of the Monkey Kings, start of the overlord's turn: the heroes on a straight line between the two Monkey Kings; one power die (report the face, or the stream rolls it where the faces are known) gives them 2 burn, 1 curse or a monkey's shape (L492-L495).",
               schema({"heroes": {"type": "array", "items": NAME, "minItems": 1, "maxItems": 10}, "face": {"enum": ["blank", "surge", "enhancement"]}}, ["heroes"]), line, random=True),
]
