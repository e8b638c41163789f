"""A scene's set-up: the heroes' standing from the campaign, chiefs and objectives, the scene's appearance cards
(scenes.set_up), and what the table states when a session starts (its "setup")."""

from __future__ import annotations

from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionType
from tracker.rulesets.yokai_quest import scenes
from tracker.rulesets.yokai_quest.actions import COINS, ID
from tracker.rulesets.yokai_quest.published import as_published

SCHEMA = {
    "type": "object",
    "properties": {
        "health": {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 30},
            "maxProperties": 6,
            "description": "Each hero's Health, read from their control panel by the table, for heroes the rulebook text and "
            "the campaign's component data leave without one (L278-L280); recorded as stated.",
        },
        "coins": {**COINS, "description": "The yōkai-wind coins' faces as set up; the scenes do not say (digest §12.12)."},
        "abilities": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": ID, "minItems": 4, "maxItems": 4, "uniqueItems": True},
            "maxProperties": 6,
            "description": "Each hero's four abilities, chosen from their own four and their class's six when the heroes are "
            "prepared (L145); a hero not named keeps the four chosen before.",
        },
        "objectives": {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 10},
            "maxProperties": 4,
            "description": "How many of each objective stand on the board where the text lost the number "
            "(Final Destination 2's Pillars of Energy).",
        },
    },
    "additionalProperties": False,
}

SET_UP = as_published(ActionType(
    SET_UP_QUEST,
    "Scene set-up: the heroes' standing from the campaign, chiefs and objectives, the scene's appearance cards.",
    {"type": "object"},
    scenes.set_up,
    internal=True,
))
