"""Glyphs the monsters attack (Hold the Position, L522–L524, L567; The Altar of Despair, L686–L687): each glyph has
wounds, falls at 0, and the quest is lost when the last one is destroyed. In Hold the Position the heroes may
restore a glyph (1 movement point and 1 wound that cannot be prevented heal 1 glyph wound, up to its maximum)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.rulesets.descent.common import COUNT, NAME, quest, refuse, require_hero, schema
from tracker.rulesets.descent.combat import DEATH
from tracker.rulesets.descent.harm import deaths_after
from tracker.rulesets.engine.ruleset import ActionContext, ActionType


def rules(ctx: ActionContext) -> Mapping[str, Any]:
    q = quest(ctx)
    glyphs = q.get("glyphs") or {}
    if "wounds" not in glyphs:
        raise refuse(f"The glyphs of {q['name']} cannot be attacked", "Only Hold the Position and The Altar of Despair give glyphs wounds.", "type")
    return glyphs


def _remaining(ctx: ActionContext, glyph: str, maximum: int) -> int:
    state = ctx.game["glyphs"]
    if glyph in state["destroyed"]:
        raise refuse(f"Glyph '{glyph}' is already destroyed", f"Destroyed: {state['destroyed']}.", "glyph")
    if glyph not in state["wounds"] and len(state["wounds"]) + len(state["destroyed"]) >= state["count"]:
        raise refuse(f"This quest has {state['count']} glyphs", f"Name one of {wording.either(sorted(state['wounds']))}.", "glyph")
    return state["wounds"].get(glyph, maximum)


def damage_glyph(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    glyphs = rules(ctx)
    wounds = ctx.ruleset.rules.version.glyph_hit(ctx, params, glyphs)
    before = _remaining(ctx, params["glyph"], glyphs["wounds"])
    after = max(0, before - wounds)
    changes: list[dict[str, Any]] = [{"kind": "glyph-damaged", "glyph": params["glyph"], "wounds": before - after, "remaining": after}]
    if after == 0:
        state = ctx.game["glyphs"]
        destroyed = len(state["destroyed"]) + 1
        changes.append({"kind": "glyph-destroyed", "glyph": params["glyph"], "destroyed": destroyed, "of": state["count"]})
        if destroyed == state["count"] and not ctx.game.get("lost"):
            changes.append({"kind": "quest-lost", "reason": "last-glyph-destroyed", "conquest": ctx.game["conquest"]})
    return changes


def hit_as_stated(ctx: ActionContext, params: Mapping[str, Any], glyphs: Mapping[str, Any]) -> int:
    """The wounds a glyph takes: as the table states them, else the quest's wounds per attack (before rules 1.8.0, and
    where no Zorek hits: versions.py)."""
    wounds = params.get("wounds", glyphs.get("wounds_per_attack") or 0)
    if not wounds:
        raise refuse("Say how many wounds the glyph takes", f"Its armour is {glyphs.get('armor', 'as printed')}; send \"wounds\" after armour.", "wounds")
    return wounds


def zorek_hit(ctx: ActionContext, params: Mapping[str, Any], glyphs: Mapping[str, Any]) -> int:
    """Rules 1.8.0 on: in a quest where Zorek attacks the glyphs, each hit deals his ``glyph_attack_wounds``. L686: "When
    Zorek is activated, he may attack a glyph as well as activate his gaze. When he does so, he automatically hits the
    glyph of his choice, inflicting 1 wound on it." Elsewhere the wounds are as stated (Hold the Position's monsters)."""
    zorek = quest(ctx).get("zorek")
    if zorek is None:
        return hit_as_stated(ctx, params, glyphs)
    each = zorek["glyph_attack_wounds"]
    if params.get("wounds", each) != each:
        raise refuse(f"Zorek's hit inflicts {each} wound{'s' if each != 1 else ''} on a glyph, not {params['wounds']}",
                     f"He automatically hits the glyph of his choice, inflicting {each} (L686): leave wounds out.", "wounds")
    return each


def restore_glyph(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    glyphs = rules(ctx)
    if not glyphs.get("heroes_may_restore"):
        raise refuse(f"The heroes cannot heal the glyphs of {quest(ctx)['name']}", "Only in Hold the Position may heroes restore glyphs (L524, L686).", "type")
    require_hero(ctx, params["hero"])
    before = _remaining(ctx, params["glyph"], glyphs["wounds"])
    count = params.get("count", 1)
    if before + count > glyphs["wounds"]:
        raise refuse(f"A glyph has at most {glyphs['wounds']} wounds", f"Glyph '{params['glyph']}' has {before}.", "count")
    restored = [{"kind": "glyph-restored", "glyph": params["glyph"], "hero": params["hero"], "healed": count, "hero_wounds": count * glyphs["hero_wounds_per_heal"],
                 "movement_points": count * glyphs["movement_points_per_heal"], "remaining": before + count}]
    return deaths_after(ctx, restored, [params["hero"]], {params["hero"]: params.get("death")}, rng)


ACTIONS = [
    ActionType("damage-glyph", "A glyph takes wounds (monsters attacking it in Hold the Position; Zorek's automatic 1-wound hit in The Altar of Despair); at 0 it is destroyed, and the last one destroyed loses the quest.",
               schema({"glyph": NAME, "wounds": COUNT}, ["glyph"]), damage_glyph, random=False),
    ActionType("restore-glyph", "Hold the Position: a hero on a glyph spends 1 movement point and takes 1 wound (cannot be prevented) to heal 1 glyph wound, up to 25.",
               schema({"glyph": NAME, "hero": NAME, "count": COUNT, "death": DEATH}, ["glyph", "hero"]), restore_glyph, random=False),
]
