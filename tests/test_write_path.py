"""The write path under concurrency: many campaigns written at once by two applications on one store
(as two gunicorn workers are), with a projection runner reading the notification log meanwhile.

No event may be lost or written twice: every command's answer names an event that is stored once,
every stream's versions run 1..n with an intact hash chain (each process links to heads it cached
itself or reads back), the notification log holds each event exactly once in id order, and the
runner, which read the log while it was being written, projected every event exactly once (a
commit out of notification-id order would make it pass over one for good).
"""

from __future__ import annotations

import threading
from uuid import UUID

from projections.runner import ProjectionRunner
from projections.store import open_view_store
from tracker.integrity import hash_chain
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env

CAMPAIGNS = 6
SESSIONS_PER_CAMPAIGN = 2
ROLLS_PER_WRITER = 12


def test_many_campaigns_written_at_once_lose_and_duplicate_no_events(tracker: Tracker, database_url: str) -> None:
    other = Tracker(env={**persistence_env(database_url), "CREATE_TABLE": "n"})  # a second worker on the same store
    store = open_view_store(persistence_env(database_url))
    runner = ProjectionRunner(tracker, store, batch_size=7)
    try:
        campaigns = [tracker.create_campaign("journey", f"Table {i}").body["id"] for i in range(CAMPAIGNS)]
        sessions = {cid: [tracker.start_session(cid, "q1-meeting").body["id"] for _ in range(SESSIONS_PER_CAMPAIGN)] for cid in campaigns}
        answered: list[tuple[str, int]] = []  # (session, position) of every DiceRolled a command reported
        lock = threading.Lock()
        errors: list[BaseException] = []

        def writer(index: int, campaign_id: str) -> None:
            try:
                app = tracker if index % 2 == 0 else other
                # both sessions of the campaign, and the campaign itself when a third session starts,
                # are written by two writers at once (one on each application): conflicts are retried
                for i in range(ROLLS_PER_WRITER):
                    sid = sessions[campaign_id][i % SESSIONS_PER_CAMPAIGN]
                    answer = app.roll(sid, dice={"d6": 2}).body
                    with lock:
                        answered.append((sid, answer["position"]))
                started = app.start_session(campaign_id, "q1-meeting").body["id"]
                with lock:
                    sessions[campaign_id].append(started)
            except BaseException as error:  # noqa: BLE001 - reported by the main thread
                errors.append(error)

        stop = threading.Event()
        projecting = threading.Thread(target=lambda: [runner.run_once() for _ in iter(stop.is_set, True)])
        projecting.start()
        writers = [threading.Thread(target=writer, args=(i, cid)) for cid in campaigns for i in range(2)]
        for thread in writers:
            thread.start()
        for thread in writers:
            thread.join()
        stop.set()
        projecting.join()
        assert not errors, errors

        # every answer names a distinct stored DiceRolled, and every stored DiceRolled was answered once
        assert len(answered) == len(set(answered)) == CAMPAIGNS * 2 * ROLLS_PER_WRITER
        stored_rolls = []
        streams = [UUID(cid) for cid in campaigns] + [UUID(sid) for ids in sessions.values() for sid in ids]
        expected_events = 0
        for stream in streams:
            events = tracker.recorder.select_events(stream)
            assert [e.originator_version for e in events] == list(range(1, len(events) + 1))
            assert hash_chain.check(tracker, stream)["status"] == "intact"
            stored_rolls += [(str(stream), e.originator_version) for e in events if e.topic.endswith("DiceRolled")]
            expected_events += len(events)
        assert sorted(stored_rolls) == sorted(answered)
        for cid in campaigns:  # each campaign lists each of its sessions once
            listed = [s["id"] for s in tracker.get_campaign(cid)["sessions"]]
            assert sorted(listed) == sorted(sessions[cid]) and len(listed) == SESSIONS_PER_CAMPAIGN + 2

        # the notification log: each event once, ids increasing
        log = tracker.recorder.select_notifications(start=1, limit=100_000)
        in_streams = [(n.originator_id, n.originator_version) for n in log if n.originator_id in set(streams)]
        assert len(in_streams) == len(set(in_streams)) == expected_events
        assert [n.id for n in log] == sorted(n.id for n in log)

        # the runner read the log while it grew: every session event is in the timeline exactly once
        runner.catch_up()
        for ids in sessions.values():
            for sid in ids:
                positions = [row["position"] for row in store.timeline(sid, limit=10_000)]
                assert positions == list(range(1, tracker.repository.get(UUID(sid)).version + 1))
    finally:
        store.datastore.close()
        other.close()


def test_another_application_in_the_same_schema_keeps_its_events_apart(postgres_url: str) -> None:
    """Each application's insert function is named after its own table: a second application created
    later in the same PostgreSQL schema must not redirect the tracker's events into its table.
    (PostgreSQL only: in one SQLite file the library keeps every application's events in one table.)"""
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate

    class Other(Application[UUID]):
        name = "other"

    tracker = Tracker(env=persistence_env(postgres_url))
    other = Other(env=persistence_env(postgres_url))
    try:
        other.save(Aggregate())
        campaign_id = tracker.create_campaign("journey", "Apart").body["id"]
        assert tracker.get_campaign(campaign_id)["name"] == "Apart"
        assert all(n.originator_id != UUID(campaign_id) for n in other.recorder.select_notifications(start=1, limit=100))
    finally:
        other.close()
        tracker.close()
