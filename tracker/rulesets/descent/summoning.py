"""Glyphs used to travel to or from town, and the Summoning dark glyph's spawns (L122–L125).

A Sundered dark glyph cannot be used to travel. Each activation of a Summoning or Power dark glyph, and each time a
hero travels by one, gives the overlord one opportunity: Summoning lets him spawn 2 monsters of the listed kinds
(following the normal spawning rules, which the tracker does not check), Power a draw of two cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import NAME, plays_only, refuse, require_hero, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType


# L123, L125: "When this glyph is activated, as well as each time a hero uses it to move to or from town, the overlord
# may spawn 2 monsters" / "may draw two cards": the game state counts one opportunity per activation or town travel of
# a Summoning or Power glyph (state.py folds glyph-activated and town-travelled so)
TRIGGERS = ["activated", "town-travel"]
TRIGGERED = ("summoning", "power")


def check_rules_data(data: Mapping[str, Any]) -> None:
    """The dark glyphs' triggers as the fold counts them, refused at load otherwise (issue 31)."""
    for glyph in data["dark_glyphs"]:
        triggers = glyph.get("triggers")
        plays_only(data, f"dark_glyphs/{glyph['id']}.triggers", triggers if glyph["id"] in TRIGGERED else triggers or None,
                   TRIGGERS if glyph["id"] in TRIGGERED else None,
                   "a Summoning or Power glyph gives the overlord its spawn or draw when activated and at each town travel by it (L123, L125); a Sundered glyph gives none (L124)")


def _glyph(ctx: ActionContext, glyph_id: str) -> Mapping[str, Any]:
    return next(g for g in ctx.ruleset.data["dark_glyphs"] if g["id"] == glyph_id)


def town_travel(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    require_hero(ctx, params["hero"])
    glyph = params["glyph"]
    if glyph != "normal":
        if _glyph(ctx, glyph).get("town_travel") is False:
            raise refuse(f"A {glyph} dark glyph cannot be used to travel to or from town", "Only its 1 conquest token sets it apart (L124).", "glyph")
        if glyph not in ctx.game["glyphs_activated"]:
            raise refuse(f"No {glyph} glyph has been activated", "Heroes travel by activated glyphs.", "glyph")
    return [{"kind": "town-travelled", "hero": params["hero"], "glyph": glyph, "direction": params["direction"]}]


def summoning_spawn(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rule = _glyph(ctx, "summoning")
    if not ctx.game.get("glyph_triggers", {}).get("summoning"):
        raise refuse("The Summoning glyph has not been triggered", "The overlord spawns when a Summoning glyph is activated or used to travel to or from town.", "type")
    monsters = params["monsters"]
    if len(monsters) > rule["spawns"]:
        raise refuse(f"The Summoning glyph spawns at most {rule['spawns']} monsters", f"Asked: {monsters}.", "monsters")
    strangers = [m for m in monsters if m not in rule["spawn_monsters"]]
    if strangers:
        raise refuse(f"The Summoning glyph cannot spawn {', '.join(strangers)}", f"It spawns {', '.join(rule['spawn_monsters'])}.", "monsters")
    spawned = [{"kind": "monsters-spawned", "monsters": list(monsters), "source": "summoning-glyph"}]
    return spawned + ctx.ruleset.rules.version.figures_entering(ctx, [{"monster": m} for m in monsters], "summoning-glyph")


ACTIONS = [
    ActionType("town-travel", "A hero uses an activated glyph to move to or from town (not a Sundered glyph); a Summoning or Power glyph lets the overlord spawn or draw.",
               schema({"hero": NAME, "glyph": {"enum": ["normal", "summoning", "power", "sundered"]}, "direction": {"enum": ["to-town", "from-town"]}}, ["hero", "glyph", "direction"]),
               town_travel, random=False),
    ActionType("summoning-spawn", "The overlord spawns up to 2 monsters (beastmen, skeletons, bane spiders, razorwings, hellhounds, sorcerers) for a Summoning glyph's activation or use.",
               schema({"monsters": {"type": "array", "items": NAME, "minItems": 1, "maxItems": 2}}, ["monsters"]), summoning_spawn, random=False),
]
