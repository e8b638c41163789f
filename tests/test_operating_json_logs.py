"""TRACKER_LOG_FORMAT=json (issue 34): through a real gunicorn, a request's log line is a JSON object with its
correlation id, route template, status, latency and token id, never the token; the same id is on the events it
saved and in its problem answer, and X-Correlation-Id is declared in the OpenAPI document."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from api import create_app
from tests.kit.server import BIN, call, free_port, start, stop

pytestmark = pytest.mark.server


@pytest.fixture
def json_server(tmp_path: Path, request: pytest.FixtureRequest):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'logs.sqlite3'}", "PORT": str(port), "WEB_CONCURRENCY": "2",
           "TRACKER_LOG_FORMAT": "json"}
    process, base, log_path = start([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.wsgi:app"], env, tmp_path, port)
    yield base, log_path
    stop(process, log_path, request)


def request_lines(log_path: Path, correlation_id: str) -> list[dict]:
    """The request lines of the log that carry ``correlation_id``, each parsed (every line of the log must parse)."""
    lines = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
    return [line for line in lines if line.get("name") == "tracker.request" and line.get("correlation_id") == correlation_id]


def test_a_request_s_log_line_is_json_with_its_correlation_id_and_never_its_token(json_server):
    base, log_path = json_server
    status, campaign = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Logged"})
    assert status == 201
    _, session = call(base, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    status, rolled = call(base, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d6": 2}}, {"X-Correlation-Id": "table-7-roll-1"})
    assert status == 201
    status, refused = call(base, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d7": 1}}, {"X-Correlation-Id": "table-7-roll-2"})
    assert status == 422 and refused["correlation_id"] == "table-7-roll-2"  # the problem answer names it

    deadline = time.monotonic() + 10
    while not (request_lines(log_path, "table-7-roll-1") and request_lines(log_path, "table-7-roll-2")) and time.monotonic() < deadline:
        time.sleep(0.1)
    [line] = request_lines(log_path, "table-7-roll-1")
    assert line["route"] == "/sessions/<session_id>/rolls" and line["method"] == "POST" and line["status"] == 201
    assert isinstance(line["latency_ms"], float) and line["latency_ms"] > 0
    assert line["token_id"] == campaign["owner_token_id"] and line["level"] == "INFO"
    [refusal] = request_lines(log_path, "table-7-roll-2")
    assert refusal["status"] == 422
    assert campaign["owner_token"] not in log_path.read_text()

    # The roll's events carry the same id in their metadata.
    _, events = call(base, "GET", f"/sessions/{session['id']}/events")
    rolls = [event for event in events["events"] if event["position"] == rolled["position"]]
    assert rolls and rolls[0]["meta"]["correlation_id"] == "table-7-roll-1"


def test_x_correlation_id_is_declared_on_every_operation_and_answer(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'doc.sqlite3'}"})
    try:
        document = app.test_client().get("/openapi.json").json
        assert document["components"]["parameters"]["CorrelationId"]["name"] == "X-Correlation-Id"
        assert "correlation_id" in document["components"]["schemas"]["Problem"]["properties"]
        for path, operations in document["paths"].items():
            for method, operation in operations.items():
                if method not in ("get", "post", "put", "patch", "delete"):
                    continue
                assert {"$ref": "#/components/parameters/CorrelationId"} in operation["parameters"], f"{method} {path}"
                for status, response in operation["responses"].items():
                    if "$ref" in response:
                        response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
                    assert "X-Correlation-Id" in response.get("headers", {}), f"{method} {path} {status}"
    finally:
        app.extensions["tracker_service"].close()
