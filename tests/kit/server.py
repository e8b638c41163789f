"""A real server for the tests that need one: a free port, the server started and stopped (its log printed when the
test failed), and one HTTP request acting as the owner of the campaign created last on that server."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

OWNER_TOKENS: dict[str, str] = {}  # per server: the owner token of the campaign created last


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base: str, method: str, path: str, body: object | None = None, headers: dict | None = None) -> tuple[int, dict]:
    """One HTTP request; acts as the owner of the campaign last created on that server unless told otherwise."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", **(headers or {})}
    if "Authorization" not in headers and base in OWNER_TOKENS:
        headers["Authorization"] = f"Bearer {OWNER_TOKENS[base]}"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, answer = response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    if status == 201 and isinstance(answer, dict) and answer.get("owner_token"):
        OWNER_TOKENS[base] = answer["owner_token"]
    return status, answer


def start(command: list[str], env: dict[str, str], tmp_path: Path, port: int):
    """The server ``command`` started, once ``GET /health`` answers: its process, base URL and log."""
    log_path = tmp_path / "server.log"
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log_path.open("w"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if call(base, "GET", "/health")[0] == 200:
                break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail("the server did not start:\n" + log_path.read_text())
        time.sleep(0.1)
    return process, base, log_path


def stop(process: subprocess.Popen, log_path: Path, request: pytest.FixtureRequest) -> None:
    """The server stopped; it must not have died during the test. A failed test prints its log."""
    died = process.poll()
    process.terminate()
    process.wait(timeout=15)
    assert died is None, "the server exited during the test:\n" + log_path.read_text()
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        print("server log:\n" + log_path.read_text())
