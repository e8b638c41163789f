"""The overlord's secrets: his hand, his deck customisation, his chosen glyphs and the secret room's real encounter
marker (its roll, L352) are shown only to him until the quest ends; the heroes see counts, and of the secret room only
what their searches found."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import OVERLORD
from tracker.rulesets.descent.secret_room import PURPOSE as SECRET_ROOM_ROLL

SECRET_KINDS = {"treachery-card-swapped", "dark-glyph-bought", "opening-hand-set", "glyph-placed", "secret-room-marked"}
SECRET_ACTIONS = {"set-up-quest", "place-glyph", "power-glyph-draw", "power-glyph-keep", "look", "keep", "secret-room-roll"}
SECRET_ROLLS = {SECRET_ROOM_ROLL}  # rolls whose faces tell a secret, by their purpose
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
    if kind == "rolled" and (change.get("roll") or {}).get("purpose") in SECRET_ROLLS:
        return OVERLORD
    if kind in SECRET_KINDS:
        return OVERLORD
    if kind in DECK_KINDS and change.get("deck") == OVERLORD and kind not in PUBLIC_DECK_KINDS:
        return OVERLORD
    return None


def redact(game: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    if viewer in (None, OVERLORD) or "treachery" not in game:
        return dict(game)
    shown = dict(game)
    if "secret_room" in game:  # what the searches found, not the marker the overlord noted (L352)
        shown["secret_room"] = {k: v for k, v in game["secret_room"].items() if k not in ("real", "face")}
    treachery = game["treachery"]
    if "swaps" in treachery:  # a state already redacted carries counts, and passes through as it is
        shown["treachery"] = {"granted": dict(treachery["granted"]), "cards_swapped": len(treachery["swaps"]), "dark_glyphs_bought": len(treachery["glyphs"])}
    shown["glyph_pool"] = _count(game["glyph_pool"])
    shown["glyphs_placed"] = _count(game["glyphs_placed"])
    shown.pop("opening_hand", None)
    return shown


def _count(pile: Any) -> int:
    return pile if isinstance(pile, int) else len(pile)


def redact_decks(decks: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    if viewer in (None, OVERLORD) or OVERLORD not in decks or "hidden" in decks[OVERLORD]:
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
