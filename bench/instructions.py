"""Instructions a roll request costs, counted by valgrind's callgrind: the same figure whatever else the machine runs.

Seconds on a shared machine move with everything else on it; the instructions a process executes do not (the same
total to within half a percent, with the other core loaded or not). Each path below runs in a fresh process under
callgrind with its counting switched off; once the process has started and warmed up, counting is switched on
(callgrind_control) for REQUESTS requests and off again: the count over REQUESTS is one request's instructions,
Python's interpreter and every C library it calls included.

- the minimal app (bench/minimal_app.py): Flask and Werkzeug reading the body and answering JSON, nothing else;
- the stack's floor for a roll (bench/floor_app.py): that, plus the token looked up in memory, HMAC dice, a hash
  chain and one autocommitted INSERT through psycopg's pool: what any service on this stack must do to record a roll;
- the roll route (POST /sessions/{sid}/rolls through api.create_app on PostgreSQL, the token checked);
- the roll route as the Procfile runs it (``json``): TRACKER_LOG_FORMAT=json, one JSON request line a request
  (api/request_log.py), written to standard error (here /dev/null: the write itself is the kernel's, not counted);
- the roll route with TRACKER_CORS_ORIGINS set (``cors``), the request from a browser page on an allowed origin;
- the command alone (Tracker.roll), so the route less the command is the HTTP layer's;
- the command alone on SQLite (command-sqlite, a file in a temporary directory), the embedded backend's write path.

Every request goes straight into its Flask application (``app.wsgi_app`` with a prepared environ, bench/http_layers.py),
so gunicorn's share, the same for all of them, is left out. Needs valgrind (Debian's package) and the local PostgreSQL.

    .venv/bin/python bench/instructions.py [requests] [path ...]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
REQUESTS = 300
WARM_UP = 200
POSTGRES = os.environ.get("BENCH_POSTGRES_SERVER", "postgresql://postgres@127.0.0.1:5432")
PATHS = ("minimal", "floor", "route", "json", "cors", "command")
CORS_ORIGINS = "https://table.example, https://elsewhere.example"  # two: the answer then varies by Origin
SQLITE_COMMAND = "command-sqlite"


def _child(path: str, count: int) -> None:
    """One path: warm up, then ``count`` requests (the parent counts the instructions of the whole process)."""
    sys.path[:0] = [str(HERE), str(ROOT)]
    import psycopg

    from http_layers import SESSIONS, _environ, sessions_to_roll_on

    schema = f"instructions_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    close = lambda: None  # noqa: E731
    try:
        if path in ("minimal", "floor"):
            if path == "floor":
                token = "floor-" + "0" * 58
                table = f'"{schema}".floor_rolls'
                with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
                    conn.execute(f"CREATE TABLE {table} (id bigserial PRIMARY KEY, session text NOT NULL, hash bytea NOT NULL, payload bytea NOT NULL)")
                os.environ.update(FLOOR_DATABASE=f"{POSTGRES}/postgres", FLOOR_TABLE=table, FLOOR_TOKEN=token)
                import floor_app

                app, close = floor_app.app, floor_app._pool.close
            else:
                import minimal_app

                app, token = minimal_app.app, "none"
            sessions = [f"00000000-0000-4000-8000-{n:012d}" for n in range(SESSIONS)]

            def one(i: int) -> None:
                b"".join(app.wsgi_app(_environ(sessions[i % SESSIONS], token), lambda status, headers, exc=None: None))
        else:
            from api import create_app

            directory = tempfile.mkdtemp(prefix="tracker-instructions-")
            url = f"sqlite:///{directory}/instructions.db" if path == SQLITE_COMMAND else f"{POSTGRES}/postgres?schema={schema}"
            if path == "json":
                os.environ["TRACKER_LOG_FORMAT"] = "json"  # the Procfile's (web: TRACKER_LOG_FORMAT=${TRACKER_LOG_FORMAT:-json})
            config = {"DATABASE_URL": url, "PROJECTIONS_IN_PROCESS": False}
            if path == "cors":
                config["CROSS_ORIGINS"] = CORS_ORIGINS
            app = create_app(config)
            tracker = app.extensions["tracker"]

            def close() -> None:
                tracker.close()
                app.extensions["tracker_views"].store.datastore.close()
                shutil.rmtree(directory)

            token, sessions = sessions_to_roll_on(app, "Instructions")
            if path in ("route", "json", "cors"):
                origin = {"HTTP_ORIGIN": "https://table.example"} if path == "cors" else {}

                def one(i: int) -> None:
                    environ = {**_environ(sessions[i % SESSIONS], token), **origin}
                    b"".join(app.wsgi_app(environ, lambda status, headers, exc=None: None))
            else:
                def one(i: int) -> None:
                    tracker.roll(sessions[i % SESSIONS], dice={"d6": 2})
        for i in range(WARM_UP):
            one(i)
        _handshake("ready")  # the parent switches counting on
        for i in range(count):
            one(WARM_UP + i)
        _handshake("done")  # and off
    finally:
        close()
        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _handshake(word: str) -> None:
    """Tell the parent, then wait for its go-ahead (a line on stdin), blocked in a read: nothing runs meanwhile."""
    print(word, flush=True)
    sys.stdin.readline()


def _instructions(path: str, count: int, directory: Path) -> int:
    out = directory / f"{path}-{count}.out"
    child = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}", sys.executable, __file__,
         "--child", path, str(count)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert child.stdin is not None and child.stdout is not None
    for word, switch in (("ready", "on"), ("done", "off")):
        line = child.stdout.readline().strip()
        if line != word:
            child.kill()
            raise RuntimeError(f"{path}: the child said {line!r}, not {word!r}")
        subprocess.run(["callgrind_control", f"--instr={switch}", str(child.pid)], check=True, capture_output=True)
        child.stdin.write("go\n")
        child.stdin.flush()
    if child.wait() != 0:
        raise RuntimeError(f"{path}: the child failed")
    totals = [int(line.split()[1]) for line in out.read_text().splitlines() if line.startswith("totals:")]
    if not totals:
        raise RuntimeError(f"callgrind wrote no total for {path}")
    return totals[0]


def measure(requests: int = REQUESTS, paths: tuple[str, ...] = PATHS) -> dict[str, float]:
    """Instructions a request, by path."""
    with tempfile.TemporaryDirectory(prefix="tracker-instructions-") as tmp:
        return {path: _instructions(path, requests, Path(tmp)) / requests for path in paths}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    chosen = tuple(sys.argv[2:]) or PATHS
    figures = measure(int(sys.argv[1]) if len(sys.argv) > 1 else REQUESTS, chosen)
    for path in chosen:
        versus = f"  ({figures[path] / figures['minimal']:.2f}x the minimal app)" if "minimal" in figures else ""
        print(f"{path:14} {figures[path] / 1000:8.0f} thousand instructions a request{versus}")
    if {"route", "command", "floor"} <= set(figures):
        print(f"the HTTP layer (route less command) {(figures['route'] - figures['command']) / 1000:.0f} thousand; "
              f"beyond the floor {(figures['route'] - figures['floor']) / 1000:.0f} thousand")
    for path, what in (("json", "the JSON request line (json less route)"), ("cors", "CORS (cors less route)")):
        if {path, "route"} <= set(figures):
            print(f"{what} {(figures[path] - figures['route']) / 1000:.0f} thousand")
