"""Rolls over HTTP through gunicorn alone and through the production front (`tracker front`: nginx in front
of the same gunicorn.conf.py), side by side on one PostgreSQL database in one run, with wrk.

What it answers: what nginx in front costs in throughput and latency, so the slow-client protection
(api/front/) is not bought with the gthread configuration's rolls per second. Run it alone:
`make bench` installs wrk; then `.venv/bin/python bench/front_load.py`.
"""

from __future__ import annotations

import os
import sys
import tempfile
import uuid
from pathlib import Path

import psycopg
from http_load import BIN, SECONDS, WARM_UP_SECONDS, _free_port, _stop, run_wrk, sessions_to_roll_on, start_and_wait, wrk_path

CLIENTS = (1, 8, 32)


def measure(database_url: str) -> dict[str, list]:
    fronts = {
        "gunicorn alone": [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.wsgi:app"],
        "tracker front": [str(BIN / "tracker"), "front"],
    }
    results: dict[str, list] = {}
    with tempfile.TemporaryDirectory(prefix="tracker-front-bench-") as tmp:
        directory = Path(tmp)
        for name, command in fronts.items():
            port = _free_port()
            env = {"DATABASE_URL": database_url, "PORT": str(port), "TRACKER_PROJECTIONS_IN_PROCESS": ""}
            process = start_and_wait(command, port, directory / "server.log", env, name)
            try:
                token, sessions = sessions_to_roll_on(port, f"Front bench: {name}")
                run_wrk(port, sessions, token, 8, WARM_UP_SECONDS, directory)
                results[name] = []
                for clients in CLIENTS:
                    print(f"  {name}: {clients} clients for {SECONDS} s ...", flush=True)
                    results[name].append(run_wrk(port, sessions, token, clients, SECONDS, directory))
            finally:
                _stop(process)
    return results


def main() -> None:
    if wrk_path() is None:
        sys.exit("front_load.py needs wrk (Debian's package; `make bench` installs it)")
    base = os.environ.get("TRACKER_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    schema = f"bench_front_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        results = measure(f"{base}?schema={schema}")
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    alone, front = results["gunicorn alone"], results["tracker front"]
    print(f"{'clients':>8} {'alone rolls/s':>14} {'front rolls/s':>14} {'front/alone':>12} {'alone p50 ms':>13} {'front p50 ms':>13} {'errors':>7}")
    for a, f in zip(alone, front):
        print(f"{a.clients:>8} {a.per_second:>14.0f} {f.per_second:>14.0f} {f.per_second / a.per_second:>12.2f} "
              f"{a.p50_ms:>13.1f} {f.p50_ms:>13.1f} {a.errors + f.errors:>7}")


if __name__ == "__main__":
    main()
