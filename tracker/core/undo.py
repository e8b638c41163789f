"""Undo: which command the next undo reverts, and the state from before it.

A command's events share ``meta.command`` (the position of its first event; see
tracker/integrity/hash_chain.py). The next undo reverts the last command that is neither
the session's start nor an undo and is not undone already; so undoing twice
reverts the last two actions, and a redo is simply a new action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_NOT_UNDOABLE = {"SessionStarted", "SessionEnded"}
_PASSED_OVER = {"SessionComponentsSupplied", "DeckListed"}  # facts the owner supplied in play: no action, so undo reaches past them


def last_undoable(events: Sequence[Any]) -> list[Any] | None:
    """The events of the command the next undo reverts, or None when there is nothing left to undo."""
    groups: dict[Any, list[Any]] = {}
    undone: set[int] = set()
    for event in events:
        groups.setdefault((getattr(event, "meta", None) or {}).get("command"), []).append(event)
        if type(event).__name__ == "ActionUndone":
            undone.add(event.reverses["from"])
    for first, group in reversed(groups.items()):
        names = {type(e).__name__ for e in group}
        if first is None or names & _NOT_UNDOABLE:
            return None  # the quest's set-up (or events from before undo existed) is where undoing stops
        if "ActionUndone" in names or first in undone or names <= _PASSED_OVER:
            continue
        return group
    return None


def reverses(group: Sequence[Any]) -> dict[str, Any]:
    """What an undo names: the positions it reverts and each event's type (rolls with their results, for the statistics)."""
    listed = []
    for event in group:
        entry: dict[str, Any] = {"position": event.originator_version, "type": type(event).__name__}
        if entry["type"] == "DiceRolled":
            entry["roll"] = {"source": event.roll["source"], "results": event.roll["results"]}
        elif entry["type"] == "ActionTaken":
            entry["action"] = event.action
        listed.append(entry)
    return {"from": group[0].originator_version, "to": group[-1].originator_version, "events": listed}


def restored(session: Any) -> dict[str, Any]:
    """The parts of a session's state an undo puts back (not the random counter)."""
    restored = {"decks": session.decks, "turn": session.turn, "game": session.game, "rolls": session.rolls}
    if session.__dict__.get("verdict") is not None:  # (undos from before verdicts existed name no verdict)
        restored["verdict"] = session.verdict
    return restored
