"""Quest set-up for the overlord (L100–L132): treachery swaps, dark glyphs, the opening hand.

Treachery of a colour buys overlord cards of that colour, one base-deck card removed per card
added; dark glyphs cost 2 of their colour; every 2 unspent points draw one more opening card,
up to 8 cards in all. Nothing carries to the next quest: each session starts from the base deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import decks
from tracker.rulesets.descent.common import COLOURS, NAME, OVERLORD, plays_only, refuse
from tracker.rulesets.descent.figures import SHEET
from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionContext, ActionType
from tracker.rulesets.engine.working_copy import WorkingCopy

TREACHERY = {"type": "object", "properties": {c: {"type": "integer", "minimum": 0, "maximum": 20} for c in COLOURS}, "additionalProperties": False}

SCHEMA = {
    "type": "object",
    "properties": {
        "purchases": {
            "type": "array",
            "maxItems": 50,
            "items": {
                "type": "object",
                "properties": {
                    "card": NAME,
                    "colour": {"enum": list(COLOURS)},
                    "cost": {"type": "integer", "minimum": 0, "maximum": 20},
                    "remove": NAME,
                },
                "required": ["card"],
                "additionalProperties": False,
            },
        },
        "dark_glyphs": {
            "type": "array",
            "maxItems": 6,
            "items": {
                "type": "object",
                "properties": {"glyph": {"enum": ["summoning", "sundered", "power"]}, "paid": TREACHERY},
                "required": ["glyph"],
                "additionalProperties": False,
            },
        },
        "opening_hand": {"type": "array", "items": NAME, "maxItems": 8, "description": "Cards drawn from the physical deck."},
        "starting_conquest": {"type": "integer", "minimum": 1, "maximum": 100, "description": "For quests whose starting conquest the rules data lacks."},
        "glyphs": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many glyphs the map has, for quests whose glyphs can be destroyed and whose count the rules data lacks."},
        "altars": {"type": "integer", "minimum": 1, "maximum": 10, "description": "Hold the Position: how many altars the map has (named altar-1, altar-2, ...)."},
        "spirits_zone_4": {"type": "integer", "minimum": 0, "maximum": 10, "description": "Into the Heart of Darkness: how many spirits (master skeletons and master sorcerers) the map puts in Zone 4."},
        "hero_sheets": {"type": "object", "additionalProperties": SHEET, "maxProperties": 6,
                        "description": "Each hero's wounds, fatigue and armour as printed on his sheet, where the rules data lacks them (all of them today)."},
    },
    "additionalProperties": False,
}


def check_rules_data(data: Mapping[str, Any]) -> None:
    """The treachery rules the set-up plays one way only, refused at load otherwise (issue 31)."""
    treachery = data["treachery"]
    # L105: "he adds the card to his overlord deck, removing any one other card of his choice from the deck": a purchase
    # names the one card it removes (setup.purchases.remove)
    plays_only(data, "treachery.swap.removals_per_card_added", (treachery.get("swap") or {}).get("removals_per_card_added"), 1,
               "'removing any one other card of his choice' (L105); a purchase names the one card it removes")
    # L131-L132: "At the end of the game, the overlord deck is restored to its original condition": each session starts
    # from the base deck (carry_over none); a deck kept from quest to quest is no rule the book states
    plays_only(data, "treachery.resets_at_quest_end", treachery.get("resets_at_quest_end"), True,
               "'At the end of the game, the overlord deck is restored to its original condition' (L131-L132): each quest's session starts from the base deck")


def opening_hand(ctx: ActionContext, unspent: int) -> dict[str, Any]:
    rule = ctx.ruleset.data["treachery"]["opening_hand"]
    extra = unspent // rule["unspent_per_extra_card"]
    size = min(rule["maximum"], rule["base"] + extra)
    return {"unspent": unspent, "extra_cards": extra, "hand_size": size, "capped": rule["base"] + extra > rule["maximum"],
            "wasted": unspent % rule["unspent_per_extra_card"]}


def _card_price(ctx: ActionContext, purchase: Mapping[str, Any]) -> tuple[str, int]:
    card = purchase["card"]
    known = next((c for c in ctx.ruleset.data["overlord_cards"] if c["name"] == card), None)
    if known is not None and known.get("base"):
        raise refuse(f"'{card}' is a base-deck card", "Treachery buys only cards with a treachery gem (L103).", "setup.purchases.card")
    gem = (known or {}).get("treachery") or {}
    colour, cost = gem.get("colour"), gem.get("cost")
    if colour is not None and purchase.get("colour") not in (None, colour):
        raise refuse(
            f"'{card}' is bought with {colour} treachery, not {purchase['colour']}",
            "A card's treachery cost is paid in the colour of its gem (L105).",
            "setup.purchases.colour",
        )
    if cost is not None and purchase.get("cost") not in (None, cost):
        raise refuse(f"'{card}' costs {cost} treachery, not {purchase['cost']}", "Leave the cost out to use the printed one.", "setup.purchases.cost")
    colour = colour or purchase.get("colour")
    cost = cost if cost is not None else purchase.get("cost")
    if colour is None or cost is None:
        raise refuse(
            f"Say the treachery colour and cost printed on '{card}'",
            "The rules data does not know this card's gem; send \"colour\" (event, trap or monster) and \"cost\".",
            "setup.purchases",
        )
    return colour, cost


def _spend(remaining: dict[str, int], paid: Mapping[str, int], what: str, field: str) -> dict[str, int]:
    after = {c: remaining[c] - paid.get(c, 0) for c in COLOURS}
    short = [c for c in COLOURS if after[c] < 0]
    if short:
        raise refuse(
            f"Not enough {short[0]} treachery for {what}",
            f"{what} needs {paid.get(short[0], 0)} {short[0]}; {remaining[short[0]]} is left ({remaining}).",
            field,
        )
    return after


def _glyph_payment(ctx: ActionContext, glyph: Mapping[str, Any], rule: Mapping[str, Any], mode: str) -> dict[str, int]:
    paid = dict(glyph.get("paid") or {rule["pays_with"]: rule["cost"]})
    if sum(paid.values()) != rule["cost"]:
        raise refuse(f"A {glyph['glyph']} dark glyph costs {rule['cost']} treachery", f"Paid: {paid}.", "setup.dark_glyphs.paid")
    if mode == "matching" and paid.get(rule["pays_with"], 0) != rule["cost"]:
        raise refuse(
            f"A {glyph['glyph']} dark glyph is paid with {rule['pays_with']} ({rule['colour']}) treachery",
            "The rule says 'of the appropriate color' (L118); the campaign option dark_glyph_payment='any' follows the example at L120 instead.",
            "setup.dark_glyphs.paid",
        )
    return paid


def _glyph_count(quest: Mapping[str, Any], setup: Mapping[str, Any]) -> dict[str, int]:
    """Quests whose glyphs can be destroyed (L567, L687) need their glyph count: from the rules data, else as the map shows it."""
    glyphs = quest.get("glyphs") or {}
    if "wounds" not in glyphs:
        if "glyphs" in setup:
            raise refuse(f"The glyphs of {quest['name']} cannot be destroyed", "Leave setup.glyphs out for this quest.", "setup.glyphs")
        return {}
    count = glyphs.get("count")
    if count is None:
        if "glyphs" not in setup:
            raise refuse(
                f"Say how many glyphs {quest['name']} has",
                "The map is not in the rulebook transcription; send setup.glyphs (the quest is lost when the last one is destroyed).",
                "setup.glyphs",
            )
        return {"glyphs": setup["glyphs"]}
    if setup.get("glyphs", count) != count:
        raise refuse(f"{quest['name']} has {count} glyphs", "Leave setup.glyphs out for this quest.", "setup.glyphs")
    return {"glyphs": count}


def _temple_altars(quest: Mapping[str, Any], setup: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Hold the Position's altars (L526) are on its lost map: the table counts them at set-up, to name them in play."""
    if "altars" not in setup:
        return []
    if "temple_altars" not in quest:
        raise refuse(f"{quest['name']} has no altars to count", "Leave setup.altars out: only Hold the Position's altars are activated (L526).", "setup.altars")
    return [{"kind": "temple-altars-counted", "count": setup["altars"], "ids": [f"altar-{n}" for n in range(1, setup["altars"] + 1)]}]


def _spirits(quest: Mapping[str, Any], setup: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Into the Heart of Darkness: its spirits, named by zone (L640-L661); Zone 4's count is on the lost map."""
    spirits = quest.get("spirits")
    if spirits is None:
        if "spirits_zone_4" in setup:
            raise refuse(f"{quest['name']} has no spirits to count", "Leave setup.spirits_zone_4 out.", "setup.spirits_zone_4")
        return []
    ids = []
    for zone, held in spirits["zones"].items():
        count = held["count"] if held["count"] is not None else setup.get("spirits_zone_4", 0)
        ids += [f"{zone}-spirit-{n}" for n in range(1, count + 1)]
    return [{"kind": "spirits-counted", "ids": ids, "zone_4_stated": "spirits_zone_4" in setup}]


def set_up(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    quest = ctx.ruleset.quest(params["quest"])
    campaign = params["campaign"]
    setup = params.get("setup") or {}
    granted = dict(quest["treachery"])
    conquest = quest["starting_conquest"]
    if conquest is None:
        if "starting_conquest" not in setup:
            raise refuse(
                f"Say the starting conquest of {quest['name']}",
                "The rulebook transcription does not give it; send setup.starting_conquest as printed in the Quest Guide.",
                "setup.starting_conquest",
            )
        conquest = setup["starting_conquest"]
    elif setup.get("starting_conquest", conquest) != conquest:
        raise refuse(f"{quest['name']} starts with {conquest} conquest", "Leave starting_conquest out for this quest.", "setup.starting_conquest")
    working = WorkingCopy(ctx, rng)  # the set-up's changes folded as they are made, its draws moved by the deck engine once
    set_up_change = {"kind": "quest-set-up", "quest": quest["id"], "conquest": conquest, "treachery": granted, "party": list(campaign["party"]), **_glyph_count(quest, setup)}
    set_up_change.update(ctx.ruleset.rules.version.hero_sheets_at_set_up(ctx, list(campaign["party"]), setup.get("hero_sheets") or {}))
    set_up_change.update(ctx.ruleset.rules.version.turn_at_set_up())
    working.add(set_up_change)
    working.extend(_temple_altars(quest, setup) + _spirits(quest, setup))
    remaining = dict(granted)
    for purchase in setup.get("purchases", []):
        colour, cost = _card_price(ctx, purchase)
        if not purchase.get("remove"):
            raise refuse(
                f"Name the card that '{purchase['card']}' replaces",
                "The overlord swaps out one card of his choice for each card bought with treachery (L104, L235).",
                "setup.purchases.remove",
            )
        remaining = _spend(remaining, {colour: cost}, f"'{purchase['card']}'", "setup.purchases")
        working.add({"kind": "treachery-card-swapped", "added": purchase["card"], "colour": colour, "cost": cost,
                     "removed": purchase["remove"], "remaining": dict(remaining)})
        working.extend(decks.resolve_move(working.decks[OVERLORD], "removed", [purchase["remove"]], "draw"))
        working.extend(decks.resolve_add(working.decks[OVERLORD], [purchase["card"]], "treachery"))
    mode = campaign.get("options", {}).get("dark_glyph_payment", "matching")
    rules = {g["id"]: g for g in ctx.ruleset.data["dark_glyphs"]}
    for glyph in setup.get("dark_glyphs", []):
        paid = _glyph_payment(ctx, glyph, rules[glyph["glyph"]], mode)
        remaining = _spend(remaining, paid, f"a {glyph['glyph']} dark glyph", "setup.dark_glyphs")
        working.add({"kind": "dark-glyph-bought", "glyph": glyph["glyph"], "paid": paid, "remaining": dict(remaining)})
    hand = opening_hand(ctx, sum(remaining.values()))
    working.add({"kind": "opening-hand-set", **hand})
    reported = setup.get("opening_hand")
    deck = working.decks[OVERLORD]
    if reported is not None:
        if len(reported) != hand["hand_size"]:
            raise refuse(
                f"The opening hand is {hand['hand_size']} cards, not {len(reported)}",
                f"3 cards plus 1 per 2 unspent treachery ({hand['unspent']} unspent), at most 8 (L128–L130).",
                "setup.opening_hand",
            )
        working.extend(decks.resolve_reported_draw(deck, reported, OVERLORD))
    elif deck["unknown"] == 0:
        working.extend(decks.resolve_draw(deck, "overlord deck", hand["hand_size"], rng, OVERLORD))
    return working.changes


SET_UP = ActionType(SET_UP_QUEST, "Quest set-up: treachery swaps, dark glyphs and the overlord's opening hand (L100–L132).",
                    {"type": "object"}, set_up, random=True, internal=True)
