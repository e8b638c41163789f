"""The hash an event gets as it is saved (hash_chain.written_hash: msgspec's decoder and sorted encoder) is the hash
the chain's readers and verifiers compute (hash_chain.record_hash: json.loads and verify_export's canonical_json), for
every stored fixture and for freshly played events of all four games; the events' stored bytes are the library's
encoder's, as before."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from tests.kit import forgery_kit as forging
from tests.kit.forgery_kit import GAMES
from tracker.integrity import hash_chain
from tracker.integrity.verify_export import canonical_json

FIXTURES = sorted(Path(__file__).with_name("fixtures").glob("stored_events_v*.json"))


def _stored(record: dict) -> StoredEvent:
    return StoredEvent(
        originator_id=UUID(record["originator_id"]),
        originator_version=record["originator_version"],
        topic=record["topic"],
        state=json.dumps(record["state"], separators=(",", ":"), ensure_ascii=False).encode("utf-8"),
    )


def _fast(stored: StoredEvent) -> bool:
    """Whether written_hash hashes this state itself (no float, not refused by msgspec), not through record_hash."""
    try:
        hash_chain._DECODER.decode(stored.state)
    except Exception:  # a float (hash_chain._Float), NaN, Infinity
        return False
    return True


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_every_stored_fixture_event_hashes_the_same_both_ways(tracker, fixture):
    records = json.loads(fixture.read_text())["records"]
    fast = 0
    for record in records:
        stored = _stored(record)
        assert hash_chain.written_hash(tracker.mapper, stored, str(stored.originator_id)) == hash_chain.record_hash(tracker.mapper, stored), record
        fast += _fast(stored)
    assert fast > len(records) // 2  # the comparison is of msgspec's bytes, not the fallback's


def test_the_canonical_bytes_match_on_awkward_text_and_keys():
    """Escapes, non-BMP characters, key order by code point, large integers: msgspec's sorted encoding of a decoded
    state is verify_export's canonical_json of it."""
    state = {"\uffff": 1, "😀": 2, "a": "\b\f\n\r\t\x0b\x00\x1f\x7f\"\\\u2028é", "Z": [True, None, False, {}, []],
             "big": 12345678901234567890123, "neg": -9223372036854775809, "nested": {"b": {"é": 0, "e": 1}, "a": ""}}
    data = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    assert hash_chain._ENCODER.encode(hash_chain._DECODER.decode(data)) == canonical_json(json.loads(data))


@pytest.mark.parametrize("value", [1e16, 1e-7, 0.5, 1e300, float("nan"), float("inf"), -0.0])
def test_a_state_with_a_float_is_hashed_by_the_readers_own_encoder(tracker, value):
    """msgspec writes 1e16 where json writes 1e+16 (and refuses NaN): such a state falls back to record_hash."""
    stored = StoredEvent(originator_id=UUID(int=1), originator_version=1, topic="tracker.domain.session:Session.Rolled",
                         state=json.dumps({"value": value, "meta": {}}, separators=(",", ":")).encode())
    assert not _fast(stored)
    assert hash_chain.written_hash(tracker.mapper, stored, str(stored.originator_id)) == hash_chain.record_hash(tracker.mapper, stored)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_freshly_played_events_of_every_game_hash_the_same_both_ways(app, client, monkeypatch, game):
    """Every event saved while a session of each game plays each of its table's steps (tests/kit/forgery_kit.py STEPS), is
    undone and ended: the hash it was linked with is
    the readers' hash of the bytes it was stored as, and the stored chain checks intact."""
    written: list[StoredEvent] = []
    original = hash_chain.written_hash

    def compared(mapper, stored, stream, state=None):
        fast = original(mapper, stored, stream, state)
        assert fast == hash_chain.record_hash(mapper, stored), stored
        assert state is None or state == json.loads(stored.state), stored  # the encoder's decoded state is the stored one
        written.append(stored)
        return fast

    monkeypatch.setattr(hash_chain, "written_hash", compared)
    cid, sid = forging.play(client, game, [(i, n) for i, n in enumerate([1, 0, 2, 1, 0, 1, 0, 2, 1])] + [(0, 1), (6, 0)], "ended")
    assert len(written) > 5 and sum(_fast(s) for s in written) > len(written) // 2
    tracker = app.extensions["tracker"]
    stored_now = {(s.originator_id, s.originator_version): s.state for sid_ in (cid, sid) for s in tracker.recorder.select_events(UUID(sid_))}
    assert all(stored_now[(s.originator_id, s.originator_version)] == s.state for s in written if (s.originator_id, s.originator_version) in stored_now)
    for stream in (cid, sid):
        assert hash_chain.check(tracker, UUID(stream))["status"] == "intact"
