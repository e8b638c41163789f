"""An import holds at most 3x the file's size, however long its sessions (issue 29), on SQLite and PostgreSQL.

Measured with tracemalloc (what Python allocates, not the time it takes) while a generated campaign of one
long session is imported from disk, as `tracker import` and POST /campaigns/import read it. A worker's
resident size is measured the same way, over a 61 MB file, by bench/import_memory.py (bench/RESULTS.md)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from tests.conftest import JOURNEY_TEST_COMPONENTS
from tracker.application import Tracker
from tracker.config import persistence_env
from tracker.export_file import ExportLines

TURNS = 700  # about 2,800 events, a 1.6 MB file: long enough that holding every event's state many times shows


def _campaign(app: Tracker, turns: int) -> str:
    cid = app.create_campaign("journey", "Long", ["tripitaka", "monkey-king"], JOURNEY_TEST_COMPONENTS).body["id"]
    sid = app.start_session(cid, "q1-meeting").body["id"]
    for _ in range(turns):
        app.roll(sid, dice={"attack": 2, "d6": 2}, purpose="attack")
        app.roll(sid, faces={"defense": ["3"]})
        drawn = app.draw(sid, "fortune", count=1, holder="monkey-king").body["cards"]
        app.act(sid, {"type": "discard", "deck": "fortune", "cards": drawn, "holder": "monkey-king"})  # reshuffled when the deck runs out
        app.act(sid, {"type": "end-turn"})
    app.end_session(sid, "defeat", ruling="the test ends the quest here")
    return cid


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> dict[str, Path]:
    path = tmp_path_factory.mktemp("import-memory")
    app = Tracker(env=persistence_env(f"sqlite:///{path / 'source.sqlite3'}"))
    files = {}
    for name, turns in (("small", 3), ("long", TURNS)):
        files[name] = path / f"{name}.jsonl"
        files[name].write_text("".join(app.export_campaign(_campaign(app, turns))), encoding="utf-8")
    app.close()
    return files


def _import(app: Tracker, path: Path) -> dict:
    with path.open("rb") as file, ExportLines(file) as lines:
        return app.import_campaign(lines).body


def test_importing_one_long_session_holds_at_most_three_times_the_file(tracker, exports):
    _import(tracker, exports["small"])  # the import's code paths once, so the modules they load are not counted
    size = exports["long"].stat().st_size
    tracemalloc.start()
    try:
        body = _import(tracker, exports["long"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert body["events"] > 4 * TURNS and list(body["sessions"].values()) == ["verified"]
    assert peak < 3 * size, f"the import's peak was {peak / size:.1f}x the {size / 1e6:.1f} MB file"


def test_an_insert_in_batches_is_still_one_transaction(tracker, monkeypatch):
    """PostgreSQL writes a large import in batches (tracker/postgres.py INSERT_BATCH): a conflict in the last
    batch leaves nothing of the earlier ones, as when the whole file went in one statement."""
    from uuid import uuid4

    from eventsourcing.persistence import IntegrityError, StoredEvent

    from tracker import postgres

    monkeypatch.setattr(postgres, "INSERT_BATCH", 3)
    stream = uuid4()
    events = [StoredEvent(originator_id=stream, originator_version=n, topic="tests:Nothing", state=b"{}") for n in range(1, 11)]
    tracker.recorder.insert_events(events[-1:])  # the tenth is there already
    with pytest.raises(IntegrityError):
        tracker.recorder.insert_events(events)
    assert [e.originator_version for e in tracker.recorder.select_events(stream)] == [10]
    other = uuid4()
    ids = tracker.recorder.insert_events([StoredEvent(originator_id=other, originator_version=n, topic="tests:Nothing", state=b"{}") for n in range(1, 11)])
    assert [e.originator_version for e in tracker.recorder.select_events(other)] == list(range(1, 11))
    if ids is not None:  # every batch's notification ids, in order
        assert len(ids) == 10 and ids == sorted(ids)
