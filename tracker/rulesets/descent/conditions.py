"""Frost, invulnerability potions (L181–L188, L194–L197, L220, L247)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice, wording
from tracker.rulesets.descent.common import AMOUNT, COUNT, NAME, plays_only, refuse, require_hero, schema
from tracker.rulesets.descent.wounds import recovery
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

_POTION = {"enum": ["invulnerability", "healing", "vitality"]}
_STOW = {"to": {"enum": ["equipped", "pack"]}, "pack_items": {"type": "integer", "minimum": 0, "maximum": 3}}
_FACES = {"type": "array", "items": {"enum": ["blank", "surge", "enhancement"]}, "minItems": 1, "maxItems": 100}


def gain_frost(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    require_hero(ctx, params["hero"])
    return [{"kind": "frost-gained", "hero": params["hero"], "count": params["count"]}]


def _frost_roll(ctx: ActionContext, params: Mapping[str, Any], rng: Any, purpose: str, per_token: int = 1) -> tuple[dict[str, Any], list[str]]:
    hero = require_hero(ctx, params["hero"])
    if hero["frost"] == 0:
        raise refuse(f"{params['hero']} has no frost tokens", "Frost rolls are made only with frost tokens.", "hero")
    count = hero["frost"] * per_token
    faces = {"power": params["faces"]} if params.get("faces") is not None else None
    if faces and len(params["faces"]) != count:
        dice_each = "one power die" if per_token == 1 else f"{per_token} power dice"
        raise refuse(f"Roll {dice_each} per frost token ({count})", f"Reported {len(params['faces'])}.", "faces")
    rolled = dice.roll_change(ctx.dice, {"power": count}, faces, rng, purpose)
    return rolled, rolled["roll"]["results"]["power"]


def frost_turn_start(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Start of the hero's turn: "he must roll a power die for each frost token on the hero. For each power surge rolled,
    one frost token is discarded" (L195), as many dice and tokens as the frost data says."""
    rule = ctx.ruleset.data["frost"]
    rolled, faces = _frost_roll(ctx, params, rng, "frost at turn start", rule["start_of_turn_dice_per_token"])
    shaken = min(require_hero(ctx, params["hero"])["frost"], faces.count("surge") * rule["surge_removes"])
    return [rolled] + ([{"kind": "frost-shaken", "hero": params["hero"], "count": shaken}] if shaken else [])


def frost_check(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """After a weapon attack, a shield exhausted, or an attack of 5+ wounds before armour: any blank shatters the item."""
    trigger = params["trigger"]
    # a weapon attack, a shield exhausted, an attack of 5+ wounds before armour (L195-L197, L220): the data's checks
    if trigger not in ctx.ruleset.data["frost"]["checks"]:
        raise refuse(f"Frost is not checked after {trigger}", f"It is checked after: {wording.listed(ctx.ruleset.data['frost']['checks'])}.", "trigger")
    if trigger == "armour-hit" and params.get("wounds_before_armour", 0) < ctx.ruleset.data["frost"]["armour_check_wounds_at_least"]:
        raise refuse("Frosted armour is checked only against 5 or more wounds before armour", 'Send "wounds_before_armour".', "wounds_before_armour")
    rolled, faces = _frost_roll(ctx, params, rng, f"frost check: {trigger}")
    changes = [rolled]
    # L195: "If any power die rolls a blank, the weapon used to make the attack is shattered and discarded" (blank_shatters)
    if ctx.ruleset.data["frost"]["blank_shatters"] and "blank" in faces:
        changes.append({"kind": "item-shattered", "hero": params["hero"], "item": params["item"], "trigger": trigger})
    return changes


def _stow(ctx: ActionContext, params: Mapping[str, Any], count: int, source: str) -> dict[str, Any]:
    """Where a new potion goes (L184): equipped for free while the hero has fewer than three equipped potions, else into
    the pack while it holds fewer than three unequipped items. The pack's other items are not in the log: the table
    states how many it holds ("pack_items")."""
    require_hero(ctx, params["hero"])
    return ctx.ruleset.rules.version.stow_potion(ctx, params, count, source)  # rules data 1.0.0 kept no limit (versions.py)


def stowed_within_limits(ctx: ActionContext, params: Mapping[str, Any], count: int, source: str) -> dict[str, Any]:
    """Where a new potion goes under the limits of L184 (rules 1.1.0 on: versions.py)."""
    hero = require_hero(ctx, params["hero"])
    rules = ctx.ruleset.data["potions"]
    if params.get("to", "equipped") == "equipped":
        equipped = sum(hero["potions"].values())
        if equipped + count > rules["max_equipped"]:
            raise refuse(f"{params['hero']} has {equipped} equipped potions: at most {rules['max_equipped']} (L184)",
                         'Put it in the pack ("to": "pack", with "pack_items": the unequipped items the pack holds now) or leave it.', "to")
        return {"kind": "potion-gained", "hero": params["hero"], "potion": params["potion"], "count": count, "source": source}
    held = params.get("pack_items")
    if held is None:
        raise refuse("Say how many unequipped items the pack holds", f'The log does not track the pack\'s other items; send "pack_items" (it holds at most {rules["pack_holds"]}, L184).', "pack_items")
    if held + count > rules["pack_holds"]:
        raise refuse(f"The pack holds at most {rules['pack_holds']} unequipped items (L184)", f"It holds {held}.", "pack_items")
    return {"kind": "potion-packed", "hero": params["hero"], "potion": params["potion"], "count": count, "pack_items_before": held, "source": source}


def gain_potion(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    return [_stow(ctx, params, params.get("count", 1), params.get("source", "picked up"))]


def buy_potion(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A potion bought in town at its price: a vitality potion costs 50 coins, not 25 (L257); the other prices are not
    transcribed and are stated."""
    hero = require_hero(ctx, params["hero"])
    price = ctx.ruleset.data["potions"]["prices"].get(params["potion"])
    if price is not None and params.get("price") not in (None, price):
        raise refuse(f"A {params['potion']} potion costs {price} coins, not {params['price']}", "Leave price out (L257).", "price")
    if price is None:
        if params.get("price") is None:
            raise refuse(f"Say the price of a {params['potion']} potion", "It is not in the transcription; send \"price\" as your Quest Guide gives it.", "price")
        price = params["price"]
    if price > hero["coins"]:
        raise refuse(f"{params['hero']} has {hero['coins']} coins, not {price}", "Heroes may not give each other money.", "price")
    return [{"kind": "coins-changed", "hero": params["hero"], "amount": -price, "reason": f"bought a {params['potion']} potion"},
            _stow(ctx, params, 1, "bought in town")]


def check_rules_data(data: Mapping[str, Any]) -> None:
    """Potions as the game state keeps them (the turn a hero last drank one), refused at load otherwise (issue 31)."""
    # L247: "Each hero may only drink one potion (of any type) each turn" (and L186)
    plays_only(data, "potions.per_hero_per_turn", data["potions"].get("per_hero_per_turn"), 1,
               "'Each hero may only drink one potion (of any type) each turn' (L186, L247): the state keeps the turn of his last")


def drink_potion(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    hero = require_hero(ctx, params["hero"])
    turn = ctx.state["turn"]
    if hero["potions"].get(params["potion"], 0) < 1:
        raise refuse(f"{params['hero']} has no {params['potion']} potion", f"Potions: {hero['potions']}.", "potion")
    if hero["potion_drunk_turn"] == turn:
        raise refuse(f"{params['hero']} already drank a potion this turn", "One potion of any type per hero per turn (L186, L247).", "potion")
    drunk: list[dict[str, Any]] = [{"kind": "potion-drunk", "hero": params["hero"], "potion": params["potion"], "turn": turn}]
    if params.get("recovers"):  # what a healing or vitality potion restores is on page 20 of the original Quest Guide: stated
        drunk.append(ctx.ruleset.rules.version.potion_recovery(ctx, params))  # wounds and fatigue are recorded from 1.2.0 on (versions.py)
    return drunk


def no_recovery(params: Mapping[str, Any]) -> Exception:
    """The refusal of a recovery the potion, or the version's rules, do not record."""
    return refuse(f"A {params['potion']} potion records no recovery here", "Leave recovers out.", "recovers")


def recovered(ctx: ActionContext, params: Mapping[str, Any]) -> dict[str, Any]:
    """What a healing or vitality potion restores, as the table states it (the rules that record wounds: versions.py)."""
    if params["potion"] == "invulnerability":
        raise no_recovery(params)
    return recovery(ctx, params["hero"], params["recovers"].get("wounds", 0), params["recovers"].get("fatigue", 0), f"{params['potion']} potion")


def use_invulnerability(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    hero = require_hero(ctx, params["hero"])
    if not hero["invulnerable"]:
        raise refuse(f"{params['hero']} has no invulnerability potion in effect", "Drink one first; drinking another potion cancels it.", "hero")
    armour = ctx.ruleset.data["potions"]["invulnerability_armor"]
    return [{"kind": "invulnerability-used", "hero": params["hero"], "armour_bonus": armour}]


ACTIONS = [
    ActionType("gain-frost", "A hero gains frost tokens (an attack with Frost dealt 1 or more damage before armour).", schema({"hero": NAME, "count": COUNT}, ["hero", "count"]), gain_frost, random=False),
    ActionType("frost-turn-start", "Start of a frosted hero's turn: 1 power die per frost token, each surge discards one.", schema({"hero": NAME, "faces": _FACES}, ["hero"]), frost_turn_start, random=True),
    ActionType("frost-check", "A frosted hero's item is checked: after a weapon attack, a shield exhausted, or 5+ wounds before armour; any blank shatters it.",
               schema({"hero": NAME, "item": NAME, "trigger": {"enum": ["weapon-attack", "shield-exhausted", "armour-hit"]}, "wounds_before_armour": {"type": "integer", "minimum": 0, "maximum": 100}, "faces": _FACES},
                      ["hero", "item", "trigger"]), frost_check, random=True),
    ActionType("gain-potion", "A hero picks up a potion: equipped (at most 3) or into the pack (at most 3 unequipped items).",
               schema({"hero": NAME, "potion": _POTION, **_STOW, "count": COUNT, "source": NAME}, ["hero", "potion"]), gain_potion, random=False),
    ActionType("buy-potion", "A hero buys a potion in town: a vitality potion costs 50 coins (L257); other prices are stated.",
               schema({"hero": NAME, "potion": _POTION, **_STOW, "price": AMOUNT}, ["hero", "potion"]), buy_potion, random=False),
    ActionType("drink-potion", "A hero drinks an equipped potion (1 movement point; one potion per hero per turn); a healing or vitality potion's recovery as the table states it.",
               schema({"hero": NAME, "potion": _POTION, "recovers": {"type": "object", "properties": {"wounds": {"type": "integer", "minimum": 0, "maximum": 50}, "fatigue": {"type": "integer", "minimum": 0, "maximum": 50}},
                                                                    "additionalProperties": False}}, ["hero", "potion"]), drink_potion, random=False),
    ActionType("use-invulnerability", "After an enemy's attack roll, the hero discards his invulnerability potion effect for +10 armour against that attack.", schema({"hero": NAME}, ["hero"]), use_invulnerability, random=False),
]
