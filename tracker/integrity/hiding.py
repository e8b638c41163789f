"""Hidden values: what one side at the table may not see yet enters the hash chain only as a salted commitment.

A value the redaction door (tracker/integrity/disclosure.py) keeps from some side until the quest ends (the overlord's
draws and hand, his deck changes, swaps and glyphs, the secret room's die, an undo's restored game and the
events it names) would be guessable from the event's hash whenever its candidates are few: a card of a known
list, a die face. So, as an event is linked (tracker/integrity/hash_chain.py), each field the door changes for some side
is committed to:
- ``meta.commitments[path] = SHA-256(salt || canonical JSON of the value)`` (verify_export.commitment), with a
  fresh 32-byte salt from ``secrets`` for every value, kept in ``meta.salts`` (a sealed field, tracker/core/sealing.py);
- the event's public form (what its hash covers and an export's ``state`` holds) leaves the value out, so
  nothing public lets a reader test a guess: the commitment is public, the salt is not.
A path names a top-level field of the event (``change``, ``action``, ``roll``...), or one key inside one
(``restored.game``, ``reverses.events``) where the door changes only that key. A value is committed as it
stands without the event's sealed fields (a shuffle's order is sealed, and never part of a commitment).

Readers who may see a value get it in their views as before; readers who may not get the door's redaction, and
every reader gets the commitment. An export line carries the values with their salts (``opened``); the
verifiers recompute each commitment before they use a value. Events stored before commitments existed
(no ``meta.commitments``) are hashed as they were.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from tracker.integrity import disclosure

from tracker.core import sealing
from tracker.rulesets.engine.ruleset import GameRules
from tracker.integrity.verify_export import commitment, put_path

SALTS = "meta.salts"  # the sealed path of an event's salts
_FRAME = {"originator_id", "originator_version", "timestamp", "meta", "originator_topic"}  # not the payload (tracker/application/session_log.py)
_ABSENT = object()


def hidden_paths(rules: GameRules, name: str, state: Mapping[str, Any]) -> list[str]:
    """The paths of this new event's values that the door keeps from some side of the table (none in a game of one side)."""
    if len(rules.sides) < 2:
        return []
    payload = {key: value for key, value in sealing.public(state, sealing.paths_for(name, state)).items() if key not in _FRAME}
    view = {"position": 0, "type": name, "payload": payload}
    paths: set[str] = set()
    for side in rules.sides:
        shown = disclosure.event_for(view, rules, side, False)["payload"]
        for key, value in payload.items():
            seen = shown.get(key, _ABSENT)
            if isinstance(value, Mapping) and isinstance(seen, Mapping):
                paths.update(f"{key}.{inner}" for inner, item in value.items() if seen.get(inner, _ABSENT) != item)
            elif seen != value:
                paths.add(key)
    return sorted(paths)


def commit(state: Mapping[str, Any], paths: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Fresh salts for these paths of a stored state, and the commitments to their values: (commitments, salts)."""
    values = sealing.public(state, sealing.sealed_paths(state))
    salts = {path: secrets.token_hex(32) for path in paths}
    return {path: commitment(salts[path], sealing.at(values, path)) for path in paths}, salts


def openings(state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """What an export line reveals of a stored state's committed values: path -> {"salt", "value"}."""
    meta = state.get("meta") or {}
    committed, salts = meta.get("commitments") or {}, meta.get("salts") or {}
    values = sealing.public(state, sealing.sealed_paths(state))
    return {path: {"salt": salts.get(path), "value": sealing.at(values, path)} for path in committed}


def restore(record: dict[str, Any]) -> dict[str, Any]:
    """An export line's event with the values it reveals and their salts put back: the event as it was stored.
    The verifier (verify_export.opened_state) has checked every one against its commitment already."""
    opened = record.get("opened")
    if not opened:
        return record
    state = record["state"]
    for path, opening in opened.items():
        state = put_path(state, path, opening["value"])
    meta = {**(state.get("meta") or {}), "salts": {path: opening["salt"] for path, opening in opened.items()}}
    return {**record, "state": {**state, "meta": meta}}

