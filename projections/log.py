"""The notification log as the projections read it: rows straight from the events table, decoded
into the same domain events the library's mapper makes, but several times faster.

The mapper parses every stored state with the standard json module and an object hook that looks
at every object for a transcoded value; a rebuild spends most of its decoding time there. Stored
events written by this tracker hold one transcoded value, the timestamp, so this decoder parses with
msgspec and converts that one value itself; the class's own upcasters then run exactly as in the
mapper. msgspec reads JSON as json does (integers of any size stay integers, where orjson would
make wide ones floats); what it refuses (NaN, a lone surrogate, a float out of range) goes to the
mapper, as does any other transcoded value, or a state under a cipher or compressor. So what comes
out is always what the mapper would have made.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple, Protocol
from uuid import UUID

import msgspec
from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, Mapper, StoredEvent, find_id_convertor, str_to_uuid_convertor
from eventsourcing.utils import resolve_topic

_TRANSCODED = b'"_type_"'  # the key every transcoded value is written with
_TIMESTAMP = "datetime_iso"
_JSON = msgspec.json.Decoder().decode
_new, _set = object.__new__, object.__setattr__
# What datetime.isoformat() writes for an aware time (with microseconds unless there are none); the
# decoder also checks the two spellings fromisoformat reads that isoformat never writes back.
_ISOFORMAT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{6})?[+-]\d\d:\d\d", re.ASCII).fullmatch


class EventLog(Protocol):
    """What the projections read from: the application's notification log, its mapper and its name
    (the tracking records' key). The application answers it as it is; the views never call it."""

    name: str
    recorder: Any
    mapper: Mapper


class Record(NamedTuple):
    """One notification as read from the events table (the library's Notification, without its dataclass),
    its originator's id as text: a batch holds many events of one session, whose id is made once."""

    id: int
    originator_id: str
    originator_version: int
    topic: str
    state: bytes


def select_records(recorder: Any, start: int, limit: int) -> list[Record]:
    """Up to ``limit`` notifications after ``start``, in order: the library's select_notifications,
    as plain tuples (building a Notification dataclass and a UUID per row costs as much as the query)."""
    table = recorder.events_table_name
    if hasattr(recorder.datastore, "schema"):  # PostgreSQL
        from psycopg.rows import tuple_row

        statement = (
            f'SELECT notification_id, originator_id::text, originator_version, topic, state FROM "{recorder.datastore.schema}"."{table}" '
            "WHERE notification_id > %s ORDER BY notification_id LIMIT %s"
        )
        # Binary results: bytea arrives as it is stored, with no hex to parse.
        with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row, binary=True) as cursor:
            cursor.execute(statement, (start, limit), prepare=True)
            return [_record(Record, row) for row in cursor.fetchall()]
    statement = f"SELECT rowid, originator_id, originator_version, topic, state FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?"
    with recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute(statement, (start, limit))
        return [_record(Record, row) for row in cursor.fetchall()]


# A row of the five columns selected, as a Record without NamedTuple's own constructor (a Python call per row).
_record = tuple.__new__


class Decoder:
    """Decodes records into domain events: msgspec for what this tracker writes, the mapper for the rest."""

    MAX_IDS = 100_000  # originator ids kept as UUIDs; past that many, the cache starts again

    def __init__(self, mapper: Mapper[Any]) -> None:
        self.mapper = mapper
        transcoder = mapper.transcoder
        plain = isinstance(transcoder, JSONTranscoder) and mapper.cipher is None and mapper.compressor is None
        timestamps = transcoder.names[_TIMESTAMP] if plain else None  # type: ignore[attr-defined]
        # The library's DatetimeAsISO decodes with datetime.fromisoformat (after asserting a str, which fromisoformat
        # checks too): called straight, one call less per event. Any other transcoding of the name, its own decode.
        self.timestamp: Callable[[str], Any] | None = (
            None if timestamps is None else datetime.fromisoformat if type(timestamps) is DatetimeAsISO else timestamps.decode
        )
        self._classes: dict[str, tuple[type, int]] = {}
        self._ids: dict[str, tuple[UUID, str]] = {}
        self.by_mapper = 0  # how many records went to the mapper

    def decode(self, record: Record) -> Any:
        return self.decode_timed(record)[0]

    def decode_timed(self, record: Record) -> tuple[Any, str]:
        """The event, and its timestamp's isoformat(): the stored text itself when that is what isoformat()
        writes (the timeline shows it; formatting the datetime again costs more than decoding it).

        The state is parsed once, checked, its timestamp decoded and the class's upcasters run, all in this one
        call (a rebuild makes it for every event in the log); what only the mapper can decode goes to it."""
        _, originator_id, originator_version, topic, stored = record
        state: Any = None
        # What the mapper alone decodes: a state under a cipher or compressor, another transcoded value beside the
        # timestamp, what msgspec refuses and json reads (NaN, Infinity, a lone surrogate), a timestamp of another form.
        if self.timestamp is not None and stored.count(_TRANSCODED) == 1:
            try:
                state = _JSON(stored)
            except msgspec.DecodeError:
                state = None
            timestamp = state.get("timestamp") if type(state) is dict else None
            if type(timestamp) is dict and len(timestamp) == 2 and timestamp.get("_type_") == _TIMESTAMP:
                text = timestamp.get("_data_")
                try:
                    state["timestamp"] = self.timestamp(text)
                except (AssertionError, TypeError, ValueError):  # the mapper's own error, then
                    state = None
            else:
                state = None
        if state is None:
            self.by_mapper += 1
            event = self.mapper.to_domain_event(StoredEvent(originator_id, originator_version, topic, stored))
            return event, event.timestamp.isoformat()
        found = self._classes.get(topic)
        cls, class_version = found if found is not None else self._class(topic)
        ids = self._ids.get(originator_id)
        state["originator_id"] = (ids if ids is not None else self.originator(originator_id))[0]
        state["originator_version"] = originator_version
        from_version = state.pop("class_version", 1)
        while from_version < class_version:  # the same upcasting as the mapper's
            getattr(cls, f"upcast_v{from_version}_v{from_version + 1}")(state)
            from_version += 1
        event = _new(cls)
        _set(event, "__dict__", state)
        if _ISOFORMAT(text) and text[-6:] != "-00:00" and text[19:26] != ".000000":
            return event, text
        return event, event.timestamp.isoformat()

    def originator(self, text: str) -> tuple[UUID, str]:
        """An originator id as the UUID the mapper makes of it, and that UUID's str()."""
        found = self._ids.get(text)
        if found is None:
            if len(self._ids) >= self.MAX_IDS:
                self._ids.clear()
            uuid = UUID(text)
            found = self._ids[text] = (uuid, str(uuid))
        return found

    def _class(self, topic: str) -> tuple[type, int]:
        cls = resolve_topic(topic)
        if find_id_convertor(cls, str) is not str_to_uuid_convertor:  # pragma: no cover - every tracker event has a UUID id
            raise TypeError(f"{topic}: the decoder knows events with UUID originator ids only")
        found = self._classes[topic] = (cls, getattr(cls, "class_version", 1))
        return found
