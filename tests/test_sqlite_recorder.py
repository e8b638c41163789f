"""The SQLite recorder's insert (tracker/adapters/sqlite.py) behaves as the library's: one transaction for a
command's events, a duplicate position refused as the library's IntegrityError with nothing of the batch written,
and the writer's connection given back either way."""

from __future__ import annotations

from uuid import uuid4

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from tracker.adapters.config import persistence_env
from tracker.adapters.sqlite import DirectSQLiteApplicationRecorder
from tracker.application.service import Tracker


@pytest.fixture
def sqlite_tracker(sqlite_url):
    app = Tracker(env=persistence_env(sqlite_url))
    yield app
    app.close()


def _event(stream, version):
    return StoredEvent(originator_id=stream, originator_version=version, topic="test:Event", state=b'{"n":%d}' % version)


def test_the_tracker_on_sqlite_uses_it(sqlite_tracker):
    assert isinstance(sqlite_tracker.recorder, DirectSQLiteApplicationRecorder)


def test_a_batch_is_written_whole_with_its_notification_ids(sqlite_tracker):
    recorder, stream = sqlite_tracker.recorder, uuid4()
    ids = recorder.insert_events([_event(stream, 1), _event(stream, 2)])
    assert len(ids) == 2 and ids[1] == ids[0] + 1
    assert [s.originator_version for s in recorder.select_events(stream)] == [1, 2]


def test_a_conflict_is_the_librarys_integrity_error_and_writes_nothing_of_its_batch(sqlite_tracker):
    recorder, stream, other = sqlite_tracker.recorder, uuid4(), uuid4()
    recorder.insert_events([_event(stream, 1)])
    with pytest.raises(IntegrityError):
        recorder.insert_events([_event(other, 1), _event(stream, 1)])
    assert recorder.select_events(other) == []  # rolled back: the first event of the refused batch is not there
    # the writer's connection went back to the pool: the next write is not blocked behind it
    assert recorder.insert_events([_event(other, 1)])
    assert [s.originator_version for s in recorder.select_events(other)] == [1]


def test_one_event_is_its_own_transaction_and_a_conflict_is_the_librarys_integrity_error(sqlite_tracker):
    """One event goes in as its INSERT alone: committed once it returns (another connection reads it), a duplicate
    position refused as the library's IntegrityError, no transaction left open on the writer's connection, which goes
    back to the pool either way."""
    recorder, stream = sqlite_tracker.recorder, uuid4()
    (first,) = recorder.insert_events([_event(stream, 1)])
    pool = recorder.datastore.pool
    reader = pool.get_connection(is_writer=False)
    try:
        rows = reader._sqlite_conn.execute(f"SELECT originator_version FROM {recorder.events_table_name} WHERE originator_id = ?", (stream.hex,)).fetchall()
    finally:
        pool.put_connection(reader)
    assert [tuple(row) for row in rows] == [(1,)]
    with pytest.raises(IntegrityError):
        recorder.insert_events([_event(stream, 1)])
    writer = pool.get_connection(is_writer=True)
    try:
        assert not writer._sqlite_conn.in_transaction
    finally:
        pool.put_connection(writer)
    (second,) = recorder.insert_events([_event(stream, 2)])
    assert second > first and [s.originator_version for s in recorder.select_events(stream)] == [1, 2]
