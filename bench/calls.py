"""Work per request, not time: Python function calls a roll request makes in a warm application.

Time on a shared machine moves with everything else that runs on it; the number of Python calls a
request makes does not. This sends the same POST /sessions/{sid}/rolls as bench/http_layers.py
(straight into the Flask application, no socket), first untimed to warm every cache, then N more
under cProfile, and prints the calls per request and the functions that make most of them. The
command alone (Tracker.roll) is counted the same way, so the difference is the HTTP layer's.

    .venv/bin/python bench/calls.py [sqlite|postgres] [requests] [top]
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from http_layers import SESSIONS, _environ, sessions_to_roll_on  # noqa: E402

POSTGRES = os.environ.get("BENCH_POSTGRES_SERVER", "postgresql://postgres@127.0.0.1:5432")


def _database(kind: str, directory: str) -> tuple[str, Any]:
    if kind == "sqlite":
        return f"sqlite:///{directory}/calls.db", lambda: None
    import psycopg

    schema = f"calls_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')

    def drop() -> None:
        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

    return f"{POSTGRES}/postgres?schema={schema}", drop


def count(kind: str = "sqlite", requests: int = 500, top: int = 25) -> dict[str, float]:
    from api import create_app

    with tempfile.TemporaryDirectory() as directory:
        url, drop = _database(kind, directory)
        app = create_app({"DATABASE_URL": url, "PROJECTIONS_IN_PROCESS": False})
        tracker = app.extensions["tracker"]
        try:
            token, sessions = sessions_to_roll_on(app, "Calls")
            statuses: list[str] = []

            def roll_requests(n: int) -> None:
                for i in range(n):
                    b"".join(app.wsgi_app(_environ(sessions[i % SESSIONS], token), lambda s, h, e=None: statuses.append(s)))

            def commands(n: int) -> None:
                for i in range(n):
                    tracker.roll(sessions[i % SESSIONS], dice={"d6": 2})

            figures: dict[str, float] = {}
            for name, task in (("request", roll_requests), ("command", commands)):
                task(100)  # warm
                profile = cProfile.Profile()
                profile.runcall(task, requests)
                stats = pstats.Stats(profile)
                figures[name] = stats.total_calls / requests  # type: ignore[attr-defined]
                if top and name == "request":
                    stats.sort_stats("calls").print_stats(top)
            if not all(s.startswith("201") for s in statuses):
                raise RuntimeError(f"a roll request failed: {sorted(set(statuses))}")
            return figures
        finally:
            tracker.close()
            app.extensions["tracker_views"].store.datastore.close()
            drop()


if __name__ == "__main__":
    kind = sys.argv[1] if len(sys.argv) > 1 else "sqlite"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    figures = count(kind, n, top)
    print(f"{kind}: {figures['request']:.0f} Python calls a roll request, {figures['command']:.0f} the command alone "
          f"(Tracker.roll), {figures['request'] - figures['command']:.0f} the HTTP layer")
