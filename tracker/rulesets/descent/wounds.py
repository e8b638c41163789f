"""A hero's wounds and fatigue between attacks: fatigue spent (1 threat each on corrupted terrain, L171),
wounds recovered (Sharr's 2, L200; a potion's, as the table states it, for its effect is on page 20 of the original
Quest Guide, not in the transcription), poison tokens removed by healing first (L312)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import COUNT, NAME, refuse, require_hero, schema
from tracker.rulesets.descent.figures import combat_rules
from tracker.rulesets.engine.ruleset import ActionContext, ActionType



def spend_fatigue(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rules = combat_rules(ctx)
    hero = require_hero(ctx, params["hero"])
    if hero.get("fatigue") is not None and params["count"] > hero["fatigue"]:
        raise refuse(f"{params['hero']} has {hero['fatigue']} fatigue left, not {params['count']}", "Spend no more than is left.", "count")
    changes: list[dict[str, Any]] = [{"kind": "fatigue-spent", "hero": params["hero"], "count": params["count"], "purpose": params.get("purpose", "other")}]
    if params.get("on_corrupted"):
        per = rules["corrupted_terrain"]["threat_per_fatigue"]
        changes.append({"kind": "threat-gained", "amount": per * params["count"], "source": "corrupted-terrain-fatigue", "count": params["count"], "hero": params["hero"]})
    return changes


def recovery(ctx: ActionContext, hero_id: str, wounds: int, fatigue: int, source: str) -> dict[str, Any]:
    """What a heal restores: poison tokens go first (L312), then wounds up to the sheet's maximum where it is known."""
    hero = require_hero(ctx, hero_id)
    poison = (hero.get("tokens") or {}).get("poison", 0)
    cured = min(poison, wounds)
    gained = wounds - cured
    if hero.get("wounds") is not None and hero.get("max_wounds") is not None:
        gained = min(gained, hero["max_wounds"] - hero["wounds"])
    if hero.get("fatigue") is not None and hero.get("max_fatigue") is not None:
        fatigue = min(fatigue, hero["max_fatigue"] - hero["fatigue"])
    return {"kind": "wounds-recovered", "hero": hero_id, "wounds": gained, "fatigue": fatigue, "poison_removed": cured, "source": source}


SHARR_HEALS_L200 = 2  # L200: "that figure recovers 2 wounds" (data before 1.3.0 records no familiars)


def recover(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    combat_rules(ctx)
    if params["source"] == "sharr":
        # L200: "If Sharr ends her movement in the same space as a friendly figure, that figure recovers 2 wounds"
        # The data's figure where it records familiars (1.3.0 on); a session pinned to data before them read the line
        # itself: the same 2 (L200), stated, not a lenient default.
        heals = ctx.ruleset.data.get("familiars", {}).get("sharr-the-brightwing", {}).get("heals", SHARR_HEALS_L200)
        if params.get("wounds", heals) != heals or params.get("fatigue"):
            raise refuse(f"Sharr heals {heals} wounds (L200)", "Leave wounds and fatigue out.", "wounds")
        return [recovery(ctx, params["hero"], heals, 0, "sharr")]
    if not params.get("wounds") and not params.get("fatigue"):
        raise refuse("Say the wounds or fatigue recovered", 'Send "wounds" and/or "fatigue" as the card or effect gives them.', "wounds")
    return [recovery(ctx, params["hero"], params.get("wounds", 0), params.get("fatigue", 0), params.get("cause", params["source"]))]


ACTIONS = [
    ActionType("spend-fatigue", "A hero spends fatigue (for movement, power dice, abilities); on corrupted terrain each point gives the overlord 1 threat (L171).",
               schema({"hero": NAME, "count": COUNT, "purpose": NAME, "on_corrupted": {"type": "boolean"}}, ["hero", "count"]), spend_fatigue, random=False),
    ActionType("recover", "A hero recovers wounds or fatigue: Sharr's 2 wounds (L200), or what a card or effect gives, stated; healing removes poison tokens first (L312).",
               schema({"hero": NAME, "source": {"enum": ["sharr", "stated"]}, "cause": NAME, "wounds": {"type": "integer", "minimum": 0, "maximum": 50},
                       "fatigue": {"type": "integer", "minimum": 0, "maximum": 50}}, ["hero", "source"]), recover, random=False),
]
