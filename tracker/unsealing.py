"""An import's sealed values: taken from a backup, or derived from what the game has revealed.

A public export carries each event's public form only (tracker/sealing.py). To store a
session again its events need their sealed fields back:
- the seed: a backup carries it (and it must hash to the session's commitment); an ended
  session revealed it in ``SessionEnded``; a session in play from a public export has none
  here, so its digital rolls, draws and shuffles stay unavailable until a backup supplies it;
- a shuffle's order: the backup's (which must be what the seed gives), else derived from the
  seed, its ``before`` and its ``counter_start``; with no seed, the pile's order is unknown
  (its cards become face-down cards nobody has named: reported draws still work);
- an undo's restored piles: the state from before the command it reverts, by replaying the
  session's own events up to there.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from tracker import sealing
from tracker.errors import Unprocessable
from tracker.randomness import RandomStream, commitment
from tracker.verify_export import event_name


def unseal(records: list[dict[str, Any]], decode: Any) -> list[dict[str, Any]]:
    """Each record with its sealed values put back where they can be had; ``decode(record)`` gives the domain event.

    Records keep the file's order; each session's are replayed in position order."""
    sessions: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        sessions.setdefault(record["stream"], []).append(record)
    unsealed: dict[int, dict[str, Any]] = {}
    for stream_records in sessions.values():
        if event_name(stream_records[0]["topic"]) != "SessionStarted":
            continue
        for original, record in zip(stream_records, _session(stream_records, decode)):
            unsealed[id(original)] = record
    return [unsealed.get(id(record), record) for record in records]


def _session(records: list[dict[str, Any]], decode: Any) -> Iterable[dict[str, Any]]:
    seed_hex = _seed(records)
    seed = bytes.fromhex(seed_hex) if seed_hex else None
    session = None
    decks_after: dict[int, Any] = {}  # the decks after each position, for the undos that put them back
    out = []
    for record in records:
        name = event_name(record["topic"])
        given = dict(record.get("sealed") or {})
        state = record["state"]
        if name == "SessionStarted" and "seed" in sealing.sealed_paths(state):
            given["seed"] = seed_hex
        elif name == "DeckShuffled" and "change.order" in sealing.sealed_paths(state):
            derived = RandomStream(seed, state["change"]["counter_start"]).shuffle(state["change"]["before"]) if seed else None
            if "change.order" in given and given["change.order"] != derived:
                raise _refused(record, "its shuffle order is not what the session's seed gives")
            if derived is not None:
                given["change.order"] = derived
        elif name == "ActionUndone" and "restored.decks" in sealing.sealed_paths(state):
            before = state["reverses"]["from"] - 1
            given["restored.decks"] = copy.deepcopy(decks_after.get(before))
        record = {**record, "state": sealing.restore(state, given)} if given else record
        session = decode(record).mutate(session)
        decks_after[record["position"]] = copy.deepcopy(session.decks)
        out.append(record)
    return out


def _seed(records: list[dict[str, Any]]) -> str | None:
    """The session's seed, if the file holds it: revealed at its end, or carried by a backup."""
    started = records[0]
    commitment_hex = started["state"]["seed_commitment"]
    carried = (started.get("sealed") or {}).get("seed") or started["state"].get("seed")
    revealed = next((r["state"].get("seed") for r in records if event_name(r["topic"]) == "SessionEnded"), None)
    for seed_hex in (carried, revealed):
        if seed_hex is not None and not _commits(seed_hex, commitment_hex):
            raise _refused(started, "its seed does not hash to the commitment published when the session started")
    if carried and revealed and carried != revealed:
        raise _refused(started, "the seed it started with is not the seed its end revealed")
    return carried or revealed


def _commits(seed_hex: Any, commitment_hex: str) -> bool:
    try:
        return commitment(bytes.fromhex(seed_hex)) == commitment_hex
    except (TypeError, ValueError):
        return False


def _refused(record: dict[str, Any], reason: str) -> Unprocessable:
    return Unprocessable(
        f"Session {record['stream']} cannot be imported: {reason}",
        detail=f"Line {record.get('line')}: nothing was imported. Export the campaign again from the server it came from.",
        errors={"file": [reason]},
    )
