"""Rolls over HTTP through gunicorn alone and through the production front (`tracker front`: nginx in front
of the same gunicorn.conf.py), side by side on one PostgreSQL database in one run, with wrk.

What it answers: what nginx in front costs in throughput and latency, so the slow-client protection
(api/front/) is not bought with the gthread configuration's rolls per second. Run it alone:
`make bench` installs wrk; then `.venv/bin/python bench/front_load.py`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from http_load import BIN, ROOT, SESSIONS, SECONDS, WARM_UP_SECONDS, _call, _free_port, _stop, run_wrk, wrk_path

CLIENTS = (1, 8, 32)


def _start(command: list[str], database_url: str, port: int, log: Path) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "TRACKER_PROJECTIONS_IN_PROCESS": ""}
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            _call(port, "GET", "/health")
            return process
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start:\n" + log.read_text())


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
            process = _start(command, database_url, port, directory / "server.log")
            try:
                campaign = _call(port, "POST", "/campaigns", {"ruleset": "journey", "name": f"Front bench: {name}"})
                token = campaign["owner_token"]
                sessions = [_call(port, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"}, token)["id"]
                            for _ in range(SESSIONS)]
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
