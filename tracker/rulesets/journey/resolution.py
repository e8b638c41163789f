"""A Journey action being resolved: the one working copy (tracker/rulesets/engine/working_copy.py), read in
Journey's words (a Pilgrim, a character's profile stat, a trade table)."""

from __future__ import annotations

from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine import components as component_data
from tracker.rulesets.engine.working_copy import WorkingCopy

GAME_PHASES = ("maintenance", "pilgrim", "demon", "end")


class Resolution(WorkingCopy):

    def hero(self, hero_id: str) -> dict[str, Any]:
        heroes = self.game.get("heroes", {})
        if hero_id not in heroes:
            raise Unprocessable(
                f"'{hero_id}' is not a Pilgrim of this quest",
                detail=f"Pilgrims: {wording.listed(sorted(heroes))}.",
                errors={"hero": [f"Not in this quest: {hero_id}"]},
            )
        return heroes[hero_id]

    def character(self, character_id: str) -> dict[str, Any]:
        for character in self.ctx.ruleset.data["characters"]:
            if character["id"] == character_id:
                return character
        raise Unprocessable(f"Unknown character '{character_id}'", errors={"character": [character_id]})

    def stat(self, character_id: str, stat: str, purpose: str) -> Any:
        """A profile stat from the rules, or from the campaign's component data when the rules lost it."""
        value = self.character(character_id)["stats"].get(stat)
        if value is None:
            value = (((self.ctx.components.get("characters") or {}).get(character_id) or {}).get("stats") or {}).get(stat)
        if value is None:
            raise Unprocessable(
                f"{self.character(character_id)['name']}'s {stat} is unknown",
                detail=(
                    f"{purpose} needs it, and the rulebook transcription lost it. Supply it as component data: "
                    f'"components": {{"characters": {{"{character_id}": {{"stats": {{"{stat}": ...}}}}}}}} when creating the campaign.'
                ),
                errors={f"components.characters.{character_id}.stats.{stat}": ["Unknown; supply it as component data."]},
            )
        return value

    def rule(self, *path: str) -> Any:
        """A figure of the rules data (``rule("pilgrim_rules", "action_points")``): the data decides the rule, the code
        keeps no copy of it."""
        value: Any = self.ctx.ruleset.data
        for key in path:
            value = value[key]
        return value

    def table(self, table_id: str) -> Any:
        return component_data.table(self.ctx.components, table_id)


def skill_deck(hero_id: str) -> str:
    return f"skill-{hero_id}"
