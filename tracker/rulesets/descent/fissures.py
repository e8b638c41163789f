"""The Mists of Time's fissures (L596-L597): at the start of each overlord turn a yellow die per fissure moves it to the
position its range shows, until a door to Zone 2 is opened and they become normal pits. A figure a fissure opens
under takes 1 wound ignoring armour, one it closes over is killed outright: which figures those are is on the map,
so the table records them (hero-killed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.descent.common import NAME, quest, refuse, require_hero, schema
from tracker.rulesets.descent.zorek import range_of
from tracker.rulesets.engine.ruleset import ActionContext, ActionType


def rules(ctx: ActionContext) -> Mapping[str, Any]:
    q = quest(ctx)
    if "fissures" not in q:
        raise refuse(f"{q['name']} has no fissures", "Only The Mists of Time has them (L596).", "type")
    return q["fissures"]


def move(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rule = rules(ctx)
    state = ctx.game.get("fissures") or {"stilled": False, "turns": []}
    if state["stilled"]:
        raise refuse("The fissures are normal pits now", "A door to Zone 2 was opened: the rumbling stopped (L597).", "type")
    turn = ctx.state["turn"]
    if turn in state["turns"]:
        raise refuse(f"The fissures already moved on turn {turn}", "They move once, at the start of each overlord turn (L596).", "type")
    faces = params.get("faces")
    if faces is not None and len(faces) != rule["count"]:
        raise refuse(f"Roll one yellow die for each of the {rule['count']} fissures", f"Reported {len(faces)}.", "faces")
    rolled = dice.roll_change(ctx.dice, {rule["die"]: rule["count"]}, {rule["die"]: faces} if faces is not None else None, rng, "the fissures")
    positions = [range_of(face) for face in rolled["roll"]["results"][rule["die"]]]
    return [rolled, {"kind": "fissures-moved", "turn": turn, "positions": positions}]


def still(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rules(ctx)
    require_hero(ctx, params["hero"])
    if (ctx.game.get("fissures") or {}).get("stilled"):
        raise refuse("A door to Zone 2 is already open", "The fissures became normal pits then (L597).", "type")
    return [{"kind": "fissures-stilled", "hero": params["hero"], "door": params["door"]}]


ACTIONS = [
    ActionType("move-fissures", "The Mists of Time, start of the overlord's turn: a yellow die per fissure moves it to the position its range shows (report the faces, or the stream rolls them where the faces are known) (L596).",
               schema({"faces": {"type": "array", "items": {"type": "string", "maxLength": 20}, "minItems": 1, "maxItems": 4}}, []), move, random=True),
    ActionType("open-zone-2-door", "The Mists of Time: a hero opens a door to Zone 2; the rumbling stops and the fissures become normal pits (L597).",
               schema({"hero": NAME, "door": NAME}, ["hero", "door"]), still, random=False),
]
