"""Treasure: a token per defeated yōkai; at five tokens each hero draws a treasure card and the
reserve empties. A hand holds four cards at most; one equipment swap per turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.yokai_quest import lookup
from tracker.rulesets.yokai_quest.plan import Plan

DECK = "treasure"
SEARCHES = {"enchantment": ("enchantment",), "consumable": ("consumable",), "item": ("charm", "enchantment", "consumable"), "any": None}


def add_tokens(plan: Plan, count: int, reason: str) -> None:
    for _ in range(count):
        reserve = plan.game["treasure_reserve"] + 1
        plan.add({"kind": "treasure-token-added", "count": 1, "reason": reason, "reserve": reserve})
        # "Each time the treasure reserve reaches 5 tokens, each hero takes a card from the Treasure deck" (L431)
        rules = plan.ctx.ruleset.data["treasure_rules"]
        if reserve >= rules["reserve_draw_at"]:
            # "each hero takes a card" (L431; "each hero receives a card", L258): as many as treasure_rules.each_hero_draws
            heroes = [hero for hero in sorted(plan.game["heroes"]) for _ in range(rules["each_hero_draws"])]
            plan.add({"kind": "treasure-found", "heroes": heroes, "reserve_emptied": reserve})


def owe(plan: Plan, hero_id: str, reason: str, search: str | None = None, equip: bool = False) -> dict[str, Any]:
    return {"hero": hero_id, "reason": reason, "search": search, "equip": equip}


def draw_treasure(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Draw (or search for) a treasure card owed to a hero: at five tokens, or as a scene reward."""
    plan = Plan(ctx)
    if not plan.game.get("scene"):
        plan.require_scene()
    hero_id = params["hero"]
    plan.hero(hero_id, standing=False)
    owed_at = next((i for i, owed in enumerate(plan.game["treasure_owed"]) if owed["hero"] == hero_id), None)
    if owed_at is None:
        raise Unprocessable(
            f"No treasure card is owed to {hero_id}",
            detail="A hero draws a treasure card when the reserve reaches 5 tokens, or when a scene reward or achievement says so.",
        )
    owed = plan.game["treasure_owed"][owed_at]
    spec = ctx.deck(DECK)
    card = params.get("card")
    if owed["search"]:
        if not card:
            raise Unprocessable(
                f"{hero_id} searches the treasure deck: name the card taken",
                detail=f"The reward lets the hero choose a card ({owed['search']}); send \"card\".",
                errors={"card": ["Missing data for required field."]},
            )
        wanted = SEARCHES[owed["search"]]
        kind = lookup.item_kind(ctx.ruleset, spec.kind_of, card)
        if wanted is not None and kind not in wanted:
            raise Unprocessable(
                f"'{card}' is not a {owed['search']}",
                detail=f"This search takes a card of kind {wording.listed(list(wanted))}; '{card}' is {kind or 'not a known item'}.",
                errors={"card": [f"Not a {owed['search']}"]},
            )
    if card:
        _require_known_item(ctx, spec, card)
        drawn = decks.resolve_reported_draw(plan.decks[DECK], [card], holder=hero_id)
    else:
        drawn = decks.resolve_draw(plan.decks[DECK], spec.name, 1, rng, holder=hero_id)
    plan.extend(drawn)
    card = next(c for change in drawn if change["kind"] == "drawn" for c in change["cards"])
    plan.add({"kind": "treasure-card-drawn", "hero": hero_id, "card": card, "reason": owed["reason"], "owed": owed_at})
    if owed.get("equip"):
        _equip(ctx, plan, hero_id, card, free=True)
    hand = plan.game["heroes"][hero_id]["hand"]
    limit = plan.ctx.ruleset.data["hero_rules"]["hand_limit"]  # "no more than four treasure cards in hand" (L433)
    if len(hand) > limit:
        drop = params.get("discard")
        if drop not in hand:
            raise Unprocessable(
                f"{hero_id} would hold more than {limit} treasure cards",
                detail=f'Name the card to discard with "discard": one of {hand}.',
                errors={"discard": [f"Choose one of {hand}"]},
            )
        _discard(plan, hero_id, drop, "hand limit")
    elif params.get("discard"):
        _discard(plan, hero_id, params["discard"], "refused")
    return plan.changes


def _require_known_item(ctx: ActionContext, spec: Any, card: str) -> None:
    if spec.cards is not None:
        return  # the deck's own list (component data) checks it when drawn
    if lookup.item_kind(ctx.ruleset, spec.kind_of, card) is None:
        treasure = next(d for d in ctx.ruleset.data["decks"] if d["id"] == DECK)
        raise Unprocessable(
            f"'{card}' is not a treasure card the rulebook names",
            detail=f"Treasure cards: {wording.listed([item['name'] for item in treasure['known_cards']])}.",
            errors={"card": [f"Unknown treasure card: {card}"]},
        )


def discard_item(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Refuse or discard a treasure card from hand or from a panel space."""
    plan = Plan(ctx)
    plan.hero(params["hero"], standing=False)
    _discard(plan, params["hero"], params["card"], params.get("reason", "refused"))
    return plan.changes


def _discard(plan: Plan, hero_id: str, card: str, reason: str) -> None:
    hero = plan.game["heroes"][hero_id]
    if card in hero["hand"]:
        where = "hand"
    else:
        where = next((slot for slot, held in hero["equipped"].items() if held == card), None)
        if where is None:
            raise Unprocessable(
                f"{hero_id} holds no '{card}'",
                detail=f"In hand: {hero['hand']}; equipped: {hero['equipped']}.",
                errors={"card": [f"Not held: {card}"]},
            )
    plan.add({"kind": "treasure-card-discarded", "hero": hero_id, "card": card, "from": where, "reason": reason})
    discard_to_deck(plan, hero_id, [card])


def discard_to_deck(plan: Plan, hero_id: str, cards: list[str]) -> None:
    held = plan.decks[DECK]["held"].get(hero_id, [])
    tracked = [card for card in cards if card in held]
    if tracked:
        plan.extend(decks.resolve_move(plan.decks[DECK], "discarded", tracked, "held", hero_id))


def equip(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Move an item from hand to its panel space; swapping out an equipped item is allowed once per turn."""
    plan = Plan(ctx)
    plan.require_scene()
    plan.hero(params["hero"])
    _equip(ctx, plan, params["hero"], params["card"], free=False)
    return plan.changes


def _equip(ctx: ActionContext, plan: Plan, hero_id: str, card: str, free: bool) -> None:
    hero = plan.game["heroes"][hero_id]
    if card not in hero["hand"]:
        raise Unprocessable(f"{hero_id} has no '{card}' in hand", detail=f"In hand: {hero['hand']}.", errors={"card": ["Not in hand."]})
    slot = lookup.item_kind(ctx.ruleset, ctx.deck(DECK).kind_of, card)
    # L289 "Equipment: two spaces, one for each of the equipped enchantment and trinket": hero_rules.equipment_slots
    slots = ctx.ruleset.data["hero_rules"]["equipment_slots"]
    if slot not in slots:
        raise Unprocessable(
            f"'{card}' cannot be equipped",
            detail=f"Only {wording.listed([f'{s}s' for s in slots])} go on the control panel; '{card}' is {slot or 'of unknown kind'}.",
            errors={"card": ["Not equipment."]},
        )
    swapping = hero["equipped"].get(slot) is not None
    per_turn = plan.ctx.ruleset.data["hero_rules"]["equipment_swaps_per_turn"]
    if swapping and not free and plan.game["swapped_this_turn"].count(hero_id) >= per_turn:
        raise Unprocessable(
            f"{hero_id} has already swapped equipment this turn",
            detail="An equipped item may be swapped for one in hand only once per turn (L435).",
        )
    plan.add({"kind": "item-equipped", "hero": hero_id, "card": card, "slot": slot, "replaced": hero["equipped"].get(slot)})


def unequip(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_scene()
    hero = plan.hero(params["hero"])
    card = params["card"]
    slot = next((s for s, held in hero["equipped"].items() if held == card), None)
    if slot is None:
        raise Unprocessable(f"{params['hero']} has no '{card}' equipped", detail=f"Equipped: {hero['equipped']}.")
    limit = plan.ctx.ruleset.data["hero_rules"]["hand_limit"]
    if len(hero["hand"]) >= limit:
        raise Unprocessable(
            f"{params['hero']}'s hand is full",
            detail=f"A hand holds at most {limit} treasure cards: discard one first.",
        )
    plan.add({"kind": "item-unequipped", "hero": params["hero"], "card": card, "slot": slot})
    return plan.changes
