"""An import's sealed values: taken from a backup, or derived from what the game has revealed.

A public export carries each event's public form only (tracker/core/sealing.py). To store a
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

from tracker.core import decks, sealing
from tracker.domain.session import DECK_EVENTS
from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream
from tracker.integrity.verify_export import event_name


# The events an import keeps whole until their session is unsealed: those that carry or reveal sealed values.
# Every other event is stored as it is read (tracker/portability/campaign_files.py), so a large file is not held whole.
KEPT = {"SessionStarted", "SessionEnded", "DeckShuffled", "ActionUndone"}
_DECK_EVENT_NAMES = {cls.__name__ for cls in DECK_EVENTS.values()}


class CannotFollow(ValueError):
    """An event of a session that cannot follow the ones before it (the file was edited)."""

    def __init__(self, stream: str, position: int, reason: str) -> None:
        super().__init__(reason)
        self.stream, self.position = stream, position


def unseal(entries: list[Any], decode: Any) -> list[Any]:
    """Each record (a dict of an event in ``KEPT``) with its sealed values put back where they can be had;
    other entries are events already in their stored form, passed through. ``decode(entry)`` gives the
    domain event of either. Entries keep the file's order; each session's are replayed in position order."""
    sessions: dict[str, list[Any]] = {}
    for entry in entries:
        sessions.setdefault(_stream(entry), []).append(entry)
    unsealed: dict[int, Any] = {}
    for stream_entries in sessions.values():
        first = stream_entries[0]
        if not isinstance(first, dict) or event_name(first["topic"]) != "SessionStarted":
            continue
        for original, entry in zip(stream_entries, _session(stream_entries, decode)):
            unsealed[id(original)] = entry
    return [unsealed.get(id(entry), entry) for entry in entries]


def _stream(entry: Any) -> str:
    return entry["stream"] if isinstance(entry, dict) else str(entry.originator_id)


def _session(entries: list[Any], decode: Any) -> Iterable[Any]:
    records = [entry for entry in entries if isinstance(entry, dict)]
    seed_hex = _seed(records)
    seed = bytes.fromhex(seed_hex) if seed_hex else None
    piles: dict[str, Any] = {}
    # The decks after each position an undo goes back to (only those: a copy per event would hold the
    # whole session's piles many times over while a large file is imported).
    wanted = {r["state"]["reverses"]["from"] - 1 for r in records if event_name(r["topic"]) == "ActionUndone"}
    decks_after: dict[int, Any] = {}
    out = []
    for entry in entries:
        if isinstance(entry, dict):
            entry = _unsealed(entry, seed, seed_hex, decks_after)
        position = entry["position"] if isinstance(entry, dict) else entry.originator_version
        try:
            piles = _fold_piles(piles, decode(entry))
        except ValueError as error:  # e.g. a draw of a card the pile does not hold
            raise CannotFollow(_stream(entry), position, str(error)) from None
        if position in wanted:
            decks_after[position] = copy.deepcopy(piles)
        out.append(entry)
    return out


def _fold_piles(piles: dict[str, Any], event: Any) -> dict[str, Any]:
    """The session's decks after one event, folded as the session folds them (tracker/domain/session.py): only
    the piles, since only an undo's piles are derived here. The rest of the session (its game state, whose folds
    read what each game recorded) is folded once, by the re-derivation, after it has checked each event."""
    name = type(event).__name__
    if name == "SessionStarted":
        return copy.deepcopy(event.decks)
    if name == "ActionUndone":
        return copy.deepcopy(event.restored["decks"])
    if name in _DECK_EVENT_NAMES:
        deck = event.change["deck"]
        if deck not in piles:
            raise ValueError(f"the session has no deck {deck!r}")
        piles[deck] = decks.apply(piles[deck], event.change)
    return piles


def _unsealed(record: dict[str, Any], seed: bytes | None, seed_hex: str | None, decks_after: dict[int, Any]) -> dict[str, Any]:
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
    return {**record, "state": sealing.restore(state, given)} if given else record


def _seed(records: list[dict[str, Any]]) -> str | None:
    """The session's seed, if the file holds it: carried by a backup, or revealed at its end. Every copy was
    checked against the commitment with the whole file before anything is unsealed
    (verify_export.check_seed_copies, which the import runs first), so the copies agree."""
    started = records[0]
    carried = (started.get("sealed") or {}).get("seed") or started["state"].get("seed")
    revealed = next((r["state"].get("seed") for r in records if event_name(r["topic"]) == "SessionEnded"), None)
    return carried or revealed


def _refused(record: dict[str, Any], reason: str) -> Unprocessable:
    return Unprocessable(
        f"Session {record['stream']} cannot be imported: {reason}",
        detail=f"Line {record.get('line')}: nothing was imported. Export the campaign again from the server it came from.",
        errors={"file": [reason]},
    )
