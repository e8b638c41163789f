"""Where a replay's Python time goes: `python bench/replay_profile.py [--events N] [--sort tottime]`.

Writes the log bench/replay_bench.py writes into a fresh schema of the campaign_tracker_bench database, replays it
once untimed (the first replay pays the imports and the first statements), then once under cProfile, and prints
the functions that took the most time. cProfile sees the thread that builds the rows (the runner reads the next
batch and writes the last on two others, which take their turns on the same GIL). The schema is dropped at the end.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import uuid
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay_bench import bench_database, write_log  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--sort", default="tottime", help="a pstats sort key: tottime, cumulative, ncalls")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()

    from projections.runner import REBUILD_BATCH_SIZE, ProjectionRunner
    from projections.store import open_view_store
    from tracker.application.service import Tracker
    from tracker.adapters.config import persistence_env

    db_url = bench_database()
    schema = f"bench_replay_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        events = write_log(db_url, schema, args.events)
        env = persistence_env(f"{db_url}?schema={schema}")
        app, store = Tracker(env=env), open_view_store(env)
        try:
            runner = ProjectionRunner(app, store, batch_size=REBUILD_BATCH_SIZE)
            runner.replay()
            profile = cProfile.Profile()
            profile.enable()
            covered = runner.replay()
            profile.disable()
            assert covered == events, (covered, events)
        finally:
            store.datastore.close()
            app.close()
        print(f"{events:,} events replayed under cProfile")
        pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
    finally:
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


if __name__ == "__main__":
    main()
