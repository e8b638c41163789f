"""The JSON Schema of a Kung Fu Panda session's game state: every key state.py's folds write (GET
/rulesets/kung-fu-panda ``state_schema``; tracker/rulesets/engine/state_schema.py)."""

from __future__ import annotations

from tracker.rulesets.engine.state_schema import (
    BOOLEAN, COUNTS, INTEGER, STRING, STRINGS, closed, game_state, list_of, map_of, nullable,
)

HERO = closed(
    {"tile": STRING, "health": INTEGER, "ko": BOOLEAN, "dial": INTEGER, "dial_number": INTEGER},
    required=("tile", "health", "ko", "dial", "dial_number"),
)
RESULT = closed(
    {"result": {"type": "string", "enum": ["won", "lost"]}, "round": INTEGER, "loss": STRING, "condition": nullable(STRING)},
    required=("result", "round"),
    description="How the mission ended, once it did.",
)
POOLS = map_of(STRINGS, "Each hero's dice results, as rolled or kept.")

SCHEMA = game_state(
    "kung-fu-panda",
    "Kung Fu Panda",
    {
        "mission": STRING,
        "mode": STRING,
        "length": STRING,
        "dial_side": STRING,
        "players": INTEGER,
        "heroes": map_of(HERO, "Each hero's tile, health, knock-out and Destiny dial."),
        "enemies": map_of(COUNTS, "Each tile's enemies, by enemy id."),
        "spawn_points": map_of(STRING, "Each numbered spawn point's tile."),
        "figures": map_of(STRING, "Each single figure's tile (Tai Lung, the Wolf Boss, ...)."),
        "end_tile": nullable(STRING),
        "villagers": map_of(closed({"tile": nullable(STRING), "rescued": BOOLEAN}, required=("tile", "rescued"))),
        "carts": map_of(STRING, "Each cart's tile."),
        "carts_reached": STRINGS,
        "guard_wall": nullable(STRING),
        "line": STRINGS,
        "special_moves": map_of(STRING, "The Special Move card each hero holds."),
        "special_moves_received": nullable(STRING),
        "special_moves_used": list_of(closed({"hero": STRING, "card": STRING}, required=("hero", "card"))),
        "round": INTEGER,
        "phase": {"type": "string", "enum": ["ready", "round", "pause", "over"]},
        "entry": nullable({"type": "string", "enum": ["detail", "summary", "mixed"]}),
        "rounds": list_of(closed({"round": INTEGER, "entry": STRING}, required=("round", "entry"))),
        "pools": POOLS,
        "kept": POOLS,
        "paused_after": INTEGER,
        "knocked_out": COUNTS,
        "tokens": COUNTS,
        "levers": STRINGS,
        "dumplings": nullable(STRING),
        "kitchen_lost": BOOLEAN,
        "result": nullable(RESULT),
    },
    set_up=("mission", "mode", "players", "heroes", "enemies", "figures", "end_tile", "villagers", "round", "phase", "entry",
              "rounds", "pools", "knocked_out", "tokens", "dumplings", "result"),
    description="A Kung Fu Panda session's game state: the heroes, the enemies and figures on the tiles, the round and its "
                "dice pools, the tokens collected and the mission's result.",
)
