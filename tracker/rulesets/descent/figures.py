"""Which figures are in play and how whole they are: the party's heroes (their sheets stated at set-up) and the
monster figures, each given an id when it enters play so an attack can name it.

The monsters' reference cards are not in the transcription, so a figure's wounds and armour are what the table
states when it enters play, or what the rules data knows of a named monster (the Thing in the Pit's 1 armour, L388;
Basalt's 3, L606). Unknown stays unknown: an attack on such a figure states its result."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.rulesets.descent import spirit_figures
from tracker.rulesets.descent.abilities import stated_abilities
from tracker.rulesets.descent.common import NAME, plays_only, refuse, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

STAT = {"type": "integer", "minimum": 0, "maximum": 200}
ZONE = {"type": "string", "pattern": "^(starting-zone|zone-[1-9][0-9]?)$",
        "description": "The zone it stands in, as the quest's map numbers it: \"zone-4\", or \"starting-zone\" (the table reports it; the maps are lost)."}
SHEET = {"type": "object", "properties": {"wounds": {"type": "integer", "minimum": 1, "maximum": 100}, "fatigue": STAT, "armor": STAT},
         "additionalProperties": False}


def combat_rules(ctx: ActionContext) -> Mapping[str, Any]:
    """The combat rules data; a version that recorded no wounds refuses combat (versions.py)."""
    ctx.ruleset.rules.version.require(ctx, "combat", "This campaign's rules data records no combat", "Combat, wounds and ready actions are recorded", "type")
    return ctx.ruleset.data["combat"]


def check_rules_data(data: Mapping[str, Any]) -> None:
    """A hero's start of a quest as the set-up plays it, refused at load otherwise (issue 31)."""
    # L131-L132: each quest is its own game (the deck "restored to its original condition" at its end; carry_over none):
    # a hero starts it at his sheet's full wounds and fatigue (the data's reading, combat.heroes_start_whole_reading). The
    # base set-up is not in the transcription, so no other start is a rule the book states.
    plays_only(data, "combat.heroes_start_whole", data["combat"]["heroes_start_whole"], True,
               "a hero starts each quest at his sheet's full wounds and fatigue (L131-L132, the data's reading)")


def hero_sheets(data: Mapping[str, Any], party: list[str], stated: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each hero's wounds, fatigue and armour at the start of the quest: the printed value where the rules data has it,
    else as stated at set-up (setup.hero_sheets), else unknown (None). A hero starts whole (the data's reading)."""
    strangers = sorted(set(stated) - set(party))
    if strangers:
        raise refuse(f"{', '.join(strangers)} is not in the party", f"Party: {party}.", "setup.hero_sheets")
    printed = {c["id"]: c.get("stats") or {} for c in data["characters"]}
    sheets: dict[str, dict[str, Any]] = {}
    for hero_id in party:
        sheet: dict[str, Any] = {"stated": []}
        for stat in ("wounds", "fatigue", "armor"):
            known = printed.get(hero_id, {}).get(stat)
            said = (stated.get(hero_id) or {}).get(stat)
            if known is not None and said is not None and said != known:
                raise refuse(f"{hero_id}'s {stat} is {known}, not {said}", "Leave it out to use the printed value.", f"setup.hero_sheets.{hero_id}.{stat}")
            sheet[stat] = known if known is not None else said
            if known is None and said is not None:
                sheet["stated"].append(stat)
        sheets[hero_id] = sheet
    return sheets


def in_play(game: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {fid: f for fid, f in (game.get("monsters") or {}).items() if not f["killed"]}


def require_figure(ctx: ActionContext, figure_id: str, field: str) -> tuple[str, dict[str, Any]]:
    """A hero of the party or a monster figure in play; an unknown id is refused with the ids in play."""
    heroes = ctx.game.get("heroes", {})
    if figure_id in heroes:
        return "hero", heroes[figure_id]
    monsters = in_play(ctx.game)
    if figure_id in monsters:
        return "monster", monsters[figure_id]
    dead = (ctx.game.get("monsters") or {}).get(figure_id)
    title = f"'{figure_id}' was killed" if dead else f"'{figure_id}' is not a figure in play"
    raise refuse(title, f"Heroes: {wording.listed(sorted(heroes))}; monsters in play: {wording.listed(sorted(monsters))}.", field)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "monster"


def new_ids(game: Mapping[str, Any], kinds: list[str]) -> list[str]:
    """Ids for figures entering play: their kind and a number, counted over the whole quest (a dead troll's id is never reused)."""
    taken = set(game.get("monsters") or {})
    ids = []
    for kind in kinds:
        n = 1
        while f"{_slug(kind)}-{n}" in taken:
            n += 1
        taken.add(f"{_slug(kind)}-{n}")
        ids.append(f"{_slug(kind)}-{n}")
    return ids


def _named(ctx: ActionContext, entry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if "named" not in entry:
        return None
    known = {m["id"]: m for m in combat_rules(ctx)["named_monsters"]}
    named = known.get(entry["named"])
    if named is None:
        raise refuse(f"'{entry['named']}' is not a named monster of the rules data", f"Named monsters: {wording.listed(sorted(known))}.", "monsters")
    if named["quest"] != ctx.game["quest"]:
        raise refuse(f"{named['name']} belongs to another quest", f"It is in '{named['quest']}'.", "monsters")
    return named


def figures_entering(ctx: ActionContext, entries: list[Mapping[str, Any]], source: str) -> dict[str, Any]:
    """The change that puts monster figures on the board, each with its id, kind and what is known of it."""
    figures = []
    spirits: set[str] = set()
    ids = new_ids(ctx.game, [e.get("named") or e["monster"] for e in entries])
    for figure_id, entry in zip(ids, entries):
        named = _named(ctx, entry)
        armour, stated = entry.get("armor"), []
        if named is not None:
            if named["armor"] is not None and armour is not None and armour != named["armor"]:
                raise refuse(f"{named['name']} has {named['armor']} armour, not {armour}", f"Leave armor out ({', '.join(s.split(' ')[-1] for s in named['source'])}).", "monsters")
            armour = named["armor"] if named["armor"] is not None else armour
        for stat in ("wounds", "armor"):
            if entry.get(stat) is not None and not (stat == "armor" and named is not None and named["armor"] is not None):
                stated.append(stat)
        known = {}
        if entry.get("abilities"):
            ctx.ruleset.rules.version.require(ctx, "abilities", "This campaign's rules data records no abilities", "Figures' abilities are recorded", "monsters")
            known = {"abilities": stated_abilities(combat_rules(ctx), entry["abilities"], "monsters")}
            stated.append("abilities")
        printed = (named or {}).get("abilities") or {}  # what the quest text gives a named monster (the demon's Fear 3, L661)
        for name, rank in printed.items():
            if known.get("abilities", {}).get(name, rank) != rank:
                raise refuse(f"{named['name']} has {name} {rank}, not {known['abilities'][name]}", f"Leave {name} out ({', '.join(s.split(' ')[-1] for s in named['source'])}).", "monsters")
        if printed:
            known = {"abilities": {**known.get("abilities", {}), **printed}}
        if entry.get("spirit"):  # L618: a spirit has Superior Undying
            known = {**spirit_figures.entering(ctx, entry, spirits), "abilities": {**known.get("abilities", {}), spirit_figures.SUPERIOR_UNDYING: 1}}
            spirits.add(entry["spirit"])
        figures.append({
            "id": figure_id, "monster": named["monster"] if named else entry["monster"], "master": bool(named and named["master"]) or entry.get("master", False),
            **({"named": named["id"]} if named else {}), "wounds": entry.get("wounds"), "armor": armour, "stated": stated, **known,
            **({"zone": entry["zone"]} if "zone" in entry else {}),  # where the table placed it (figure_conditions.py)
        })
    return {"kind": "monsters-placed", "figures": figures, "source": source}


def place_monsters(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Monsters put on the board by the quest's set-up of a revealed zone, a spawn, an ambush or a quest's script."""
    combat_rules(ctx)
    return [figures_entering(ctx, params["monsters"], params["source"])]


def state_wounds(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The table states a figure's wounds (and a hero's fatigue) where the log cannot know them: a hero back from death
    (the text does not say how whole, §10.1 item 5), a figure whose card the transcription lost. Recorded as stated."""
    combat_rules(ctx)
    side, _ = require_figure(ctx, params["figure"], "figure")
    if side == "monster" and "fatigue" in params:
        raise refuse("Monsters have no fatigue", "Send wounds only for a monster.", "fatigue")
    if "wounds" not in params and "fatigue" not in params:
        raise refuse("Say the wounds or the fatigue", 'Send "wounds" and/or "fatigue".', "wounds")
    return [{"kind": "wounds-stated", "figure": params["figure"], "side": side, **{k: params[k] for k in ("wounds", "fatigue", "reason") if k in params}}]


MONSTER = {"type": "object", "properties": {"monster": NAME, "master": {"type": "boolean"},
                                           "named": {**NAME, "description": "A monster the quest's text names (GET /rulesets/descent: rules.combat.named_monsters ids, with what the text gives it)."}, "spirit": {**NAME, "description": "Into the Heart of Darkness: the spirit this master figure is (state.game.spirits.ids, L618; rules 1.5.0 on): it has Superior Undying, and the attack that kills it records the spirit's fate."}, "wounds": {"type": "integer", "minimum": 1, "maximum": 200}, "armor": STAT, "zone": ZONE,
                                           "abilities": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 10}, "maxProperties": 20,
                                                         "description": "The figure's special abilities from its reference card, by the rulebook's names with their rank X (1 where it has none), rules 1.3.0 on: {\"shadowcloak\": 1, \"fear\": 2}."}},
           "required": ["monster"], "additionalProperties": False}

ACTIONS = [
    ActionType("place-monsters", "Monster figures enter play (a revealed zone's set-up, a spawn, an ambush, a quest's script); each gets an id for attacks to name. Wounds and armour as the table states them, or as the rules data knows a named monster.",
               schema({"monsters": {"type": "array", "items": MONSTER, "minItems": 1, "maxItems": 30}, "source": NAME}, ["monsters", "source"]), place_monsters, random=False),
    ActionType("state-wounds", "The table states a figure's wounds (a hero's fatigue) the log cannot know: a hero back from death, a monster whose card was lost.",
               schema({"figure": NAME, "wounds": {"type": "integer", "minimum": 0, "maximum": 200}, "fatigue": STAT, "reason": NAME}, ["figure"]), state_wounds, random=False),
]
