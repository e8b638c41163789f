"""Write-path benchmark: the tracker service against the raw database and the bare library.

Run with `make bench` (`BENCH_QUICK=1 make bench`: every section shortened, the tables printed, RESULTS.md left as
it was: bench/quick.py). Every figure is a rate measured in this one run, on fixed
inputs, and is reported next to the rates of the same database without the
service (raw INSERT + COMMIT of a row the size of a stored DiceRolled event) and
of the bare eventsourcing library (a trivial aggregate saved N times), so the
ratios carry the meaning and nothing depends on this machine's absolute speed.
Nothing here asserts a time.

Each backend gets a fresh store: SQLite files in a temporary directory, and on
PostgreSQL (127.0.0.1:5432, database campaign_tracker_bench, created if
missing) a fresh schema that is dropped at the end. When PostgreSQL does not
answer, only SQLite is measured and the output and RESULTS.md say so.

Session seeds are fixed (derived from a counter, not from `secrets`) so that every
run stores the same rolls; no `random` module anywhere.
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, CanMutateProtocol, event
from eventsourcing.persistence import IntegrityError

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/ modules, when run as a script

from history import HISTORY_LONG, HISTORY_SHORT, REPLAY_REPEATS, HistoryResult, measure_history
from http_load import HttpResult, measure_http
from shards_load import CAMPAIGNS, CLIENTS as SHARD_CLIENTS, FENCE_THREADS, ShardsResult, measure_shards
from import_memory import SECTION as IMPORT_MEMORY_SECTION
from view_reads import SECTION as VIEW_READS_SECTION
from targets import ISSUE_35_HEADER, issue35_rows, target_rows
from timing import median_ms
from quick import QUICK, scaled
from tracker.adapters.repository import mutate_each
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.core.errors import Conflict
from tracker.core.randomness import RandomStream
from tracker.rulesets.engine.data import content_hash

N_ROLLS = scaled(1500, 300)  # commands per write-path case and round, on each backend (a 300-command burst was too short to measure steadily)
N_SESSIONS = 20  # sessions of one campaign for the round-robin case
N_THREADS = 8  # concurrent writers in the concurrent cases (the issue's 8 writers)
REPEATS = scaled(5, 3)  # rounds of the write-path cases; the median rate of each is kept
LOAD_REPEATS = 15  # repository gets per load figure; the median time is kept
MICRO_ITERATIONS = 2000  # iterations of each in-process micro-measurement
WARM_UP_ROLLS = 3  # untimed rolls per warm-up session (also opens pool connections)
CAMPAIGN_SESSIONS_BEFORE_SNAPSHOT = 98  # a campaign at v99: the longest replay before its first snapshot
MICRO_SESSION_ROLLS = 100  # rolls stored for the in-process replay measurement
DICE = {"d6": 2}
COMPONENTS = {"dice": {"attack": {"faces": ["X", "1", "1", "2", "2", "3"]}}}
POSTGRES_SERVER = os.environ.get("BENCH_POSTGRES_SERVER", "postgresql://postgres@127.0.0.1:5432")  # no database part
BENCH_DB = "campaign_tracker_bench"
RESULTS_PATH = Path(__file__).resolve().parent / "RESULTS.md"


# -- what is measured ------------------------------------------------------------


@dataclass
class Rate:
    """Commands (or inserts, or saves) per second of one case."""

    done: int
    seconds: float
    conflicts: int = 0  # optimistic-concurrency conflicts retried inside the application
    failed: int = 0  # commands that gave up (Conflict "too busy")
    cpu_seconds: float = 0.0  # CPU time of this (client) process meanwhile, all threads; the server's is not in it

    @property
    def per_second(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    @property
    def ms_each(self) -> float:
        return 1000 * self.seconds / self.done if self.done else 0.0

    @property
    def cpu_ms_each(self) -> float:
        return 1000 * self.cpu_seconds / self.done if self.done else 0.0

    @property
    def wait_ms_each(self) -> float:
        """Wall time not spent on this process's CPU: mostly waiting for the database."""
        return max(self.ms_each - self.cpu_ms_each, 0.0)


@dataclass
class Row:
    case: str
    writers: int
    service: Rate
    raw: Rate
    bare: Rate


@dataclass
class BackendResult:
    name: str
    rows: list[Row] = field(default_factory=list)
    loads_ms: dict[str, float] = field(default_factory=dict)
    event_bytes: int = 0
    session_version: int = 0
    snapshot_versions: list[int] = field(default_factory=list)
    snapshots_enabled: bool = False
    settings: dict[str, str] = field(default_factory=dict)
    library_default: dict[int, Rate] = field(default_factory=dict)  # PostgreSQL: the library's own recorder, no stored function


@dataclass
class Backend:
    """Where one backend's stores live: the tracker, the bare library, the raw table."""

    name: str
    tracker_url: str
    bare_url: str
    raw: RawStore
    settings: dict[str, str]
    cleanup: Callable[[], None]


# -- timing helpers --------------------------------------------------------------


@dataclass
class Timed:
    seconds: float  # wall time
    cpu_seconds: float  # this process's CPU time, every thread


def run_concurrently(tasks: list[Callable[[], None]]) -> Timed:
    """Start the tasks together (one thread each); the wall and CPU time until all end."""
    if len(tasks) == 1:
        started, cpu = time.perf_counter(), time.process_time()
        tasks[0]()
        return Timed(time.perf_counter() - started, time.process_time() - cpu)
    barrier = threading.Barrier(len(tasks) + 1)
    errors: list[BaseException] = []

    def wrap(task: Callable[[], None]) -> None:
        barrier.wait()
        try:
            task()
        except BaseException as error:  # noqa: BLE001 - re-raised in the main thread
            errors.append(error)

    threads = [threading.Thread(target=wrap, args=(task,)) for task in tasks]
    for thread in threads:
        thread.start()
    barrier.wait()
    started, cpu = time.perf_counter(), time.process_time()
    for thread in threads:
        thread.join()
    timed = Timed(time.perf_counter() - started, time.process_time() - cpu)
    if errors:
        raise errors[0]
    return timed


def split(total: int, parts: int) -> list[int]:
    """`total` commands shared as evenly as possible between `parts` writers."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def median_rate(rates: list[Rate]) -> Rate:
    return sorted(rates, key=lambda r: r.per_second)[len(rates) // 2]




def micro_us(func: Callable[[], Any], iterations: int = MICRO_ITERATIONS) -> float:
    started = time.perf_counter()
    for _ in range(iterations):
        func()
    return 1e6 * (time.perf_counter() - started) / iterations


# -- the service -----------------------------------------------------------------


class CountingTracker(Tracker):
    """The Tracker unchanged, except that it counts the optimistic conflicts it retries."""

    name = "tracker"  # keep the real application's name (and so its env prefix)

    def __init__(self, env: dict[str, str]) -> None:
        super().__init__(env=env, seed_source=SEEDS)
        self.conflicts = 0
        self._conflicts_lock = threading.Lock()

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        try:
            return super().save(*objs, **kwargs)
        except IntegrityError:
            with self._conflicts_lock:
                self.conflicts += 1
            raise


def fixed_seeds() -> Callable[[], bytes]:
    """A seed source whose sessions get seeds from a counter, so every run stores the same rolls
    (given to each Tracker the bench builds: Tracker(seed_source=...), as tracker/bootstrap.py does)."""
    counter = iter(range(1_000_000))

    def seed() -> bytes:
        return hashlib.sha256(f"campaign-tracker-bench-{next(counter)}".encode()).digest()

    return seed


SEEDS = fixed_seeds()


def new_sessions(app: Tracker, campaign_id: str, count: int) -> list[str]:
    return [app.start_session(campaign_id, "q1-meeting").body["id"] for _ in range(count)]


def roller(app: Tracker, session_ids: list[str], count: int, failures: list[int]) -> Callable[[], None]:
    """A writer that rolls `count` times, round-robin over `session_ids`."""

    def task() -> None:
        for i in range(count):
            try:
                app.roll(session_ids[i % len(session_ids)], dice=DICE)
            except Conflict:
                failures.append(1)

    return task


def new_campaign(app: Tracker) -> str:
    return app.create_campaign("journey", "Bench group", components=COMPONENTS).body["id"]


@dataclass
class RollRun:
    rate: Rate
    campaign_id: str
    session_ids: list[str]


def measure_rolls(app: CountingTracker, sessions: int, writers: int, share_session: bool) -> RollRun:
    """N_ROLLS rolls by `writers` threads, over `sessions` fresh sessions of a fresh campaign.

    A fresh campaign each time: every session start appends an event to its campaign,
    and every roll replays the campaign, so a shared campaign would make later cases slower.
    """
    campaign_id = new_campaign(app)
    session_ids = new_sessions(app, campaign_id, sessions)
    failures: list[int] = []
    if share_session or writers == 1:
        tasks = [roller(app, session_ids, n, failures) for n in split(N_ROLLS, writers)]
    else:  # each writer has sessions of its own
        groups = [session_ids[w::writers] for w in range(writers)]
        tasks = [roller(app, group, n, failures) for group, n in zip(groups, split(N_ROLLS, writers))]
    app.conflicts = 0
    timed = run_concurrently(tasks)
    rate = Rate(N_ROLLS - len(failures), timed.seconds, conflicts=app.conflicts, failed=len(failures), cpu_seconds=timed.cpu_seconds)
    return RollRun(rate, campaign_id, session_ids)


SERVICE_CASES = [
    # (case, sessions, writers, writers share one session)
    ("1 session, sequential", 1, 1, True),
    (f"{N_SESSIONS} sessions round-robin, sequential", N_SESSIONS, 1, False),
    (f"1 session, {N_THREADS} threads", 1, N_THREADS, True),
    (f"{N_THREADS} sessions, {N_THREADS} threads", N_THREADS, N_THREADS, False),
]


def warm_up_service(app: Tracker) -> None:
    """Untimed: loads the ruleset, prepares statements, opens N_THREADS pool connections."""
    session_ids = new_sessions(app, new_campaign(app), N_THREADS)
    run_concurrently([roller(app, [sid], WARM_UP_ROLLS, []) for sid in session_ids])


def stored_roll(app: Tracker) -> bytes:
    """The stored state of a real DiceRolled event, read back from the tracker's own table."""
    for notification in app.recorder.select_notifications(start=1, limit=1000):
        if notification.topic.endswith("DiceRolled"):
            return bytes(notification.state)
    raise RuntimeError("no DiceRolled event stored yet")


def events_phrase(count: int) -> str:
    return f"{count} event" + ("" if count == 1 else "s")


def measure_loads(app: Tracker, no_snapshots: Tracker, session_id: str, campaigns: dict[int, str]) -> dict[str, float]:
    """Milliseconds per repository get: a session with N_ROLLS rolls, and campaigns of growing size."""
    sid = UUID(session_id)
    version = app.repository.get(sid).version
    last_snapshot = version - version % 100
    typical = last_snapshot - 50  # 50 events after a snapshot: a roll's average replay
    loads = {
        f"session v{version}, as configured (cache with fast-forward; snapshot + {events_phrase(version - last_snapshot)} when cold)": median_ms(
            lambda: app.repository.get(sid), LOAD_REPEATS
        ),
        f"session v{typical}, snapshot + 50 events (a cold load's average)": median_ms(
            lambda: app.repository.get(sid, version=typical), LOAD_REPEATS
        ),
        f"session v{version}, full replay, no snapshots ({events_phrase(version)})": median_ms(
            lambda: no_snapshots.repository.get(sid), LOAD_REPEATS
        ),
    }
    for sessions, campaign_id in sorted(campaigns.items()):
        cid = UUID(campaign_id)
        loads[f"campaign with {sessions} session{'' if sessions == 1 else 's'}, v{app.repository.get(cid).version} (read when a session first plays in a worker)"] = median_ms(
            lambda: app.repository.get(cid), LOAD_REPEATS
        )
    return loads


# -- the bare library ------------------------------------------------------------


class Counter(Aggregate):
    def __init__(self) -> None:
        self.count = 0

    @event("Incremented")
    def increment(self) -> None:
        self.count += 1


class BareApp(Application[UUID]):
    name = "bare"


def measure_bare(app: BareApp, writers: int) -> Rate:
    """N_ROLLS saves of a one-event change to a trivial aggregate, by `writers` threads."""
    counters = [Counter() for _ in range(writers)]
    app.save(*counters)

    def saver(counter: Counter, count: int) -> Callable[[], None]:
        def task() -> None:
            for _ in range(count):
                counter.increment()
                app.save(counter)

        return task

    timed = run_concurrently([saver(c, n) for c, n in zip(counters, split(N_ROLLS, writers))])
    return Rate(N_ROLLS, timed.seconds, cpu_seconds=timed.cpu_seconds)


# -- the raw database ------------------------------------------------------------


class RawStore:
    """A plain table (integer key, one blob) written one row per transaction."""

    def setup(self) -> None: ...

    def writer(self, payload: bytes, count: int) -> tuple[Callable[[], None], Callable[[], None]]:
        """A (task, close) pair; the connection is opened before the clock starts."""
        raise NotImplementedError


class SQLiteRaw(RawStore):
    """sqlite3 in autocommit mode with explicit BEGIN/COMMIT and WAL, as eventsourcing.sqlite does.

    SQLite admits one writer at a time. Left to themselves, concurrent writers wait in
    SQLite's busy handler, which sleeps a millisecond or more while a commit takes a
    fraction of that, so the rate would measure the sleeps. The writers take turns
    through one lock instead, as the library's connection pool makes its writers do.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.write_lock = threading.Lock()

    def connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)

    def setup(self) -> None:
        conn = self.connect()
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE raw_events (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        conn.close()

    def writer(self, payload: bytes, count: int) -> tuple[Callable[[], None], Callable[[], None]]:
        conn = self.connect()

        def task() -> None:
            for _ in range(count):
                with self.write_lock:
                    conn.execute("BEGIN")
                    conn.execute("INSERT INTO raw_events (payload) VALUES (?)", (payload,))
                    conn.execute("COMMIT")

        return task, conn.close


class PostgresRaw(RawStore):
    def __init__(self, url: str, schema: str) -> None:
        self.url, self.schema = url, schema

    def setup(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE TABLE "{self.schema}".raw_events (id bigserial PRIMARY KEY, payload bytea NOT NULL)')

    def writer(self, payload: bytes, count: int) -> tuple[Callable[[], None], Callable[[], None]]:
        conn = psycopg.connect(self.url)
        statement = f'INSERT INTO "{self.schema}".raw_events (payload) VALUES (%s)'

        def task() -> None:
            for _ in range(count):
                conn.execute(statement, (payload,))
                conn.commit()

        return task, conn.close


def measure_raw(store: RawStore, payload: bytes, writers: int) -> Rate:
    pairs = [store.writer(payload, n) for n in split(N_ROLLS, writers)]
    try:
        timed = run_concurrently([task for task, _ in pairs])
    finally:
        for _, close in pairs:
            close()
    return Rate(N_ROLLS, timed.seconds, cpu_seconds=timed.cpu_seconds)


# -- backends --------------------------------------------------------------------


def sqlite_backend(directory: Path) -> Backend:
    raw = SQLiteRaw(directory / "raw.sqlite3")
    check = sqlite3.connect(":memory:")
    settings = {"sqlite_version": sqlite3.sqlite_version, "journal_mode": "wal (set by eventsourcing.sqlite)",
                "synchronous": f"{check.execute('PRAGMA synchronous').fetchone()[0]} (library default, not set)"}
    check.close()
    return Backend(
        name="SQLite",
        tracker_url=f"sqlite:///{directory / 'tracker.sqlite3'}",
        bare_url=f"sqlite:///{directory / 'bare.sqlite3'}",
        raw=raw,
        settings=settings,
        cleanup=lambda: None,
    )


def postgres_answers() -> str | None:
    """None when the server answers, otherwise why not."""
    try:
        with psycopg.connect(f"{POSTGRES_SERVER}/postgres", connect_timeout=3):
            return None
    except psycopg.Error as error:
        return f"PostgreSQL at {POSTGRES_SERVER} did not answer ({str(error).strip().splitlines()[0]})"


def postgres_backend() -> Backend:
    with psycopg.connect(f"{POSTGRES_SERVER}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (BENCH_DB,)).fetchone():
            try:
                conn.execute(f'CREATE DATABASE "{BENCH_DB}"')
            except psycopg.errors.DuplicateDatabase:
                pass
    db_url = f"{POSTGRES_SERVER}/{BENCH_DB}"
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        settings = {
            name: str(conn.execute(f"SHOW {name}").fetchone()[0])
            for name in ("server_version", "synchronous_commit", "fsync", "shared_buffers")
        }

    def drop_schema() -> None:
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    url = f"{db_url}?schema={schema}"
    return Backend(
        name="PostgreSQL",
        tracker_url=url,
        bare_url=url,  # its tables are named after the app: bare_events beside tracker_events
        raw=PostgresRaw(db_url, schema),
        settings=settings,
        cleanup=drop_schema,
    )


def measure_backend(backend: Backend) -> BackendResult:
    result = BackendResult(backend.name, settings=backend.settings)
    env = persistence_env(backend.tracker_url)
    app = CountingTracker(env=env)
    # Neither snapshots nor the aggregate cache: what a full replay of the log costs.
    no_snapshots = Tracker(env={**env, "IS_SNAPSHOTTING_ENABLED": "n", "AGGREGATE_CACHE_MAXSIZE": ""}, seed_source=SEEDS)
    # the library's own recorder (on SQLite the tracker's calls its insert directly: tracker/adapters/sqlite.py)
    bare = BareApp(env={k: v for k, v in persistence_env(backend.bare_url).items() if k != "APPLICATION_RECORDER_TOPIC"})
    try:
        result.snapshots_enabled = app.snapshots is not None
        warm_up_service(app)
        payload = stored_roll(app)
        result.event_bytes = len(payload)
        backend.raw.setup()
        measure_raw(backend.raw, payload, N_THREADS)  # warm-up, untimed
        measure_bare(bare, N_THREADS)  # warm-up, untimed

        # Rounds: in each, raw, bare and every service case run one after the other, so a busy or
        # quiet moment of the machine falls on all of them alike; each figure is the median round's.
        raw_runs: dict[int, list[Rate]] = {1: [], N_THREADS: []}
        bare_runs: dict[int, list[Rate]] = {1: [], N_THREADS: []}
        service_runs: dict[str, list[RollRun]] = {case: [] for case, *_ in SERVICE_CASES}
        for _ in range(REPEATS):
            for writers in (1, N_THREADS):
                raw_runs[writers].append(measure_raw(backend.raw, payload, writers))
                bare_runs[writers].append(measure_bare(bare, writers))
            for case, sessions, writers, share in SERVICE_CASES:
                service_runs[case].append(measure_rolls(app, sessions, writers, share))
        raw = {w: median_rate(runs) for w, runs in raw_runs.items()}
        floor = {w: median_rate(runs) for w, runs in bare_runs.items()}
        if backend.name == "PostgreSQL":
            default = BareApp(env={**persistence_env(backend.bare_url), "PERSISTENCE_MODULE": "eventsourcing.postgres",
                                   "POSTGRES_ENABLE_DB_FUNCTIONS": "n"})
            try:
                measure_bare(default, N_THREADS)  # warm-up, untimed
                result.library_default = {w: median_rate([measure_bare(default, w) for _ in range(REPEATS)]) for w in (1, N_THREADS)}
            finally:
                default.close()
        last_run: dict[str, RollRun] = {}
        for case, sessions, writers, share in SERVICE_CASES:
            runs = service_runs[case]
            result.rows.append(Row(case, writers, median_rate([run.rate for run in runs]), raw[writers], floor[writers]))
            last_run[case] = runs[-1]

        one, many = last_run[SERVICE_CASES[0][0]], last_run[SERVICE_CASES[1][0]]
        big_campaign = new_campaign(app)
        new_sessions(app, big_campaign, CAMPAIGN_SESSIONS_BEFORE_SNAPSHOT)
        campaigns = {1: one.campaign_id, N_SESSIONS: many.campaign_id, CAMPAIGN_SESSIONS_BEFORE_SNAPSHOT: big_campaign}
        result.loads_ms = measure_loads(app, no_snapshots, one.session_ids[0], campaigns)
        result.session_version = app.repository.get(UUID(one.session_ids[0])).version
        snapshots = app.snapshots.get(UUID(one.session_ids[0])) if app.snapshots else []
        result.snapshot_versions = [snapshot.originator_version for snapshot in snapshots]
    finally:
        for application in (app, no_snapshots, bare):
            application.close()
    return result


# -- in-process costs of one roll (no database) ----------------------------------

def micro_app(directory: Path) -> tuple[Tracker, UUID]:
    """A small SQLite tracker with one session of MICRO_SESSION_ROLLS rolls, for the in-process figures."""
    app = Tracker(env={**persistence_env(f"sqlite:///{directory / 'micro.sqlite3'}"), "IS_SNAPSHOTTING_ENABLED": "n"}, seed_source=SEEDS)
    campaign_id = app.create_campaign("journey", "Micro group", components=COMPONENTS).body["id"]
    session_id = app.start_session(campaign_id, "q1-meeting").body["id"]
    for _ in range(MICRO_SESSION_ROLLS):
        app.roll(session_id, dice=DICE)
    return app, UUID(session_id)


REPLAY_MICRO = "replay, per event (decode + mutate, as tracker/adapters/repository.py replays)"
PROTOCOL_MICRO = "`isinstance(event, CanMutateProtocol)`, the library's project_aggregate assert (the repository leaves it out)"


def measure_micro(app: Tracker, session_id: UUID) -> dict[str, float]:
    """Microseconds per operation, for the pieces of a roll that do not touch the database."""
    stream = RandomStream(hashlib.sha256(b"micro").digest())
    faces = list(range(1, 7))
    body = {"dice": DICE, "faces": None, "purpose": None}
    stored = list(app.recorder.select_events(session_id))
    rolled = stored[-1]
    domain_event = app.mapper.to_domain_event(rolled)
    replay_iterations = max(1, MICRO_ITERATIONS // len(stored))
    # As the repository replays (tracker/adapters/repository.py): the session is given its rules, which its game events
    # need (the library's project_aggregate gives none, and asserts a runtime Protocol check on every event).
    given = app.repository.given
    replay_us = micro_us(lambda: mutate_each(None, map(app.mapper.to_domain_event, stored), given), replay_iterations)
    return {
        "HMAC roll of 2d6 (RandomStream)": micro_us(lambda: [stream.roll(faces) for _ in range(2)]),
        "request fingerprint (canonical JSON + SHA-256), computed when an Idempotency-Key is sent": micro_us(
            lambda: content_hash({"command": "roll", "request": body})
        ),
        "encode one DiceRolled event (mapper: JSON + transcodings)": micro_us(lambda: app.mapper.to_stored_event(domain_event)),
        "decode one DiceRolled event (mapper)": micro_us(lambda: app.mapper.to_domain_event(rolled)),
        REPLAY_MICRO: replay_us / len(stored),
        PROTOCOL_MICRO: micro_us(
            lambda: isinstance(domain_event, CanMutateProtocol)
        ),
    }


# -- the machine and the report --------------------------------------------------


def machine() -> dict[str, str]:
    cpu = "unknown"
    memory = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": str(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()),
        "cpu": cpu,
        "memory": memory,
        "python": f"{platform.python_version()} ({platform.python_implementation()}), asserts {'on' if __debug__ else 'off (-O)'}",
        "eventsourcing": package_version("eventsourcing"),
        "psycopg": package_version("psycopg"),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
    }


HEADER = ("backend", "case", "writers", "cmd/s", "ms/cmd", "CPU ms/cmd", "raw/s", "raw CPU ms", "bare/s", "service/raw", "service/bare",
          "conflicts", "failed")


def table_rows(results: list[BackendResult]) -> list[tuple[str, ...]]:
    rows = []
    for result in results:
        for row in result.rows:
            rows.append((
                result.name,
                row.case,
                str(row.writers),
                f"{row.service.per_second:.0f}",
                f"{row.service.ms_each:.2f}",
                f"{row.service.cpu_ms_each:.2f}",
                f"{row.raw.per_second:.0f}",
                f"{row.raw.cpu_ms_each:.2f}",
                f"{row.bare.per_second:.0f}",
                f"{row.service.per_second / row.raw.per_second:.2f}",
                f"{row.service.per_second / row.bare.per_second:.2f}",
                str(row.service.conflicts),
                str(row.service.failed),
            ))
    return rows


def print_table(rows: list[tuple[str, ...]], header: tuple[str, ...] = HEADER) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths))))


def markdown_table(header: tuple[str, ...], rows: list[tuple[str, ...]], text_columns: int = 2) -> str:
    """A markdown table; columns after the first `text_columns` hold figures and are right-aligned."""
    alignment = ["---" if i < text_columns else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(alignment) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def findings(result: BackendResult, micro: dict[str, float]) -> str:
    """What the ratios say for one backend, from this run's figures."""
    one, many, shared, spread = result.rows
    as_configured, typical, full, campaign_1, campaign_20, campaign_98 = result.loads_ms.values()
    raw, bare, service = one.raw, one.bare, one.service
    replay_event = micro[REPLAY_MICRO]
    protocol_check = micro[PROTOCOL_MICRO]
    library_lock = (
        " (the stored function takes `LOCK TABLE ... IN EXCLUSIVE MODE` and sends a NOTIFY in every insert transaction, "
        "which the raw insert does not)"
        if result.name == "PostgreSQL"
        else ""
    )
    return (
        f"**{result.name}.** A sequential roll on one session takes {service.ms_each:.2f} ms, {service.cpu_ms_each:.2f} ms of it "
        f"CPU in this process; a raw insert+commit takes {raw.ms_each:.2f} ms ({raw.cpu_ms_each:.2f} ms CPU, in the driver) and "
        f"the bare library's save {bare.ms_each:.2f} ms ({bare.cpu_ms_each:.2f} ms CPU){library_lock}. So service/raw = "
        f"{service.per_second / raw.per_second:.2f}: the roll waits {service.wait_ms_each:.2f} ms for the "
        f"database against the raw insert's {raw.wait_ms_each:.2f} ms, and spends "
        f"{service.cpu_ms_each - raw.cpu_ms_each:+.2f} ms more CPU (the command's own work, the hash chain, the library's "
        f"insert path). A roll loads nothing: it starts from the session this process saved last (tracker/application/command_cache.py) "
        f"and reads the session's dice from memory. A load happens on a worker's first command for a session, after another "
        f"process wrote it, or for a read: a session is then a snapshot plus on average ~50 events ({typical:.2f} ms; the "
        f"{result.session_version}-event session from its snapshot {as_configured:.2f} ms against {full:.2f} ms by full replay; "
        f"snapshots found at versions {result.snapshot_versions or 'none'}), and a campaign {campaign_1:.2f} ms with 1 session, "
        f"{campaign_20:.2f} ms with {N_SESSIONS}, {campaign_98:.2f} ms with {CAMPAIGN_SESSIONS_BEFORE_SNAPSHOT} (its first "
        f"snapshot comes at v100). In process: the HMAC roll takes {micro['HMAC roll of 2d6 (RandomStream)']:.0f} µs, encoding "
        f"the event {micro['encode one DiceRolled event (mapper: JSON + transcodings)']:.0f} µs (once: the hash chain's "
        f"encoding is the one stored), and replay about {replay_event:.0f} µs an event (decode and mutate, as the repository "
        f"replays; the library's project_aggregate would add `assert isinstance(event, CanMutateProtocol)`, a runtime Protocol "
        f"check of {protocol_check:.0f} µs an event, which tracker/adapters/repository.py leaves out). "
        f"Round-robin over {N_SESSIONS} sessions runs at {many.service.per_second / service.per_second:.2f}x the one-session "
        f"rate. {N_THREADS} threads on one session take turns within the process ({shared.service.conflicts} conflicts, "
        f"{shared.service.failed} gave up): {shared.service.per_second / service.per_second:.2f}x the sequential rate. "
        f"Over {N_THREADS} sessions, {N_THREADS} threads reach {spread.service.per_second / service.per_second:.2f}x the "
        f"sequential rate, against {spread.raw.per_second / raw.per_second:.2f}x for raw inserts with the same writers: the "
        f"commands' CPU ({spread.service.cpu_ms_each:.2f} ms each) runs under one GIL, and the database has the other core."
    )


def runs_table(runs: list[Any]) -> str:
    """The HTTP runs of one app (the roll route, the minimal app, the floor), a row each."""
    return markdown_table(("clients", "requests", "seconds", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors", "worker CPU ms/req"),
                          [(str(r.clients), str(r.requests), f"{r.seconds:.1f}", f"{r.per_second:.0f}", f"{r.p50_ms:.1f}",
                            f"{r.p95_ms:.1f}", f"{r.p99_ms:.1f}", str(r.errors), f"{r.worker_cpu_ms_each:.2f}") for r in runs],
                          text_columns=0)


def profile_section(http: HttpResult) -> list[str]:
    """Where the real server's CPU goes (bench/server_profile.py)."""
    profile, run = http.profile, http.profiled
    if profile is None or run is None:
        return []
    if not profile.samples:
        return [f"No profile of the server: {profile.note}.", ""]
    cpu = run.worker_cpu_ms_each
    rows = [(name, f"{100 * profile.share(n):.1f}%", f"{cpu * profile.share(n):.3f}") for name, n in profile.layers.most_common()]
    stages = [(name, f"{100 * profile.share(n):.1f}%", f"{cpu * profile.share(n):.3f}") for name, n in profile.stages.most_common()]
    top = ", ".join(f"{name} {100 * profile.share(n):.1f}%" for name, n in profile.top.most_common(8))
    return [
        f"Where a request's CPU goes in the running server: py-spy sampled both workers' GIL-holding thread during one more "
        f"{run.clients}-client run ({run.per_second:.0f} req/s, {cpu:.2f} ms of worker CPU a request, {profile.samples} samples; "
        "bench/server_profile.py). Each sample counts in the layer of its innermost frame that has one:",
        "",
        markdown_table(("layer (innermost frame)", "share of samples", "ms a request"), rows, text_columns=1),
        "",
        "Stages, counted wherever they are on the stack (they overlap):",
        "",
        markdown_table(("stage (inclusive)", "share of samples", "ms a request"), stages, text_columns=1),
        "",
        f"Innermost frames most often sampled: {top}.",
        "",
    ]


def extra_sections(results: list[BackendResult], history: HistoryResult | None, http: HttpResult | None) -> list[str]:
    """The targets table, the HTTP runs, the long histories, and the library's recorders side by side."""
    parts = [
        "## Targets (issue 35)",
        "",
        "Each figure beside its limit, both measured in this one run (`make bench`).",
        "",
        markdown_table(ISSUE_35_HEADER, issue35_rows(results, history, http), text_columns=1),
        "",
        "## Targets (issue 9)",
        "",
        markdown_table(("figure", "measured", "ratio", "target", "", "what limits it (when missed)"),
                       target_rows(results, N_THREADS, history, http), text_columns=1),
        "",
    ]
    for r in results:
        if r.library_default:
            parts += [
                f"**{r.name} recorders, the bare library's trivial aggregate (saves/s):** "
                + "; ".join(
                    f"{w} writer{'s' if w > 1 else ''}: library default {r.library_default[w].per_second:.0f}, "
                    f"our stored function {next(row.bare for row in r.rows if row.writers == w).per_second:.0f} "
                    f"({next(row.bare for row in r.rows if row.writers == w).per_second / r.library_default[w].per_second:.2f}x)"
                    for w in sorted(r.library_default)
                )
                + ". The default sends SET lock_timeout, LOCK TABLE, NOTIFY, INSERT and COMMIT as separate statements; "
                "the stored function does the same in one statement (tracker/adapters/postgres.py).",
                "",
            ]
    if http is not None:
        parts += [
            "## HTTP: POST /sessions/{sid}/rolls through gunicorn on PostgreSQL",
            "",
            f"gunicorn.conf.py with {http.workers} workers x {http.threads} threads (gthread) on 127.0.0.1, load from "
            f"{http.generator}, each run bounded to a fixed time; every client rolls on sessions of its own over one kept-alive "
            "connection, which stays with the worker that accepted it, so each session's rolls start from that worker's "
            "command cache. "
            + (http.note + "." if http.note else ""),
            "",
            runs_table(http.runs),
            "",
            f"Worker resident size after the runs: {', '.join(f'{m:.0f} MB' for m in http.worker_rss_mb)}.",
            "",
            f"The application layer alone, measured between the minimal app's runs and the roll route's on the same database: "
            f"{http.application_per_second:.0f} cmd/s from 8 threads on 8 sessions, {http.application_cpu_ms_each:.2f} ms of CPU "
            "a command (the issue's bound, 1/(1/minimal + 1/application), uses this figure).",
            "",
            "The stack's limit, in the same run: bench/minimal_app.py (Flask reads the same JSON body and answers JSON) on the "
            "same gunicorn configuration, driven the same way:",
            "",
            runs_table(http.minimal),
            "",
            *([
                "The stack's floor for a roll, in the same run: bench/floor_app.py on the same gunicorn configuration and the same "
                "PostgreSQL, driven the same way. It does what any service on this stack must do to record a roll, each in its "
                "plainest form: Flask reads the body, the token's SHA-256 is looked up in memory, two dice come from an "
                "HMAC-SHA256 stream, the roll is chained to the session's last hash and saved with one prepared INSERT on an autocommit connection (one round trip) "
                "through psycopg's pool, and the answer is JSON. What the roll route costs beyond it is this project's code "
                "and the eventsourcing library's:",
                "",
                runs_table(http.floor),
                "",
            ] if http.floor else []),
            *profile_section(http),
            *([
                f"Where a request's CPU goes, measured in process (bench/http_layers.py: the same roll request sent straight "
                f"into the Flask application, no socket; CPU time, so the machine's other load hardly moves it): "
                f"{http.layers.request_ms:.2f} ms a request = {http.layers.command_ms:.2f} ms the command (`Tracker.roll` alone) + "
                f"{http.layers.token_check_ms:.2f} ms the token check (`Tracker.authenticate`: on PostgreSQL the grant from memory, "
                f"dropped when any process revokes it, tracker/adapters/grant_cache.py) + {http.layers.framework_ms:.2f} ms Flask, its hooks, webargs, marshmallow and JSON. The workers' CPU "
                "per request in the table adds gunicorn's own work to that.",
                "",
            ] if http.layers else []),
            *([
                "Instructions a request, counted by valgrind's callgrind in process (bench/instructions.py: each path in a fresh "
                "process, counting switched on after the warm-up for its requests only; the same count whatever else the machine "
                "runs, gunicorn's share left out):",
                "",
                markdown_table(("path", "thousand instructions a request", "x the minimal app"),
                               [(name, f"{http.instructions[path] / 1000:,.0f}", f"{http.instructions[path] / http.instructions['minimal']:.2f}")
                                for path, name in (("minimal", "the minimal app (Flask)"),
                                                   ("floor", "the stack's floor for a roll (floor_app.py)"),
                                                   ("route", "the roll route (POST /sessions/{sid}/rolls)"),
                                                   ("command", "the command alone (Tracker.roll)"))],
                               text_columns=1),
                "",
            ] if http.instructions else []),
        ]
    if history is not None:
        raw = history.events_in_log / history.raw_seconds
        parts += [
            "## Long histories: replay and reads (PostgreSQL)",
            "",
            f"{history.events_in_log:,} events written in {history.write_seconds:.0f} s (rolls saved a thousand at a time through "
            f"Tracker.save, hash chain and snapshots included). Replay (every view emptied and projected again from the log, "
            f"{history.replay_batch_size:,} notifications per transaction as `tracker rebuild` does) took {history.replay_seconds:.1f} s "
            f"({history.events_in_log / history.replay_seconds:,.0f} events/s); a raw read of the same rows with json.loads, the "
            f"issue's reference, {history.raw_seconds:.1f} s ({raw:,.0f}/s); the same raw read with msgspec, the decoder the replay "
            f"uses, {history.raw_msgspec_seconds:.1f} s ({history.events_in_log / history.raw_msgspec_seconds:,.0f}/s); each the "
            f"median of {REPLAY_REPEATS} runs, alternated. The library's decoding alone took {history.decode_seconds:.1f} s "
            f"({history.events_in_log / history.decode_seconds:,.0f}/s). The digest `tracker rebuild` prints afterwards read the "
            f"views back in {history.digest_seconds:.1f} s (replay and digest together: "
            f"{history.events_in_log / (history.replay_seconds + history.digest_seconds):,.0f} events/s). Views digest: "
            f"`{history.views_digest[:16]}`.",
            "",
            "The replay reads the log as plain tuples and decodes each state once with msgspec into the very event the library's "
            "mapper would make (its upcasters run; a state with any transcoded value but the timestamp goes to the mapper), "
            "builds the rows of every view with the same projection modules (a game's timeline words gathered once per ruleset, "
            "each distinct line said once: projections/timeline_words.py), and writes timeline and game-event rows by "
            "COPY, dice counts summed per batch, in the same transaction as the batch's position; the next batch is read and "
            "the last one written while a batch's rows are built, and the garbage collector leaves the process's heap alone "
            "while the replay runs (projections/log.py, runner.py, store.py). `make bench-replay BASELINE=dir` measures the "
            "replay alone beside another checkout's, on one log.",
            "",
            markdown_table(("read", f"after {HISTORY_SHORT} events, ms", f"after {HISTORY_LONG:,}, ms", "ratio",
                            f"cold after {HISTORY_SHORT}, ms", f"cold after {HISTORY_LONG:,}, ms"),
                           [(what, f"{ms[HISTORY_SHORT]:.2f}", f"{ms[HISTORY_LONG]:.2f}", f"{ms[HISTORY_LONG] / ms[HISTORY_SHORT]:.2f}",
                             f"{history.cold_ms[what][HISTORY_SHORT]:.1f}", f"{history.cold_ms[what][HISTORY_LONG]:.1f}")
                            for what, ms in history.reads_ms.items()], text_columns=1),
            "",
            "Warm: the median of repeated reads in one application, as a running worker serves them. Session state is "
            "the cached aggregate, brought up to date by one query for newer events (snapshots every 100 events bound a "
            "cold load to a snapshot plus at most 99 events). Hero progress is Journey's hero-progress view, projected "
            "as the log grows: one row per campaign, whatever the log's length (tracker/rulesets/journey/views.py). "
            "Cold: the first read of a fresh application and view store (its first connection included).",
            "",
        ]
    return parts


def shards_section(shards: ShardsResult | None, results: list[BackendResult], http: HttpResult | None = None) -> list[str]:
    if shards is None:
        return []
    if not shards.runs:
        return ["## Two shards against one", "", f"Not measured: {shards.note}.", ""]
    one = next(r for r in shards.runs if r.shards == 1)
    app = next((r.rows[3].service for r in results if r.name == "PostgreSQL"), None)
    rows = [(str(r.shards), ", ".join(f"{k} {v}" for k, v in sorted(r.placed.items())), str(r.requests), f"{r.seconds:.1f}",
             f"{r.per_second:.0f}", f"{r.per_second / one.per_second:.2f}", f"{r.p99_ms:.1f}", str(r.errors),
             f"{100 * r.machine_busy:.0f}%", f"{r.worker_cpu_ms_each:.2f}") for r in shards.runs]
    per_shard = http.application_per_second if http is not None and http.application_per_second else (app.per_second if app else None)
    web = 1000 / one.worker_cpu_ms_each if one.worker_cpu_ms_each else None
    estimate = (
        f"On paper, for N servers each with its own cores: a shard commits its events one transaction at a time (the events "
        f"table lock), which the application layer here reaches at about {per_shard:.0f} cmd/s with {N_THREADS} writers on "
        f"one server, so N shards take about N x {per_shard:.0f} cmd/s; the web tier is stateless and scales beside them, "
        f"each core serving about {web:.0f} rolls/s at the {one.worker_cpu_ms_each:.2f} ms of worker CPU a roll measured above, "
        f"so about {per_shard / web:.0f} web cores per shard. What does not scale with N is the home database: every write takes its "
        f"campaign's move lock there (one round trip, {shards.fence_ms:.2f} ms from one thread, no disk flush), and it answered "
        f"{shards.fences_per_second:,.0f} fences/s from {FENCE_THREADS} threads on this machine, the ceiling "
        f"for all shards together until the placement is replicated or itself split (e.g. by campaign id range)."
        if per_shard and web else ""
    )
    return [
        "## Two shards against one (PostgreSQL, through gunicorn)",
        "",
        f"bench/shards_load.py: the same gunicorn (one worker per core, routing by placement) with {SHARD_CLIENTS} wrk clients "
        f"rolling over {CAMPAIGNS} campaigns' sessions, each client over sessions of several campaigns; one shard is the home "
        "database alone, two adds a second PostgreSQL server, a throwaway cluster on this machine with fsync on as the first. "
        "Each configuration ran twice, alternated; the better run of each is shown.",
        "",
        markdown_table(("shards", "campaigns placed", "requests", "seconds", "cmd/s", "/ one shard", "p99 ms", "errors",
                        "machine busy", "worker CPU ms/cmd"), rows, text_columns=2),
        "",
        (f"Two shards / one: **{shards.ratio:.2f}**. On one machine the two servers share its 2 cores with the gunicorn "
         "workers and wrk: the second server adds a second events-table lock and a second WAL, so commits no longer queue "
         "behind one lock, but no CPU. "
         + ("The machine was busy through both runs (the busy column), so the cores, not the database, limit the ratio "
            "here, and any load of other programs on the machine moves it." if min(r.machine_busy for r in shards.runs) > 0.9 else
            "The machine had idle CPU left, so the commits' queue on one server's lock was part of what one shard waited on."))
        if shards.ratio else "",
        "",
        estimate,
        "",
    ]


def write_results(results: list[BackendResult], micro: dict[str, float], info: dict[str, str], notes: list[str],
                  history: HistoryResult | None = None, http: HttpResult | None = None, shards: ShardsResult | None = None) -> None:
    rows = table_rows(results)
    parts = [
        "# Benchmarks",
        "",
        *extra_sections(results, history, http),
        *shards_section(shards, results, http),
        "## Write path, application layer",
        "",
        f"Written by `make bench` (bench/run.py) on {info['date']}. Rates are medians of {REPEATS} rounds of {N_ROLLS} commands "
        f"(`tracker.roll(sid, dice={DICE})`), each round running raw, bare and every service case one after the other; *raw* is INSERT + COMMIT of one row the size of a stored DiceRolled event per "
        f"transaction, with the same number of writers; *bare* is the eventsourcing library saving a one-event change to a "
        f"trivial aggregate. Compare ratios, not absolute rates: they are from one run on one machine.",
        "",
        *[f"> {note}" for note in notes],
        *([""] if notes else []),
        markdown_table(HEADER, rows),
        "",
        "`conflicts`: optimistic-concurrency conflicts retried inside the application (each retry reloads the session). "
        "`failed`: commands that gave up after the application's retries.",
        "",
        "## Loading a session (repository get)",
        "",
        markdown_table(("backend", "load", "ms"), [(r.name, k, f"{v:.2f}") for r in results for k, v in r.loads_ms.items()]),
        "",
        "## In-process pieces of one roll (no database)",
        "",
        markdown_table(("piece", "µs"), [(k, f"{v:.1f}") for k, v in micro.items()], text_columns=1),
        "",
        "## What the ratios say",
        "",
        *[paragraph for r in results for paragraph in (findings(r, micro), "")],
        "Snapshots: the Tracker sets `snapshotting_intervals = {Session: 100, Campaign: 100}`; "
        "`Application.construct_env` turns a non-empty `snapshotting_intervals` into `IS_SNAPSHOTTING_ENABLED=y` "
        "(unless the process environment or the env passed in says otherwise), so a snapshot store exists "
        f"({', '.join(f'{r.name}: ' + ('yes' if r.snapshots_enabled else 'no') for r in results)}) and `save` snapshots a session "
        "whenever it records a version divisible by 100 (taken from the aggregate just saved, not reloaded). Reads use the "
        "library's aggregate cache (tracker/adapters/config.py: 1,000 aggregates, fast-forward), so a read queries only the events "
        "newer than its cached copy; commands start from the command cache (tracker/application/command_cache.py) and load only when "
        "it has nothing, or another process wrote since: the load figures above are what that costs.",
        "",
        "## Machine",
        "",
        markdown_table(("", ""), [(k, v) for k, v in info.items()], text_columns=2),
        "",
        *[f"- {r.name} settings: " + ", ".join(f"{k} = {v}" for k, v in r.settings.items()) for r in results],
        f"- Stored DiceRolled event state: {', '.join(f'{r.name} {r.event_bytes} bytes' for r in results)} (the raw rows carry exactly these bytes).",
        "",
    ]
    old = RESULTS_PATH.read_text(encoding="utf-8") if RESULTS_PATH.exists() else ""
    RESULTS_PATH.write_text("\n".join(with_hand_written(parts, old)) + _kept_sections(old), encoding="utf-8")


ISSUE_9_HEADING = "## Targets (issue 9)"
HAND_WRITTEN = "beside main's code"  # in the heading of each section a round writes by hand (its before and after)


def with_hand_written(parts: list[str], old: str) -> list[str]:
    """This run's lines with the sections of the ``old`` RESULTS.md written by hand about code beside main's before it
    (headings naming ``HAND_WRITTEN``) kept as they are, after the targets they explain: a run rewrites the figures,
    not what a round measured side by side."""
    sections = re.split(r"(?m)^(?=## )", old)
    beside = "".join(section for section in sections if section.startswith("## ") and HAND_WRITTEN in section.split("\n", 1)[0])
    if not beside:
        return parts
    at = parts.index(ISSUE_9_HEADING) if ISSUE_9_HEADING in parts else len(parts)
    return [*parts[:at], beside, *parts[at:]]


def _kept_sections(old: str) -> str:
    """The sections of the ``old`` RESULTS.md that other benchmarks write (bench/import_memory.py's, bench/view_reads.py's,
    bench/failover_cost.py's), kept as they are."""
    from failover_cost import SECTION as FAILOVER_SECTION  # (here: it imports this module's measurements)

    kept = ""
    for heading in (IMPORT_MEMORY_SECTION, VIEW_READS_SECTION, FAILOVER_SECTION):
        start = old.find(heading + "\n")
        if start < 0:
            continue
        end = old.find("\n## ", start + len(heading))
        kept += "\n" + old[start : end + 1 if end >= 0 else len(old)]
    return kept


def main() -> None:
    started = time.perf_counter()
    info = machine()
    notes: list[str] = []
    results: list[BackendResult] = []
    with tempfile.TemporaryDirectory(prefix="tracker-bench-") as tmp:
        directory = Path(tmp)
        micro_tracker, micro_session = micro_app(directory)
        micro = measure_micro(micro_tracker, micro_session)
        micro_tracker.close()

        backends = [sqlite_backend(directory)]
        why_not = postgres_answers()
        if why_not:
            notes.append(f"{why_not}: measured SQLite only.")
            info["postgresql server"] = "not measured: did not answer"
            print(notes[-1])
        else:
            backends.append(postgres_backend())
            info["postgresql server"] = backends[-1].settings["server_version"]
        for backend in backends:
            print(f"measuring {backend.name} ...", flush=True)
            try:
                results.append(measure_backend(backend))
            finally:
                backend.cleanup()
        history = http = shards = None
        if not why_not:
            print("measuring long histories on PostgreSQL ...", flush=True)
            backend = postgres_backend()
            try:
                history = measure_history(backend.tracker_url, backend.raw.url, backend.raw.schema, seed_source=SEEDS)
            finally:
                backend.cleanup()
            print("measuring HTTP on PostgreSQL ...", flush=True)
            backend = postgres_backend()
            try:
                http = measure_http(backend.tracker_url)
            finally:
                backend.cleanup()
            print("measuring two shards against one ...", flush=True)
            try:
                shards = measure_shards(f"{POSTGRES_SERVER}/{BENCH_DB}")
            except Exception as error:  # noqa: BLE001 - the other sections' figures are still written, with why this one is missing
                shards = ShardsResult(note=f"the run failed: {error}")
                print(f"  shards: {shards.note}", flush=True)

    print()
    print_table(table_rows(results))
    print()
    for result in results:
        for name, ms in result.loads_ms.items():
            print(f"{result.name:10}  load {name}: {ms:.2f} ms")
        print(f"{result.name:10}  snapshots enabled: {result.snapshots_enabled}, taken at versions {result.snapshot_versions}")
    for name, us in micro.items():
        print(f"in process  {name}: {us:.1f} µs")
    for row in target_rows(results, N_THREADS, history, http):
        print("target  " + " | ".join(row[:5]))
    print("\nissue 35, side by side in this run:")
    print_table([row[:6] for row in issue35_rows(results, history, http)], ISSUE_35_HEADER[:6])
    if QUICK:  # shorter runs: the tables above only, RESULTS.md keeps a full run's figures
        print(f"\nBENCH_QUICK: ran in {time.perf_counter() - started:.0f} s; {RESULTS_PATH} left as it was")
        return
    write_results(results, micro, info, notes, history, http, shards)
    print(f"\nwrote {RESULTS_PATH} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
