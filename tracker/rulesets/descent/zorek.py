"""The Altar of Despair's Zorek and great stone doors (L684–L691).

Zorek starts facing north; at the start of each overlord turn a yellow die is rolled and he turns 90° to the right per
point of range. Every hero in his line of sight that way gains a curse token and then loses 6 wounds ignoring armour;
every monster in it is killed. Closed stone doors block the gaze. A hero ending his movement on a temple encounter marker
closes a stone door; at the end of each turn a power die is rolled per closed door and a blank opens it for good.
Who is in the line of sight is on the map, which the tracker does not have: the group says."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.descent.common import NAME, quest, refuse, require_hero, schema
from tracker.rulesets.descent.combat import DEATH
from tracker.rulesets.descent.figures import require_figure
from tracker.rulesets.descent.harm import deaths_after
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

CLOCKWISE = ("north", "east", "south", "west")


def rules(ctx: ActionContext) -> Mapping[str, Any]:
    q = quest(ctx)
    if "zorek" not in q:
        raise refuse(f"There is no Zorek in {q['name']}", "Zorek's gaze and the great stone doors belong to The Altar of Despair.", "type")
    return q["zorek"]


def state(ctx: ActionContext) -> Mapping[str, Any]:
    known = ctx.game.get("zorek") or {"facing": None, "doors_closed": [], "doors_opened": []}
    return {**known, "facing": known["facing"] or rules(ctx)["starts_facing"]}


def range_of(face: str) -> int:
    """The range on a yellow die face written like '0D 2R 1S'; a miss (X) shows none."""
    found = re.search(r"(\d+)R", face)
    return int(found.group(1)) if found else 0


def turned(facing: str, points: int) -> str:
    return CLOCKWISE[(CLOCKWISE.index(facing) + points) % len(CLOCKWISE)]


def gaze(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rule = rules(ctx)
    for hero in params.get("heroes_hit", []):
        require_hero(ctx, hero)
    faces = {rule["gaze_die"]: [params["face"]]} if params.get("face") is not None else None
    rolled = dice.roll_change(ctx.dice, {rule["gaze_die"]: 1}, faces, rng, "Zorek's gaze")
    points = range_of(rolled["roll"]["results"][rule["gaze_die"]][0])
    before = state(ctx)["facing"]
    hit = rule["hero_hit"]
    changes: list[dict[str, Any]] = [
        rolled,
        {"kind": "zorek-gazed", "range": points, "from": before, "facing": turned(before, points * rule["quarter_turns_per_range_point"]),
         "heroes_hit": list(params.get("heroes_hit", [])), "wounds_each": hit["wounds"], "ignores_armour": hit["ignores_armour"],
         "monsters_killed": params.get("monsters_killed", 0)},
    ]
    for hero in params.get("heroes_hit", []):
        changes.append({"kind": "curses-gained", "hero": hero, "count": hit["curses"], "source": "zorek-gaze"})
    for figure in params.get("figures_killed", []):  # rules 1.2.0: the monster figures in his line of sight, by id
        _, monster = require_figure(ctx, figure, "figures_killed")
        changes.append({"kind": "monster-killed", "figure": figure, "monster": monster["monster"], "by": "zorek-gaze"})
    return deaths_after(ctx, changes, list(params.get("heroes_hit", [])), params.get("deaths") or {}, rng)


def close_stone_door(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rule = rules(ctx)["stone_doors"]
    require_hero(ctx, params["hero"])
    doors = state(ctx)
    # "the door opens again and can no longer be closed for the rest of the game" (L691)
    if params["door"] in doors["doors_opened"] and not rule["closes_again"]:
        raise refuse(f"Stone door '{params['door']}' opened again and can no longer close", "A reopened door stays open for the rest of the game (L691).", "door")
    if params["door"] in doors["doors_closed"]:
        raise refuse(f"Stone door '{params['door']}' is already closed", "Figures cannot open it; a blank on its power die does.", "door")
    return [{"kind": "stone-door-closed", "door": params["door"], "hero": params["hero"]}]


def roll_stone_doors(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rule = rules(ctx)["stone_doors"]
    closed = list(state(ctx)["doors_closed"])
    if not closed:
        raise refuse("No stone door is closed", "A power die is rolled per closed stone door at the end of each turn.", "type")
    faces = {rule["die"]: params["faces"]} if params.get("faces") is not None else None
    per = rule["per_closed_door"]  # "at the end of each turn, roll a power die for each closed stone door. On a blank result, the door opens again" (L691)
    rolled = dice.roll_change(ctx.dice, {rule["die"]: len(closed) * per}, faces, rng, "great stone doors")
    results = rolled["roll"]["results"][rule["die"]]
    opened = [door for i, door in enumerate(closed) if rule["opens_on"] in results[i * per:(i + 1) * per]]
    return [rolled, {"kind": "stone-doors-rolled", "doors": closed, "results": list(results), "opened": opened}]


ACTIONS = [
    ActionType("zorek-gaze", "Start of the overlord's turn in The Altar of Despair: a yellow die turns Zorek 90° right per point of range; each hero in his line of sight gains a curse and loses 6 wounds ignoring armour; monsters in it die.",
               schema({"face": NAME, "heroes_hit": {"type": "array", "items": NAME, "maxItems": 10}, "monsters_killed": {"type": "integer", "minimum": 0, "maximum": 50},
                       "figures_killed": {"type": "array", "items": NAME, "maxItems": 30, "uniqueItems": True},
                       "deaths": {"type": "object", "additionalProperties": DEATH, "maxProperties": 6, "description": "For a hero the gaze kills: what hero-killed needs."}}, []),
               gaze, random=True),
    ActionType("close-stone-door", "A hero ends his movement on a temple encounter marker: a great stone door closes that corridor.",
               schema({"hero": NAME, "door": NAME}, ["hero", "door"]), close_stone_door, random=False),
    ActionType("roll-stone-doors", "End of a turn: a power die per closed stone door; a blank opens that door for the rest of the game (dice in the order the doors closed).",
               schema({"faces": {"type": "array", "items": {"enum": ["blank", "surge", "enhancement"]}, "minItems": 1, "maxItems": 20}}, []), roll_stone_doors, random=True),
]
