"""The fast replay path (projections/log.py, COPY, summed dice rows) gives exactly the views the
library's mapper and row-by-row writes gave, on SQLite and on PostgreSQL, old stored events included."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import StoredEvent, Tracking
from eventsourcing.utils import get_topic

from projections.log import Decoder, Record, select_records
from projections.runner import Folded, ProjectionRunner
from projections.store import open_view_store
from projections.views import CORE
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker.application.service import Request, Tracker
from tracker.adapters.config import persistence_env
from tracker.domain import Campaign, Session

FIXTURES = sorted(Path(__file__).with_name("fixtures").glob("stored_events_v*.json"))

# The views' digest after a rebuild of each fixture's events, as the runner made them before the
# fast path (commit 1f320ea: the mapper's decoding, one INSERT per row), on SQLite and PostgreSQL
# alike. A change to what the views hold (VIEWS_VERSION) changes these; nothing else may.
DIGESTS_BEFORE_THE_FAST_PATH = {
    "stored_events_v1.json": "8660e14218f01c7373358f1d5a7a64631f51747d57e6ebed2be53e4d9938e254",
    "stored_events_v2.json": "9fef8b60bff414bbce5216999615d61b3ddedc59699feed1eeac2aced260efbb",
    "stored_events_v3.json": "93a8689dac2c2241ffda51f6bdd48dadcf804656b80d524556a4e15612b1608f",
    "stored_events_v4.json": "7244a27253b797eb857c38bd1e9ffd9271f052ca69e553efd18fa9c321bd8bab",
}
# The digest over every view since the games' own views joined them (issue 19), and the timeline said the game
# kinds that had fallen back to a list of fields in sentences (its summaries, so its rows, changed then).
DIGESTS_WITH_GAME_VIEWS = {
    "stored_events_v1.json": "ad5f5a91cb42988628726528e4e1e1add2a12950b913b576f768a75cd747cfdc",
    "stored_events_v2.json": "dea5abaa7999fcc9325dcfdda8f4300dce7aa2e7005f1c4edfbded4ed7b4f9e8",
    "stored_events_v3.json": "7a2ddb106a7e82707fe22b20055f7abfe1e243cb4ff79646e7596586df051e07",
    # v4 holds Descent heroes: their standing (view version 2) carries the corrections made to each sheet; and its
    # quest set-up is said once (timeline version 3: "The quest starts with 8 conquest and the overlord's treachery
    # event 3, trap 2, monster 2", not a second "Quest The Thing in the Pit set up"), its one changed row.
    "stored_events_v4.json": "e513768d7ce5e3eba8a088a232ab1f1cd191a82ae7dc864d1145394e16416c7b",
}
# The service's own views but the timeline: the same digests as the code before the games' views and the reworded
# timeline gave (computed with both, equal), so neither change touched what those views hold.
CORE_DIGESTS_BUT_THE_TIMELINE = {
    "stored_events_v1.json": "cdd0bece3b8a5a5dfd7cb640db4478a4105359a8615ca060aadb8c0e3705e6c0",
    "stored_events_v2.json": "f79627a044b88ed61179490fa3a398efde57f4f881bef25602f2a9ca7b1d5a6b",
    "stored_events_v3.json": "2673c772fa89bbfa373ee2d8e58ed4a69a509d15924a512fecd3c21b0e159847",
    "stored_events_v4.json": "04416987443c85d58666aff896a6af4108573eeae2cdcc9f7cdbc288b5407ffa",
}


@pytest.fixture
def runner(tracker: Tracker, database_url: str):
    store = open_view_store(persistence_env(database_url))
    yield ProjectionRunner(tracker, store, batch_size=7)
    store.datastore.close()


def _store_fixture(tracker: Tracker, fixture: Path) -> None:
    """The fixture's events, stored as the code of its day stored them."""
    tracker.recorder.insert_events(
        [
            StoredEvent(
                originator_id=UUID(record["originator_id"]),
                originator_version=record["originator_version"],
                topic=record["topic"],
                state=json.dumps(record["state"], separators=(",", ":")).encode(),
            )
            for record in json.loads(fixture.read_text())["records"]
        ]
    )


def _play(tracker: Tracker) -> None:
    """A campaign with every kind of session event: rolls, draws, actions, an undo, game events, ends."""
    cid = tracker.create_campaign("journey", "Replay group", components=JOURNEY_TEST_COMPONENTS).body["id"]
    for outcome in ("victory", "defeat"):
        sid = tracker.start_session(cid, "q1-meeting", request=Request(issued_by="token-1")).body["id"]
        tracker.roll(sid, dice={"attack": 2, "d6": 2}, purpose="attack")
        tracker.roll(sid, faces={"d20": [17, 3]})
        tracker.draw(sid, "fortune", count=2, holder="monkey-king")
        tracker.roll(sid, dice={"d8": 1})
        tracker.undo(sid)
        tracker.act(sid, {"type": "end-turn"})
        # Quest 1's Victory needs the house cleared, which the table states (L712); its Defeat, Tripitaka
        # Defeated, is stated too while the log does not track his Health (L713).
        facts = {"house_cleared": True} if outcome == "victory" else {"defeated": ["tripitaka"]}
        tracker.end_session(sid, outcome, reported=facts)


def _all_records(tracker: Tracker) -> list[Record]:
    records: list[Record] = []
    while batch := select_records(tracker.recorder, records[-1].id if records else 0, 5):
        records.extend(batch)
    return records


# -- decoding ------------------------------------------------------------------------------------


def test_the_decoder_makes_the_events_the_mapper_makes_old_versions_included(tracker):
    _play(tracker)
    for fixture in FIXTURES:
        _store_fixture(tracker, fixture)
    records = _all_records(tracker)
    notifications = tracker.recorder.select_notifications(start=1, limit=10_000)
    assert [r.id for r in records] == [n.id for n in notifications]
    decoder = Decoder(tracker.mapper)
    for record, notification in zip(records, notifications):
        (fast, occurred_at), library = decoder.decode_timed(record), tracker.mapper.to_domain_event(notification)
        assert type(fast) is type(library) and vars(fast) == vars(library), record.topic
        assert occurred_at == library.timestamp.isoformat()
    assert decoder.by_mapper == 0  # all of it the fast way
    # Old versions went through their upcasters on the fast path too.
    versions = {(r.topic, json.loads(r.state).get("class_version", 1)) for r in records}
    assert (get_topic(Campaign.QuestEnded), 1) in versions and (get_topic(Campaign.QuestEnded), 2) in versions
    assert (get_topic(Session.SessionEnded), 1) in versions and (get_topic(Session.SessionEnded), 2) in versions


@pytest.mark.parametrize(
    "state",
    [
        # another transcoded value beside the timestamp: the mapper's object hook decodes it
        {"timestamp": {"_type_": "datetime_iso", "_data_": "2026-01-02T03:04:05+00:00"}, "meta": {"issued_by": None},
         "roll": {"source": "digital", "results": {"d6": [4]}, "by": {"_type_": "uuid_hex", "_data_": uuid4().hex}}},
        # a float msgspec refuses and json reads
        {"timestamp": {"_type_": "datetime_iso", "_data_": "2026-01-02T03:04:05+00:00"}, "meta": {"issued_by": None},
         "roll": {"source": "digital", "results": {"d6": [4]}, "weight": math.nan}},
        # a lone surrogate, which json reads and msgspec refuses
        {"timestamp": {"_type_": "datetime_iso", "_data_": "2026-01-02T03:04:05+00:00"}, "meta": {"issued_by": None},
         "roll": {"source": "digital", "results": {"d6": [4]}, "note": "\ud800"}},
    ],
    ids=["uuid", "nan", "surrogate"],
)
def test_what_the_decoder_cannot_read_itself_goes_to_the_mapper(tracker, state):
    record = Record(1, str(uuid4()), 2, get_topic(Session.DiceRolled), json.dumps(state, separators=(",", ":")).encode())
    decoder = Decoder(tracker.mapper)
    event = decoder.decode(record)
    assert decoder.by_mapper == 1
    library = tracker.mapper.to_domain_event(StoredEvent(record.originator_id, record.originator_version, record.topic, record.state))
    assert type(event) is Session.DiceRolled
    assert json.dumps(vars(event), default=str) == json.dumps(vars(library), default=str)  # NaN != NaN, so compared as text


def test_the_decoder_reads_wide_integers_as_json_does(tracker):
    """Integers wider than 64 bits stay integers (orjson, for one, would make them floats)."""
    state = {"timestamp": {"_type_": "datetime_iso", "_data_": "2026-01-02T03:04:05+00:00"}, "meta": {"issued_by": None},
             "roll": {"source": "digital", "results": {"d6": [2**70, -(2**64) - 1]}}}
    record = Record(1, str(uuid4()), 2, get_topic(Session.DiceRolled), json.dumps(state, separators=(",", ":")).encode())
    decoder = Decoder(tracker.mapper)
    event = decoder.decode(record)
    assert decoder.by_mapper == 0
    assert event.roll["results"]["d6"] == [2**70, -(2**64) - 1] and all(type(n) is int for n in event.roll["results"]["d6"])


@pytest.mark.parametrize(
    "stored",
    ["2026-01-02T03:04:05.123456+00:00", "2026-01-02T03:04:05+02:00", "2026-01-02T03:04:05.000000+00:00",
     "2026-01-02T03:04:05-00:00", "2026-01-02T03:04:05Z", "2026-01-02 03:04:05.5+00:00", "2026-W01-5T03:04:05+00:00",
     "2026-01-02T03:04:05.123456+05:30:15"],
)
def test_the_timeline_time_is_what_isoformat_writes_however_the_time_was_stored(tracker, stored):
    state = {"timestamp": {"_type_": "datetime_iso", "_data_": stored}, "meta": {"issued_by": None},
             "roll": {"source": "digital", "results": {"d6": [4]}}}
    record = Record(1, str(uuid4()), 2, get_topic(Session.DiceRolled), json.dumps(state).encode())
    event, occurred_at = Decoder(tracker.mapper).decode_timed(record)
    library = tracker.mapper.to_domain_event(StoredEvent(UUID(record.originator_id), 2, record.topic, record.state))
    assert event.timestamp == library.timestamp and occurred_at == library.timestamp.isoformat()


# -- the views -----------------------------------------------------------------------------------


# Fixtures written after the fast path have no digest from before it; the decoder test above
# compares their events with the mapper's one by one.
@pytest.mark.parametrize("fixture", [f for f in FIXTURES if f.name in DIGESTS_BEFORE_THE_FAST_PATH], ids=lambda p: p.name)
def test_a_rebuild_of_old_stored_events_gives_the_views_the_runner_gave_before_the_fast_path(tracker, runner, fixture):
    _store_fixture(tracker, fixture)
    assert runner.rebuild() == DIGESTS_WITH_GAME_VIEWS[fixture.name]
    # The service's own views are what they were before views became modules and the games brought theirs
    # (the timeline's reworded summaries aside).
    core = [table for view in CORE for table in view.tables if table != "view_timeline"]
    assert runner.store.digest(tables=core) == CORE_DIGESTS_BUT_THE_TIMELINE[fixture.name]
    assert runner.decoder.by_mapper == 0


def test_a_batch_whose_row_a_view_already_holds_is_written_row_by_row(tracker, runner):
    """COPY refuses a row already there; the batch is then written with the INSERTs, which pass over it."""
    _play(tracker)
    digest = runner.rebuild()
    records = _all_records(tracker)
    last = next(r for r in reversed(records) if r.topic == get_topic(Session.SessionEnded))
    # The views lose everything from the session's end on, but its timeline row is put back by hand.
    store = runner.store
    store.clear(tracker.name)
    before = [r for r in records if r.id < last.id]
    store.write(runner.rows(before), 0, Tracking(tracker.name, before[-1].id))
    timeline_row = next(row for row in runner.rows([last]) if row[0] == "timeline")
    with store.datastore.transaction(commit=True) as cursor:
        cursor.execute(
            store._sql(
                "INSERT INTO {view_timeline} (session_id, position, campaign_id, event_type, summary, issued_by, occurred_at, "
                "secret_to, public_summary) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
            ),
            timeline_row[1:],
        )
    runner.catch_up()
    assert runner.position == records[-1].id
    assert store.digest() == digest


def test_a_batch_sums_its_dice_rows_per_face_as_row_by_row_upserts_would(tracker, runner, database_url):
    """Rolls and their undo in one batch: a face whose counts cancel still has its row, at zero."""
    cid = tracker.create_campaign("journey", "Dice group", components=JOURNEY_TEST_COMPONENTS).body["id"]
    sid = tracker.start_session(cid, "q1-meeting").body["id"]
    tracker.roll(sid, faces={"d6": [6, 6, 1]})
    tracker.roll(sid, faces={"d6": [2]})
    tracker.undo(sid)
    tracker.roll(sid, faces={"d6": [6]})
    runner.batch_size = 1000
    runner.rebuild()
    faces = {(row["die"], row["source"], row["face"]): row["count"] for row in runner.store.dice_faces(cid)}
    assert faces == {("d6", "reported", "6"): 3, ("d6", "reported", "1"): 1, ("d6", "reported", "2"): 0}
    one_by_one = ProjectionRunner(tracker, runner.store, batch_size=1)
    assert one_by_one.rebuild() == runner.store.digest() == runner.rebuild()


# -- overlapped batches --------------------------------------------------------------------------


def test_a_batch_builds_on_what_the_batch_before_it_learned_before_that_is_written(tracker, runner):
    """The session starts in one batch; its rolls and game events come in the next, built while the first is
    still being written: their campaign and game state come from the first batch, not from the views."""
    cid = tracker.create_campaign("journey", "Overlap group", components=JOURNEY_TEST_COMPONENTS).body["id"]
    sid = tracker.start_session(cid, "q1-meeting").body["id"]
    started = max(r.id for r in _all_records(tracker) if r.topic == get_topic(Session.SessionStarted))
    tracker.roll(sid, faces={"d6": [3]})
    records = _all_records(tracker)
    first, second = [r for r in records if r.id <= started + 1], [r for r in records if r.id > started + 1]
    assert any(r.topic == get_topic(Session.DiceRolled) for r in second)
    folded = Folded()
    runner.rows(first, folded)
    rows = runner.rows(second, Folded(), earlier=folded)
    timeline = [row for row in rows if row[0] == "timeline"]
    assert timeline and all(row[3] == cid for row in timeline)  # each row knows its campaign
    assert ("dice", cid, "d6", "reported", "3", 1) in rows
    assert runner.store.campaign_of(sid) is None  # nothing was written: it came from the first batch


def test_a_catch_up_whose_writes_lag_gives_the_views_of_one_batch_at_a_time(tracker, runner, monkeypatch):
    _play(tracker)
    one_at_a_time = ProjectionRunner(tracker, runner.store, batch_size=2)
    one_at_a_time.store.clear(tracker.name)
    while one_at_a_time.run_once():
        pass
    expected = runner.store.digest()

    real_write = runner.store.write

    def slow_write(rows, start, tracking):
        time.sleep(0.01)  # the next batch is read and built meanwhile
        real_write(rows, start, tracking)

    runner.batch_size = 2
    runner.store.clear(tracker.name)
    monkeypatch.setattr(runner.store, "write", slow_write)
    assert runner.catch_up() == len(_all_records(tracker))
    assert runner.store.digest() == expected


# -- the digest ----------------------------------------------------------------------------------


def _digest_as_json_dumps_writes_it(store, campaign_id: str | None = None) -> str:
    """The digest as first written: json.dumps of every row, sorted keys, less the local columns."""
    import hashlib

    from projections.store import LOCAL_COLUMNS, TABLES

    sha = hashlib.sha256()
    for table, (_, key, *_) in TABLES.items():
        where, params = "", ()
        if campaign_id is not None:
            where = ("WHERE session_id IN (SELECT session_id FROM {view_sessions} WHERE campaign_id = %s)"
                     if table == "view_undone" else "WHERE campaign_id = %s")
            params = (campaign_id,)
        for row in store.query(f"SELECT * FROM {{{table}}} {where} ORDER BY {', '.join(key)}", params):
            portable = {k: v for k, v in row.items() if k not in LOCAL_COLUMNS}
            sha.update(json.dumps([table, portable], sort_keys=True, default=str).encode())
    return sha.hexdigest()


def test_the_digest_is_json_dumps_of_every_row_whatever_the_text_holds(tracker, runner):
    _play(tracker)
    runner.rebuild()
    cid = runner.store.query("SELECT campaign_id FROM {view_sessions}")[0]["campaign_id"]
    awkward = ['say "hi"', "back\\slash", "tab\tand\nnewline", "é … ☯ 𝄞", "\x01\x1f\x7f", ""]
    rows = [
        ("timeline", f"session-{n}", n, cid, "DiceRolled", text, None if n % 2 else text, "2026-01-02T03:04:05+00:00", None, text)
        for n, text in enumerate(awkward, start=1)
    ] + [("dice", cid, "d6", "digital", text or "0", -(2**30)) for text in awkward[:3]]
    position = runner.position
    runner.store.write(rows, position, Tracking(tracker.name, position + 1))
    assert runner.store.digest() == _digest_as_json_dumps_writes_it(runner.store)
    assert runner.store.digest(cid) == _digest_as_json_dumps_writes_it(runner.store, cid)
