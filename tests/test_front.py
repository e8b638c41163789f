"""The production front (`tracker front`, the Procfile's `web`): nginx in front of gunicorn, over real
sockets. Slow clients wait in nginx, not in gunicorn's threads; requests over the URL and header limits
answer problem+json from nginx and from gunicorn alike (plain gunicorn and `tracker serve` too); an event
stream streams through the proxy; the client's Host and the proxies' X-Forwarded-* reach the application.

Without nginx these tests skip, saying why; with TRACKER_REQUIRE_NGINX=1 or CI=true (.ci/run, which
installs it with .ci/install-nginx) that is a failure instead.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from api.front.launcher import NginxMissing, find_nginx, render
from tests.kit.server import BIN, free_port as _free_port, start as _start, stop as _stop, call

pytestmark = pytest.mark.server

REQUIRE_NGINX = os.environ.get("TRACKER_REQUIRE_NGINX") == "1" or os.environ.get("CI") == "true"
SLOW_CLIENTS = 20
ANSWER_WITHIN_SECONDS = 1.0  # how long a /health may take to come back while the slow clients are held


@pytest.fixture(scope="module")
def nginx() -> str:
    try:
        return find_nginx()
    except NginxMissing as missing:
        if REQUIRE_NGINX:
            pytest.fail(f"TRACKER_REQUIRE_NGINX=1 (or CI=true) but {missing}", pytrace=False)
        pytest.skip(f"the front's tests need nginx: {missing}")


def _front(nginx: str, database_url: str, tmp_path: Path, **env: str):
    """`tracker front` as a platform runs the Procfile's web: PORT and DATABASE_URL from the environment.
    One worker of four threads: twenty slow clients are five times what gunicorn alone could hold off."""
    port = _free_port()
    environment = {
        **os.environ, "DATABASE_URL": database_url, "PORT": str(port), "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "4",
        "TRACKER_PROJECTIONS_IN_PROCESS": "1", "TRACKER_STREAM_HEARTBEAT_SECONDS": "1", "TRACKER_NGINX": nginx, **env,
    }
    return _start([str(BIN / "tracker"), "front"], environment, tmp_path, port)


@pytest.fixture
def front(nginx: str, database_url: str, tmp_path: Path, request: pytest.FixtureRequest):
    process, base, log_path = _front(nginx, database_url, tmp_path)
    yield base
    _stop(process, log_path, request)


@pytest.fixture(scope="module")
def sqlite_front(nginx: str, tmp_path_factory: pytest.TempPathFactory):
    """One front for the tests of how requests are read, which no database changes."""
    tmp_path = tmp_path_factory.mktemp("front")
    process, base, log_path = _front(nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path)
    yield base
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module", params=["gunicorn", "tracker serve"])
def plain_gunicorn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """No proxy: the gunicorn.conf.py worker itself answers the requests it cannot read."""
    tmp_path = tmp_path_factory.mktemp("plain")
    port = _free_port()
    url = f"sqlite:///{tmp_path / 'tracker.sqlite3'}"
    if request.param == "gunicorn":
        command = [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.wsgi:app"]
    else:
        command = [str(BIN / "tracker"), "serve", "--port", str(port), "--workers", "1", "--no-request-log"]
    env = {**os.environ, "DATABASE_URL": url, "PORT": str(port), "WEB_CONCURRENCY": "1"}
    process, base, _ = _start(command, env, tmp_path, port)
    yield base
    process.terminate()
    process.wait(timeout=30)


def _address(base: str) -> tuple[str, int]:
    parts = urlsplit(base)
    return parts.hostname or "127.0.0.1", parts.port or 80


def _exchange(base: str, raw: bytes, timeout: float = 30.0) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` on a new connection and read the whole answer (these answers close the connection)."""
    with socket.create_connection(_address(base), timeout=timeout) as conn:
        conn.sendall(raw)
        answer = b""
        while True:
            try:
                chunk = conn.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            answer += chunk
            head, sep, body = answer.partition(b"\r\n\r\n")
            if sep:
                length = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
                if length and len(body) >= int(length[0].split(b":")[1]):
                    break
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1."), f"no HTTP answer: {answer[:200]!r}"
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _get(path: str, *headers: str) -> bytes:
    return ("\r\n".join([f"GET {path} HTTP/1.1", "Host: tracker.test", *headers, "Connection: close"]) + "\r\n\r\n").encode("latin-1")


# Each over-long request, the status it must get, and a word its title must hold for a person to act on.
# 5,000 bytes of URL is past gunicorn's request line (4,094) and within nginx's (8 KB); 20,000 is past both.
# One 9,000-byte header is past either's field limit; 120 small headers are past gunicorn's 100 fields only.
OVER_LIMITS = {
    "a 5,000-byte URL": (_get("/health?q=" + "a" * 5000), 414, "address"),
    "a 20,000-byte URL": (_get("/health?q=" + "a" * 20000), 414, "address"),
    "a 9,000-byte header": (_get("/health", "X-Note: " + "a" * 9000), 431, "headers"),
    "120 headers": (_get("/health", *(f"X-Note-{n}: {n}" for n in range(120))), 431, "headers"),
    "bytes that are not HTTP": (b"NOT HTTP AT ALL\r\n\r\n", 400, "request line"),
}


def _assert_a_problem(status: int, headers: dict[str, str], body: bytes, expected: int, word: str) -> None:
    assert status == expected, body[:300]
    assert headers["content-type"] == "application/problem+json", (headers, body[:300])
    problem = json.loads(body)
    assert problem["status"] == expected
    assert word in problem["title"], problem["title"]


@pytest.mark.parametrize("case", list(OVER_LIMITS))
def test_over_long_urls_and_headers_answer_problem_json_through_the_front(sqlite_front, case):
    raw, expected, word = OVER_LIMITS[case]
    _assert_a_problem(*_exchange(sqlite_front, raw), expected, word)


@pytest.mark.parametrize("case", list(OVER_LIMITS))
def test_over_long_urls_and_headers_answer_problem_json_from_plain_gunicorn(plain_gunicorn, case):
    raw, expected, word = OVER_LIMITS[case]
    _assert_a_problem(*_exchange(plain_gunicorn, raw), expected, word)


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


def test_behind_a_tls_proxy_its_forwarded_scheme_and_host_count(nginx, tmp_path, request):
    """TRACKER_TRUSTED_PROXIES=1: one proxy (a platform's TLS router) in front of the front."""
    process, base, log_path = _front(nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path, TRACKER_TRUSTED_PROXIES="1")
    try:
        token = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "TLS"})[1]["owner_token"]
        router = (("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "tracker.example"), ("X-Forwarded-For", "203.0.113.9"))
        status, cookie = _sign_in(base, token, "https://tracker.example", *router)
        assert status == 303 and "Secure" in cookie
    finally:
        _stop(process, log_path, request)


def test_stopping_the_front_stops_nginx_and_gunicorn_together(nginx, tmp_path):
    process, base, log_path = _front(nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path)
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(process.pid)], capture_output=True, text=True).stdout.split()
    assert len(children) == 2, log_path.read_text()  # nginx's master and gunicorn's
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0, log_path.read_text()
    for pid in children:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text(), f"{pid} outlived the front"
    with pytest.raises(OSError):
        socket.create_connection(_address(base), timeout=2).close()


def test_when_gunicorn_dies_the_front_stops_nginx_and_exits_failing(nginx, tmp_path):
    process, base, log_path = _front(nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path)
    children = subprocess.run(["ps", "-o", "pid=,comm=", "--ppid", str(process.pid)], capture_output=True, text=True).stdout.splitlines()
    gunicorn = next(int(line.split()[0]) for line in children if "nginx" not in line)
    os.kill(gunicorn, signal.SIGKILL)
    assert process.wait(timeout=30) != 0
    assert "tracker front: gunicorn 0 exited" in log_path.read_text()
    with pytest.raises(OSError):
        socket.create_connection(_address(base), timeout=2).close()


def test_the_rendered_configuration_is_one_nginx_accepts_and_stays_in_its_directory(nginx, tmp_path):
    sockets = [tmp_path / f"gunicorn-{n}.sock" for n in range(3)]
    text = render("127.0.0.1:8000", sockets, tmp_path, 1234, as_root=False)
    assert text.count("server unix:") == 3 and "client_max_body_size 1234;" in text
    # Every path nginx writes (pid, temporary files) is in the private directory; logs go to stderr.
    written = [line.split()[1].rstrip(";") for line in text.splitlines() if line.strip().split(" ")[0] in (
        "pid", "client_body_temp_path", "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path", "scgi_temp_path")]
    assert len(written) == 6 and all(Path(path).parent == tmp_path for path in written), written
    (tmp_path / "nginx.conf").write_text(text)
    checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_while_gunicorn_is_not_listening_nginx_answers_a_503_problem_to_retry(nginx, tmp_path):
    port = _free_port()
    (tmp_path / "nginx.conf").write_text(render(f"127.0.0.1:{port}", [tmp_path / "gone.sock"], tmp_path, 1024, as_root=os.geteuid() == 0))
    process = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                status, headers, body = _exchange(f"http://127.0.0.1:{port}", _get("/health"))
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None, "nginx did not start"
                time.sleep(0.1)
        _assert_a_problem(status, headers, body, 503, "retry")
        assert headers["retry-after"] == "5"
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_each_sessions_requests_go_to_one_worker_and_the_rest_are_spread(nginx, tmp_path, request):
    """Two gunicorns behind nginx, each logging the pid of the worker that answered (gunicorn's %(p)s)."""
    process, base, log_path = _front(
        nginx, f"sqlite:///{tmp_path / 'tracker.sqlite3'}", tmp_path, WEB_CONCURRENCY="2", GUNICORN_ACCESS_LOG="-",
        GUNICORN_CMD_ARGS="--access-logformat 'answered %(p)s %(m)s %(U)s'",
    )
    try:
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
    finally:
        _stop(process, log_path, request)
