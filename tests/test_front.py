"""Requests through the production front (`tracker front`, the Procfile's `web`): nginx in front of gunicorn,
over real sockets. Slow clients wait in nginx, not in gunicorn's threads; requests over the URL and header
limits answer problem+json from nginx; an event stream streams through the proxy; the client's Host and the
proxies' X-Forwarded-* reach the application; each session's requests go to one gunicorn.

Each front here is started once for the file and shared by the tests that read from it (each test plays
campaigns of its own). The front's processes starting and stopping: tests/test_front_lifecycle.py; the same
limits on gunicorn and `tracker serve` without nginx: tests/test_request_limits_without_the_front.py.
Without nginx these tests skip, saying why (tests/kit/front.py); in CI that is a failure instead.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.kit.databases import fresh_schema
from tests.kit.front import OVER_LIMITS, address as _address, assert_a_problem as _assert_a_problem, exchange as _exchange, get as _get
from tests.kit.front import nginx, start_front as _front  # noqa: F401  (nginx: a fixture)
from tests.kit.server import call

pytestmark = pytest.mark.server

SLOW_CLIENTS = 20
ANSWER_WITHIN_SECONDS = 1.0  # how long a /health may take to come back while the slow clients are held


@pytest.fixture(scope="module")
def sqlite_front(nginx: str, tmp_path_factory: pytest.TempPathFactory):
    """One front for the tests of how requests are read, which no database changes."""
    tmp_path = tmp_path_factory.mktemp("front")
    process, base, log_path = _front(nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path)
    yield base
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def postgres_front(nginx: str, postgres_base_url: str, tmp_path_factory: pytest.TempPathFactory):
    tmp_path = tmp_path_factory.mktemp("front-postgres")
    with fresh_schema(postgres_base_url) as url:
        process, base, log_path = _front(nginx, url, tmp_path)
        yield base
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(params=["sqlite", "postgres"])
def front(request: pytest.FixtureRequest) -> str:
    """The front on each backend (the module's own, shared)."""
    if request.param == "postgres":
        request.applymarker(pytest.mark.postgres)
    return request.getfixturevalue(f"{request.param}_front")


@pytest.fixture(scope="module")
def two_workers_behind_a_proxy(nginx: str, tmp_path_factory: pytest.TempPathFactory):
    """A front of two gunicorns behind one proxy (TRACKER_TRUSTED_PROXIES=1: a platform's TLS router in front of
    it), each gunicorn logging the pid of the worker that answered (gunicorn's %(p)s): (base URL, log path)."""
    tmp_path = tmp_path_factory.mktemp("front-two")
    process, base, log_path = _front(
        nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path, TRACKER_TRUSTED_PROXIES="1", WEB_CONCURRENCY="2",
        GUNICORN_ACCESS_LOG="-", GUNICORN_CMD_ARGS="--access-logformat 'answered %(p)s %(m)s %(U)s'",
    )
    yield base, log_path
    died = process.poll()
    process.terminate()
    process.wait(timeout=30)
    assert died is None, "the front exited during the tests:\n" + log_path.read_text()


@pytest.mark.parametrize("case", list(OVER_LIMITS))
def test_over_long_urls_and_headers_answer_problem_json_through_the_front(sqlite_front, case):
    raw, expected, word = OVER_LIMITS[case]
    _assert_a_problem(*_exchange(sqlite_front, raw), expected, word)


def test_a_request_within_the_limits_still_passes_the_front(sqlite_front):
    status, headers, body = _exchange(sqlite_front, _get("/health", "X-Note: " + "a" * 4000, "X-Other: " + "b" * 3000))
    assert status == 200, body[:300]
    assert json.loads(body)["status"] == "ok"


def _half_sent(base: str) -> socket.socket:
    """A client that sends the start of a request and then waits, as a slow or hostile client does."""
    conn = socket.create_connection(_address(base), timeout=30)
    conn.sendall(b"POST /campaigns HTTP/1.1\r\nHost: tracker.test\r\nContent-Type: application/json\r\nX-Slow: ")
    return conn


def _health_within(base: str, seconds: float) -> int:
    """GET /health on a new connection whose every step (connect, send, each read) must finish within ``seconds``."""
    with socket.create_connection(_address(base), timeout=seconds) as conn:
        conn.sendall(_get("/health"))
        response = http.client.HTTPResponse(conn)
        response.begin()
        body = response.read()
        assert json.loads(body)["status"] == "ok"
        return response.status


def test_twenty_half_sent_requests_leave_health_answering_within_a_second(sqlite_front):
    assert _health_within(sqlite_front, 30.0) == 200  # the worker is up and warm before the slow clients come
    slow = [_half_sent(sqlite_front) for _ in range(SLOW_CLIENTS)]
    try:
        time.sleep(0.5)  # long enough for every slow connection to have been accepted and started reading
        with ThreadPoolExecutor(max_workers=8) as pool:
            answers = list(pool.map(lambda _: _health_within(sqlite_front, ANSWER_WITHIN_SECONDS), range(16)))
        assert answers == [200] * 16
        # The slow clients are still held, not dropped to make room.
        for conn in slow:
            conn.setblocking(False)
            with pytest.raises(BlockingIOError):
                conn.recv(1)
    finally:
        for conn in slow:
            conn.close()


def test_rolls_and_an_event_stream_pass_the_front_event_by_event(front):
    """The campaign's token reads its own campaign's feed only, so the other tests' campaigns on the shared front
    are not in this stream."""
    status, campaign = call(front, "POST", "/campaigns", {"ruleset": "journey", "name": "Through the front"})
    assert status == 201
    token = campaign["owner_token"]
    status, session = call(front, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    assert status == 201
    connection = http.client.HTTPConnection(*_address(front), timeout=30)
    try:
        connection.request("GET", "/events/stream?after=0",
                            headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
        stream = connection.getresponse()
        assert stream.status == 200 and stream.getheader("Content-Type", "").startswith("text/event-stream")
        assert stream.readline() == b"retry: 2000\n"  # the first line arrives before the stream ends: not buffered
        status, roll = call(front, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d6": 2}})
        assert status == 201
        seen: list[bytes] = []
        while b"event: DiceRolled\n" not in seen:  # the roll arrives while the stream is still open
            line = stream.readline()
            assert line, f"the stream ended before the roll arrived: {seen}"
            seen.append(line)
    finally:
        connection.close()
    status, events = call(front, "GET", f"/sessions/{session['id']}/events")
    assert status == 200 and any(e["type"] == "DiceRolled" for e in events["events"])


def _sign_in(base: str, token: str, origin: str, *headers: tuple[str, str]) -> tuple[int, str]:
    connection = http.client.HTTPConnection(*_address(base), timeout=30)
    try:
        connection.request("POST", "/pages/sign-in", body=f"token={token}", headers={
            "Content-Type": "application/x-www-form-urlencoded", "Origin": origin, **dict(headers)})
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Set-Cookie", "")
    finally:
        connection.close()


def test_the_clients_host_reaches_the_application_and_its_forged_forwarded_headers_do_not(sqlite_front):
    token = call(sqlite_front, "POST", "/campaigns", {"ruleset": "journey", "name": "Host"})[1]["owner_token"]
    here = sqlite_front  # http://127.0.0.1:PORT: the Host the client sent is the origin the pages compare with
    status, cookie = _sign_in(sqlite_front, token, here)
    assert status == 303 and "Secure" not in cookie
    # Straight to nginx, a client's own X-Forwarded-* are not believed: the last hop's are nginx's.
    forged = (("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "elsewhere.test"), ("X-Forwarded-Ssl", "on"))
    assert _sign_in(sqlite_front, token, "https://elsewhere.test", *forged)[0] == 403
    status, cookie = _sign_in(sqlite_front, token, here, *forged)
    assert status == 303 and "Secure" not in cookie


def test_behind_a_tls_proxy_its_forwarded_scheme_and_host_count(two_workers_behind_a_proxy):
    """TRACKER_TRUSTED_PROXIES=1: one proxy (a platform's TLS router) in front of the front."""
    base, _ = two_workers_behind_a_proxy
    token = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "TLS"})[1]["owner_token"]
    router = (("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "tracker.example"), ("X-Forwarded-For", "203.0.113.9"))
    status, cookie = _sign_in(base, token, "https://tracker.example", *router)
    assert status == 303 and "Secure" in cookie


def test_each_sessions_requests_go_to_one_worker_and_the_rest_are_spread(two_workers_behind_a_proxy):
    base, log_path = two_workers_behind_a_proxy
    _, campaign = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Affinity"})
    sessions = [call(base, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})[1]["id"] for _ in range(5)]  # odd: round-robin would move each between rounds
    for _ in range(4):
        for sid in sessions:
            assert call(base, "POST", f"/sessions/{sid}/rolls", {"dice": {"d6": 1}})[0] == 201
    for _ in range(20):
        assert call(base, "GET", "/health")[0] == 200
    time.sleep(0.5)  # the access log is written after each answer
    answered = [line.split()[1:] for line in log_path.read_text().splitlines() if line.startswith("answered ")]
    for sid in sessions:
        workers = {pid for pid, method, path in answered if path == f"/sessions/{sid}/rolls"}
        assert len(workers) == 1, (sid, workers)
    assert len({pid for pid, method, path in answered if path == "/health"}) == 2
