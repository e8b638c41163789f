"""The JSON Schema of a Yōkai Quest session's game state: the scene's state as scenes.py sets it up and state.py's
folds change it (GET /rulesets/yokai-quest ``state_schema``; tracker/rulesets/engine/state_schema.py). The keys a
version adds at set-up (the Yōkai phase, activations, energy cards, the entrance, the yōkai's order: versions.py) are
declared but not required: a scene of an earlier version has none of them."""

from __future__ import annotations

from tracker.rulesets.engine.state_schema import (
    BOOLEAN, CORRECTIONS, COUNTS, INTEGER, STRING, STRINGS, closed, game_state, list_of, map_of, nullable,
)

# A hero's standing (state.new_standing; a 1.0.0 standing has no abilities nor max_health_source: versions.py).
STANDING = closed(
    {
        "health": INTEGER,
        "max_health": INTEGER,
        "max_health_source": STRING,
        "energy": INTEGER,
        "abilities": STRINGS,
        "defeated": BOOLEAN,
        "hand": STRINGS,
        "equipped": map_of(nullable(STRING), "Each panel space (hero_rules.equipment_slots) to the item in it, or null."),
        "altered_states": COUNTS,
        "reload": COUNTS,
        "empowerments": STRINGS,
        "treasures_drawn": INTEGER,
        "defeats": INTEGER,
        "revivals": INTEGER,
        "corrections": CORRECTIONS,
    },
    required=("health", "max_health", "energy", "defeated", "hand", "equipped", "altered_states", "reload", "empowerments",
              "treasures_drawn", "defeats", "revivals"),
)
OWED = closed({"hero": STRING, "reason": STRING, "search": nullable(STRING), "equip": BOOLEAN}, required=("hero", "reason", "search"))
SCENE_RESULT = closed(
    {
        "outcome": STRING,
        "reason": nullable(STRING),
        "victory_condition": nullable(STRING),
        "victory_conditions": STRINGS,
        "reported": map_of(STRING, "The facts the table stated with the scene's end, by the condition that asks for them (end-scene's reported)."),
        "completes_story": BOOLEAN,
        "full_energy_next_story": BOOLEAN,
    },
    required=("outcome", "reason", "victory_condition", "victory_conditions", "reported", "completes_story", "full_energy_next_story"),
)
ACTIVATION = closed(
    {"hero": STRING, "actions_used": INTEGER, "taken": STRINGS, "basic_movement": INTEGER},
    required=("hero", "actions_used", "taken", "basic_movement"),
    description="The hero activating now: the actions used and taken, the basic movements made.",
)

SCHEMA = game_state(
    "yokai-quest",
    "Yōkai Quest",
    {
        "story": STRING,
        "scene": STRING,
        "attempt": INTEGER,
        "health_policy": STRING,
        "board_kept": BOOLEAN,
        "heroes": map_of(STANDING, "Each hero's standing."),
        "start_heroes": map_of(STANDING, "Each hero's standing as the scene began: the one a reattempt restores."),
        "foes": map_of(closed({"character": STRING, "health": INTEGER}, required=("character", "health")), "Each chief or boss in play."),
        "objective_counts": COUNTS,
        "phase": {"type": "string", "enum": ["hero", "yokai"]},
        "coins": map_of(nullable(STRING), "Each coin's face up, or null before it is turned."),
        "in_play": COUNTS,
        "start_in_play": COUNTS,
        "yokai_tokens": map_of(COUNTS, "Each yōkai token's holders, by yōkai."),
        "appearances_left": STRINGS,
        "spawns_left": STRINGS,
        "refill_left": INTEGER,
        "pending_appearances": list_of(closed({"point": STRING, "card": STRING}, required=("point", "card"))),
        "treasure_reserve": INTEGER,
        "treasure_owed": list_of(OWED),
        "defeated_yokai": list_of(closed({"yokai": STRING, "turn": INTEGER}, required=("yokai", "turn"))),
        "achievements": STRINGS,
        "energy_spent": INTEGER,
        "swapped_this_turn": STRINGS,
        "consumable_used_this_turn": STRINGS,
        "scene_result": nullable(SCENE_RESULT),
        "activation": nullable(ACTIVATION),
        "activated": STRINGS,
        "used_this_turn": map_of(STRINGS, "What each hero used this turn."),
        "energy_drawn": STRINGS,
        "at_entrance": STRINGS,
        "initiative_acted": nullable(INTEGER),
        "health_lost_by_conversion": COUNTS,
        "restart_story": BOOLEAN,
    },
    set_up=("story", "scene", "attempt", "health_policy", "board_kept", "heroes", "start_heroes", "foes", "treasure_reserve",
              "treasure_owed", "defeated_yokai", "achievements", "energy_spent", "swapped_this_turn", "consumable_used_this_turn",
              "scene_result"),
    description="A Yōkai Quest scene's game state: the heroes' standing (and as the scene began), the foes and yōkai in play, "
                "the Yōkai phase, the activations, the treasure owed and the scene's result.",
)
