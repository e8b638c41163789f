"""Where a roll request's CPU goes, measured in this process without a server or a load generator.

The same POST /sessions/{sid}/rolls is sent N times straight into the Flask application
(``app.wsgi_app`` with a prepared WSGI environ: no socket, no test client), and the same
roll is run N times on the application's Tracker directly; the token check the access
layer makes is timed alone too. Each is CPU time of this process (``time.process_time``),
so what else runs on the machine hardly moves it: the difference between a request and a
bare command is what the HTTP layer costs on top of the command, before gunicorn's own
work (reading the socket, parsing, the hand-offs between its threads), which only the
server-side figure in http_load.py includes.
"""

from __future__ import annotations

import io
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

REQUESTS = 2000  # per repeat, per path
REPEATS = 3  # the median is kept
SESSIONS = 8
BODY = json.dumps({"dice": {"d6": 2}}).encode()


@dataclass
class Layers:
    request_ms: float  # CPU per request through Flask, the access check and the command
    command_ms: float  # CPU per Tracker.roll alone
    token_check_ms: float  # CPU per Tracker.authenticate (the access check's token check: a kept grant on PostgreSQL)

    @property
    def framework_ms(self) -> float:
        """Flask routing, the before/after hooks, webargs and marshmallow, JSON: the request less the command and the token check."""
        return self.request_ms - self.command_ms - self.token_check_ms


def _environ(session_id: str, token: str) -> dict[str, Any]:
    return {
        "REQUEST_METHOD": "POST", "SCRIPT_NAME": "", "PATH_INFO": f"/sessions/{session_id}/rolls", "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000", "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(BODY)),
        "HTTP_AUTHORIZATION": f"Bearer {token}", "wsgi.input": io.BytesIO(BODY), "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }


def _cpu_ms_each(task: Any, count: int) -> float:
    started = time.process_time()
    task(count)
    return 1000 * (time.process_time() - started) / count


def sessions_to_roll_on(app: Any, name: str) -> tuple[str, list[str]]:
    """A new Journey campaign's owner token and SESSIONS sessions of it, made through the application."""
    client = app.test_client()
    campaign = client.post("/campaigns", json={"ruleset": "journey", "name": name}).get_json()
    token = campaign["owner_token"]
    headers = {"Authorization": f"Bearer {token}"}
    sessions = [
        client.post(f"/campaigns/{campaign['id']}/sessions", json={"quest": "q1-meeting"}, headers=headers).get_json()["id"]
        for _ in range(SESSIONS)
    ]
    return token, sessions


def measure_layers(database_url: str) -> Layers:
    from api import create_app

    app = create_app({"DATABASE_URL": database_url, "PROJECTIONS_IN_PROCESS": False})
    tracker = app.extensions["tracker"]
    try:
        token, sessions = sessions_to_roll_on(app, "HTTP layers")
        statuses: list[str] = []

        def requests(count: int) -> None:
            for i in range(count):
                b"".join(app.wsgi_app(_environ(sessions[i % SESSIONS], token), lambda status, headers, exc=None: statuses.append(status)))
            if not all(status.startswith("201") for status in statuses):
                raise RuntimeError(f"a roll request failed: {sorted(set(statuses))}")
            statuses.clear()

        def commands(count: int) -> None:
            for i in range(count):
                tracker.roll(sessions[i % SESSIONS], dice={"d6": 2})

        def token_checks(count: int) -> None:
            for _ in range(count):
                tracker.authenticate(token)

        for task in (requests, commands, token_checks):
            task(REQUESTS // 10)  # warm-up, untimed
        figures = {task: [] for task in (requests, commands, token_checks)}
        for _ in range(REPEATS):  # interleaved, so a busy moment of the machine falls on all three alike
            for task, ms in figures.items():
                ms.append(_cpu_ms_each(task, REQUESTS))
        median = {task: sorted(ms)[len(ms) // 2] for task, ms in figures.items()}
        return Layers(median[requests], median[commands], median[token_checks])
    finally:
        tracker.close()
        app.extensions["tracker_views"].store.datastore.close()
