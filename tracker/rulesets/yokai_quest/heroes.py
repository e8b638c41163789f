"""A hero's activation: abilities and items (costs paid, then effects), token losses, and the
end of the activation, which removes one altered state of each type and one reload from each ability."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.yokai_quest import activation, combat, energy, entrance, lookup, treasure, verdict
from tracker.rulesets.yokai_quest.plan import Plan


def require_revival_item(data: Mapping[str, Any]) -> None:
    """Refuse, at load, rules data whose revival item (hero_rules.defeat.revival_item, which use-item reads) is not the
    treasure card it marks as bringing heroes back (revives: Ikikaeru Rōsoku, L473 "The hero returns with half the
    maximum health points at the hero entrance point"), nor the only one: the service revives with that one item."""
    named = data["hero_rules"]["defeat"]["revival_item"]
    marked = sorted(item["name"] for deck in data["decks"] for item in deck.get("known_cards") or [] if item.get("revives"))
    if marked != [named]:
        raise RulesDataError(f"hero_rules.defeat.revival_item is {named}, but the treasure cards marked revives are {marked or 'none'}")


def use_ability(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_scene()
    hero_id = params["hero"]
    hero = plan.hero(hero_id)
    abilities = lookup.hero_abilities(ctx.ruleset.data, hero_id)
    ability = params["ability"]
    if ability not in abilities:
        raise Unprocessable(
            f"{hero_id} has no ability '{ability}'",
            detail=f"{hero_id}'s abilities (own and class): {wording.listed(sorted(abilities))}.",
            errors={"ability": [f"Unknown for {hero_id}: {ability}"]},
        )
    ctx.ruleset.rules.version.require_chosen(hero_id, hero, ability, abilities)  # the heroes chose four from 1.1.0 (versions.py)
    if hero["reload"].get(ability):
        raise Unprocessable(
            f"{abilities[ability]} is reloading",
            detail=f"It has {hero['reload'][ability]} reload token(s); one comes off at the end of each of {hero_id}'s activations.",
        )
    ctx.ruleset.rules.version.activation_used(plan, hero_id, "ability", ability, params, abilities[ability])
    energy.spend(plan, hero_id, params.get("energy", 0), abilities[ability])
    if params.get("health"):
        combat.lose(plan, hero_id, params["health"], 0, None, abilities[ability])
    reload_after = ctx.ruleset.rules.version.reload_reduced(hero_id, hero, params.get("reduce_reload", {}))
    plan.add(
        {
            "kind": "ability-used",
            "hero": hero_id,
            "ability": ability,
            "energy": params.get("energy", 0),
            "reload": params.get("reload", 0),
            "reload_after": reload_after,
            "empowered": params.get("empowered", False),
        }
    )
    _effects(plan, params, abilities[ability])
    verdict.settle(plan)
    return plan.changes


def require_chosen(hero_id: str, hero: Mapping[str, Any], ability: str, abilities: Mapping[str, str]) -> None:
    """An ability used must be one of the four the hero chose when prepared (L145; rules 1.1.0 on: versions.py)."""
    chosen = hero.get("abilities", [])
    if ability not in chosen:
        raise Unprocessable(
            f"{abilities[ability]} is not among {hero_id}'s four chosen abilities",
            detail=f"Chosen when the heroes were prepared (L145): {chosen}." if chosen else
            f'No abilities were chosen for {hero_id}: state them when the scene starts, "setup": {{"abilities": {{"{hero_id}": [four ids]}}}}.',
            errors={"ability": [f"Not chosen: {ability}"]},
        )


def reload_reduced(hero_id: str, hero: Mapping[str, Any], reduce: Mapping[str, int]) -> dict[str, int]:
    """The reload tokens left on each ability named in ``reduce_reload``; a name not reloading is a mistake to fix, not
    an effect to drop silently (rules 1.1.0 on: versions.py)."""
    reload_after = {}
    for other, amount in reduce.items():
        if other not in hero["reload"]:
            raise Unprocessable(
                f"{hero_id}'s '{other}' has no reload tokens to remove",
                detail=f"Abilities with reload tokens: {hero['reload'] or 'none'}.",
                errors={"reduce_reload": [f"Not reloading: {other}"]},
            )
        reload_after[other] = max(0, hero["reload"][other] - amount)
    return reload_after


def reload_reduced_dropping(hero: Mapping[str, Any], reduce: Mapping[str, int]) -> dict[str, int]:
    """The reload tokens left as rules data 1.0.0 reckoned them: a name with no reload tokens was dropped."""
    return {other: max(0, hero["reload"][other] - amount) for other, amount in reduce.items() if other in hero["reload"]}


def use_item(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_scene()
    hero_id, item = params["hero"], params["item"]
    hero = plan.hero(hero_id)
    kind = lookup.item_kind(ctx.ruleset, ctx.deck(treasure.DECK).kind_of, item)
    in_hand = item in hero["hand"]
    slots = ctx.ruleset.data["hero_rules"]["equipment_slots"]  # the panel's equipment spaces (L289)
    if kind == "consumable" and not in_hand or kind in slots and hero["equipped"].get(kind) != item or kind is None:
        raise Unprocessable(
            f"{hero_id} cannot use '{item}'",
            detail=f"Consumables are used from the hand, charms and enchantments from their panel space. In hand: {hero['hand']}; equipped: {hero['equipped']}.",
            errors={"item": ["Not in hand or equipped."]},
        )
    per_turn = plan.ctx.ruleset.data["hero_rules"]["consumable_resource_per_turn"]
    if params.get("consumable_resource") and plan.game["consumable_used_this_turn"].count(hero_id) >= per_turn:
        raise Unprocessable(f"{hero_id} has used the consumable resource this turn", detail="A hero can use this resource once a turn (L414).")
    revive = params.get("revive")
    revival_item = plan.ctx.ruleset.data["hero_rules"]["defeat"]["revival_item"]  # the item that brings a hero back (L473)
    if revive and item != revival_item:
        raise Unprocessable(f"'{item}' does not bring heroes back", detail=f"Only {revival_item} revives a defeated hero.")
    if item == revival_item and not revive:
        raise Unprocessable(f"Say which defeated hero {revival_item} brings back", detail='Send "revive": <hero>.', errors={"revive": ["Missing."]})
    ctx.ruleset.rules.version.activation_used(plan, hero_id, "item", item, params, item)
    energy.spend(plan, hero_id, params.get("energy", 0), item)
    consumed = kind == "consumable"
    plan.add(
        {
            "kind": "item-used",
            "hero": hero_id,
            "item": item,
            "consumed": consumed,
            "energy": params.get("energy", 0),
            "consumable_resource": params.get("consumable_resource", False),
            "empowered": params.get("empowered", False),
        }
    )
    if consumed:
        treasure.discard_to_deck(plan, hero_id, [item])
    if revive:
        target = plan.hero(revive, standing=False)
        if not target["defeated"]:
            raise Unprocessable(f"{revive} is not defeated", detail=f"{revival_item} brings back a defeated hero.")
        # "returns with half the maximum health points" (L473); the rounding is not stated: the data says which it takes
        rounding = plan.ctx.ruleset.data["hero_rules"].get("revival_rounding", "up")
        health = (math.ceil if rounding == "up" else math.floor)(target["max_health"] / 2)
        plan.add({"kind": "hero-revived", "hero": revive, "by": hero_id, "item": item, "health": health})
    _effects(plan, params, item)
    return plan.changes


def _effects(plan: Plan, params: Mapping[str, Any], source: str) -> None:
    for target, amount in params.get("heal", {}).items():
        heal(plan, target, amount, source)
    for target, amount in params.get("restore_energy", {}).items():
        plan.hero(target)
        energy.gain(plan, target, amount, source)
    if params.get("treasure_tokens"):
        treasure.add_tokens(plan, params["treasure_tokens"], source)


def heal(plan: Plan, hero_id: str, amount: int | str, source: str) -> None:
    hero = plan.hero(hero_id)
    health = hero["max_health"] if amount == "all" else min(hero["max_health"], hero["health"] + amount)
    if health != hero["health"]:
        plan.add({"kind": "health-recovered", "hero": hero_id, "amount": health - hero["health"], "health": health, "reason": source})


def lose_tokens(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Health or energy lost outside an attack: Facemelter solo!, Purple gas, Extreme heat."""
    plan = Plan(ctx)
    plan.require_scene()
    hero = plan.hero(params["hero"])
    lost_energy = params.get("energy", 0)
    if lost_energy > hero["energy"]:
        raise Unprocessable(f"{params['hero']} has only {hero['energy']} energy", detail="Choose health instead.")
    combat.lose(plan, params["hero"], params.get("health", 0), lost_energy, params.get("panel_discard"), params["source"])
    verdict.settle(plan)
    return plan.changes


def move(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The activation's one basic movement (L398 "a basic movement of up to three squares"), or a run, which costs one
    action (L404 "The hero can spend one action to make a movement equal to their \"run\" attribute"). A hero waiting at
    the entrance point enters the board with its basic movement, and only with it (L214, entrance.py)."""
    plan = Plan(ctx)
    plan.require_scene()
    hero_id, movement = params["hero"], params["movement"]
    plan.hero(hero_id)
    ctx.ruleset.rules.version.require_movements(ctx)
    if movement == "basic":
        activation.basic_movement(plan, hero_id)
    else:
        activation.take_action(plan, hero_id, "run", activation.rules(ctx.ruleset.data)["action_costs"]["run"]["actions"], "run")
    source = "L398" if movement == "basic" else "L404"
    moved = {"kind": "hero-moved", "hero": hero_id, "movement": movement, "source": source}
    if movement == "basic" and entrance.waiting(plan.game, hero_id):
        # L214 "heroes are only allowed to make a basic movement (up to three squares) when entering the scene"
        moved.update(entered=True, source="L214")
    plan.add(moved)
    return plan.changes


def end_activation(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """L160 "once a hero moves and completes its two actions, the player removes an altered state token of each type
    affecting the hero, as well as a reload token from each of the hero's skills with this kind of tokens"."""
    plan = Plan(ctx)
    plan.require_scene()
    hero = plan.hero(params["hero"])
    ctx.ruleset.rules.version.end_activation(plan, params["hero"])
    hero = plan.game["heroes"][params["hero"]]
    plan.add(
        {
            "kind": "activation-ended",
            "hero": params["hero"],
            "states_removed": sorted(state for state, count in hero["altered_states"].items() if count),
            "reload_removed": sorted(ability for ability, count in hero["reload"].items() if count),
        }
    )
    return plan.changes
