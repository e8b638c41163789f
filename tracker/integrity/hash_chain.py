"""The hash chain: each event records the hash of the event before it in its stream.

An event's hash is SHA-256 over the canonical JSON of its stored record (stream,
position, topic and the stored state exactly as the event store keeps it, before
any upcasting), so the chain can be recomputed from the database, from an export
file, or by tracker/integrity/verify_export.py, which defines the hash (``event_hash``).

Linking happens as a command's events are saved: every event of a session or a
campaign gets ``meta.prev_hash`` (null for a stream's first event) and
``meta.command`` (the position of the first event its command recorded: what an
undo reverts as one). An event that names a session saved in the same command
(the campaign's QuestEnded) also gets ``meta.session_head``: the hash of that
session's last event, so the end of a session is covered by the campaign's chain.

A value one side of the table may not see yet is hashed only as a salted commitment (tracker/integrity/hiding.py).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic

from tracker.integrity import hiding

from tracker.core import sealing
from tracker.core.ids import id_text
from tracker.integrity.verify_export import Failure, chain_break, event_hash, event_name, opened_state


def stored_state(mapper: Mapper, stored: StoredEvent) -> dict[str, Any]:
    """The stored state as plain JSON (the library's transcoded form, not decoded into objects)."""
    state = stored.state
    if mapper.cipher:
        state = mapper.cipher.decrypt(state)
    if mapper.compressor:
        state = mapper.compressor.decompress(state)
    return json.loads(state.decode("utf-8"))


def state_bytes(mapper: Mapper, state: dict[str, Any]) -> bytes:
    """The inverse of stored_state: what the event store keeps for this state."""
    data = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if mapper.compressor:
        data = mapper.compressor.compress(data)
    if mapper.cipher:
        data = mapper.cipher.encrypt(data)
    return data


def record(mapper: Mapper, stored: StoredEvent, sealed: bool = False) -> dict[str, Any]:
    """One event as an export line's ``event`` holds it (and as its hash covers it): its public form,
    without the fields it seals (tracker/core/sealing.py); ``sealed=True`` keeps them (backups, re-derivation)."""
    state = stored_state(mapper, stored)
    return {
        "stream": str(stored.originator_id),
        "position": stored.originator_version,
        "topic": stored.topic,
        "state": state if sealed else sealing.public(state),
    }


def record_hash(mapper: Mapper, stored: StoredEvent) -> str:
    return event_hash(record(mapper, stored))


class _Float(Exception):
    """A stored state holds a number with a fraction or an exponent (see ``written_hash``)."""


def _refuse_float(text: str) -> Any:
    raise _Float(text)


# Decodes a stored state as json.loads does, for every state without a float (json.dumps writes NaN and
# Infinity, which msgspec refuses, and msgspec writes a float's exponent as 1e16 where json writes 1e+16).
_DECODER = msgspec.json.Decoder(float_hook=_refuse_float)
_ENCODER = msgspec.json.Encoder(order="sorted")


def written_hash(mapper: Mapper, stored: StoredEvent, stream: str, state: Any = None) -> str:
    """``record_hash`` of an event being saved (``stream``: its originator id as text), the same hash from the same
    bytes, with msgspec's decoder and sorted encoder in place of json.loads and verify_export's canonical_json
    (``state``: what the stored bytes decode to, when the encoder has decoded them already: ``stored_form``).

    For a state of strings, integers, booleans, nulls, objects and arrays the two give the same bytes: msgspec sorts
    an object's keys by code point as ``sort_keys`` does, and escapes a string's characters as ``ensure_ascii=False``
    does (tests/test_written_hash.py compares them over every stored fixture and freshly played events of every
    game). A state with any float, NaN or Infinity, and one stored compressed or encrypted, is hashed by
    ``record_hash`` itself."""
    if mapper.cipher or mapper.compressor:
        return record_hash(mapper, stored)
    if state is None:
        try:
            state = _DECODER.decode(stored.state)
        except (_Float, msgspec.DecodeError):
            return record_hash(mapper, stored)
    body = {"stream": stream, "position": stored.originator_version, "topic": stored.topic, "state": sealing.public(state)}
    return hashlib.sha256(_ENCODER.encode(body)).hexdigest()


def link(app: Any, aggregates: Sequence[Any], encoded: dict[int, StoredEvent] | None = None,
         linked: dict[UUID, tuple[int, str]] | None = None) -> dict[str, str]:
    """Set prev_hash, command and session_head on the aggregates' pending events; returns each stream's new head.

    Hashing needs each event in its stored form; with ``encoded``, those forms are kept there (by id of
    the event) so the save stores them as they are instead of encoding every event a second time. With ``linked``,
    each stream's new version and head are also kept there by its id (what ``Heads.saved`` takes once they are stored)."""
    heads: dict[str, str] = {}
    # Sessions first: the campaign's events of the same command record the sessions' heads.
    for aggregate in sorted(aggregates, key=_campaigns_last) if len(aggregates) > 1 else aggregates:
        pending = list(aggregate.pending_events)
        if not pending:
            continue
        first = pending[0].originator_version
        aggregate_id = aggregate.id
        stream = id_text(aggregate_id)
        known = getattr(app, "chain_heads", None)
        previous = None if first == 1 else (known and known.get(aggregate_id, first - 1)) or head(app, aggregate_id, first - 1)
        rules = app.rules_for_session(aggregate).rules if type(aggregate).__name__ == "Session" else None
        for event in pending:
            meta = {**(event.meta or {}), "prev_hash": previous, "command": first}
            sealed = sealing.paths_for(type(event).__name__, event.__dict__)
            hidden = hiding.hidden_paths(rules, type(event).__name__, event.__dict__) if rules is not None else []
            if hidden:  # a side's secret: its salt is sealed, and only its commitment is hashed (tracker/integrity/hiding.py)
                sealed.append(hiding.SALTS)
            if sealed:  # kept out of the hash and of every reader until the session ends
                meta["sealed"] = sealed
            session_id = vars(event).get("session_id")  # (a field where an event has it: getattr's miss raises and discards)
            if session_id in heads:
                meta["session_head"] = heads[session_id]
            object.__setattr__(event, "meta", meta)  # events are frozen; this is before they are stored
            stored, state = stored_form(app.mapper, event)
            if hidden:  # committed to as the event store keeps the values, so any verifier recomputes the same bytes
                meta["commitments"], meta["salts"] = hiding.commit(stored_state(app.mapper, stored), hidden)
                stored, state = stored_form(app.mapper, event)
            if encoded is not None:
                encoded[id(event)] = stored
            previous = written_hash(app.mapper, stored, stream, state)
        heads[stream] = previous
        if linked is not None:
            linked[aggregate_id] = (pending[-1].originator_version, previous)
    return heads


def stored_form(mapper: Mapper, event: Any) -> tuple[StoredEvent, Any]:
    """``mapper.to_stored_event(event)``, and the JSON value its stored state decodes to where the transcoder has it
    (tracker/adapters/stored_json.py decodes what it encodes; None otherwise, and for a state compressed or encrypted)."""
    encoded = getattr(mapper.transcoder, "encoded", None)
    if encoded is None or mapper.cipher or mapper.compressor:
        return mapper.to_stored_event(event), None
    # The library's to_stored_event, its one call to the transcoder made through ``encoded``.
    state = dict(vars(event))
    originator_id = state.pop("originator_id")
    originator_version = state.pop("originator_version")
    class_version = getattr(type(event), "class_version", 1)
    if class_version > 1:
        state["class_version"] = class_version
    data, decoded = encoded(state)
    return StoredEvent(originator_id=originator_id, originator_version=originator_version, topic=get_topic(type(event)), state=data), decoded


def _campaigns_last(aggregate: Any) -> bool:
    return type(aggregate).__name__ == "Campaign"


class Heads:
    """The hash of each stream's last event this process saved, so the next command links to it
    without reading it back: one round trip less per command. Keyed by version, so a stream that
    another process appended to since is read from the store as before. Bounded (least recent out). Kept by the
    integer of the stream's id (``UUID.int``: a UUID's hash is Python code, its integer's is not)."""

    def __init__(self, maxsize: int = 10_000) -> None:
        self.maxsize = maxsize
        self._heads: OrderedDict[int, tuple[int, str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, stream: UUID, version: int) -> str | None:
        with self._lock:
            known = self._heads.get(stream.int)
        return known[1] if known is not None and known[0] == version else None

    def saved(self, heads: Mapping[UUID, tuple[int, str]]) -> None:
        """Called once the events are stored: each stream's new version and the hash of its last event."""
        with self._lock:
            for stream, known in heads.items():
                self._heads[stream.int] = known
                self._heads.move_to_end(stream.int)
            while len(self._heads) > self.maxsize:
                self._heads.popitem(last=False)


def head(app: Any, stream: UUID, version: int) -> str | None:
    """The hash of the stream's event at ``version`` (the one the next event links to)."""
    stored = app.recorder.select_events(stream, lte=version, desc=True, limit=1)
    if not stored:
        return None
    return record_hash(app.mapper, stored[0])


def check(app: Any, stream: UUID) -> dict[str, Any]:
    """Walk a stream's stored chain; returns its head, and the first break with its position."""
    stored_events = app.recorder.select_events(stream)
    records = [record(app.mapper, stored) for stored in stored_events]
    checked = check_records(records)
    if checked["status"] != "intact":
        return checked
    for index, stored in enumerate(stored_events):
        # each hidden value against the commitment its public form carries, as a verifier of an export checks it
        full = stored_state(app.mapper, stored)
        if not sealing.committed_paths(full):
            continue
        try:
            opened_state({**records[index], "opened": hiding.openings(full)})
        except Failure as failure:
            brk = {"position": index + 1, "type": event_name(stored.topic), "reason": failure.report["reason"]}
            return {"status": "broken", "head": None, "break": brk}
    return checked


def check_records(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``intact`` with the head hash, ``broken`` with the position to name, or ``absent`` for events from before chains."""
    if records and "prev_hash" not in (records[0]["state"].get("meta") or {}):
        return {"status": "absent", "head": None, "break": None, "detail": "These events were recorded before hash chains existed."}
    found = chain_break(records)
    if found:
        index, reason = found
        return {"status": "broken", "head": None, "break": {"position": index + 1, "type": event_name(records[index]["topic"]), "reason": reason}}
    return {"status": "intact", "head": event_hash(records[-1]) if records else None, "break": None}
