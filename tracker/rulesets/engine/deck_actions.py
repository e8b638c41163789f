"""Deck and turn actions every ruleset offers, resolved by the one deck engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import decks
from tracker.rulesets.engine.ruleset import ActionContext, ActionType, action_schema

_CARDS = {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200}, "minItems": 1, "maxItems": 100}
_DECK = {"type": "string", "minLength": 1, "maxLength": 100}
_HOLDER = {"type": "string", "minLength": 1, "maxLength": 100, "description": "Who holds the cards (a hero id); the table when omitted."}




def _deck_state(ctx: ActionContext, deck_id: str) -> tuple[Mapping[str, Any], str]:
    spec = ctx.deck(deck_id)
    return ctx.state["decks"][deck_id], spec.name


def look(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    state, name = _deck_state(ctx, params["deck"])
    return decks.resolve_look(state, name, params["count"], rng)


def keep(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    state, _ = _deck_state(ctx, params["deck"])
    return decks.resolve_keep(state, params.get("cards", []), params.get("rest", "discard"), params.get("holder"))


def _mover(kind: str):
    def resolve(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        state, _ = _deck_state(ctx, params["deck"])
        return decks.resolve_move(
            state, kind, params["cards"], params.get("from", "held"), params.get("holder"), params.get("position", "top")
        )

    return resolve


def shuffle(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    state, name = _deck_state(ctx, params["deck"])
    return decks.resolve_shuffle(state, name, rng, params.get("with_discard", False))


def draw_until_kind(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    spec = ctx.deck(params["deck"])
    state = ctx.state["decks"][spec.id]
    return decks.resolve_draw_until_kind(state, spec.name, params["kind"], spec.kind_of, rng, params.get("holder"))


def end_turn(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    return [{"kind": "turn-ended", "turn": ctx.state["turn"]}]


ACTIONS = [
    ActionType(
        "look",
        "Look at the top cards of a deck; keep some with 'keep'.",
        action_schema({"deck": _DECK, "count": {"type": "integer", "minimum": 1, "maximum": 100}}, ["deck", "count"]),
        look,
        random=True,
    ),
    ActionType(
        "keep",
        "Keep some of the cards being looked at; the rest go to the discard pile, the top or the bottom of the deck.",
        action_schema(
            {
                "deck": _DECK,
                "cards": {**_CARDS, "minItems": 0},
                "rest": {"enum": ["discard", "top", "bottom"]},
                "holder": _HOLDER,
            },
            ["deck", "cards"],
        ),
        keep,
    ),
    ActionType(
        "discard",
        "Put cards on a deck's discard pile (from a holder, or straight from the draw pile).",
        action_schema({"deck": _DECK, "cards": _CARDS, "from": {"enum": ["held", "draw"]}, "holder": _HOLDER}, ["deck", "cards"]),
        _mover("discarded"),
    ),
    ActionType(
        "remove-from-game",
        "Remove cards from the game (they stay out until the session ends).",
        action_schema({"deck": _DECK, "cards": _CARDS, "from": {"enum": ["held", "draw", "discard"]}, "holder": _HOLDER}, ["deck", "cards"]),
        _mover("removed"),
    ),
    ActionType(
        "return-to-deck",
        "Return cards to the top or bottom of a deck's draw pile.",
        action_schema(
            {
                "deck": _DECK,
                "cards": _CARDS,
                "from": {"enum": ["held", "discard", "removed"]},
                "holder": _HOLDER,
                "position": {"enum": ["top", "bottom"]},
            },
            ["deck", "cards"],
        ),
        _mover("returned"),
    ),
    ActionType(
        "shuffle",
        "Shuffle a deck's draw pile, with its discard pile when with_discard is true.",
        action_schema({"deck": _DECK, "with_discard": {"type": "boolean"}}, ["deck"]),
        shuffle,
        random=True,
    ),
    ActionType(
        "draw-until-kind",
        "Draw until a card of the given kind comes up; the others drawn go to the discard pile.",
        action_schema({"deck": _DECK, "kind": {"type": "string", "minLength": 1, "maxLength": 100}, "holder": _HOLDER}, ["deck", "kind"]),
        draw_until_kind,
        random=True,
    ),
    ActionType("end-turn", "End the current turn.", action_schema({}, []), end_turn),
]

NAMES = tuple(action.name for action in ACTIONS)  # legal at any time, for anyone (tracker/rulesets/engine/allowed.py)
