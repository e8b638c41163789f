"""The JSON Schema of a Journey session's game state: every key state.py's folds write (GET /rulesets/journey
``state_schema``; tracker/rulesets/engine/state_schema.py)."""

from __future__ import annotations

from tracker.rulesets.engine.state_schema import (
    BOOLEAN, CORRECTIONS, COUNTS, INTEGER, STRING, STRINGS, closed, game_state, list_of, map_of, nullable,
)

SKILL = closed({"name": STRING, "kind": nullable(STRING)}, required=("name",))

# A Pilgrim's sheet (state.new_hero; a 1.0.0 sheet may lack what later versions added: only its first keys are required).
SHEET = closed(
    {
        "hp": nullable(INTEGER),
        "max_hp": nullable(INTEGER),
        "chi": nullable(INTEGER),
        "good": INTEGER,
        "bad": INTEGER,
        "weapon_level": nullable(INTEGER),
        "skills": list_of(SKILL),
        "corruption": STRINGS,
        "fortune": STRINGS,
        "misfortune": STRINGS,
        "conditions": list_of(closed({"id": STRING, "tokens": INTEGER}, required=("id", "tokens"))),
        "status": {"type": "string", "enum": ["conscious", "face-down", "side", "back", "dead"]},
        "sutras": STRINGS,
        "villagers": STRINGS,
        "wells_used": STRINGS,
        "skill_draws_owed": INTEGER,
        "corrections": CORRECTIONS,
    },
    required=("hp", "chi", "good", "bad", "weapon_level", "status"),
)

# What the quest's victory conditions ask about and no sheet keeps (state.new_record).
RECORD = closed(
    {
        "defeated": STRINGS,
        "revived": STRINGS,
        "meditated": STRINGS,
        "skills_played": STRINGS,
        "attacked": STRINGS,
        "defeats": COUNTS,
        "kei_lun_calmed": BOOLEAN,
        "kei_lun_killed": BOOLEAN,
        "sealing_ritual": BOOLEAN,
    },
)

SCHEMA = game_state(
    "journey",
    "Journey",
    {
        "quest": STRING,
        "mode": STRING,
        "initiative": STRINGS,
        "demons": map_of(STRING, "Each Demon on the board: its figure id to its character."),
        "gates": map_of(STRING, "Each Gate to its state (active, closed, ...)."),
        "phase": STRING,
        "activated": {"type": "array", "items": nullable(STRING)},
        "active": nullable(STRING),
        "ap": INTEGER,
        "activation": closed({"master_skill": INTEGER, "rests": INTEGER, "mystical_box": INTEGER},
                             description="What the active Pilgrim has done in this activation."),
        "rage": BOOLEAN,
        "rage_until": nullable(STRING),
        "demon_ap": INTEGER,
        "special_cards": STRINGS,
        "reached_ten": list_of(closed({"hero": nullable(STRING), "wheel": STRING, "value": INTEGER}, required=("hero", "wheel", "value"))),
        "spawned": INTEGER,
        "tokens": map_of(STRINGS, "The quest's tokens by kind (doors, wells, villagers, ...), each kind's token ids."),
        "gate_turn_tokens": map_of(INTEGER),
        "record": RECORD,
        "kogaiji_spell": BOOLEAN,
        "villagers_replaced": STRINGS,
        "banished": map_of(INTEGER, "Each banished Demon Lord's Turn Tokens left."),
        "villager_turn_tokens": map_of(INTEGER),
        "kei_lun": nullable(closed({"hp": nullable(INTEGER), "stance": STRING, "status": STRING})),
        "fortune_choice": nullable(STRING),
        "readings": map_of(STRING, "The table's reading of each open rule (readings.py)."),
        "heroes": map_of(SHEET, "Each Pilgrim's sheet."),
    },
    set_up=("quest", "mode", "initiative", "demons", "gates", "phase", "activated", "active", "ap", "activation", "rage",
              "demon_ap", "special_cards", "reached_ten", "heroes"),
    description="A Journey session's game state: the Pilgrims' sheets, the board (Demons, Gates, tokens), the turn's phase and "
                "activation, and the quest's record its victory conditions read.",
)
