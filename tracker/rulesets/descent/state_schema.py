"""The JSON Schema of a Descent session's game state: every key fold.py and fold_combat.py write, as the heroes' side
sees it too (hidden.py: counts where the overlord's glyphs and treachery are secret) (GET /rulesets/descent
``state_schema``; tracker/rulesets/engine/state_schema.py). A key a later rules version's set-up adds is declared but
not required: a quest of an earlier version has none of it."""

from __future__ import annotations

from tracker.rulesets.engine.state_schema import (
    BOOLEAN, CORRECTIONS, COUNTS, INTEGER, INTEGERS, STRING, STRINGS, closed, game_state, list_of, map_of, nullable,
)

# What a fight writes on any figure, hero or monster (fold_combat.py's _figure).
COMBAT = {
    "wounds": nullable(INTEGER),
    "max_wounds": nullable(INTEGER),
    "armor": nullable(INTEGER),
    "tokens": COUNTS,
    "tokens_resolved_turn": INTEGER,
    "daze_rolled": INTEGER,
    "stunned_turn": INTEGER,
    "wounds_suffered": INTEGER,
}
READIED = closed({"half_actions": STRINGS, "stunned": BOOLEAN, "turn": INTEGER}, required=("half_actions", "turn"))
HERO = closed(
    {
        **COMBAT,
        "curses": INTEGER,
        "frost": INTEGER,
        "coins": INTEGER,
        "dark_relics": STRINGS,
        "cursed_items": STRINGS,
        "items": STRINGS,
        "potions": COUNTS,
        "pack_potions": COUNTS,
        "potion_drunk_turn": nullable(INTEGER),
        "invulnerable": BOOLEAN,
        "deaths": INTEGER,
        "shattered": STRINGS,
        "fatigue": nullable(INTEGER),
        "max_fatigue": nullable(INTEGER),
        "orders": STRINGS,
        "readied": list_of(READIED),
        "transformed": STRING,
        "corrections": CORRECTIONS,
    },
    required=("curses", "frost", "coins", "items", "potions", "deaths"),
)
LEAP = closed(
    {"turn": INTEGER, "targets": STRINGS, "dodged_by": STRINGS, "results": map_of(STRINGS, "Each die's result, by die.")},
    required=("turn",),
)
MONSTER = closed(
    {
        **COMBAT,
        "monster": STRING,
        "master": BOOLEAN,
        "named": STRING,
        "spirit": STRING,
        "killed": BOOLEAN,
        "entered": STRING,
        "abilities": COUNTS,
        "zone": STRING,
        "attacked_turn": INTEGER,
        "leap": LEAP,
    },
    required=("monster", "master", "killed", "entered"),
)
PILE = {"oneOf": [STRINGS, {**INTEGER, "description": "How many (the heroes' view: the overlord's glyphs are secret)."}]}
TREACHERY = closed(
    {
        "granted": COUNTS,
        "remaining": COUNTS,
        "swaps": list_of(closed({"added": STRING, "colour": STRING, "cost": INTEGER, "removed": STRING},
                                required=("added", "colour", "cost", "removed"))),
        "glyphs": list_of(closed({"glyph": STRING, "paid": COUNTS}, required=("glyph", "paid"))),
        "cards_swapped": INTEGER,
        "dark_glyphs_bought": INTEGER,
    },
    required=("granted",),
    description="The overlord's treachery: granted, remaining and spent (the heroes see how many cards and glyphs, not which).",
)
PROLONGED = closed(
    {"task": STRING, "trait": STRING, "difficulty": {"type": ["integer", "string"]}, "progress": INTEGER, "heroes": STRINGS,
     "group": BOOLEAN, "continuous": BOOLEAN, "disruptable": BOOLEAN, "last_turn": INTEGER},
    required=("task", "progress", "heroes"),
)

SCHEMA = game_state(
    "descent",
    "Descent",
    {
        "quest": STRING,
        "conquest": INTEGER,
        "threat": INTEGER,
        "won": STRING,
        "lost": nullable(STRING),
        "phase": {"type": "string", "enum": ["heroes", "overlord"]},
        "active": nullable(STRING),
        "turns_taken": STRINGS,
        "turns_read": INTEGERS,
        "treachery": TREACHERY,
        "heroes": map_of(HERO, "Each hero's sheet."),
        "monsters": map_of(MONSTER, "Each monster figure placed, by figure id."),
        "glyph_pool": PILE,
        "glyphs_placed": PILE,
        "glyphs_activated": STRINGS,
        "glyph_triggers": COUNTS,
        "glyphs": closed({"count": INTEGER, "wounds": COUNTS, "destroyed": STRINGS}, required=("count", "wounds", "destroyed")),
        "prolonged": map_of(PROLONGED, "Each prolonged task under way, by task and hero."),
        "completed": STRINGS,
        "completed_progress": list_of(closed({"task": STRING, "progress": INTEGER, "heroes": STRINGS}, required=("task", "progress", "heroes"))),
        "chests_opened": STRINGS,
        "shop_unlocked": STRINGS,
        "opening_hand": nullable(INTEGER),
        "spent": COUNTS,
        "altars_destroyed": STRINGS,
        "temple_altars": closed({"ids": STRINGS, "used": COUNTS}, required=("ids", "used")),
        "thing_extra_wounds": INTEGER,
        "monkey_line_turns": INTEGERS,
        "troll_ambush_turns": INTEGERS,
        "spirits": map_of(STRINGS, "The spirits by what became of them (ids, convinced, angered, destroyed)."),
        "villagers": map_of(STRING, "Each villager to what became of them."),
        "prisoners": closed({"cells_opened": COUNTS, "clock_turns": INTEGERS, "rescued": INTEGERS, "sacrificed": INTEGERS, "wounds": INTEGER}),
        "secret_room": closed({"real": STRING, "face": STRING, "found": nullable(STRING), "rolled": BOOLEAN, "searched": map_of(BOOLEAN)}),
        "fissures": closed({"positions": INTEGERS, "stilled": BOOLEAN, "turns": INTEGERS}),
        "crushing_trap": closed({"apart": INTEGER, "disarmed": BOOLEAN, "moved_turn": nullable(INTEGER), "used": COUNTS}),
        "zorek": closed({"facing": STRING, "doors_opened": STRINGS, "doors_closed": STRINGS}),
    },
    set_up=("quest", "conquest", "threat", "lost", "treachery", "heroes", "glyph_pool", "glyphs_placed", "glyphs_activated", "prolonged",
            "chests_opened", "shop_unlocked", "spent"),
    description="A Descent quest's game state: the heroes' sheets and the monster figures, conquest and threat, the overlord's "
                "treachery and glyphs, the turn's side, and what the quest's own rules keep (altars, prisoners, spirits, ...).",
)
