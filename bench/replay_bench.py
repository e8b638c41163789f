"""Replay alone, two codes side by side on one log: `make bench-replay` (or `python bench/replay_bench.py`).

`make bench` measures replay among everything else; this measures only it, so a change to the replay path is seen
before and after in one run on one log: a fresh schema in the campaign_tracker_bench database gets REPLAY_EVENTS
events (bench/history.py writes them as `make bench` does), then, REPEATS times in turn, each code replays it (every
view emptied and projected again, as `tracker rebuild` does, in a process of its own: cold, as `tracker rebuild` is),
each replay followed by a raw read of the same rows with json.loads (the issue's reference). A shared machine's load
moves a replay and the raw read just after it together, so each ratio is of those two, and the median ratio counts.
The codes: this tree, and with `--baseline DIR` another checkout (`git worktree add DIR main`, or
`git archive main | tar -x -C DIR`), whose packages the replaying process imports first. The views' digests of the
codes must agree: the replay must rebuild the same views. The schema is dropped at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg

HERE = Path(__file__).resolve().parent
SERVER = os.environ.get("BENCH_POSTGRES_SERVER", "postgresql://postgres@127.0.0.1:5432")
DATABASE = "campaign_tracker_bench"


def bench_database() -> str:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
            try:
                conn.execute(f'CREATE DATABASE "{DATABASE}"')
            except psycopg.errors.DuplicateDatabase:
                pass
    return f"{SERVER}/{DATABASE}"


def write_log(db_url: str, schema: str, events: int) -> int:
    """The log bench/history.py writes: Journey campaigns whose sessions are long runs of rolls."""
    sys.path.insert(0, str(HERE))
    import history
    from tracker.application.service import Tracker
    from tracker.adapters.config import persistence_env

    app = Tracker(env=persistence_env(f"{db_url}?schema={schema}"))
    try:
        history.new_history(app, history.HISTORY_SHORT)
        while (app.recorder.max_notification_id() or 0) < events:
            history.new_history(app, min(history.HISTORY_LONG, events - (app.recorder.max_notification_id() or 0) + 10))
        return app.recorder.max_notification_id() or 0
    finally:
        app.close()


def replay_once(db_url: str, schema: str) -> dict:
    """One replay in this process (the code on its path): seconds, notifications covered, the views' digest."""
    import projections.runner as runner_module
    from projections.runner import REBUILD_BATCH_SIZE, ProjectionRunner
    from projections.store import open_view_store
    from tracker.application.service import Tracker
    from tracker.adapters.config import persistence_env

    env = {**persistence_env(f"{db_url}?schema={schema}"), "CREATE_TABLE": "y"}
    app = Tracker(env=env)
    store = open_view_store(env)
    try:
        runner = ProjectionRunner(app, store, batch_size=REBUILD_BATCH_SIZE)
        started = time.perf_counter()
        covered = runner.replay()
        seconds = time.perf_counter() - started
        digest = store.digest()
    finally:
        store.datastore.close()
        app.close()
    return {"seconds": seconds, "covered": covered, "digest": digest, "code": str(Path(runner_module.__file__).parents[1])}


def raw_read(db_url: str, schema: str, batch_size: int = 5000) -> float:
    """The issue's reference: every stored state read in batches (psycopg alone) and parsed with json.loads."""
    started = time.perf_counter()
    with psycopg.connect(db_url) as conn:
        position = 0
        statement = f'SELECT notification_id, state FROM "{schema}".tracker_events WHERE notification_id > %s ORDER BY notification_id LIMIT %s'
        while rows := conn.execute(statement, (position, batch_size), prepare=True).fetchall():
            for _, state in rows:
                json.loads(bytes(state))
            position = rows[-1][0]
    return time.perf_counter() - started


def in_process(code: Path, db_url: str, schema: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    done = subprocess.run([sys.executable, __file__, "--replay-once", schema], env=env, cwd=code, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout to replay beside this one")
    parser.add_argument("--replay-once", metavar="SCHEMA", help=argparse.SUPPRESS)
    args = parser.parse_args()
    db_url = bench_database()
    if args.replay_once:
        print(json.dumps(replay_once(db_url, args.replay_once)))
        return

    codes = {"this code": HERE.parent}
    if args.baseline:
        codes = {"baseline": args.baseline.resolve(), **codes}
    schema = f"bench_replay_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        started = time.perf_counter()
        events = write_log(db_url, schema, args.events)
        print(f"wrote {events:,} events in {time.perf_counter() - started:.0f} s", flush=True)
        seconds: dict[str, list[float]] = {what: [] for what in codes}
        raws: dict[str, list[float]] = {what: [] for what in codes}  # the raw read just after each replay
        digests: dict[str, set[str]] = {what: set() for what in codes}
        for repeat in range(args.repeats):
            for what, code in codes.items():
                replayed = in_process(code, db_url, schema)
                assert replayed["covered"] == events and Path(replayed["code"]) == code, replayed
                seconds[what].append(replayed["seconds"])
                digests[what].add(replayed["digest"])
                raws[what].append(raw_read(db_url, schema))
            print(f"round {repeat + 1}/{args.repeats} (load average {os.getloadavg()[0]:.1f}): " + "; ".join(
                f"{what} {events / seconds[what][-1]:,.0f} events/s, raw read + json.loads just after {events / raws[what][-1]:,.0f}/s "
                f"({raws[what][-1] / seconds[what][-1]:.2f})" for what in codes), flush=True)
        print(f"\n{events:,} events, {args.repeats} rounds (load average {os.getloadavg()[0]:.1f}); each replay against the raw read "
              "(json.loads) made just after it, as the machine's load then was:")
        for what in codes:
            ratios = [raw / replay for raw, replay in zip(raws[what], seconds[what])]
            print(f"  {what}: median {events / statistics.median(seconds[what]):,.0f} events/s, raw read "
                  f"{events / statistics.median(raws[what]):,.0f}/s; ratio by round {', '.join(f'{r:.2f}' for r in ratios)}: "
                  f"median {statistics.median(ratios):.2f}")
        for what, found in digests.items():
            print(f"  views digest, {what}: {', '.join(sorted(d[:16] for d in found))}")
        if len({d for found in digests.values() for d in found}) != 1:
            sys.exit("the codes rebuilt different views")
    finally:
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


if __name__ == "__main__":
    main()
