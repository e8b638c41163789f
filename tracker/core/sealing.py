"""Sealed fields: what an event keeps for the service alone until its session ends.

Some events must carry a value that predicts the game's future or shows a face-down card:
the session's seed (SessionStarted), the order a shuffle left a pile in (DeckShuffled), and
the draw piles an undo puts back (ActionUndone). The aggregate needs them to fold its state,
so they stay in the stored event; but no reader may hold them before the game reveals them.

So such an event lists those fields in ``meta.sealed`` (dotted paths), and its *public form*
leaves them out (as it leaves out the values an event only commits to: tracker/integrity/hiding.py, whose salts
are sealed in ``meta.salts``). The public form is what the hash chain covers, what an export carries and
what every reader is shown, so the chain and the verifiers work on what any reader may hold:
- the seed is committed to by ``seed_commitment`` and revealed by ``SessionEnded``;
- a shuffle's order follows from the revealed seed, its ``counter_start`` and its ``before``;
- an undo's restored piles are the state before the command it reverts, which replay gives.

Events stored before sealing existed (no ``meta.sealed``) were hashed whole; they are read
through ``LEGACY``: their secret fields are still withheld from readers while the session is
in play (an export marks them ``withheld`` and carries the stored hash for that line).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

# Event type -> the fields it seals, as dotted paths into the event's state.
SEALED: dict[str, tuple[str, ...]] = {
    "SessionStarted": ("seed",),
    "DeckShuffled": ("change.order",),
    "ActionUndone": ("restored.decks",),
}
LEGACY = SEALED  # the same fields, for events from before meta.sealed


def paths_for(event_name: str, state: Mapping[str, Any]) -> list[str]:
    """The sealed paths a new event of this type records (only those it actually holds)."""
    sealed = SEALED.get(event_name)
    return [path for path in sealed if holds(state, path)] if sealed else []


def sealed_paths(state: Mapping[str, Any]) -> list[str]:
    return list((state.get("meta") or {}).get("sealed") or [])


def committed_paths(state: Mapping[str, Any]) -> list[str]:
    """The paths of the values an event commits to in ``meta.commitments`` (tracker/integrity/hiding.py)."""
    return list((state.get("meta") or {}).get("commitments") or {})


def public(state: Mapping[str, Any], paths: list[str] | None = None) -> dict[str, Any]:
    """The state without its sealed fields and the values it only commits to (``paths``, else those its meta
    lists). Copies what it changes."""
    if paths is None:
        meta = state.get("meta") or {}
        if not meta.get("sealed") and not meta.get("commitments"):  # (most events: nothing sealed, nothing committed to)
            return dict(state)
        paths = sealed_paths(state) + committed_paths(state)
    if not paths:
        return dict(state)
    shown = copy.deepcopy(dict(state))
    for path in paths:
        *parents, leaf = path.split(".")
        holder: Any = shown
        for part in parents:
            holder = holder.get(part) if isinstance(holder, dict) else None
        if isinstance(holder, dict):
            holder.pop(leaf, None)
    return shown


def values(state: Mapping[str, Any]) -> dict[str, Any]:
    """The sealed values themselves, by path (what a backup carries beside the public form)."""
    return {path: _get(state, path) for path in sealed_paths(state) if holds(state, path)}


def restore(state: dict[str, Any], sealed: Mapping[str, Any]) -> dict[str, Any]:
    """Put sealed values back into a public state (importing a backup, or values re-derived)."""
    restored = copy.deepcopy(state)
    for path, value in sealed.items():
        *parents, leaf = path.split(".")
        holder = restored
        for part in parents:
            holder = holder.setdefault(part, {})
        holder[leaf] = copy.deepcopy(value)
    return restored


def _get(state: Mapping[str, Any], path: str) -> Any:
    value: Any = state
    for part in path.split("."):
        value = value[part]
    return value


def at(state: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path, or None where the state lacks it."""
    return _get(state, path) if holds(state, path) else None


def holds(state: Mapping[str, Any], path: str) -> bool:
    value: Any = state
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return False
        value = value[part]
    return True
