"""The overlord's secrets: his hand, his deck customisation and his chosen glyphs are shown only to him until
the quest ends; the heroes see counts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import OVERLORD

SECRET_KINDS = {"treachery-card-swapped", "dark-glyph-bought", "opening-hand-set", "glyph-placed"}
SECRET_ACTIONS = {"set-up-quest", "place-glyph", "power-glyph-draw", "power-glyph-keep", "look", "keep"}
PUBLIC_DECK_KINDS = {"discarded"}  # cards played or discarded for threat are shown
DECK_KINDS = {"shuffled", "drawn", "looked", "kept", "discarded", "removed", "returned", "added"}


def secret_to(change: Mapping[str, Any]) -> str | None:
    if "type" in change:  # an action's inputs
        if change["type"] in SECRET_ACTIONS and change.get("deck", OVERLORD) == OVERLORD:
            return OVERLORD
        if change.get("deck") == OVERLORD and change["type"] not in ("discard",):
            return OVERLORD
        return None
    kind = change.get("kind")
    if kind in SECRET_KINDS:
        return OVERLORD
    if kind in DECK_KINDS and change.get("deck") == OVERLORD and kind not in PUBLIC_DECK_KINDS:
        return OVERLORD
    return None


def redact(game: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    if viewer in (None, OVERLORD) or "treachery" not in game:
        return dict(game)
    shown = dict(game)
    treachery = game["treachery"]
    shown["treachery"] = {"granted": dict(treachery["granted"]), "cards_swapped": len(treachery["swaps"]), "dark_glyphs_bought": len(treachery["glyphs"])}
    shown["glyph_pool"] = len(game["glyph_pool"])
    shown["glyphs_placed"] = len(game["glyphs_placed"])
    shown.pop("opening_hand", None)
    return shown


def redact_decks(decks: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    if viewer in (None, OVERLORD) or OVERLORD not in decks:
        return dict(decks)
    deck = decks[OVERLORD]
    shown = {
        "draw_pile": deck["draw_pile"],
        "discard_pile": list(deck["discard_pile"]),
        "held": {},
        "looking_at": [],
        "removed_from_game": [],
        "hidden": {
            "held": {holder: len(cards) for holder, cards in deck["held"].items()},
            "looking_at": len(deck["looking_at"]),
            "removed_from_game": len(deck["removed_from_game"]),
        },
    }
    return {**decks, OVERLORD: shown}
