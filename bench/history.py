"""Points 3 and 4 of the benchmark: replaying a long log, and reads that stay flat as a campaign grows.

A fresh store gets two kinds of campaign:
- *short*: a Journey campaign whose session has HISTORY_SHORT events in all (campaign + session);
- *long*: the same, then its session extended to HISTORY_LONG events.
Another long campaign brings the notification log to at least REPLAY_EVENTS events.

The long histories are written by the same steps as `Tracker.roll` (the session's HMAC stream,
`resolve_roll`, `record_roll`, hash-chain linking and snapshots in `Tracker.save`) but a
thousand rolls per save: the command path would take minutes to write 200,000 events, and
what is measured here is reading them back, not writing them.

Reads: `get_session` (session state) and Journey's hero-progress view (projected first: one row per
campaign), the median of READ_REPEATS warm calls (the aggregate cache on, as the service runs) and
the first call of a fresh application and view store (cold: what a restarted worker pays).

Replay: `ProjectionRunner.replay` (every view emptied and projected again from position 0, each
batch committed with its position, as `tracker rebuild` does with its default batch size) over the
whole log, against a raw read of the same rows (psycopg, the same batch size) with `json.loads` of
each state: the issue's reference. Beside it, the same raw read with msgspec (the decoder the
replay uses), and the library's own decoding of the same notifications (mapper.to_domain_event).
Replay and raw read alternate REPLAY_REPEATS times and the medians count. The views' digest that
`tracker rebuild` prints after the replay is timed on its own.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable
from uuid import UUID

import msgspec
import psycopg

from quick import scaled
from timing import median_ms

from projections import views as registered_views
from projections.runner import REBUILD_BATCH_SIZE, ProjectionRunner
from projections.store import open_view_store
from tracker.core import dice as dice_rolls
from tracker.application.service import Tracker, _meta
from tracker.adapters.config import persistence_env
from tracker.core.randomness import RandomStream, new_seed

HISTORY_SHORT = 100
HISTORY_LONG = scaled(100_000, 10_000)
REPLAY_EVENTS = scaled(200_000, 20_000)
SAVE_BATCH = 1000
READ_REPEATS = 21
REPLAY_REPEATS = scaled(3, 1)
DICE = {"d6": 2}
PARTY = ["tripitaka", "monkey-king"]


@dataclass
class HistoryResult:
    events_in_log: int = 0
    write_seconds: float = 0.0
    reads_ms: dict[str, dict[int, float]] = field(default_factory=dict)  # what -> {history: ms}
    cold_ms: dict[str, dict[int, float]] = field(default_factory=dict)
    replay_seconds: float = 0.0  # median of REPLAY_REPEATS
    raw_seconds: float = 0.0  # raw read + json.loads, median of REPLAY_REPEATS
    raw_msgspec_seconds: float = 0.0  # raw read + msgspec, median of REPLAY_REPEATS
    decode_seconds: float = 0.0
    digest_seconds: float = 0.0
    replay_batch_size: int = 0
    views_digest: str = ""


def campaign_events(app: Tracker, campaign_id: str) -> int:
    campaign = app.repository.get(UUID(campaign_id))
    return campaign.version + sum(app.repository.get(UUID(s["id"])).version for s in campaign.sessions)


def new_history(app: Tracker, events: int) -> tuple[str, str]:
    """A campaign and its one session, extended with rolls until the campaign holds ``events`` events."""
    campaign_id = app.create_campaign("journey", f"History of {events}", party=PARTY).body["id"]
    session_id = app.start_session(campaign_id, "q1-meeting").body["id"]
    missing = events - campaign_events(app, campaign_id)
    campaign = app.repository.get(UUID(campaign_id))
    ruleset = app._ruleset(campaign)
    specs = ruleset.dice(campaign.components)
    meta = _meta(app_request(), ruleset)
    session = app.repository.get(UUID(session_id))
    seed = bytes.fromhex(session.seed)
    while missing > 0:
        # end each batch on a multiple of 100, so Tracker.save takes its snapshots as a roll-by-roll run would
        batch = min(missing, SAVE_BATCH - session.version % 100)
        for _ in range(batch):
            roll = dice_rolls.resolve_roll(specs, DICE, None, RandomStream(seed, session.counter))
            roll["purpose"] = None
            session.record_roll(roll=roll, meta=meta)
        app.save(session)
        missing -= batch
    return campaign_id, session_id


def app_request() -> Any:
    from tracker.application.service import Request

    return Request(issued_by="bench")




def raw_read(raw_url: str, schema: str, batch_size: int, loads: Callable[[bytes], Any], expected: int) -> float:
    """Seconds to read every stored event's state in batches (psycopg, nothing else) and decode each with ``loads``."""
    started = time.perf_counter()
    with psycopg.connect(raw_url) as conn:
        position, read = 0, 0
        statement = f'SELECT notification_id, state FROM "{schema}".tracker_events WHERE notification_id > %s ORDER BY notification_id LIMIT %s'
        while True:
            rows = conn.execute(statement, (position, batch_size), prepare=True).fetchall()
            if not rows:
                break
            for _, state in rows:
                loads(bytes(state))
            read += len(rows)
            position = rows[-1][0]
    seconds = time.perf_counter() - started
    assert read == expected, (read, expected)
    return seconds


def once_ms(func: Callable[[], Any]) -> float:
    started = time.perf_counter()
    func()
    return 1000 * (time.perf_counter() - started)


def measure_history(database_url: str, raw_url: str, schema: str, seed_source: Callable[[], bytes] = new_seed) -> HistoryResult:
    env = persistence_env(database_url)
    result = HistoryResult()
    app = Tracker(env=env, seed_source=seed_source)
    try:
        started = time.perf_counter()
        short = new_history(app, HISTORY_SHORT)
        long = new_history(app, HISTORY_LONG)
        while (app.recorder.max_notification_id() or 0) < REPLAY_EVENTS:
            new_history(app, min(HISTORY_LONG, REPLAY_EVENTS - app.recorder.max_notification_id() + 10))
        result.write_seconds = time.perf_counter() - started
        result.events_in_log = app.recorder.max_notification_id() or 0
        print(f"  history: wrote {result.events_in_log} events in {result.write_seconds:.0f} s", flush=True)

        histories = {HISTORY_SHORT: short, HISTORY_LONG: long}
        store = open_view_store(env)
        try:
            ProjectionRunner(app, store, batch_size=REBUILD_BATCH_SIZE).catch_up()  # hero progress is read from its view
        finally:
            store.datastore.close()
        progress = registered_views.of_game("journey", "hero-progress")
        reads = {
            "session state (GET /sessions/{sid})": lambda a, s, cid, sid: a.get_session(sid),
            "hero progress (GET /campaigns/{cid}/heroes)": lambda a, s, cid, sid: progress.read(s, cid),
        }
        store = open_view_store(env)
        try:
            for what, read in reads.items():
                result.reads_ms[what] = {n: median_ms(lambda: read(app, store, cid, sid), READ_REPEATS, warm=True) for n, (cid, sid) in histories.items()}
                result.cold_ms[what] = {}
                for n, (cid, sid) in histories.items():
                    fresh, fresh_store = Tracker(env={**env, "CREATE_TABLE": "n"}), open_view_store(env)
                    try:
                        result.cold_ms[what][n] = once_ms(lambda: read(fresh, fresh_store, cid, sid))
                    finally:
                        fresh_store.datastore.close()
                        fresh.close()
        finally:
            store.datastore.close()
    finally:
        app.close()

    # Replay: the projections from zero and the raw reads of the same rows, alternated; then the library's decode.
    app = Tracker(env={**env, "CREATE_TABLE": "n"})
    store = open_view_store(env)
    try:
        runner = ProjectionRunner(app, store, batch_size=REBUILD_BATCH_SIZE)
        result.replay_batch_size = runner.batch_size
        replays, raws, raws_msgspec = [], [], []
        for repeat in range(REPLAY_REPEATS):
            started = time.perf_counter()
            covered = runner.replay()
            replays.append(time.perf_counter() - started)
            assert covered == result.events_in_log and runner.position == result.events_in_log, (covered, runner.position)
            raws.append(raw_read(raw_url, schema, runner.batch_size, json.loads, result.events_in_log))
            raws_msgspec.append(raw_read(raw_url, schema, runner.batch_size, msgspec.json.Decoder().decode, result.events_in_log))
            print(f"  replay {repeat + 1}/{REPLAY_REPEATS}: {result.events_in_log / replays[-1]:,.0f} events/s; raw read + json.loads "
                  f"{result.events_in_log / raws[-1]:,.0f}/s; + msgspec {result.events_in_log / raws_msgspec[-1]:,.0f}/s", flush=True)
        result.replay_seconds = statistics.median(replays)
        result.raw_seconds = statistics.median(raws)
        result.raw_msgspec_seconds = statistics.median(raws_msgspec)

        started = time.perf_counter()
        result.views_digest = store.digest()
        result.digest_seconds = time.perf_counter() - started

        started = time.perf_counter()
        position = 0
        while notifications := app.recorder.select_notifications(start=position, limit=runner.batch_size, inclusive_of_start=False):
            for notification in notifications:
                app.mapper.to_domain_event(notification)
            position = notifications[-1].id
        result.decode_seconds = time.perf_counter() - started
    finally:
        store.datastore.close()
        app.close()
    return result
