"""View reads after a long log (issue 19): the first read of a fresh worker against a warm one.

    .venv/bin/python bench/view_reads.py [EVENTS]

A Journey campaign and a Descent campaign, each with one session of EVENTS events (default 100,000:
rolls saved a thousand at a time, as bench/history.py writes them), projected by the runner; then,
through Flask's test client, each read's first answer from a freshly created application (a new
worker: its own Tracker, view store and caches; the code already imported), the median over FRESH_WORKERS
such workers, against the median of the READ_REPEATS answers each of them gave after its first. The fresh application is built as gunicorn's
worker builds it (api/wsgi.py), so it has warmed at boot (api/warming.py) before the first read is timed. (Before the views, the first hero-progress
read of a worker scanned the whole log: 2.7 s on SQLite, 4.9 s on PostgreSQL at 100,000 events; that scan is gone.)
SQLite always; PostgreSQL when bench/run.py's server answers. Nothing asserts a figure;
bench/RESULTS.md keeps the last run's in its own section.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable
from uuid import UUID

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

EVENTS = 100_000
READ_REPEATS = 21
FRESH_WORKERS = 15  # one first read is a single sample, noisy by a tenth or two of a warm read: the median of many fresh workers
SAVE_BATCH = 1000
SECTION = "## View reads"

GAMES = {
    "journey": {"party": ["tripitaka", "monkey-king"], "quest": "q1-meeting", "setup": None},
    "descent": {"party": ["runewitch-astarra", "aurim"], "quest": "thing-in-the-pit", "setup": {}},
}
READS = [  # (what, game, path)
    ("hero progress (GET /campaigns/{cid}/heroes)", "journey", "/campaigns/{cid}/heroes"),
    ("campaign standing (GET /campaigns/{cid}/standing)", "journey", "/campaigns/{cid}/standing"),
    ("Descent heroes (GET /campaigns/{cid}/heroes)", "descent", "/campaigns/{cid}/heroes"),
    ("treachery ledger (GET /campaigns/{cid}/treachery-ledger)", "descent", "/campaigns/{cid}/treachery-ledger"),
    ("conquest and threat (GET /campaigns/{cid}/conquest)", "descent", "/campaigns/{cid}/conquest"),
]


def long_campaign(app: Any, game: str, events: int) -> tuple[str, str]:
    """A campaign of ``game`` whose one session holds ``events`` events; returns its id and owner token."""
    from tracker.core import dice as dice_rolls
    from tracker.application.service import Request, _meta
    from tracker.core.randomness import RandomStream

    spec = GAMES[game]
    created = app.create_campaign(game, f"{game} at {events}", party=spec["party"]).body
    session_id = app.start_session(created["id"], spec["quest"], spec["setup"]).body["id"]
    campaign = app.repository.get(UUID(created["id"]))
    ruleset = app._ruleset(campaign)
    specs = ruleset.dice(campaign.components)
    meta = _meta(Request(issued_by="bench"), ruleset)
    session = app.repository.get(UUID(session_id))
    seed = bytes.fromhex(session.seed)
    while session.version < events:
        batch = min(events - session.version, SAVE_BATCH - session.version % 100)
        for _ in range(batch):
            roll = dice_rolls.resolve_roll(specs, {"d6": 2}, None, RandomStream(seed, session.counter))
            roll["purpose"] = None
            session.record_roll(roll=roll, meta=meta)
        app.save(session)
    return created["id"], created["owner_token"]


def ms(func: Callable[[], Any]) -> float:
    started = time.perf_counter()
    func()
    return 1000 * (time.perf_counter() - started)


def measure(database_url: str, events: int) -> dict[str, tuple[float, float]]:
    from api import create_app
    from projections.runner import REBUILD_BATCH_SIZE, ProjectionRunner
    from projections.store import open_view_store
    from tracker.application.service import Tracker
    from tracker.bootstrap import Settings
    from tracker.adapters.config import persistence_env

    env = persistence_env(database_url)
    app = Tracker(env=env)
    store = open_view_store(env)
    try:
        campaigns = {game: long_campaign(app, game, events) for game in GAMES}
        ProjectionRunner(app, store, batch_size=REBUILD_BATCH_SIZE).catch_up()
        print(f"  {app.recorder.max_notification_id():,} events written and projected", flush=True)
    finally:
        store.datastore.close()
        app.close()

    def worker() -> Any:
        # Built as gunicorn's worker builds it (api/wsgi.py): warmed at boot, before its first request.
        return create_app(settings=Settings(database_url=database_url, create_tables=False, warm_at_boot=True))

    figures: dict[str, tuple[float, float]] = {}
    for what, game, path in READS:
        cid, token = campaigns[game]
        url, headers = path.format(cid=cid), {"Authorization": f"Bearer {token}"}
        firsts, warms = [], []
        for _ in range(FRESH_WORKERS):
            fresh = worker()
            try:
                client = fresh.test_client()
                firsts.append(ms(lambda: _ok(client.get(url, headers=headers))))
                warms.extend(ms(lambda: _ok(client.get(url, headers=headers))) for _ in range(READ_REPEATS))
            finally:
                _close(fresh)
        first, warm = statistics.median(firsts), statistics.median(warms)
        figures[what] = (first, warm)
        print(f"  {what}: first {first:.2f} ms, warm {warm:.2f} ms ({first / warm:.2f}x)", flush=True)

    return figures


def _ok(response: Any) -> Any:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return response


def _close(flask_app: Any) -> None:
    flask_app.extensions["tracker"].close()
    flask_app.extensions["tracker_views"].store.datastore.close()


def postgres_url() -> tuple[str, Callable[[], None]] | None:
    import uuid

    import psycopg

    base = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    try:
        with psycopg.connect(base, autocommit=True, connect_timeout=3) as conn:
            schema = f"bench_views_{uuid.uuid4().hex[:8]}"
            conn.execute(f'CREATE SCHEMA "{schema}"')
    except Exception as error:  # noqa: BLE001 - no server: SQLite only, and the output says so
        print(f"PostgreSQL not measured: {error}", flush=True)
        return None

    def drop() -> None:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    return f"{base}?schema={schema}", drop


STATEMENT_ROUNDS, STATEMENT_READS = 5, 400


def statement_reads(database_url: str) -> tuple[float, float]:
    """On PostgreSQL, one view read's statement (Journey's hero progress of the long campaign) through the
    library's read transaction (BEGIN, the statement, ROLLBACK, and psycopg's DEALLOCATE ALL after a rollback), as
    views were read before, against the one autocommit statement they are read with now: median ms per read over
    STATEMENT_ROUNDS alternating rounds of STATEMENT_READS each, on one store."""
    from projections import views
    from projections.store import ViewStore, open_view_store
    from tracker.adapters.config import persistence_env

    store = open_view_store(persistence_env(database_url))
    table = views.of_game("journey", "hero-progress").table
    statement = f"SELECT answer, public_answer, secret_to FROM {{{table}}} WHERE campaign_id = %s"  # as the view reads it
    try:
        (campaign,) = store.query(f"SELECT campaign_id FROM {{{table}}} LIMIT 1")[0].values()
        timed: dict[str, list[float]] = {"transaction": [], "autocommit": []}
        for _ in range(STATEMENT_ROUNDS):
            for how, read in (("transaction", ViewStore.query), ("autocommit", type(store).query)):
                started = time.perf_counter()
                for _ in range(STATEMENT_READS):
                    read(store, statement, (campaign,))
                timed[how].append(1000 * (time.perf_counter() - started) / STATEMENT_READS)
        return statistics.median(timed["transaction"]), statistics.median(timed["autocommit"])
    finally:
        store.datastore.close()


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else EVENTS
    results: dict[str, dict[str, tuple[float, float]]] = {}
    statements: tuple[float, float] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        print("SQLite", flush=True)
        results["SQLite"] = measure(f"sqlite:///{tmp}/views.sqlite3", events)
    found = postgres_url()
    if found is not None:
        url, drop = found
        try:
            print("PostgreSQL", flush=True)
            results["PostgreSQL"] = measure(url, events)
            statements = statement_reads(url)
            print(f"  a view read's statement: {statements[0]:.3f} ms in a read transaction, {statements[1]:.3f} ms alone", flush=True)
        finally:
            drop()
    write_results(results, events, statements)


def write_results(results: dict[str, dict[str, tuple[float, float]]], events: int, statements: tuple[float, float] | None = None) -> None:
    from import_memory import replace_section

    path = ROOT / "bench" / "RESULTS.md"
    rows = [
        f"| {backend} | {what} | {first:.2f} | {warm:.2f} | {first / warm:.2f}x |"
        for backend, figures in results.items()
        for what, (first, warm) in figures.items()
    ]
    section = "\n".join([
        SECTION,
        "",
        f"`bench/view_reads.py`: a Journey and a Descent campaign, each with one session of {events:,} events, projected; "
        "each read through Flask's test client, the first answer of a freshly created application (a new worker, built as "
        f"api/wsgi.py builds gunicorn's: warmed at boot by api/warming.py), the median over {FRESH_WORKERS} such workers, "
        f"against the median of the {READ_REPEATS} answers each gave after its first. The issue asks the first within 1.2x of a warm one.",
        "",
        "| database | read | first, ms | warm, ms | first / warm |",
        "|---|---|---:|---:|---:|",
        *rows,
        "",
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
        "(single first reads are noisy on a shared machine: compare runs). Each read is one row of its game's view "
        "(tracker/rulesets/<game>/views.py) and the campaign's own small aggregate. Before the warm-up, a worker's first read "
        "paid 2-11x a warm one: its first connections and statements, Flask's first dispatch, the first full garbage "
        "collection over what the imports built, and the campaign's and its grant's first load. The worker now pays those "
        "at boot (api/warming.py): the campaigns played lately, their grants (kept as a token check keeps them) and what a "
        "request asks of them first (their rules and party) are loaded; each statement a read makes runs on each pooled "
        "connection in turn until psycopg has prepared it and the connection's server process has read the tables' "
        "catalog; every read of a campaign is answered once inside the worker per game played lately, as the latest "
        "campaign's owner would have it; and the collector is frozen, after which the reads run once more to bring what "
        "they touch back into the processor's caches. On PostgreSQL the views are read on the pool's autocommit "
        "connections, one round trip a read: the library's read transaction took three and, by rolling back, dropped "
        "every statement psycopg had prepared on the connection.",
        "",
        *([
            f"A view read's statement on PostgreSQL, in the same run ({STATEMENT_ROUNDS} alternating rounds of {STATEMENT_READS} reads, "
            f"median): {statements[0]:.3f} ms through the library's read transaction, {statements[1]:.3f} ms as one autocommit "
            f"statement, {statements[0] / statements[1]:.2f}x.",
            "",
        ] if statements else []),
    ])
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(replace_section(text, SECTION, section), encoding="utf-8")


if __name__ == "__main__":
    main()
