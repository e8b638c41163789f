"""The bytes an event is stored as are the library's JSONTranscoder's, whether msgspec wrote them or json did
(tracker/adapters/stored_json.py): for every stored fixture, for freshly played events of all four games, and for the
values msgspec writes otherwise, which go to json."""

from __future__ import annotations

import json
from datetime import date, datetime, timezone
from decimal import Decimal
from enum import Enum, IntEnum
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, JSONTranscoder, TranscodingNotRegisteredError, UUIDAsHex

from tests.kit import forgery_kit as forging
from tests.kit.forgery_kit import GAMES
from tracker.adapters.stored_json import StoredJSON

FIXTURES = sorted(Path(__file__).with_name("fixtures").glob("stored_events_v*.json"))
WHEN = datetime(2026, 12, 7, 13, 0, 0, 123456, tzinfo=timezone.utc)


def _both() -> tuple[JSONTranscoder, StoredJSON]:
    library, ours = JSONTranscoder(), StoredJSON()
    for transcoder in (library, ours):
        for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
            transcoder.register(transcoding)
    return library, ours


def _by_msgspec(ours: StoredJSON, state: dict) -> bool:
    return ours.encoded(state)[1] is not None


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_every_stored_fixture_state_is_written_as_the_library_writes_it(fixture):
    library, ours = _both()
    records = json.loads(fixture.read_text())["records"]
    by_msgspec = 0
    for record in records:
        state = {"timestamp": WHEN, **{k: v for k, v in record["state"].items() if k != "timestamp"}}
        assert ours.encode(state) == library.encode(state), record
        data, decoded = ours.encoded(state)
        assert decoded is None or decoded == json.loads(data)
        by_msgspec += decoded is not None
    assert by_msgspec > len(records) // 2  # what is compared is msgspec's bytes, not only the fallback's


class Colour(Enum):
    RED = "red"


class Level(IntEnum):
    ONE = 1


@pytest.mark.parametrize("value", [
    "\b\f\n\r\t\x0b\x00\x1f\x7f\"\\/\u2028\u2029é😀\uffff", 12345678901234567890123, -9223372036854775809, 2**64, True, None,
    {"é": 0, "e": 1, "": [{}, []]}, Level.ONE, {1: "int key"}, ("a", "tuple"), 0.5, 1e16, 1e-7, 1e300, -0.0,
    float("nan"), float("inf"), WHEN, UUID(int=7), Decimal("1.50"), {"nested": [WHEN]}, [UUID(int=1)], {"d": Decimal(2)},
])
def test_awkward_values_are_written_as_the_library_writes_them(value):
    """Escapes, large integers, key order: msgspec's bytes; floats (1e+16, NaN), tuples, nested datetimes, UUIDs and
    decimals: json's, through the library's transcodings."""
    library, ours = _both()
    state = {"timestamp": WHEN, "value": value, "meta": {"prev_hash": None}}
    assert ours.encode(state) == library.encode(state)
    assert ours.decode(ours.encode(state)) == library.decode(library.encode(state)) or value != value  # (NaN)


@pytest.mark.parametrize("value", [b"bytes", {1, 2}, Colour.RED, date(2026, 1, 1), object()])
def test_what_the_library_cannot_encode_it_still_refuses(value):
    library, ours = _both()
    with pytest.raises(TranscodingNotRegisteredError):
        library.encode({"value": value})
    with pytest.raises(TranscodingNotRegisteredError):
        ours.encode({"value": value})


def test_plain_states_are_written_by_msgspec():
    _, ours = _both()
    assert _by_msgspec(ours, {"timestamp": WHEN, "meta": {"issued_by": None}, "roll": {"results": {"d6": [1, 2]}}})
    assert not _by_msgspec(ours, {"timestamp": WHEN, "value": 0.5})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_freshly_played_events_of_every_game_are_stored_as_the_library_writes_them(app, client, monkeypatch, game):
    """Every state saved while a session of each game plays, is undone and ends: the bytes stored are the library's."""
    library, _ = _both()
    tracker = app.extensions["tracker"]
    transcoder = tracker.mapper.transcoder
    assert isinstance(transcoder, StoredJSON)
    compared: list[bool] = []
    original = transcoder.encoded

    def encoded(state):
        data, decoded = original(state)
        assert data == library.encode(state), state
        compared.append(decoded is not None)
        return data, decoded

    monkeypatch.setattr(transcoder, "encoded", encoded)
    forging.play(client, game, [(i, n) for i, n in enumerate([1, 0, 2, 1, 0, 1, 0, 2, 1])] + [(0, 1), (6, 0)], "ended")
    assert len(compared) > 5 and sum(compared) > len(compared) // 2


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_hash_chains_stored_form_is_the_library_mappers_stored_event(app, client, monkeypatch, game):
    """tracker/integrity/hash_chain.py's stored_form follows the library's Mapper.to_stored_event step for step, to keep
    the decoded state beside the bytes: for every event saved while a session of each game plays, is undone and ends,
    the stored event is the one the library's mapper makes of it, and the state kept is what its bytes decode to."""
    from tracker.integrity import hash_chain

    tracker = app.extensions["tracker"]
    made: list[bool] = []
    original = hash_chain.stored_form

    def stored_form(mapper, event):
        stored, state = original(mapper, event)
        assert stored == tracker.mapper.to_stored_event(event), type(event).__qualname__
        assert state is None or state == json.loads(stored.state)
        made.append(state is not None)
        return stored, state

    monkeypatch.setattr(hash_chain, "stored_form", stored_form)
    forging.play(client, game, [(i, n) for i, n in enumerate([1, 0, 2, 1, 0, 1, 0, 2, 1])] + [(0, 1), (6, 0)], "ended")
    assert len(made) > 5 and sum(made) > len(made) // 2
