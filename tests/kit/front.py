"""What the production front's tests share (`tracker front`: nginx in front of gunicorn, api/front/): finding
nginx, starting a front as a platform runs the Procfile's web, and raw HTTP exchanges over a socket, with the
over-long requests every server must refuse with a problem a person can act on.

Without nginx the front's tests skip, saying why; with TRACKER_REQUIRE_NGINX=1 or CI=true (.ci/run, which
installs it with .ci/install-nginx) that is a failure instead."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from api.front.launcher import NginxMissing, find_nginx
from tests.kit.server import BIN, free_port as _free_port, start as _start

REQUIRE_NGINX = os.environ.get("TRACKER_REQUIRE_NGINX") == "1" or os.environ.get("CI") == "true"


@pytest.fixture(scope="module")
def nginx() -> str:
    try:
        return find_nginx()
    except NginxMissing as missing:
        if REQUIRE_NGINX:
            pytest.fail(f"TRACKER_REQUIRE_NGINX=1 (or CI=true) but {missing}", pytrace=False)
        pytest.skip(f"the front's tests need nginx: {missing}")


def start_front(nginx: str, database_url: str, tmp_path: Path, **env: str):
    """`tracker front` as a platform runs the Procfile's web: PORT and DATABASE_URL from the environment.
    One worker of four threads: twenty slow clients are five times what gunicorn alone could hold off.
    (process, base URL, log path), once it answers GET /health."""
    port = _free_port()
    environment = {
        **os.environ, "DATABASE_URL": database_url, "PORT": str(port), "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "4",
        "TRACKER_PROJECTIONS_IN_PROCESS": "1", "TRACKER_STREAM_HEARTBEAT_SECONDS": "1", "TRACKER_NGINX": nginx, **env,
    }
    return _start([str(BIN / "tracker"), "front"], environment, tmp_path, port)


def address(base: str) -> tuple[str, int]:
    parts = urlsplit(base)
    return parts.hostname or "127.0.0.1", parts.port or 80


def exchange(base: str, raw: bytes, timeout: float = 30.0) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` on a new connection and read the whole answer (these answers close the connection)."""
    with socket.create_connection(address(base), timeout=timeout) as conn:
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


def get(path: str, *headers: str) -> bytes:
    return ("\r\n".join([f"GET {path} HTTP/1.1", "Host: tracker.test", *headers, "Connection: close"]) + "\r\n\r\n").encode("latin-1")


# Each over-long request, the status it must get, and a word its title must hold for a person to act on.
# 5,000 bytes of URL is past gunicorn's request line (4,094) and within nginx's (8 KB); 20,000 is past both.
# One 9,000-byte header is past either's field limit; 120 small headers are past gunicorn's 100 fields only.
OVER_LIMITS = {
    "a 5,000-byte URL": (get("/health?q=" + "a" * 5000), 414, "address"),
    "a 20,000-byte URL": (get("/health?q=" + "a" * 20000), 414, "address"),
    "a 9,000-byte header": (get("/health", "X-Note: " + "a" * 9000), 431, "headers"),
    "120 headers": (get("/health", *(f"X-Note-{n}: {n}" for n in range(120))), 431, "headers"),
    "bytes that are not HTTP": (b"NOT HTTP AT ALL\r\n\r\n", 400, "request line"),
}


def assert_a_problem(status: int, headers: dict[str, str], body: bytes, expected: int, word: str) -> None:
    assert status == expected, body[:300]
    assert headers["content-type"] == "application/problem+json", (headers, body[:300])
    problem = json.loads(body)
    assert problem["status"] == expected
    assert word in problem["title"], problem["title"]
