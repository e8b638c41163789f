"""Journey: Wrath of Demons: its rules data and pure resolvers."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tracker import decks
from tracker.errors import Unprocessable
from tracker.rulesets import data as rules_data
from tracker.rulesets.deck_actions import ACTIONS as DECK_ACTIONS
from tracker.rulesets.journey.actions import ACTIONS as GAME_ACTIONS
from tracker.rulesets.journey.rules import JourneyRules
from tracker.rulesets.journey.setup import set_up_quest
from tracker.rulesets.ruleset import SET_UP_QUEST, ActionContext, ActionType, Ruleset
from tracker.rulesets.journey.views import VIEWS


def _skill_deck(ctx: ActionContext, pilgrim: str) -> str:
    for deck in ctx.ruleset.data["decks"]:
        if deck.get("owner") == pilgrim and deck.get("card_kinds"):
            return deck["id"]
    pilgrims = [c["id"] for c in ctx.ruleset.data["characters"] if c.get("role") == "pilgrim"]
    raise Unprocessable(
        f"'{pilgrim}' is not a Pilgrim with a Skill deck",
        detail=f"Pilgrims: {pilgrims}.",
        errors={"pilgrim": [f"Not a Pilgrim: {pilgrim}"]},
    )


def skill_reward(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A Good-Karma Skill reward (L551): draw from your own Skill deck until a card of the needed
    kind comes up; the others go to that deck's Discard Pile; the card goes to your hand."""
    spec = ctx.deck(_skill_deck(ctx, params["pilgrim"]))
    state = ctx.state["decks"][spec.id]
    return decks.resolve_draw_until_kind(state, spec.name, params["kind"], spec.kind_of, rng, holder=params["pilgrim"])


ACTIONS = [
    ActionType(
        "skill-reward",
        "Draw from the Pilgrim's own Skill deck until a card of the needed kind (one-time or permanent) comes up (L551).",
        {
            "type": "object",
            "properties": {
                "type": {"type": "string"},
                "pilgrim": {"type": "string", "minLength": 1, "maxLength": 100},
                "kind": {"enum": ["one-time", "permanent"]},
            },
            "required": ["type", "pilgrim", "kind"],
            "additionalProperties": False,
        },
        skill_reward,
        random=True,
    ),
]


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Journey's ruleset over its data (an archived version's when given): its game rules judge by that data."""
    data = rules_data.load(Path(__file__).with_name("ruleset.json")) if data is None else data
    setup = ActionType(
        SET_UP_QUEST,
        "Quest set-up: Chi 10, Karma, weapon level, starting Skill Cards, Karma Upgrades, initiative (L211-L225, L666-L684).",
        {"type": "object"},
        set_up_quest,
        random=True,
        internal=True,
    )
    return Ruleset(data, DECK_ACTIONS + ACTIONS + GAME_ACTIONS, rules=JourneyRules({quest['id']: quest['outcomes'] for quest in data['quests'] if quest.get('outcomes')}, {quest['id']: quest for quest in data['quests']}, data['version']), setup=setup, views=VIEWS)
