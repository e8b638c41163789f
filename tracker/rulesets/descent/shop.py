"""Town: treasure cards of a colour are for sale only after a chest of that colour was opened this quest;
chest treasure is sold at half value (L259–L261), each as the rules data's shop says."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import AMOUNT, NAME, plays_only, refuse, require_hero, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType


def check_rules_data(data: Mapping[str, Any]) -> None:
    """The shop's price of chest treasure as the code plays it, refused at load otherwise (issue 31)."""
    # L259: "they must carry the item back to town and sell it for half value in the town shop"
    plays_only(data, "shop.chest_treasure_sold_at", data["shop"].get("chest_treasure_sold_at"), "half",
               "chest treasure is sold 'for half value in the town shop' (L259)")


def buy_treasure(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    hero = require_hero(ctx, params["hero"])
    # L261: "Heroes can only buy treasure cards from the shop if they've previously opened at least one chest of that color"
    if ctx.ruleset.data["shop"]["buy_treasure_after_chest_of_colour"] and params["colour"] not in ctx.game["shop_unlocked"]:
        raise refuse(f"No {params['colour']} chest has been opened this quest", f"{params['colour'].capitalize()} treasure is for sale only after one has (L261).", "colour")
    if params["price"] > hero["coins"]:
        raise refuse(f"{params['hero']} has {hero['coins']} coins, not {params['price']}", "Heroes may not give each other money.", "price")
    return [{"kind": "treasure-bought", "hero": params["hero"], "card": params["card"], "colour": params["colour"], "coins": -params["price"]}]


def sell_chest_treasure(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    hero = require_hero(ctx, params["hero"])
    if params["card"] not in hero["items"]:
        raise refuse(f"{params['hero']} carries no '{params['card']}'", f"Items: {hero['items']}.", "card")
    return [{"kind": "treasure-sold", "hero": params["hero"], "card": params["card"], "value": params["value"], "coins": params["value"] // 2}]  # half value (L259)


ACTIONS = [
    ActionType("buy-treasure", "Buy a treasure card in town (only a colour whose chest was opened this quest).",
               schema({"hero": NAME, "card": NAME, "colour": {"enum": ["copper", "silver", "gold"]}, "price": AMOUNT}, ["hero", "card", "colour", "price"]), buy_treasure, random=False),
    ActionType("sell-chest-treasure", "Sell treasure from a chest in town, at half its value.",
               schema({"hero": NAME, "card": NAME, "value": AMOUNT}, ["hero", "card", "value"]), sell_chest_treasure, random=False),
]
