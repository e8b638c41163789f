"""Descent's GameRules, built from the rules data it judges by: two sides, the overlord's secrets, its verdicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.engine import reported_facts
from tracker.rulesets.descent import hidden, ready, setup, sides, verdict, versions
from tracker.rulesets.descent.describe import describe
from tracker.rulesets.descent.events import CHANGES
from tracker.rulesets.engine.ruleset import GameRules
from tracker.rulesets.descent.state_schema import SCHEMA as STATE_SCHEMA


class Rules(GameRules):
    changes = CHANGES
    sides = ("heroes", "overlord")
    # "Simply shuffle the new heroes in with the others when choosing heroes at the start of the game" (L69): the heroes
    # are chosen from the box, one sheet and one figure each ("6 Hero Sheets", "6 Plastic Heroes", L34-L35), so a party
    # names each hero once. How many heroes a party holds is in the base game's rulebook, which the transcription does
    # not have (rules digest §10.1). A reading, the strict one: at most four heroes, the base game's party, never more.
    most_heroes = 4
    actor_fields = ("hero", "heroes", "attacker")
    # turn.py: end-turn ends the overlord's turn, and with it the turn (L273, L528, a reading: digest §10.2 item 6)
    turn_steps = ("end-turn",)

    @property
    def anytime_actions(self) -> tuple[str, ...]:
        """The actions the table records whenever they happen (the play page folds them), as the pinned version keeps the
        turn (versions.py): from 1.7.0 the turn's own ANYTIME list (turn.py), before it a reading of the page's."""
        return self.version.anytime_actions(self.client_actions)

    # common.stat: a hero's printed trait or conquest value, "as reported" when the data lost it.
    lost_fact_uses = {
        **{f"hero.{trait}": {"actions": ["prolonged-roll"], "per_use": 'send "trait_value" with the roll'} for trait in ("magic", "melee", "ranged")},
        "hero.conquest_value": {"actions": ["hero-killed"], "per_use": 'send "conquest_value" with hero-killed'},
    }
    options_schema = {
        "type": "object",
        "properties": {
            "dark_glyph_payment": {
                "enum": ["matching", "any"],
                "description": "'matching' (default): 2 treachery of the glyph's colour, as the rule says (L118); 'any': as the example at L120 pays.",
            }
        },
        "additionalProperties": False,
    }
    setup_schema = setup.SCHEMA
    state_schema = STATE_SCHEMA  # the game state as a session answer carries it


    def secret_to(self, change: Mapping[str, Any]) -> str | None:
        return hidden.secret_to(change)

    def acting_side(self, action: Mapping[str, Any]) -> str | None:
        return sides.acting_side(action)

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        """Whose turn it is and what may happen now, as the pinned version keeps the turn (turn.py)."""
        known = next((q for q in self.data.get("quests", []) if q["id"] == quest), None)
        return self.version.allowed(game, actions, known)

    def redact(self, game: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
        return hidden.redact(game, viewer)

    def redact_decks(self, decks: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
        return hidden.redact_decks(decks, viewer)

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.version = versions.of(data["version"])  # the rules of the rules data's version (an archived version's, for its campaigns)
        self.version.check_rules_data(data)  # values the code plays one way only, refused as the data loads (issue 31)

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        return self.version.verdict(quest, game)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        return verdict.end_refusal(quest, game, turn, outcome, reported)

    def reported_schema(self, quest: str) -> dict[str, Any]:
        return reported_facts.schema(verdict.reported_facts(quest))

    def awaited(self, quest: str, game: Mapping[str, Any], turn: int) -> list[str]:
        return list(verdict.reported_facts(quest))  # a base-game quest ends only on the Quest Guide's condition, the table's word

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe(change)

    def choices(self, quest: str, game: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        return ready.choices(self.data)
