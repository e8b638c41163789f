"""Descent: Journeys in the Dark (1st ed.) with The Altar of Despair: rules data and pure resolvers.

Two sides in one session: the heroes and the overlord. The overlord's hand, deck customisation and chosen
glyphs are recorded like everything else and marked secret to him until the quest ends (hidden.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tracker.rulesets import allowed, correction
from tracker.rulesets import data as rules_data
from tracker.rulesets.deck_actions import ACTIONS as DECK_ACTIONS
from tracker.rulesets.descent import combat, familiars, figures, monster_turn, movement, ready, wounds
from tracker.rulesets.descent import conditions, conquest, crushing_trap, fissures, glyphs, hidden, monkey_kings, prisoners, prolonged, secret_room, shop, sides, spirits, summoning, temple, threat, tokens, treachery, verdict, zorek
from tracker.rulesets.descent.describe import describe
from tracker.rulesets.descent.events import CHANGES
from tracker.rulesets.descent.views import VIEWS
from tracker.rulesets.ruleset import SET_UP_QUEST, ActionContext, ActionType, GameRules, Ruleset, action_schema

HERE = Path(__file__).parent


class DescentRules(GameRules):
    changes = CHANGES
    sides = ("heroes", "overlord")
    # "Simply shuffle the new heroes in with the others when choosing heroes at the start of the game" (L69): the heroes
    # are chosen from the box, one sheet and one figure each ("6 Hero Sheets", "6 Plastic Heroes", L34-L35), so a party
    # names each hero once. How many heroes a party holds is in the base game's rulebook, which the transcription does
    # not have (rules digest §10.1). A reading, the strict one: at most four heroes, the base game's party, never more.
    most_heroes = 4
    actor_fields = ("hero", "heroes", "attacker")
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
    setup_schema = treachery.SETUP_SCHEMA

    def secret_to(self, change: Mapping[str, Any]) -> str | None:
        return hidden.secret_to(change)

    def acting_side(self, action: Mapping[str, Any]) -> str | None:
        return sides.acting_side(action)

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        """Descent's log keeps no turn order (each side's turn is the table's): every action, by its side."""
        return [allowed.entry(name, side=sides.side_of_action_type(name)) for name in actions]

    def redact(self, game: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
        return hidden.redact(game, viewer)

    def redact_decks(self, decks: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
        return hidden.redact_decks(decks, viewer)

    def __init__(self, version: str | None = None) -> None:
        self.version = version  # of the rules data these rules judge by (an archived version's, for its campaigns)

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        return verdict.verdict(quest, game, self.version)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        return verdict.end_refusal(quest, game, turn, outcome, reported)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe(change)


# The numbers on a hero's sheet the table may correct (tracker/rulesets/correction.py).
CORRECTABLE = ("wounds", "fatigue", "armor", "coins", "curses", "frost")


def _correct(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    return [correction.change(ctx.game.get("heroes") or {}, params, int(ctx.state["version"]))]


CORRECT = ("correct", correction.DESCRIPTION,
           action_schema(correction.properties({"type": "string", "minLength": 1, "maxLength": 100}, CORRECTABLE, {"type": "integer", "minimum": 0, "maximum": 100}),
                         correction.REQUIRED),
           _correct, False)


def _actions() -> list[ActionType]:
    specs = threat.ACTIONS_SPEC + conquest.ACTIONS_SPEC + prolonged.ACTIONS_SPEC + conditions.ACTIONS_SPEC + shop.ACTIONS_SPEC + glyphs.ACTIONS_SPEC + summoning.ACTIONS_SPEC + zorek.ACTIONS_SPEC + prisoners.ACTIONS_SPEC + tokens.ACTIONS_SPEC + monkey_kings.ACTIONS_SPEC + fissures.ACTIONS_SPEC + temple.ACTIONS_SPEC + spirits.ACTIONS_SPEC + crushing_trap.ACTIONS_SPEC + secret_room.ACTIONS_SPEC
    specs += figures.ACTIONS_SPEC + combat.ACTIONS_SPEC + wounds.ACTIONS_SPEC + ready.ACTIONS_SPEC + familiars.ACTIONS_SPEC + monster_turn.ACTIONS_SPEC + [CORRECT]
    return [ActionType(name, description, schema, movement.guarded(name, resolve), random=random) for name, description, schema, resolve, random in specs]


def community_components() -> dict[str, Any]:
    with (HERE / "community_components.json").open(encoding="utf-8") as f:
        return json.load(f)


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Descent's ruleset over its data (an archived version's when given, tracker/rulesets/__init__.py archived())."""
    data = rules_data.load(HERE / "ruleset.json") if data is None else data
    setup = ActionType(SET_UP_QUEST, "Quest set-up: treachery swaps, dark glyphs and the overlord's opening hand (L100–L132).",
                       {"type": "object"}, treachery.set_up, random=True, internal=True)
    return Ruleset(data, DECK_ACTIONS + _actions(), rules=DescentRules(data["version"]), setup=setup, component_packs=[community_components()], views=VIEWS)
