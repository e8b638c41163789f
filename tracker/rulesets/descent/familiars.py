"""Familiars (L187-L188, L198-L206) and the Aura a Bottle Imp carries (L289), where they change what the tracker holds.

- Sharr the Brightwing (L200): a friendly figure she ends her movement with recovers 2 wounds (wounds.recover, source
  "sharr"); an activated dark glyph she ends her movement on "is removed from the board and replaced with an activated
  normal glyph": sharr-cleanses-glyph.
- The Bottle Imp (L188) "has the Aura ability": "Enemy figures that move into a space adjacent to a figure with Aura
  suffer 1 wound that cannot be reduced by armor" (L289), and a figure with Ironskin is immune to Aura (L305):
  aura-wound, which serves any figure with Aura.
- The Shadow Soul (L201-L206) only moves on the map: the rules data says so and the tracker records nothing of it.
Fog (L170) is line of sight on the map, likewise published in the rules data and not tracked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent import attack_abilities, combat, conquest
from tracker.rulesets.descent.common import NAME, refuse, schema
from tracker.rulesets.descent.figures import combat_rules, require_figure
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

DARK = ("summoning", "sundered", "power")


def _familiars(ctx: ActionContext) -> Mapping[str, Any]:
    ctx.ruleset.rules.version.require(ctx, "abilities", "This campaign's rules data records no familiars", "Familiars are recorded", "type")
    return ctx.ruleset.data["familiars"]


def cleanse(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    # L200: "If Sharr ends her movement in the same space as an activated dark glyph, that dark glyph is removed from the board
    # and replaced with an activated normal glyph", where the data's Sharr cleanses one (cleanses_activated_dark_glyph)
    if not _familiars(ctx)["sharr-the-brightwing"].get("cleanses_activated_dark_glyph"):
        raise refuse("Sharr cleanses no dark glyph in this campaign's rules data", "Its Sharr the Brightwing does not cleanse an activated dark glyph (L200).", "type")
    glyph = params["glyph"]
    if glyph not in ctx.game["glyphs_activated"]:
        raise refuse(f"No activated {glyph} dark glyph is on the map", f"Sharr cleanses an activated dark glyph (L200); activated: {ctx.game['glyphs_activated'] or 'none'}.", "glyph")
    return [{"kind": "dark-glyph-cleansed", "glyph": glyph, "by": "sharr-the-brightwing"}]


def aura_wound(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    _familiars(ctx)
    rule = combat_rules(ctx)["aura"]
    side, figure = require_figure(ctx, params["figure"], "figure")
    if "ironskin" in (figure.get("abilities") or {}) or "ironskin" in {a.lower() for a in params.get("figure_abilities", [])}:
        raise refuse(f"{params['figure']} has Ironskin: Aura does not wound it", "A figure with Ironskin is immune to Aura (L305).", "figure")
    before = figure.get("wounds")
    left = max(0, before - rule["wounds"]) if before is not None else None
    changes: list[dict[str, Any]] = [{"kind": "aura-wounded", "figure": params["figure"], "side": side, "by": params["by"], "wounds": rule["wounds"],
                                      "wounds_before": before, "wounds_left": left}]
    if side == "hero" and params.get("on_corrupted"):  # L171: a wound lost on corrupted terrain gives the overlord 2 threat
        per = combat_rules(ctx)["corrupted_terrain"]["threat_per_wound"]
        changes.append({"kind": "threat-gained", "amount": per * rule["wounds"], "source": "corrupted-terrain-wounds", "count": rule["wounds"], "hero": params["figure"]})
    if left == 0:
        if side == "hero":
            changes += conquest.hero_killed(ctx, {"hero": params["figure"], **(params.get("death") or {})}, rng)
        else:
            of_target = dict(figure.get("abilities") or {})
            undying = attack_abilities.undying(ctx, {"target": params["figure"], "undying_face": params.get("undying_face")}, side, figure, of_target, True, rng)
            changes += undying
            if not (undying and undying[-1]["restored"]):
                changes.append({"kind": "monster-killed", "figure": params["figure"], "monster": figure["monster"], "by": params["by"]})
    elif params.get("undying_face") is not None:
        raise refuse("Only a figure the wound kills rolls for Undying", "Leave undying_face out (L321).", "undying_face")
    return changes


ACTIONS = [
    ActionType("sharr-cleanses-glyph", "Sharr the Brightwing ends her movement on an activated dark glyph: it is replaced with an activated normal glyph (L200).",
               schema({"glyph": {"enum": list(DARK)}}, ["glyph"]), cleanse, random=False),
    ActionType("aura-wound", "A figure moves next to an enemy with Aura (a Bottle Imp, L188, or a monster): it suffers 1 wound that armour cannot reduce (L289); Ironskin is immune (L305).",
               schema({"figure": NAME, "by": NAME, "on_corrupted": {"type": "boolean"}, "undying_face": {"enum": ["blank", "surge", "enhancement"]},
                       "figure_abilities": {"type": "array", "items": NAME, "maxItems": 20}, "death": combat.DEATH}, ["figure", "by"]), aura_wound, random=True),
]
