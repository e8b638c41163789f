"""JSON Schemas of Kung Fu Panda's action requests, campaign options and mission set-up."""

from __future__ import annotations

from typing import Any

RESULTS = ["Punch", "Kick", "Claws", "Chi", "Move"]
HEROES = ["po", "tigress", "viper", "monkey", "mantis", "crane"]
ENEMY_IDS = ["wolf-spearman", "wolf-slasher", "ox-grunt", "wolf-boss", "tai-lung"]
TOKENS = ["dumplings", "scroll", "dragon-scroll", "villager", "lever", "wall", "gong", "cart"]
MISSIONS = ["m1-1", "m1-2", "m1-3", "m2-1", "m2-2", "m2-3", "m3-1", "m3-2", "m3-3"]

TILE = {"type": "string", "minLength": 1, "maxLength": 40}
HERO = {"enum": HEROES}
ENEMY = {"enum": ENEMY_IDS}
POOL = {"type": "array", "items": {"enum": RESULTS}, "maxItems": 4}
SPENT = {"type": "object", "propertyNames": HERO, "additionalProperties": {**POOL, "minItems": 1}, "minProperties": 1}
COUNT = {"type": "integer", "minimum": 1, "maximum": 26}
REASON = {"type": "string", "minLength": 1, "maxLength": 500}
NAME = {"type": "string", "minLength": 1, "maxLength": 40}  # a villager or cart as the table names it


def obj(properties: dict[str, Any], required: list[str] = (), **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False, **extra}


def action(name: str, properties: dict[str, Any], required: list[str] = ()) -> dict[str, Any]:
    return obj({"type": {"const": name}, **properties}, ["type", *required])


ENEMIES_BY_TILE = {"type": "object", "propertyNames": TILE, "additionalProperties": obj({e: {"type": "integer", "minimum": 0, "maximum": 26} for e in ENEMY_IDS})}

OPTIONS = obj(
    {
        "mode": {"enum": ["standard", "young-masters", "awesome"]},
        "length": {"enum": ["single", "adventure", "story"]},
        "adventure": {"enum": [1, 2, 3]},
        "mission": {"enum": ["lesson-1", "lesson-2", *MISSIONS]},
    },
    allOf=[
        {"if": {"properties": {"length": {"const": "adventure"}}, "required": ["length"]}, "then": {"required": ["adventure"]}},
        {"if": {"properties": {"length": {"const": "single"}}, "required": ["length"]}, "then": {"required": ["mission"]}},
    ],
)

SETUP = obj(
    {
        "start_tile": TILE,
        "tiles": {"type": "object", "propertyNames": HERO, "additionalProperties": TILE},
        "dials": {"type": "object", "propertyNames": HERO, "additionalProperties": {"enum": [1, 2, 3, 4]}},
        "enemies": ENEMIES_BY_TILE,
        "spawn_points": {"type": "object", "propertyNames": {"enum": ["1", "2", "3", "4", "5", "6"]}, "additionalProperties": TILE},
        "figures": {"type": "object", "propertyNames": {"enum": ["tai-lung", "wolf-boss"]}, "additionalProperties": TILE},
        "end_tile": TILE,
        "guard_wall": TILE,
        "line": {"type": "array", "items": TILE, "minItems": 2, "maxItems": 20},
        "villagers": {"type": "object", "propertyNames": NAME, "additionalProperties": TILE, "maxProperties": 20},
        "carts": {"type": "object", "propertyNames": NAME, "additionalProperties": TILE, "maxProperties": 4},
        "special_moves": {"type": "object", "propertyNames": HERO, "additionalProperties": {"type": "string", "minLength": 1, "maxLength": 200}},
    }
)

SPACE = obj(
    {
        "space": {"enum": ["play", "blank", "spawn", "fight-back"]},
        "enemy": {"enum": ["wolf-spearman", "wolf-slasher", "ox-grunt"]},
        "spawn_point": {"enum": [1, 2, 3, 4, 5, 6]},
        "spread_to": TILE,
        "to": TILE,
        "villagers": {"type": "object", "propertyNames": NAME, "additionalProperties": TILE},
        "grunts": {"type": "array", "items": obj({"from": TILE, "to": TILE, "count": {"type": "integer", "minimum": 1, "maximum": 4}}, ["from", "to"]), "maxItems": 4},
    },
    ["space"],
    allOf=[{"if": {"properties": {"space": {"const": "spawn"}}}, "then": {"required": ["space", "enemy", "spawn_point"]}}],
)

SPEND_FIELDS = {
    "heroes": SPENT,
    "for": {"enum": ["knock-out", "revive", "heal", "move", "token", "special-move", "wound-tai-lung"]},
    "enemy": ENEMY,
    "hero": HERO,
    "to": TILE,
    "token": {"enum": TOKENS},
    "card": {"type": "string", "minLength": 1, "maxLength": 200},
    "villager": NAME,
    "cart": NAME,
}

SUMMARY_FIELDS = {
    "spawned": {"type": "array", "items": obj({"enemy": ENEMY, "tile": TILE, "count": COUNT}, ["enemy", "tile"]), "maxItems": 100},
    "knocked_out": {"type": "array", "items": obj({"enemy": ENEMY, "tile": TILE, "count": COUNT}, ["enemy", "tile"]), "maxItems": 100},
    "damage": {"type": "object", "propertyNames": HERO, "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 20}},
    "revived": {"type": "array", "items": HERO, "uniqueItems": True},
    "healed": {"type": "object", "propertyNames": HERO, "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 4}},
    "moved": {"type": "object", "propertyNames": HERO, "additionalProperties": TILE},
    "tokens": {"type": "array", "items": obj({"token": {"enum": TOKENS}, "by": HERO, "count": COUNT}, ["token", "by"]), "maxItems": 50},
    "claws": {"type": "object", "propertyNames": HERO, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 200}},
    "special_moves": {"type": "array", "items": obj({"hero": HERO, "card": {"type": "string", "minLength": 1, "maxLength": 200}}, ["hero", "card"])},
    "figures": {"type": "object", "propertyNames": {"enum": ["tai-lung", "wolf-boss"]}, "additionalProperties": TILE},
    "villagers": {"type": "object", "propertyNames": NAME, "additionalProperties": TILE},
    "rescued": {"type": "array", "items": NAME, "uniqueItems": True, "maxItems": 20},
    "carts": {"type": "object", "propertyNames": NAME, "additionalProperties": TILE},
    "mission_won": {"type": "boolean"},
    "note": REASON,
}

AMEND = obj(
    {
        "health": {"type": "object", "propertyNames": HERO, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4}},
        "tiles": {"type": "object", "propertyNames": HERO, "additionalProperties": TILE},
        "dials": {"type": "object", "propertyNames": HERO, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 1000}},
        "enemies": ENEMIES_BY_TILE,
        "knocked_out": {"type": "object", "propertyNames": ENEMY, "additionalProperties": {"type": "integer", "minimum": -26, "maximum": 26}},
        "tokens": {"type": "object", "propertyNames": {"enum": TOKENS}, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 20}},
        "dumplings": {"anyOf": [HERO, {"type": "null"}]},
    },
    minProperties=1,
)
