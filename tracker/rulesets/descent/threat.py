"""The overlord's threat: a running ledger of threat gained and spent (L102, L164–L171, L218, L322, L241)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import decks
from tracker.rulesets.descent.common import AMOUNT, COUNT, NAME, OVERLORD, plays_only, quest, refuse, require_hero, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType
from tracker.rulesets.engine.working_copy import WorkingCopy

SOURCES = ("corrupted-fatigue", "corrupted-wound", "corrupted-instant-death", "monster-surges", "destroyed-glyphs", "other")


def threat_from(ctx: ActionContext, params: Mapping[str, Any]) -> int:
    rules = ctx.ruleset.data["threat"]
    source, count = params["source"], params.get("count")
    if source == "other":
        if params.get("amount") is None:
            raise refuse("Say how much threat", 'Send "amount" for threat from other sources.', "amount")
        return params["amount"]
    if count is None:
        raise refuse(f"Say the count for {source}", 'Send "count" (fatigue spent, wounds lost, wounds before death, surges or destroyed glyphs).', "count")
    if source == "corrupted-fatigue":
        return count * rules["corrupted_terrain"]["per_fatigue"]
    if source == "corrupted-wound":
        return count * rules["corrupted_terrain"]["per_wound"]
    if source == "corrupted-instant-death":
        return count * rules["corrupted_terrain"]["per_wound_before_instant_death"]
    if source == "monster-surges":
        per = rules["dark_prayer_surges_per_threat"] if params.get("dark_prayer") else rules["monster_surges_per_threat"]
        return count // per
    glyphs = quest(ctx).get("glyphs") or {}
    if "threat_per_destroyed_glyph_per_turn" not in glyphs:
        raise refuse("No threat for destroyed glyphs in this quest", "Only Hold the Position pays threat per destroyed glyph (L521–L530).", "source")
    return count * glyphs["threat_per_destroyed_glyph_per_turn"]


def gain_threat(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    amount = threat_from(ctx, params)
    detail = {k: params[k] for k in ("count", "dark_prayer", "hero") if k in params}
    return [{"kind": "threat-gained", "amount": amount, "source": params["source"], **detail}]


def _held(ctx: ActionContext, card: str) -> Mapping[str, Any]:
    deck = ctx.state["decks"][OVERLORD]
    if card not in deck["held"].get(OVERLORD, []):
        raise refuse(f"The overlord holds no '{card}'", "Draw it first (POST /sessions/{sid}/draws with holder 'overlord').", "card")
    return deck


def discard_for_threat(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Any time, even in a hero's turn (L241): the card's threat value is gained."""
    deck = _held(ctx, params["card"])
    return decks.resolve_move(deck, "discarded", [params["card"]], "held", OVERLORD) + [
        {"kind": "threat-gained", "amount": params["threat_value"], "source": "card-discarded", "card": params["card"]}
    ]


def _spend(ctx: ActionContext, amount: int, purpose: str, **detail: Any) -> dict[str, Any]:
    if amount > ctx.game["threat"]:
        raise refuse(f"The overlord has {ctx.game['threat']} threat, not {amount}", f"{purpose} costs {amount} threat.", "threat")
    return {"kind": "threat-spent", "amount": amount, "purpose": purpose, **detail}


def play_card(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Play an overlord card for its threat cost; each Trickster in play makes a trap card 1 cheaper (L322)."""
    deck = _held(ctx, params["card"])
    tricksters = params.get("tricksters", 0)
    if tricksters and params.get("card_type") != "trap":
        raise refuse("Trickster discounts only trap cards", 'Send "card_type": "trap" for a trap card, or no tricksters.', "tricksters")
    discount = tricksters * ctx.ruleset.data["threat"]["trickster_trap_discount"]
    cost = max(0, params["threat_cost"] - discount)
    return decks.resolve_move(deck, "discarded", [params["card"]], "held", OVERLORD) + [
        _spend(ctx, cost, "card-played", card=params["card"], printed_cost=params["threat_cost"], discount=discount)
    ]


def dark_relic_cost(ctx: ActionContext, relic: str, relic_cost: int | None, replaces: str) -> tuple[int, int]:
    rules = ctx.ruleset.data["dark_relics"]
    listed = next((c for c in ctx.ruleset.data["decks"] if c["id"] == "dark-relic"), {}).get("known_cards", [])
    printed = next((c.get("cost") for c in listed if c["name"] == relic), None)
    if printed is not None and relic_cost not in (None, printed):
        raise refuse(f"'{relic}' costs {printed} threat, not {relic_cost}", "Leave relic_cost out to use the printed cost.", "relic_cost")
    cost = printed if printed is not None else relic_cost
    if cost is None:
        raise refuse(f"Say the threat cost printed on '{relic}'", 'Send "relic_cost" (the green gem, upper left).', "relic_cost")
    return cost, cost + rules["surcharge"][replaces]


def play_dark_relic(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Play 'Dark Relic': a relic replaces one treasure card a hero is about to get; the hero must equip it (L164–L167)."""
    require_hero(ctx, params["hero"])
    card = ctx.ruleset.data["dark_relics"]["requires_card"]
    deck = _held(ctx, card)
    cost, total = dark_relic_cost(ctx, params["relic"], params.get("relic_cost"), params["replaces"])
    return decks.resolve_move(deck, "discarded", [card], "held", OVERLORD) + [
        _spend(ctx, total, "dark-relic", relic=params["relic"], relic_cost=cost, replaces=params["replaces"]),
        {"kind": "dark-relic-equipped", "hero": params["hero"], "relic": params["relic"], "replaces": params["replaces"]},
    ]


def spend_threat(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    purpose = params["purpose"]
    q = quest(ctx)
    if purpose == "troll-ambush":
        ambush = q.get("troll_ambush")
        if not ambush:
            raise refuse("No troll ambushes in this quest", "Only The Mists of Time has them (L576–L579).", "purpose")
        if ctx.game["spent"].get("troll-ambush", 0) >= ambush["per_quest"]:
            raise refuse("Both troll ambushes are used", f"At most {ambush['per_quest']} per quest (L577).", "purpose")
        return ctx.ruleset.rules.version.spring_troll_ambush(ctx, ambush, purpose)  # rules data 1.0.0 did not record the turn (versions.py)
    if purpose == "extra-card":
        glyphs = q.get("glyphs") or {}
        if "extra_card_threat" not in glyphs:
            raise refuse("Extra cards cannot be bought in this quest", "Only Hold the Position sells cards for threat.", "purpose")
        return [_spend(ctx, glyphs["extra_card_threat"] * params.get("count", 1), purpose, count=params.get("count", 1))]
    if params.get("amount") is None:
        raise refuse("Say how much threat", f'Send "amount" for {purpose}.', "amount")
    return [_spend(ctx, params["amount"], purpose)]


def troll_ambush_any_turn(ctx: ActionContext, ambush: Mapping[str, Any], purpose: str) -> list[dict[str, Any]]:
    """A troll ambush as rules data 1.0.0 recorded it: its threat spent, the turn not recorded (re-derived as played)."""
    return [_spend(ctx, ambush["threat"], purpose)]


def troll_ambush_once_per_turn(ctx: ActionContext, ambush: Mapping[str, Any], purpose: str) -> list[dict[str, Any]]:
    """A troll ambush "no more than once per turn" (L577), with the troll it generates (rules 1.1.0 on: versions.py)."""
    turn = ctx.state["turn"]
    sprung = ctx.game.get("troll_ambush_turns", [])
    # "no more than once per turn" (L577), checked where the data says the tracker keeps it (per_turn_recorded); where it
    # does not, the table keeps it, as under rules data 1.0.0
    if ambush["per_turn_recorded"] and sprung.count(turn) >= ambush["per_turn"]:
        raise refuse(f"A troll ambush was already sprung on turn {turn}", "No more than once per turn (L577): wait for the next turn.", "purpose")
    changes = [_spend(ctx, ambush["threat"], purpose), {"kind": "troll-ambush-sprung", "turn": turn, "ambush": len(sprung) + 1, "of": ambush["per_quest"]}]
    return changes + ctx.ruleset.rules.version.figures_entering(ctx, [{"monster": "troll"}], "troll-ambush")  # the troll it generates (L577)


def check_rules_data(data: Mapping[str, Any]) -> None:
    """The Power glyph's draws as the game state counts them, refused at load otherwise (issue 31)."""
    power = next(g for g in data["dark_glyphs"] if g["id"] == "power")
    # L125: "When this glyph is activated, as well as each time a hero uses it to move to or from town, the overlord may
    # draw two cards": one draw of two per trigger (the fold counts one per activation or town travel)
    plays_only(data, "dark_glyphs/power.draws_per_trigger", power["draws_per_trigger"], 1,
               "the overlord 'may draw two cards' each time the glyph is activated or used for town travel (L125): one draw per trigger")


def power_glyph_draw(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Power dark glyph (L125): "When this glyph is activated, as well as each time a hero uses it to move to or from
    town, the overlord may draw two cards": one draw per activation or town travel, each used once."""
    if "power" not in ctx.game["glyphs_activated"] and not ctx.game.get("glyph_triggers", {}).get("power"):
        raise refuse("No Power glyph has been activated", "The draw happens when a Power dark glyph is activated or used for town travel.", "type")
    rule = next(g for g in ctx.ruleset.data["dark_glyphs"] if g["id"] == "power")
    return ctx.ruleset.rules.version.power_glyph_draw(ctx, params, rng, rule)  # rules data 1.0.0 let a draw follow any activation (versions.py)


def power_draw_any_activation(ctx: ActionContext, params: Mapping[str, Any], rng: Any, rule: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Power glyph's draw as rules data 1.0.0 played it: after any activation (re-derived as played)."""
    return _power_draw(ctx, params, rng, rule)


def power_draw_per_trigger(ctx: ActionContext, params: Mapping[str, Any], rng: Any, rule: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One draw of two per activation or town travel, each used once (L125; rules 1.1.0 on: versions.py)."""
    triggers = ctx.game.get("glyph_triggers", {}).get("power", 0)
    if triggers < 1:
        raise refuse("The Power glyph's draw is used", "Each activation of a Power glyph, and each town travel by it, gives one draw of two (L125).", "type")
    working = WorkingCopy(ctx)  # the draw taken as dealt (its cards moved once), then the trigger it used
    working.extend(_power_draw(ctx, params, rng, rule))
    working.add({"kind": "power-glyph-used", "draws_left": triggers - 1})
    return working.changes


def _power_draw(ctx: ActionContext, params: Mapping[str, Any], rng: Any, rule: Mapping[str, Any]) -> list[dict[str, Any]]:
    deck = ctx.state["decks"][OVERLORD]
    if params.get("cards"):
        if len(params["cards"]) != rule["draw"]:
            raise refuse(f"The Power glyph draws {rule['draw']} cards", f"Reported: {params['cards']}.", "cards")
        return _looked_reported(deck, params["cards"])
    return decks.resolve_look(deck, "overlord deck", rule["draw"], rng)


def _looked_reported(deck: Mapping[str, Any], cards: list[str]) -> list[dict[str, Any]]:
    decks.resolve_reported_draw(deck, cards)  # the draw pile must be able to hold them
    return [{"kind": "looked", "deck": deck["id"], "cards": list(cards)}]


def power_glyph_keep(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Keep one of the two, discard the other for threat (L125)."""
    deck = ctx.state["decks"][OVERLORD]
    if len(deck["peeked"]) != 2:
        raise refuse("Draw the Power glyph's two cards first", "Send power-glyph-draw.", "type")
    changes = decks.resolve_keep(deck, [params["keep"]], "discard", OVERLORD)
    rest = list(deck["peeked"])
    rest.remove(params["keep"])
    return changes + [{"kind": "threat-gained", "amount": params["threat_value"], "source": "power-glyph-discard", "card": rest[0]}]


ACTIONS = [
    ActionType("gain-threat", "Threat gained: corrupted terrain (+1 per fatigue, +2 per wound, +2 per wound before an instant death), monster surges (1 per 2, Dark Prayer 1 per surge; an attack recorded with surges spent on \"threat\" gains them itself, rules 1.5.0 on), destroyed glyphs in Hold the Position, or another amount.",
               schema({"source": {"enum": list(SOURCES)}, "count": COUNT, "amount": AMOUNT, "dark_prayer": {"type": "boolean"}, "hero": NAME}, ["source"]), gain_threat, random=False),
    ActionType("discard-for-threat", "The overlord discards a card from his hand for its threat value, at any time.",
               schema({"card": NAME, "threat_value": AMOUNT}, ["card", "threat_value"]), discard_for_threat, random=False),
    ActionType("play-overlord-card", "The overlord plays a card from his hand for its threat cost (trap cards 1 cheaper per Trickster in play).",
               schema({"card": NAME, "threat_cost": AMOUNT, "card_type": {"enum": ["event", "trap", "spawn", "power"]}, "tricksters": {"type": "integer", "minimum": 0, "maximum": 20}}, ["card", "threat_cost"]),
               play_card, random=False),
    ActionType("play-dark-relic", "Play 'Dark Relic': a dark relic replaces a treasure card a hero is about to receive; threat = the relic's cost +4 copper / +8 silver / +12 gold.",
               schema({"hero": NAME, "relic": NAME, "relic_cost": AMOUNT, "replaces": {"enum": ["copper", "silver", "gold"]}}, ["hero", "relic", "replaces"]), play_dark_relic, random=False),
    ActionType("spend-threat", "Threat spent on a troll ambush (9, twice per quest in The Mists of Time), extra cards (10 each in Hold the Position), spawns or other costs.",
               schema({"purpose": {"enum": ["troll-ambush", "extra-card", "spawn", "other"]}, "amount": AMOUNT, "count": COUNT}, ["purpose"]), spend_threat, random=False),
    ActionType("power-glyph-draw", "The Power dark glyph: the overlord draws two cards and looks at them (digitally, or report the cards).",
               schema({"cards": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2}}, []), power_glyph_draw, random=True),
    ActionType("power-glyph-keep", "Keep one of the Power glyph's two cards; the other is discarded for its threat value.",
               schema({"keep": NAME, "threat_value": AMOUNT}, ["keep", "threat_value"]), power_glyph_keep, random=False),
]
