"""The heroes' shared conquest pool: glyphs, chests, quest awards and losses, hero deaths (L124, L162–L165, L192–L193, quests)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import decks
from tracker.rulesets.descent.common import (
    AMOUNT,
    COUNT,
    NAME,
    conquest_changes,
    plays_only,
    quest,
    refuse,
    require_hero,
    schema,
    stat,
)
from tracker.rulesets.descent.spirit_standing import angered_standing
from tracker.rulesets.engine.ruleset import ActionContext, ActionType
from tracker.rulesets.engine.working_copy import WorkingCopy

GLYPHS = ("normal", "summoning", "sundered", "power")


def _award(ctx: ActionContext, award_id: str) -> dict[str, Any]:
    q = quest(ctx)
    award = next((a for a in q["awards"] if a["id"] == award_id), None)
    if award is None:
        raise refuse(f"'{award_id}' is not an award of {q['name']}", f"Awards: {wording.listed([a['id'] for a in q['awards']])}.", "award")
    if award.get("follows") == "open-cell":  # the conquest follows the cell opened, for the villagers the clock left alive (L345-L377)
        raise refuse(f"'{award_id}' follows the cell the heroes open", 'Record it with open-cell ("cell", "hero"): the conquest counts the villagers still alive in it.', "award")
    if award.get("follows") == "every-altar-destroyed":  # the +8 follows the last altar's destruction itself (L693-L695)
        done = len(ctx.game.get("altars_destroyed", []))
        raise refuse(
            f"'{award_id}' follows the destruction of the last altar",
            f"{done} of {len(q['altars']['ids'])} altars are destroyed: each falls to its own prolonged-roll (task destroy-altar, \"altar\"), and the last one awards this.",
            "award",
        )
    return award


def _stated(award: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, bool]:
    """Facts the log cannot know that the award's text requires (all major monsters on the board defeated, L564):
    the table states them with the award, and they are recorded with it."""
    stated = params.get("stated") or {}
    for fact in award.get("requires_stated", []):
        if stated.get(fact["fact"]) is not True:
            lines = ", ".join(source.split(" ")[-1] for source in fact["source"])
            raise refuse(f"'{award['id']}' needs {fact['says']} ({lines})", f'State it: "stated": {{"{fact["fact"]}": true}}.', f"stated.{fact['fact']}")
    return {fact["fact"]: True for fact in award.get("requires_stated", [])}


def _villager(ctx: ActionContext, award: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Hall of the Monkey Kings: each transformed villager is freed (after its zone's prolonged action, L438-L486)
    or killed (L443-L489) once; the id names one the quest set up."""
    villagers = {v["id"]: v for v in quest(ctx)["villagers"]}
    named = params.get("villager")
    if named not in villagers:
        raise refuse(f"Say which transformed villager: {named!r} is not one" if named else "Say which transformed villager",
                     f"Villagers of this quest: {wording.listed(sorted(villagers))}.", "villager")
    decided = ctx.game.get("villagers", {})
    if named in decided:
        raise refuse(f"The villager {named} was already {decided[named]}", "Each transformed villager is freed or killed once.", "villager")
    fate = "freed" if award["id"] == "villager-freed" else "killed"
    task = villagers[named]["freed_by"]
    if fate == "freed" and task not in ctx.game.get("completed", []):
        raise refuse(f"The spell on {named} is broken by completing '{task}' first",
                     "A hero frees the villager by completing the zone's prolonged action (L436-L438, L451-L452, L470-L472, L482-L484).", "villager")
    return [{"kind": "villager-spell-broken", "villager": named, "fate": fate, "hero": params.get("hero")}]


def award_amount(award: Mapping[str, Any], params: Mapping[str, Any]) -> int:
    if award["id"] == "zone-2-cell-opened":  # L370–L377
        alive = params.get("alive")
        if alive is None:
            raise refuse("Say how many villagers in the Zone 2 cell are alive", 'Send "alive" (0 to 4).', "alive")
        if alive == 1:
            return award["only_daughter_alive"]
        return alive * award["per_villager"] + (award["mayors_daughter_bonus"] if alive >= 2 else 0)
    if award["id"] == "thing-defeated":  # L401
        unrescued = params.get("unrescued", 0)
        daughter = 1 if params.get("mayors_daughter_unrescued") else 0
        return award["conquest"] + (unrescued - daughter) * award["per_unrescued_villager"] + daughter * award["mayors_daughter_unrescued"]
    return award["conquest"]


def award_conquest(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    award = _award(ctx, params["award"])
    changes: list[dict[str, Any]] = []
    coins = award.get("killer_coins") or award.get("freer_coins")
    if coins:
        if "hero" not in params:
            raise refuse(f"Say which hero {'killed' if 'killer_coins' in award else 'freed'} the villager", 'Send "hero": they receive 50 coins.', "hero")
        require_hero(ctx, params["hero"])
        changes.append({"kind": "coins-changed", "hero": params["hero"], "amount": coins, "reason": award["id"]})
    if award.get("names") == "villager":
        changes = _villager(ctx, award, params) + changes
    if award.get("ends_quest"):
        _may_end(ctx, award)
    if award["id"] == "thing-defeated":
        _unrescued_alive(ctx, params)
    if award.get("requires") == "angered-spirits-destroyed":  # "(and the spirits, if they have been angered)" (L662)
        standing = angered_standing(ctx.game)
        if standing:
            raise refuse(f"'{award['id']}' needs every angered spirit destroyed too (L662)", f"Angered and still on the board: {standing}.", "award")
    stated = _stated(award, params)
    amount = award_amount(award, params)
    details = {k: params[k] for k in ("alive", "unrescued", "mayors_daughter_unrescued", "hero", "villager") if k in params}
    if stated:
        details["stated"] = stated
    if amount:
        changes += conquest_changes(ctx, amount, award["id"], **details)
    if award.get("ends_quest"):
        changes += quest_end(ctx, award, ctx.game["conquest"] + amount)
    return changes


def _unrescued_alive(ctx: ActionContext, params: Mapping[str, Any]) -> None:
    """The Thing's award counts surviving villagers not yet rescued (L401): no more than the sacrifice clock left alive."""
    prisoners = quest(ctx).get("prisoners")
    if prisoners is None:
        return
    folded = ctx.game.get("prisoners") or {"sacrificed": [], "rescued": []}
    waiting = [n for n in range(1, prisoners["count"] + 1) if n not in folded["sacrificed"] and n not in folded["rescued"]]
    daughter = prisoners["mayors_daughter"]
    if params.get("mayors_daughter_unrescued") and daughter not in waiting:
        raise refuse(f"The mayor's daughter (prisoner {daughter}) is not waiting in a cell", f"Alive and not yet rescued: {waiting}.", "mayors_daughter_unrescued")
    if params.get("unrescued", 0) > len(waiting):
        raise refuse(f"Only {len(waiting)} villagers are alive and not yet rescued", f"Prisoners: {waiting}.", "unrescued")


def _may_end(ctx: ActionContext, award: Mapping[str, Any]) -> None:
    """A quest is decided once; Hold the Position is won only from turn 10 on (L566)."""
    if ctx.game.get("lost") or ctx.game.get("won"):
        raise refuse("This quest is already decided", f"Lost: {ctx.game.get('lost')}; won: {ctx.game.get('won')}. End the session.", "award")
    victory = quest(ctx).get("victory", {})
    earliest = victory.get("turn_at_least")
    if earliest is not None and ctx.state["turn"] < earliest:
        raise refuse(
            f"{quest(ctx)['name']} is won on turn {earliest} or later",
            f"It is turn {ctx.state['turn']}: hold until then, with every major monster on the board defeated.",
            "award",
        )


def quest_end(ctx: ActionContext, award: Mapping[str, Any], conquest: int) -> list[dict[str, Any]]:
    """The quest's end: won, unless it asks for a final conquest total the heroes fall short of (quest 1: 12, L402–L406)."""
    needed = quest(ctx).get("victory", {}).get("conquest_at_least")
    if needed is not None and conquest < needed:
        return [{"kind": "quest-lost", "reason": "finished-below", "conquest": conquest, "needed": needed}]
    return [{"kind": "quest-won", "award": award["id"], "conquest": conquest, **({"needed": needed} if needed is not None else {})}]


def place_glyph(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The overlord chooses which glyph from his pool goes on a newly revealed glyph space (L126); secret until activated."""
    if params["glyph"] not in ctx.game["glyph_pool"]:
        raise refuse(f"No {params['glyph']} dark glyph is left in the overlord's pool", f"Pool: {ctx.game['glyph_pool']}.", "glyph")
    return [{"kind": "glyph-placed", "glyph": params["glyph"]}]


def activate_glyph(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    glyph = params["glyph"]
    if glyph != "normal" and glyph not in ctx.game["glyphs_placed"]:
        raise refuse(f"No {glyph} dark glyph is on the map", "The overlord places dark glyphs from his pool first.", "glyph")
    q = quest(ctx)
    if glyph == "sundered":
        amount = next(g["conquest"] for g in ctx.ruleset.data["dark_glyphs"] if g["id"] == "sundered")
    elif q["glyph_activation_conquest"] is not None:
        amount = q["glyph_activation_conquest"]
    elif params.get("conquest") is None:
        raise refuse("Say the conquest for activating this glyph", "The base rule's amount is not in the transcription; send \"conquest\".", "conquest")
    else:
        amount = params["conquest"]
    changes: list[dict[str, Any]] = [{"kind": "glyph-activated", "glyph": glyph, "conquest": amount}]
    if amount:
        changes += conquest_changes(ctx, amount, "glyph-activated", glyph=glyph)
    return changes


def check_rules_data(data: Mapping[str, Any]) -> None:
    """Chests and deaths as the code plays them, refused at load otherwise (issue 31)."""
    # L272: "If a chest has 2 copper treasure tokens, does each hero draw 2 copper treasure cards? A: Yes." Who else would
    # draw is no rule the book states.
    plays_only(data, "chests.each_hero_draws_listed_treasure", (data.get("chests") or {}).get("each_hero_draws_listed_treasure"), True,
               "each hero draws the treasure a chest lists (L272)")
    # L165 is stated twice in the data (dark_relics, hero_death): the death plays hero_death's; the two must agree
    death = (data.get("hero_death") or {}).get("dark_relics_discarded")
    if death is not None:
        plays_only(data, "dark_relics.discarded_on_death", data.get("dark_relics", {}).get("discarded_on_death"), death,
                   "hero_death.dark_relics_discarded states the same rule (L165), and a death discards the relics as that one says")


def _recipients(chest: Mapping[str, Any], given: Mapping[str, Any], ctx: ActionContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for what, needed in (("coins", chest["coins"]), ("potions", sum(chest["potions"].values()))):
        if needed:
            if what not in given:
                raise refuse(f"Say which hero takes the chest's {what}", f"The rules do not say who receives them; send given_to.{what}.", f"given_to.{what}")
            require_hero(ctx, given[what])
            out[what] = given[what]
    if chest["curses"]:
        cursed = given.get("curses") or []
        if len(cursed) != chest["curses"]:
            raise refuse(
                f"Say which hero takes each of the chest's {chest['curses']} curse token(s)",
                "The rules do not say who receives them; send given_to.curses as a list of heroes, one per token.",
                "given_to.curses",
            )
        for hero_id in cursed:
            require_hero(ctx, hero_id)
        out["curses"] = list(cursed)
    return out


def open_chest(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    q = quest(ctx)
    chest = next((c for c in q["chests"] if c["id"] == params["chest"]), None)
    if chest is None:
        raise refuse(f"{q['name']} has no chest '{params['chest']}'", f"Chests: {wording.listed([c['id'] for c in q['chests']])}.", "chest")
    if chest["id"] in ctx.game["chests_opened"]:
        raise refuse(f"Chest '{chest['id']}' is already open", "Each chest opens once.", "chest")
    given = _recipients(chest, params.get("given_to") or {}, ctx)
    heroes = sorted(ctx.game["heroes"])
    treasure: dict[str, list[str]] = {h: [] for h in heroes}
    # The treasure is drawn before the chest's record names it: each hero's draw a Dealt from the pile the last one left,
    # taken as dealt by the working copy below (each card moved once).
    draws: list[decks.Dealt] = []
    reported = params.get("treasure")
    ctx.ruleset.rules.version.require_listed_treasure(ctx, chest, reported)  # exactly what the row lists (L272)
    for tier, count in chest["treasure"].items():  # each hero draws the listed treasure (L272)
        deck = ctx.state["decks"][tier]
        for h in heroes:
            if reported is not None:
                cards = reported.get(h, [])
                if len(cards) != count:
                    raise refuse(f"Each hero draws {count} {tier} treasure from this chest", f"{h} reported {len(cards)}.", f"treasure.{h}")
                told = decks.resolve_reported_draw(deck, cards, h)
                found = decks.Dealt(told, deck, decks.apply(deck, told[0]))
            elif deck["unknown"] == 0:
                found = decks.resolve_draw(deck, f"{tier} treasure deck", count, rng, h)
            else:
                continue  # drawn from the physical deck and reported with POST /draws
            deck = found.state
            for change in found:
                if change["kind"] == "drawn":
                    treasure[h].extend(change["cards"])
            draws.append(found)
    working = WorkingCopy(ctx, rng)
    working.add({"kind": "chest-opened", "chest": chest["id"], "colour": chest["colour"], "opener": params["opener"], "conquest": chest["conquest"],
                 "coins": chest["coins"], "curses": chest["curses"], "potions": chest["potions"], "given_to": given,
                 "treasure": {h: cards for h, cards in treasure.items() if cards}})
    for found in draws:
        working.extend(found)
    if "coins" in given:
        working.add({"kind": "coins-changed", "hero": given["coins"], "amount": chest["coins"], "reason": f"chest {chest['id']}"})
    for potion, n in chest["potions"].items():
        working.add({"kind": "potion-gained", "hero": given["potions"], "potion": potion, "count": n, "source": f"chest {chest['id']}"})
    for hero_id in given.get("curses", []):
        working.add({"kind": "curses-gained", "hero": hero_id, "count": 1, "source": f"chest {chest['id']}"})
    if chest["conquest"]:
        working.extend(conquest_changes(ctx, chest["conquest"], "chest", chest=chest["id"]))
    return working.changes


def hero_killed(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The heroes lose the hero's conquest value +1 per curse; curses and dark relics are discarded; each cursed item is
    discarded or re-equipped for a new curse (L162, L165, L192–L193), each as the rules data's hero_death says.
    Disruptable prolonged progress is lost (L154), and another only where the data keeps none across death."""
    death = ctx.ruleset.data["hero_death"]
    hero = require_hero(ctx, params["hero"])
    base = stat(ctx, params["hero"], "conquest_value", params.get("conquest_value"), "conquest_value")
    choices = {c["item"]: c["choice"] for c in params.get("cursed_items", [])}
    undecided = [item for item in hero["cursed_items"] if item not in choices]
    strangers = [item for item in choices if item not in hero["cursed_items"]]
    if undecided or strangers:
        raise refuse(
            "Decide each cursed item: " + " or ".join(death["cursed_items"]),
            f"{params['hero']} has cursed items {hero['cursed_items']}; undecided: {undecided}; not equipped: {strangers}.",
            "cursed_items",
        )
    # L162: "he must immediately either discard or re-equip any cursed items he had equipped when he died"
    barred = sorted({choice for choice in choices.values() if choice not in death["cursed_items"]})
    if barred:
        raise refuse(f"A dead hero's cursed items are {' or '.join(death['cursed_items'])}, not {barred[0]}",
                     f"He must {' or '.join(death['cursed_items'])} each cursed item he had equipped (L162).", "cursed_items")
    kept = [item for item in hero["cursed_items"] if choices[item] == "re-equip"]
    # L192: "The hero's conquest value is increased by 1 for each curse token on him"
    value = base + hero["curses"] * death["conquest_per_curse"]
    # L193: "once she is killed, all of the curse tokens on her are discarded"; L162: "He receives one curse token for
    # each cursed item that he re-equips"
    curses_after = (0 if death["curses_discarded"] else hero["curses"]) + len(kept) * death["curses_per_reequipped_item"]
    # L165: "the only way to get rid of a dark relic normally is to die, at which point any dark relics the hero is
    # carrying are discarded"
    relics = list(hero["dark_relics"]) if death["dark_relics_discarded"] else []
    # L154: of an action that "cannot be disrupted", "she could even die, and she would still keep her progress markers";
    # a disruptable one's progress is lost with the hero (a reading)
    keeps = ctx.ruleset.data["prolonged_actions"]["kept_across_death_when_not_disruptable"]
    lost = [key for key, p in ctx.game["prolonged"].items() if params["hero"] in p["heroes"] and (p["disruptable"] or not keeps)]
    changes: list[dict[str, Any]] = [
        {"kind": "hero-killed", "hero": params["hero"], "base_conquest_value": base, "curses": hero["curses"], "conquest_value": value,
         "dark_relics_discarded": relics, "cursed_items_discarded": [i for i in hero["cursed_items"] if i not in kept],
         "cursed_items_kept": kept, "curses_after": curses_after, "progress_lost": lost}
    ]
    if params.get("corrupted_instant_death_wounds"):
        per = ctx.ruleset.data["threat"]["corrupted_terrain"]["per_wound_before_instant_death"]
        changes.append({"kind": "threat-gained", "amount": per * params["corrupted_instant_death_wounds"], "source": "corrupted-instant-death",
                        "count": params["corrupted_instant_death_wounds"], "hero": params["hero"]})
    return changes + conquest_changes(ctx, -value, "hero-killed", hero=params["hero"])


def gain_curses(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    require_hero(ctx, params["hero"])
    return [{"kind": "curses-gained", "hero": params["hero"], "count": params["count"], "source": params.get("source", "other")}]


def equip_cursed_item(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    require_hero(ctx, params["hero"])
    return [{"kind": "cursed-item-equipped", "hero": params["hero"], "item": params["item"]}]


ACTIONS = [
    ActionType("award-conquest", "A quest's own conquest award or loss (prisoners and villagers in quest 1, -2 for a transformed villager killed in quest 2, +1 per major monster in quest 3, the final +4/+8).",
               schema({"award": NAME, "hero": NAME, "alive": {"type": "integer", "minimum": 0, "maximum": 4}, "unrescued": {"type": "integer", "minimum": 0, "maximum": 10},
                       "mayors_daughter_unrescued": {"type": "boolean"}, "villager": NAME,
                       "stated": {"type": "object", "description": "Facts at the table the award's text requires (the award's requires_stated in the quest data).",
                                  "additionalProperties": {"type": "boolean"}, "maxProperties": 10}}, ["award"]), award_conquest, random=False),
    ActionType("place-glyph", "The overlord puts a dark glyph from his pool on a newly revealed glyph space (secret until activated).",
               schema({"glyph": {"enum": ["summoning", "sundered", "power"]}}, ["glyph"]), place_glyph, random=False),
    ActionType("activate-glyph", "A hero activates a glyph; a Sundered dark glyph gives 1 conquest.",
               schema({"glyph": {"enum": list(GLYPHS)}, "conquest": AMOUNT}, ["glyph"]), activate_glyph, random=False),
    ActionType("open-chest", "Open one of the quest's chests: its conquest, coins, curses and potions; each hero draws the listed treasure.",
               schema({"chest": NAME, "opener": NAME,
                       "given_to": {"type": "object", "properties": {"coins": NAME, "potions": NAME, "curses": {"type": "array", "items": NAME, "maxItems": 10}}, "additionalProperties": False},
                       "treasure": {"type": "object", "additionalProperties": {"type": "array", "items": NAME, "maxItems": 10}}}, ["chest", "opener"]),
               open_chest, random=True),
    ActionType("hero-killed", "A hero dies: the heroes lose his conquest value +1 per curse token; curses and dark relics are discarded; cursed items discarded or re-equipped.",
               schema({"hero": NAME, "conquest_value": {"type": "integer", "minimum": 0, "maximum": 20},
                       "cursed_items": {"type": "array", "maxItems": 20, "items": {"type": "object", "properties": {"item": NAME, "choice": {"enum": ["discard", "re-equip"]}}, "required": ["item", "choice"], "additionalProperties": False}},
                       "corrupted_instant_death_wounds": COUNT}, ["hero"]), hero_killed, random=False),
    ActionType("gain-curses", "A hero gains curse tokens (+1 conquest value each).",
               schema({"hero": NAME, "count": COUNT, "source": NAME}, ["hero", "count"]), gain_curses, random=False),
    ActionType("equip-cursed-item", "A hero equips a cursed item and gains 1 curse token.",
               schema({"hero": NAME, "item": NAME}, ["hero", "item"]), equip_cursed_item, random=False),
]
