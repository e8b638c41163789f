"""Energy: one energy card per hero at the start of the hero phase, 1 to 3 spheres, the reserve capped at 7.

L156 "First, all the heroes replenish energy. Each player takes a card of the Energy deck and adds the quantity of
energy tokens revealed to their hero's reserve." L158 "Then the players decide the order in which the heroes
activate." L780 "Each hero draws a card from the energy deck". Scenes set up under rules data without
hero_rules.energy_card (1.3.0 and before) took the cards on trust: there is no "energy_drawn" in their state, and the
once-a-phase check does not apply to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.yokai_quest.plan import Plan

DECK = "energy"


def at_set_up(data: Mapping[str, Any]) -> dict[str, Any]:
    """What a scene's state tracks of the energy cards (under the versions that state the once-a-phase draw, versions.py)."""
    return {"energy_drawn": []}


def gain(plan: Plan, hero_id: str, amount: int, reason: str, *, energy_card: bool = False) -> None:
    hero = plan.game["heroes"][hero_id]
    energy = min(plan.ctx.ruleset.data["hero_rules"]["energy_max"], hero["energy"] + amount)  # "Energy reserves max out at seven" (L232)
    change = {"kind": "energy-gained", "hero": hero_id, "amount": energy - hero["energy"], "offered": amount, "energy": energy, "reason": reason}
    plan.add({**change, "energy_card": True} if energy_card else change)


def require_draw_due(plan: Plan, hero_id: str) -> None:
    """One card per hero, drawn first in the Hero phase (L156, L158, L780)."""
    game = plan.game
    if game["phase"] != "hero":
        raise Unprocessable(
            "Energy cards are drawn in the Hero phase",
            detail=f"\"First, all the heroes replenish energy\" opens the Hero phase (L154-L156); turn {plan.turn} is in its Yōkai phase: "
            f"{hero_id} draws the next card in turn {plan.turn + 1}.",
            errors={"hero": [f"Not in the Hero phase: {hero_id}"]},
        )
    # "Each player takes a card" (L156): as many a Hero phase as hero_rules.energy_card.per_hero_per_hero_phase
    per_phase = plan.ctx.ruleset.data["hero_rules"]["energy_card"]["per_hero_per_hero_phase"]
    if game["energy_drawn"].count(hero_id) >= per_phase:
        raise Unprocessable(
            f"{hero_id} has drawn this Hero phase's energy card" + ("" if per_phase == 1 else f"s ({per_phase})"),
            detail=f"\"Each player takes a card of the Energy deck\" once a Hero phase (L156; \"Each hero draws a card\", L780): {hero_id}'s next "
            f"comes in turn {plan.turn + 1}. Energy an ability or item gives comes with it (\"restore_energy\"); a reserve recorded "
            "wrongly is put right with 'correct'.",
            errors={"hero": [f"Drawn this turn: {hero_id}"]},
        )
    begun = ([game["activation"]["hero"]] if game.get("activation") else []) + list(game.get("activated", []))
    if begun:
        raise Unprocessable(
            "The heroes' activations have begun: energy cards are drawn before them",
            detail="\"First, all the heroes replenish energy [...] Then the players decide the order in which the heroes activate\" "
            f"(L156-L158). Activated this turn: {', '.join(begun)}. A card the table drew but did not record is put right with "
            "'correct' (field energy), or by undoing back to the start of the phase.",
            errors={"hero": [f"Activations under way: {', '.join(begun)}"]},
        )


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
    counted = ctx.ruleset.rules.version.energy_card_due(plan, hero_id)  # once a Hero phase, from 1.4.0 (versions.py)
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
    gain(plan, hero_id, spheres, "energy card", energy_card=counted)
    if drawn and not params.get("empowerment"):
        plan.extend(decks.resolve_move(plan.decks[DECK], "discarded", drawn[-1]["cards"], "held", hero_id))
    if params.get("empowerment"):
        plan.add({"kind": "ability-used", "hero": hero_id, "ability": f"energy card: {params['empowerment']}", "reload": 0, "energy": 0, "empowered": True})
    return plan.changes
