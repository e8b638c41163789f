"""Energy: one energy card per hero at the start of the hero phase, 1 to 3 spheres, the reserve capped at 7."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker import decks
from tracker.errors import Unprocessable
from tracker.rulesets.ruleset import ActionContext
from tracker.rulesets.yokai_quest.published_1_0.plan import Plan
from tracker.rulesets.yokai_quest.published_1_0.state import ENERGY_MAX

DECK = "energy"


def gain(plan: Plan, hero_id: str, amount: int, reason: str) -> None:
    hero = plan.game["heroes"][hero_id]
    energy = min(ENERGY_MAX, hero["energy"] + amount)
    plan.add({"kind": "energy-gained", "hero": hero_id, "amount": energy - hero["energy"], "offered": amount, "energy": energy, "reason": reason})


def spend(plan: Plan, hero_id: str, amount: int, reason: str) -> None:
    hero = plan.game["heroes"][hero_id]
    if amount > hero["energy"]:
        raise Unprocessable(
            f"{hero_id} has {hero['energy']} energy, not {amount}",
            detail="Costs are paid in full before an ability or item is used.",
            errors={"energy": [f"Only {hero['energy']} in the reserve."]},
        )
    if amount:
        plan.add({"kind": "energy-lost", "hero": hero_id, "amount": amount, "energy": hero["energy"] - amount, "reason": reason, "spent": True})


def draw_energy(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Digital when the campaign supplied the energy cards (each card's kind is its spheres);
    otherwise the card drawn from the physical deck is reported with its spheres."""
    plan = Plan(ctx)
    plan.require_scene()
    hero_id = params["hero"]
    plan.hero(hero_id)
    spec = ctx.deck(DECK)
    if spec.cards is not None and "spheres" not in params:
        drawn = decks.resolve_draw(plan.decks[DECK], spec.name, 1, rng, holder=hero_id)
        card = drawn[-1]["cards"][0]
        spheres = int(spec.kind_of[card] or 0)
    elif "spheres" in params:
        card = params.get("card")
        spheres = params["spheres"]
        drawn = decks.resolve_reported_draw(plan.decks[DECK], [card], holder=hero_id) if card else []
    else:
        raise Unprocessable(
            "Report the energy card drawn",
            detail='The energy cards are unknown in this campaign: send "spheres" (1-3) from the physical card, '
            'or supply the deck as component data ("components": {"decks": {"energy": {"cards": [{"name", "kind": "1"|"2"|"3"}]}}}).',
            errors={"spheres": ["Missing data for required field."]},
        )
    plan.extend(drawn)
    gain(plan, hero_id, spheres, "energy card")
    if drawn and not params.get("empowerment"):
        plan.extend(decks.resolve_move(plan.decks[DECK], "discarded", drawn[-1]["cards"], "held", hero_id))
    if params.get("empowerment"):
        plan.add({"kind": "ability-used", "hero": hero_id, "ability": f"energy card: {params['empowerment']}", "reload": 0, "energy": 0, "empowered": True})
    return plan.changes
