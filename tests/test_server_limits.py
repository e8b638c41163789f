"""Limits that only a real server shows, through gunicorn (gunicorn.conf.py, as `tracker front` runs it behind nginx) on SQLite and on
PostgreSQL: chunked bodies past the limit, and event streams that must not take every thread."""

from __future__ import annotations

import http.client
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.kit.server import BIN, call, free_port, start, stop

pytestmark = pytest.mark.server

IMPORT_LIMIT = 256 * 1024  # small, so a test can send more than it without sending 64 MB


def _gunicorn(database_url: str, tmp_path: Path, request: pytest.FixtureRequest, **env: str):
    port = free_port()
    environment = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "TRACKER_PROJECTIONS_IN_PROCESS": "1", **env}
    return start([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.wsgi:app"], environment, tmp_path, port)


@pytest.fixture
def one_worker(database_url: str, tmp_path: Path, request: pytest.FixtureRequest):
    """One worker of four threads (so every stream lands on it); imports limited to IMPORT_LIMIT; idle streams
    send their heartbeat every second, so the worker finds a client gone within seconds, not fifteen."""
    process, base, log_path = _gunicorn(
        database_url, tmp_path, request, WEB_CONCURRENCY="1", GUNICORN_THREADS="4", TRACKER_IMPORT_MAX_BYTES=str(IMPORT_LIMIT),
        TRACKER_STREAM_HEARTBEAT_SECONDS="1",
    )
    yield base
    stop(process, log_path, request)


def _connection(base: str) -> http.client.HTTPConnection:
    parts = urlsplit(base)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)


def _send_chunked(base: str, path: str, body: bytes, content_type: str = "application/json", headers: dict | None = None) -> tuple[int, dict, dict]:
    connection = _connection(base)
    try:
        connection.putrequest("POST", path)
        for name, value in {"Content-Type": content_type, "Transfer-Encoding": "chunked", **(headers or {})}.items():
            connection.putheader(name, value)
        connection.endheaders()
        for at in range(0, len(body), 64 * 1024):
            part = body[at : at + 64 * 1024]
            connection.send(b"%x\r\n%s\r\n" % (len(part), part))
        connection.send(b"0\r\n\r\n")
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read())
    finally:
        connection.close()


# -- chunked bodies -------------------------------------------------------------------------


def test_a_chunked_body_over_the_limit_is_a_413_and_one_under_it_arrives_whole(one_worker):
    status, headers, body = _send_chunked(one_worker, "/campaigns", json.dumps({"ruleset": "journey", "name": "x" * (2 * 1024 * 1024)}).encode())
    assert status == 413 and headers["Content-Type"] == "application/problem+json"
    assert body["title"] == "The request body is too large" and "1 MB" in body["detail"]
    assert call(one_worker, "GET", "/health")[1]["notifications"] == 0  # nothing was recorded
    # just under 1 MB, sent in 16 chunks: the JSON arrives whole, so the name's length is what refuses it
    status, _, body = _send_chunked(one_worker, "/campaigns", json.dumps({"ruleset": "journey", "name": "y" * (1024 * 1024 - 100)}).encode())
    assert status == 422 and "name" in body["title"]
    status, _, body = _send_chunked(one_worker, "/campaigns", json.dumps({"ruleset": "journey", "name": "Chunked"}).encode())
    assert status == 201 and body["name"] == "Chunked"


def test_a_chunked_import_is_held_to_the_import_limit(one_worker):
    status, campaign = call(one_worker, "POST", "/campaigns", {"ruleset": "journey", "name": "Export me"})
    sid = call(one_worker, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})[1]["id"]
    for _ in range(5):
        call(one_worker, "POST", f"/sessions/{sid}/rolls", {"dice": {"d6": 3}})
    connection = _connection(one_worker)
    connection.request("GET", f"/campaigns/{campaign['id']}/export", headers={"Authorization": f"Bearer {campaign['owner_token']}"})
    export = connection.getresponse().read()
    connection.close()
    assert len(export) < IMPORT_LIMIT
    # the whole file arrives (it is already here: 409), where a cut file would be "cut short" (422)
    status, _, body = _send_chunked(one_worker, "/campaigns/import", export, "application/x-ndjson")
    assert status == 409 and "already in this database" in body["title"]
    padded = export + b"\n" * (IMPORT_LIMIT + 1 - len(export))  # blank lines are allowed; the size is not
    status, _, body = _send_chunked(one_worker, "/campaigns/import", padded, "application/x-ndjson")
    assert status == 413 and f"{IMPORT_LIMIT / (1024 * 1024):g} MB" in body["detail"]


# -- event streams ----------------------------------------------------------------------------


class Stream:
    """An open Server-Sent Events response, read line by line."""

    def __init__(self, base: str, token: str, query: str) -> None:
        self.connection = _connection(base)
        self.connection.request("GET", f"/events/stream?{query}", headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
        self.response = self.connection.getresponse()

    def first_line(self) -> bytes:
        return self.response.readline()

    def rest(self) -> bytes:
        return self.response.read()

    def close(self) -> None:
        self.connection.close()


def test_streams_past_the_cap_are_a_503_and_dice_still_roll_while_the_cap_is_held(one_worker):
    status, campaign = call(one_worker, "POST", "/campaigns", {"ruleset": "journey", "name": "Streams"})
    token = campaign["owner_token"]
    sid = call(one_worker, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})[1]["id"]
    cap = 2  # half of the worker's four threads, by default
    held = [Stream(one_worker, token, "wait=300"), Stream(one_worker, token, "wait=1")]
    try:
        assert [s.response.status for s in held] == [200] * cap
        assert all(s.first_line() == b"retry: 2000\n" for s in held)
        refused = Stream(one_worker, token, "wait=300")
        assert refused.response.status == 503 and int(refused.response.getheader("Retry-After")) >= 1
        assert "Too many event streams" in json.loads(refused.rest())["title"]
        refused.close()
        # the cap's worth of streams is open: commands still find threads
        with ThreadPoolExecutor(max_workers=8) as pool:
            rolled = list(pool.map(lambda _: call(one_worker, "POST", f"/sessions/{sid}/rolls", {"dice": {"d6": 1}}), range(8)))
        assert [status for status, _ in rolled] == [201] * 8
        # the rolls reach the open streams
        assert b"event: DiceRolled" in held[1].rest()  # and this one closes by itself once idle for its wait
        # a stream that ended gives its slot back (the server frees it just after the client sees the end)
        for _ in range(100):
            again = Stream(one_worker, token, "wait=0")
            if again.response.status == 200:
                break
            again.close()
            time.sleep(0.1)
        assert again.response.status == 200
        again.close()
    finally:
        for s in held:
            s.close()



# -- imports -------------------------------------------------------------------------------------


def test_one_import_at_a_time_per_worker_the_next_gets_a_429(one_worker):
    status, campaign = call(one_worker, "POST", "/campaigns", {"ruleset": "journey", "name": "Slow upload"})
    connection = _connection(one_worker)
    connection.request("GET", f"/campaigns/{campaign['id']}/export", headers={"Authorization": f"Bearer {campaign['owner_token']}"})
    export = connection.getresponse().read()
    connection.close()
    # An import whose body is still arriving holds the worker's import slot while it reads it.
    slow = _connection(one_worker)
    slow.putrequest("POST", "/campaigns/import")
    slow.putheader("Content-Type", "application/x-ndjson")
    slow.putheader("Content-Length", str(len(export)))
    slow.endheaders()
    slow.send(export[:100])
    refused = None
    for _ in range(100):  # until the slow import has reached its view and taken the slot
        status, headers, body = _send_chunked(one_worker, "/campaigns/import", b"not an export\n", "application/x-ndjson")
        if status == 429:
            refused = (headers, body)
            break
        assert status == 422  # it got the slot first: refused at once, and the slot is free again
        time.sleep(0.05)
    assert refused is not None, "the second import was never refused"
    headers, body = refused
    assert int(headers["Retry-After"]) >= 1 and "Another import is running" in body["title"]
    slow.send(export[100:])
    finished = slow.getresponse()
    assert finished.status == 409  # the file is whole (it is already here): the slot's holder finished its work
    slow.close()
    status, _, body = _send_chunked(one_worker, "/campaigns/import", b"not an export\n", "application/x-ndjson")
    assert status == 422  # the slot is free again


def test_a_client_that_leaves_a_stream_gives_its_slot_back(one_worker):
    """Else connecting and dropping streams would use up the cap for good. The server finds the client
    gone when a heartbeat (every second here, every 15 s by default) cannot be delivered."""
    status, campaign = call(one_worker, "POST", "/campaigns", {"ruleset": "journey", "name": "Leaving"})
    token = campaign["owner_token"]
    left = [Stream(one_worker, token, "") for _ in range(2)]  # no wait: open until the client goes
    assert [s.response.status for s in left] == [200, 200] and all(s.first_line() == b"retry: 2000\n" for s in left)
    refused = Stream(one_worker, token, "wait=0")
    assert refused.response.status == 503
    refused.close()
    for s in left:
        s.response.close()
        s.close()
    for _ in range(600):  # up to a minute: two heartbeats, the first of which a closed socket may still take
        again = Stream(one_worker, token, "wait=0")
        status = again.response.status
        again.close()
        if status == 200:
            break
        time.sleep(0.1)
    assert status == 200
