"""Into the Heart of Darkness's spirits as the game state holds them: which are angered and still on the board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def standing(game: Mapping[str, Any]) -> dict[str, Any]:
    return game.get("spirits") or {"ids": [], "angered": [], "destroyed": [], "convinced": []}


def angered_standing(game: Mapping[str, Any]) -> list[str]:
    """Angered spirits still on the board: the quest is not won while any is (L662)."""
    s = standing(game)
    return [i for i in s["angered"] if i not in s["destroyed"]]
