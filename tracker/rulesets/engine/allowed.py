"""What a session may do next: the action types legal now, and who may take each.

A game answers from its own state (``GameRules.allowed``). An entry names the action type and, where
the rules say who acts, the heroes (``heroes``: a list) or the side (``side``); ``None`` for either
means anyone at the table. The deck actions every game has are legal at any time, for anyone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def entry(action_type: str, heroes: Iterable[str] | None = None, side: str | None = None) -> dict[str, Any]:
    return {"type": action_type, "heroes": None if heroes is None else list(heroes), "side": side}


def anyone(names: Iterable[str], among: Iterable[str]) -> list[dict[str, Any]]:
    """Entries for anyone, for each of ``names`` that is one of ``among`` (the session's client actions)."""
    present = set(among)
    return [entry(name) for name in names if name in present]
