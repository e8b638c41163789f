"""An import holds well under 3x the file's size, however long its sessions (issue 29), on SQLite and PostgreSQL.

Measured with tracemalloc (what Python allocates, not the time it takes) while a generated campaign of one
long session is imported, read from disk as `tracker import` reads it, and posted to POST /campaigns/import
as a worker receives it. A worker's resident size is measured over 20-60 MB files by bench/import_memory.py
(bench/RESULTS.md). What the import holds at its peak is the stored form of every event, about the file's
size (written in one transaction); the whole-file check before it holds a few dozen bytes an event
(tracker/integrity/verify_export.py). Before the check read one event at a time it held 2.5x the file, and so
did both ways in."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.portability.export_file import ExportLines

TURNS = 700  # about 2,800 events, a 2.9 MB file: long enough that holding every event's state many times shows
# The bound: the 3x, tightened to what the import holds now with a margin. Both ways in measure 1.1x on
# SQLite, 1.8x on PostgreSQL (whose insert dumps a batch of 2,000 events' parameters, most of this small file,
# beside the stored forms: tracker/adapters/postgres.py INSERT_BATCH, the same size for a file of any length); the
# whole-file check that kept every event's checked fields peaked at 2.5x, and fails the SQLite bound.
BOUND = {"sqlite": 1.6, "postgres": 2.3}


def _bound(database_url: str) -> float:
    return BOUND["sqlite" if database_url.startswith("sqlite") else "postgres"]


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


def _post(client, path: Path) -> dict:
    with path.open("rb") as body:
        # As a worker's server hands the body over: given as data=, werkzeug's test client reads the whole file first.
        response = client.post("/campaigns/import", input_stream=body, headers={"Content-Type": "application/x-ndjson", "Content-Length": str(path.stat().st_size)})
    assert response.status_code == 201, response.get_data(as_text=True)[:500]
    return response.json


def _peak(load, exports: dict[str, Path]) -> tuple[dict, float]:
    """What loading the long file returns, and the most Python held meanwhile, as a multiple of the file's size."""
    load(exports["small"])  # the import's code paths once, so the modules they load are not counted
    tracemalloc.start()
    try:
        body = load(exports["long"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return body, peak / exports["long"].stat().st_size


def test_importing_one_long_session_from_disk_holds_little_more_than_the_file(tracker, database_url, exports):
    body, peak = _peak(lambda path: _import(tracker, path), exports)
    assert body["events"] > 4 * TURNS and list(body["sessions"].values()) == ["verified"]
    assert peak < _bound(database_url), f"the import's peak was {peak:.2f}x the {exports['long'].stat().st_size / 1e6:.1f} MB file"


def test_posting_one_long_session_holds_little_more_than_the_file(client, database_url, exports):
    body, peak = _peak(lambda path: _post(client, path), exports)
    assert body["events"] > 4 * TURNS and list(body["sessions"].values()) == ["verified"]
    assert peak < _bound(database_url), f"POST /campaigns/import peaked at {peak:.2f}x the {exports['long'].stat().st_size / 1e6:.1f} MB file"


def test_an_insert_in_batches_is_still_one_transaction(tracker, monkeypatch):
    """PostgreSQL writes a large import in batches (tracker/adapters/postgres.py INSERT_BATCH): a conflict in the last
    batch leaves nothing of the earlier ones, as when the whole file went in one statement."""
    from uuid import uuid4

    from eventsourcing.persistence import IntegrityError, StoredEvent

    from tracker.adapters import postgres

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
