"""The projections (timeline, dice statistics) and their runner, on SQLite and on PostgreSQL.

Every test builds real view stores on the database under test (no database
mocks); failures are simulated only by wrapping the store's own methods.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.utils import get_topic

from projections.runner import PROJECTED, ProjectionRunner
from projections.store import ViewStore, open_view_store
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker.application.service import Request, Tracker
from tracker.adapters.config import persistence_env

ROOT = Path(__file__).resolve().parents[1]
DEADLINE_SECONDS = 10.0


# -- fixtures and helpers --------------------------------------------------------


@pytest.fixture
def make_runner(tracker: Tracker, database_url: str) -> Iterator[Callable[..., ProjectionRunner]]:
    """ProjectionRunners on the tracker under test, each with a view store of its own."""
    stores: list[ViewStore] = []

    def make(batch_size: int = 500) -> ProjectionRunner:
        store = open_view_store(persistence_env(database_url))
        stores.append(store)
        return ProjectionRunner(tracker, store, batch_size=batch_size)

    yield make
    for store in stores:
        store.datastore.close()


@pytest.fixture
def runner(make_runner: Callable[..., ProjectionRunner]) -> ProjectionRunner:
    return make_runner()


def _campaign(tracker: Tracker, name: str = "Tuesday group") -> str:
    return tracker.create_campaign("journey", name, components=JOURNEY_TEST_COMPONENTS).body["id"]


def _session(tracker: Tracker, campaign_id: str, request: Request = Request()) -> str:
    return tracker.start_session(campaign_id, "q1-meeting", request=request).body["id"]


def _last_projected_id(tracker: Tracker) -> int:
    """The runner's position when caught up: the last notification of the log (campaign and
    idempotency events are read and passed over, so the position reaches the end)."""
    return tracker.recorder.max_notification_id() or 0


def _tally(counts: dict[tuple[str, str, str], int], result: dict[str, Any]) -> None:
    """Add one roll's answer (results per die, source) to expected (die, source, face) counts."""
    for die, faces in result["results"].items():
        for face in faces:
            key = (die, result["source"], str(face))
            counts[key] = counts.get(key, 0) + 1


def _faces(store: ViewStore, campaign_id: str) -> dict[tuple[str, str, str], int]:
    return {(row["die"], row["source"], row["face"]): row["count"] for row in store.dice_faces(campaign_id)}


def _tamper(store: ViewStore) -> None:
    """Damage the views behind the runner's back (the position stays), as a bad deploy might."""
    with store.datastore.transaction(commit=True) as cursor:
        cursor.execute(store._sql("UPDATE {view_dice_faces} SET count = count + 1"))
        cursor.execute(store._sql("DELETE FROM {view_timeline} WHERE position = 1"))


def _wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {DEADLINE_SECONDS}s waiting for {what}")
        time.sleep(0.02)


# -- 1. the timeline --------------------------------------------------------------


def test_the_timeline_lists_every_event_of_a_session_in_order_with_summaries_and_issuer(tracker, runner):
    who = Request(issued_by="token-1")
    cid = _campaign(tracker)
    sid = _session(tracker, cid, who)
    digital = tracker.roll(sid, dice={"attack": 2, "d6": 2}, purpose="attack", request=who).body
    reported = tracker.roll(sid, faces={"d20": [17, 3]}, request=who).body
    drawn = tracker.draw(sid, "fortune", count=2, request=who).body["cards"]
    tracker.act(sid, {"type": "end-turn"}, request=who)
    tracker.end_session(sid, "victory", reported={"house_cleared": True}, request=who)
    other = _session(tracker, _campaign(tracker, "Another group"))  # not part of this timeline
    tracker.roll(other, dice={"d4": 1})

    assert runner.catch_up() > 0
    timeline = runner.store.timeline(sid)
    events = tracker.session_events(sid)["events"]

    assert [(e["position"], e["event_type"]) for e in timeline] == [(e["position"], e["type"]) for e in events]
    assert [e["position"] for e in timeline] == sorted(e["position"] for e in timeline)
    types = [e["event_type"] for e in timeline]
    assert types[0] == "SessionStarted" and types[-1] == "SessionEnded"
    assert {"DiceRolled", "CardsDrawn", "ActionTaken", "TurnEnded"} <= set(types)
    assert all(e["issued_by"] == "token-1" for e in timeline)
    assert [e["occurred_at"] for e in timeline] == [e["timestamp"] for e in events]

    by_position = {e["position"]: e["summary"] for e in timeline}
    digital_summary = by_position[digital["position"]]
    attack, d6 = (", ".join(str(f) for f in digital["results"][die]) for die in ("attack", "d6"))
    assert digital_summary == f"Rolled {attack} on the attack dice and {d6} on 2d6 (for attack)"
    assert by_position[reported["position"]] == "Rolled at the table: 17, 3 on 2d20"
    draw_summary = next(e["summary"] for e in timeline if e["event_type"] == "CardsDrawn")
    assert all(card in draw_summary for card in drawn) and "Fortune" in draw_summary  # the deck by its name
    actions = [e["summary"] for e in timeline if e["event_type"] == "ActionTaken"]
    assert actions == ["Quest Meeting set up", "End turn"]  # the quest by its name, the action in words
    assert next(e["summary"] for e in timeline if e["event_type"] == "TurnEnded") == "Turn 1 ended"
    assert "victory" in by_position[events[-1]["position"]]

    # Paging by position.
    assert runner.store.timeline(sid, after=2, limit=2) == timeline[2:4]
    # The other session's events are in its own timeline only.
    other_types = [e["event_type"] for e in runner.store.timeline(other)]
    assert other_types == [e["type"] for e in tracker.session_events(other)["events"]] and other_types[-1] == "DiceRolled"


# -- 2. dice statistics -------------------------------------------------------------


def test_dice_statistics_count_faces_per_campaign_digital_and_reported_apart(tracker, runner):
    cid = _campaign(tracker)
    expected: dict[tuple[str, str, str], int] = {}
    rolled = Counter()

    first = _session(tracker, cid)
    for result in (
        tracker.roll(first, dice={"attack": 3, "d6": 2}).body,
        tracker.roll(first, faces={"d6": [6, 6, 1], "attack": ["X"]}).body,
    ):
        _tally(expected, result)
        rolled[result["source"]] += sum(len(f) for f in result["results"].values())
    tracker.end_session(first, "defeat", reported={"defeated": ["tripitaka"]})
    runner.catch_up()
    after_first = _faces(runner.store, cid)
    assert after_first == expected

    second = _session(tracker, cid)
    for result in (
        tracker.roll(second, dice={"d6": 4}).body,
        tracker.roll(second, faces={"d6": [6]}).body,
    ):
        _tally(expected, result)
        rolled[result["source"]] += sum(len(f) for f in result["results"].values())

    other_cid = _campaign(tracker, "Another group")
    other = _session(tracker, other_cid)
    other_result = tracker.roll(other, dice={"d6": 5, "d20": 1}).body

    runner.catch_up()
    faces = _faces(runner.store, cid)
    assert faces == expected
    # The two sessions add up: reported sixes from both sessions are in one count.
    assert faces[("d6", "reported", "6")] == 3
    assert faces[("attack", "reported", "X")] == 1
    # Sums equal the number of dice rolled, per source.
    for source in ("digital", "reported"):
        assert sum(n for (_, s, _), n in faces.items() if s == source) == rolled[source]
    assert rolled == {"digital": 9, "reported": 5}
    # Faces are reported as strings whatever the die.
    assert all(isinstance(face, str) for (_, _, face) in faces)

    # The other campaign is counted apart.
    other_expected: dict[tuple[str, str, str], int] = {}
    _tally(other_expected, other_result)
    assert _faces(runner.store, other_cid) == other_expected
    assert sum(_faces(runner.store, other_cid).values()) == 6
    assert _faces(runner.store, "no-such-campaign") == {}


# -- 3. incremental equals rebuild -------------------------------------------------------


def test_incremental_projection_equals_rebuild_and_the_digest_tracks_changes(tracker, make_runner):
    runner = make_runner(batch_size=3)
    empty = runner.store.digest()
    cid = _campaign(tracker)
    sid = _session(tracker, cid, Request(issued_by="token-1"))
    steps = 0
    commands = [
        lambda: tracker.roll(sid, dice={"attack": 2}),
        lambda: tracker.roll(sid, faces={"d8": [8, 1]}),
        lambda: tracker.draw(sid, "fortune", count=3),
        lambda: tracker.act(sid, {"type": "end-turn"}),
        lambda: tracker.roll(sid, dice={"d12": 2, "d4": 1}, purpose="damage"),
        lambda: tracker.draw(sid, "fortune", cards=None, count=1, holder="monkey-king"),
        lambda: tracker.end_session(sid, "heroic-victory", ruling="test: how the quest ended is not what this test is about"),
        lambda: tracker.roll(_session(tracker, cid), dice={"d10": 3}),
    ]
    for command in commands:
        command()
        if runner.run_once():  # at most three notifications at a time, behind the log
            steps += 1
    while runner.run_once():
        steps += 1
    assert steps >= 4, "the incremental path should take several small batches"
    assert runner.position == _last_projected_id(tracker)
    incremental = runner.store.digest()
    assert incremental != empty

    # A rebuild replays the log from zero: damaged views are restored, not merely caught up.
    _tamper(runner.store)
    assert runner.store.digest() != incremental
    first = runner.rebuild()
    assert runner.position == _last_projected_id(tracker)
    second = runner.rebuild()
    assert first == second == incremental

    # The digest is not constant: one more roll, projected, changes it.
    tracker.roll(_session(tracker, cid), dice={"d6": 1})
    assert runner.catch_up() > 0
    changed = runner.store.digest()
    assert changed != incremental
    assert runner.rebuild() == changed


# -- 4. exactly once with concurrent runners ----------------------------------------------


def test_two_concurrent_runners_count_every_notification_once(tracker, make_runner):
    expected: dict[str, dict[tuple[str, str, str], int]] = {}
    for name in ("Tuesday group", "Friday group"):
        cid = _campaign(tracker, name)
        expected[cid] = {}
        for _ in range(2):
            sid = _session(tracker, cid)
            for n in range(5):
                _tally(expected[cid], tracker.roll(sid, dice={"d6": 2, "attack": 1}).body)
                _tally(expected[cid], tracker.roll(sid, faces={"d4": [n % 4 + 1]}).body)
            tracker.end_session(sid, "victory", reported={"house_cleared": True})
    target = _last_projected_id(tracker)

    runners = [make_runner(batch_size=2), make_runner(batch_size=2)]
    barrier = threading.Barrier(len(runners))
    errors: list[BaseException] = []
    processed = [0] * len(runners)

    def work(index: int, r: ProjectionRunner) -> None:
        try:
            barrier.wait(timeout=DEADLINE_SECONDS)
            deadline = time.monotonic() + DEADLINE_SECONDS
            while r.position < target:
                processed[index] += r.catch_up()
                if time.monotonic() > deadline:
                    raise TimeoutError(f"runner {index} stuck at {r.position} < {target}")
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i, r)) for i, r in enumerate(runners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=DEADLINE_SECONDS * 2)
    assert not any(thread.is_alive() for thread in threads)
    assert not errors, errors

    # Every projected notification was written by exactly one of the two runners.
    assert sum(processed) == target  # every notification covered by exactly one runner
    for r in runners:
        assert r.position == target
    concurrent = {cid: _faces(runners[0].store, cid) for cid in expected}
    assert concurrent == expected
    concurrent_digest = runners[0].store.digest()
    assert runners[1].store.digest() == concurrent_digest

    # A single runner's result from scratch is the same.
    single = make_runner()
    assert single.rebuild() == concurrent_digest
    assert {cid: _faces(single.store, cid) for cid in expected} == expected
    assert single.position == target


# -- 4b. exactly once when the log grows between two runners' reads -----------------------------


def test_runners_that_read_from_the_same_position_before_and_after_an_append_count_once(tracker, make_runner, monkeypatch):
    cid = _campaign(tracker)
    sid = _session(tracker, cid)
    expected: dict[tuple[str, str, str], int] = {}
    _tally(expected, tracker.roll(sid, dice={"d6": 3}).body)
    a, b = make_runner(), make_runner()  # the same configuration, as in two gunicorn workers
    a_write, b_write = a.store.write, b.store.write

    def b_writes_after_a_committed(rows, start, tracking):
        a_write(*a_batch)  # A's transaction commits while B is still building its batch
        b_write(rows, start, tracking)

    def a_reads_then_the_log_grows(rows, start, tracking):
        a_batch.extend([rows, start, tracking])
        _tally(expected, tracker.roll(sid, dice={"d6": 1}).body)  # a command commits
        monkeypatch.setattr(b.store, "write", b_writes_after_a_committed)
        b.run_once()  # B reads from position 0 too, and sees the new roll

    a_batch: list[Any] = []
    monkeypatch.setattr(a.store, "write", a_reads_then_the_log_grows)
    a.run_once()
    monkeypatch.undo()
    a.catch_up()
    b.catch_up()

    assert a.position == b.position == _last_projected_id(tracker)
    assert _faces(a.store, cid) == expected
    assert sum(_faces(a.store, cid).values()) == 4


# -- 5. rows and position commit or roll back together -------------------------------------


def test_a_failed_batch_keeps_neither_rows_nor_position_and_a_later_run_projects_once(tracker, make_runner, monkeypatch):
    runner = make_runner(batch_size=4)
    store = runner.store
    empty = store.digest()
    cid = _campaign(tracker)
    sid = _session(tracker, cid, Request(issued_by="token-1"))
    expected: dict[tuple[str, str, str], int] = {}
    for n in range(4):
        _tally(expected, tracker.roll(sid, dice={"d6": 2}).body)
        _tally(expected, tracker.roll(sid, faces={"d8": [n + 1]}).body)
    tracker.end_session(sid, "victory", reported={"house_cleared": True})

    real_write_rows = store._write_rows
    seen_in_transaction: list[int] = []

    def rows_written_then_fail(cursor, grouped, copy):
        # The position has moved and the batch's rows are in the transaction by now; prove it, then fail.
        real_write_rows(cursor, grouped, copy)
        cursor.execute(store._sql("SELECT COUNT(*) AS n FROM {view_timeline}"))
        seen_in_transaction.append(dict(cursor.fetchone())["n"])
        raise RuntimeError("disk full")

    # From zero: nothing is kept.
    monkeypatch.setattr(store, "_write_rows", rows_written_then_fail)
    with pytest.raises(RuntimeError, match="disk full"):
        runner.run_once()
    # the first batch: four notifications, of which only the session's events make timeline rows
    first_batch = tracker.recorder.select_notifications(start=1, limit=4)
    rows_in_first = sum(1 for n in first_batch if str(n.originator_id) == sid)  # the session's own events
    assert seen_in_transaction == [rows_in_first]
    assert runner.position == 0
    assert store.timeline(sid) == []
    assert store.dice_faces(cid) == []
    assert store.digest() == empty

    # After a good batch: the failed one leaves the good one's rows and position as they were.
    monkeypatch.setattr(store, "_write_rows", real_write_rows)
    assert runner.run_once() == 4
    position, kept, digest = runner.position, store.timeline(sid), store.digest()
    assert position == 4 and len(kept) == rows_in_first
    monkeypatch.setattr(store, "_write_rows", rows_written_then_fail)
    with pytest.raises(RuntimeError):
        runner.run_once()
    second_batch = tracker.recorder.select_notifications(start=5, limit=4)
    assert seen_in_transaction == [rows_in_first, rows_in_first + sum(1 for n in second_batch if str(n.originator_id) == sid)]
    assert runner.position == position
    assert store.timeline(sid) == kept
    assert store.digest() == digest

    # A later successful run projects everything exactly once.
    monkeypatch.setattr(store, "_write_rows", real_write_rows)
    runner.catch_up()
    assert runner.position == _last_projected_id(tracker)
    timeline = store.timeline(sid)
    assert [e["position"] for e in timeline] == [e["position"] for e in tracker.session_events(sid)["events"]]
    assert _faces(store, cid) == expected
    assert sum(_faces(store, cid).values()) == 12
    assert runner.rebuild() == store.digest()
    assert _faces(store, cid) == expected


# -- 6. the CLI ------------------------------------------------------------------------


def test_the_rebuild_command_prints_the_same_digest_as_a_rebuild(tracker, runner, database_url):
    cid = _campaign(tracker)
    sid = _session(tracker, cid, Request(issued_by="token-1"))
    tracker.roll(sid, dice={"attack": 2, "d20": 1})
    tracker.roll(sid, faces={"d6": [2]})
    tracker.draw(sid, "fortune", count=1)
    tracker.end_session(sid, "defeat", reported={"defeated": ["tripitaka"]})
    runner.catch_up()
    before = runner.store.digest()
    _tamper(runner.store)  # the command must rebuild from the log, not just catch up
    assert runner.store.digest() != before

    executable = Path(sys.executable).with_name("tracker")
    completed = subprocess.run(
        [str(executable), "--database-url", database_url, "rebuild"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    printed = json.loads(completed.stdout)
    assert set(printed) == {"position", "digest"}
    assert printed["digest"] == before
    assert printed["position"] == _last_projected_id(tracker)

    assert runner.rebuild() == printed["digest"]
    assert runner.position == printed["position"]


# -- 7. the background runner -------------------------------------------------------------


def test_the_runner_thread_picks_up_new_events_and_stops_when_told(tracker, runner):
    cid = _campaign(tracker)
    sid = _session(tracker, cid)
    thread, stop = runner.start_in_thread()
    try:
        assert thread.is_alive()
        _wait_until(lambda: runner.position == _last_projected_id(tracker), "the session start to be projected")
        assert [e["event_type"] for e in runner.store.timeline(sid)] == [e["type"] for e in tracker.session_events(sid)["events"]]

        result = tracker.roll(sid, faces={"d12": [12, 11]}).body
        target = _last_projected_id(tracker)
        _wait_until(lambda: runner.position == target, "the roll to be projected")
        assert runner.store.timeline(sid)[-1]["summary"] == "Rolled at the table: 12, 11 on 2d12"
        assert result["position"] == runner.store.timeline(sid)[-1]["position"]
        assert _faces(runner.store, cid) == {("d12", "reported", "12"): 1, ("d12", "reported", "11"): 1}
    finally:
        stop.set()
        thread.join(timeout=DEADLINE_SECONDS)
    assert not thread.is_alive()

    # Stopped means stopped: new events are no longer projected.
    position = runner.position
    tracker.roll(sid, dice={"d4": 1})
    assert runner.position == position


def test_the_runner_thread_retries_a_failed_batch_from_the_tracked_position(tracker, runner, monkeypatch):
    cid = _campaign(tracker)
    sid = _session(tracker, cid)
    result = tracker.roll(sid, dice={"d6": 3}).body
    real_advance_tracking = runner.store._advance_tracking
    failures: list[int] = []

    def fail_once(cursor, start, tracking):
        if not failures:
            failures.append(tracking.notification_id)
            raise RuntimeError("connection reset")
        real_advance_tracking(cursor, start, tracking)

    monkeypatch.setattr(runner.store, "_advance_tracking", fail_once)
    thread, stop = runner.start_in_thread()
    try:
        _wait_until(lambda: runner.position == _last_projected_id(tracker), "the batch to be retried")
    finally:
        stop.set()
        thread.join(timeout=DEADLINE_SECONDS)
    assert not thread.is_alive()
    assert failures == [_last_projected_id(tracker)]
    expected: dict[tuple[str, str, str], int] = {}
    _tally(expected, result)
    assert _faces(runner.store, cid) == expected  # projected once, after the failure
    logged = [e["type"] for e in tracker.session_events(sid, limit=1000)["events"]]
    assert [e["event_type"] for e in runner.store.timeline(sid, limit=1000)] == logged and logged[-1] == "DiceRolled"


def test_view_tables_of_an_older_shape_are_rebuilt_from_the_log(tracker, database_url, make_runner):
    from projections.store import open_view_store

    cid = _campaign(tracker)
    sid = _session(tracker, cid)
    tracker.roll(sid, dice={"d6": 2})
    runner = make_runner()
    runner.catch_up()
    expected = runner.store.digest()
    runner.store.query("SELECT 1")  # the store works
    with runner.store.datastore.transaction(commit=True) as cursor:
        cursor.execute(runner.store._sql("UPDATE {view_schema} SET version = 1"))
        cursor.execute(runner.store._sql("UPDATE {view_timeline} SET summary = 'stale'"))
    reopened = ProjectionRunner(tracker, open_view_store(persistence_env(database_url)))
    try:
        assert reopened.position == 0 and reopened.store.timeline(sid) == []
        reopened.catch_up()
        assert reopened.store.digest() == expected
    finally:
        reopened.store.datastore.close()


def test_reads_of_the_views_on_postgresql_keep_each_connections_prepared_statements(postgres_url: str) -> None:
    """A view read is one statement on the pool's autocommit connection. Inside the library's read transaction
    it ended in a rollback, on which psycopg drops every statement the connection had prepared: no read of the
    views was ever prepared, and each paid two more round trips."""
    store = open_view_store(persistence_env(postgres_url))
    try:
        pool = store.datastore.pool
        connections = pool.get_stats()["pool_size"]
        read = "SELECT progress FROM {view_campaign_progress} WHERE campaign_id = %s"
        for _ in range(6 * connections):  # the pool hands its connections out in turn: each runs it six times
            assert store.query(read, ("no-such-campaign",)) == []
        prepared = []
        for _ in range(connections):
            with store.datastore.get_connection() as conn:
                prepared.append([row["statement"] for row in conn.execute("SELECT statement FROM pg_prepared_statements")])
        assert all(any("view_campaign_progress" in statement for statement in found) for found in prepared), prepared
    finally:
        store.datastore.close()
