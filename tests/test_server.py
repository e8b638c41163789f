"""Runs through a real gunicorn (gunicorn.conf.py, which the Procfile's `tracker front` puts behind nginx: tests/test_front.py) over real HTTP, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.kit.server import BIN, ROOT, call, free_port, start as _start, stop

pytestmark = pytest.mark.server


@pytest.fixture
def server(database_url: str, tmp_path: Path, request: pytest.FixtureRequest):
    """gunicorn with two workers of four threads each, as `tracker front` starts it behind nginx."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "WEB_CONCURRENCY": "2", "TRACKER_PROJECTIONS_IN_PROCESS": "1"}
    process, base, log_path = _start([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.wsgi:app"], env, tmp_path, port)
    yield base
    stop(process, log_path, request)


@pytest.fixture
def served(database_url: str, tmp_path: Path, request: pytest.FixtureRequest):
    """`tracker serve`, which is what `make run` starts."""
    port = free_port()
    command = [str(BIN / "tracker"), "serve", "--port", str(port), "--database-url", database_url]  # global options go after too
    process, base, log_path = _start(command, dict(os.environ), tmp_path, port)
    yield base, log_path
    stop(process, log_path, request)


def test_twenty_concurrent_rolls_on_one_session(server):
    status, campaign = call(server, "POST", "/campaigns", {"ruleset": "journey", "name": "Load"})
    assert status == 201
    status, session = call(server, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    sid, start = session["id"], session["version"]
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda _: call(server, "POST", f"/sessions/{sid}/rolls", {"dice": {"d6": 2}}), range(20)))
    assert [status for status, _ in answers] == [201] * 20
    counters = {body["counter_start"] for _, body in answers}
    assert len(counters) == 20
    assert sorted(body["position"] for _, body in answers) == list(range(start + 1, start + 21))
    status, events = call(server, "GET", f"/sessions/{sid}/events?limit=100")
    rolls = [e for e in events["events"] if e["type"] == "DiceRolled"]
    assert len(rolls) == 20 and events["total"] == start + 20
    status, ended = call(server, "POST", f"/sessions/{sid}/end", {"outcome": "victory", "reported": {"house_cleared": True}})
    status, report = call(server, "GET", f"/sessions/{sid}/verification")
    assert report["status"] == "verified" and report["checked"]["digital_rolls"] == 20


def test_concurrent_retries_with_one_idempotency_key_roll_once(server):
    _, campaign = call(server, "POST", "/campaigns", {"ruleset": "journey", "name": "Retries"})
    _, session = call(server, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    sid, start = session["id"], session["version"]
    headers = {"Idempotency-Key": "the-one-roll"}
    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(lambda _: call(server, "POST", f"/sessions/{sid}/rolls", {"dice": {"d20": 1}}, headers), range(10)))
    assert {status for status, _ in answers} == {201}
    assert len({json.dumps(body, sort_keys=True) for _, body in answers}) == 1
    _, events = call(server, "GET", f"/sessions/{sid}/events")
    assert events["total"] == start + 1


def test_projections_run_in_the_serving_process(server):
    _, campaign = call(server, "POST", "/campaigns", {"ruleset": "journey", "name": "Views"})
    _, session = call(server, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    _, roll = call(server, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d8": 3}})
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        _, stats = call(server, "GET", f"/campaigns/{campaign['id']}/dice-statistics")
        if sum(row["count"] for row in stats["faces"]) == 3:
            break
        time.sleep(0.1)
    assert sum(row["count"] for row in stats["faces"] if row["die"] == "d8" and row["source"] == "digital") == 3
    _, timeline = call(server, "GET", f"/sessions/{session['id']}/timeline")
    types = [entry["event_type"] for entry in timeline["entries"]]
    assert types[:2] == ["SessionStarted", "ActionTaken"] and types[-1] == "DiceRolled"  # start, quest set-up (and its effects), roll


def _walkthrough() -> str:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"<!-- walkthrough -->\s*```sh\n(.*?)```", readme, re.S)
    assert blocks, "README has no walk-through block"
    return "\n".join(blocks)


def test_tracker_serve_says_where_it_serves_and_where_the_data_lives(served, database_url):
    base, log_path = served
    log = log_path.read_text()
    assert f"serving at {base}" in log
    if database_url.startswith("sqlite"):
        assert f"data lives in {Path(database_url.removeprefix('sqlite:///')).resolve()}" in log
    else:
        assert "data lives in postgresql://" in log and "campaign_tracker_test" in log


def test_tracker_serve_logs_each_request_but_never_a_token(served):
    base, log_path = served
    status, campaign = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Logged"})
    assert status == 201
    assert call(base, "GET", f"/campaigns/{campaign['id']}")[0] == 200
    deadline = time.monotonic() + 10
    while f"GET /campaigns/{campaign['id']}" not in log_path.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    log = log_path.read_text()
    assert f'"GET /campaigns/{campaign["id"]} HTTP/1.1" 200' in log and '"POST /campaigns HTTP/1.1" 201' in log
    assert campaign["owner_token"] not in log


def test_the_readme_walkthrough_runs_as_written(served, tmp_path):
    base, _ = served
    script = _walkthrough().replace("http://127.0.0.1:8000", base)
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}"}
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"status": "verified"' in result.stdout, result.stdout
    assert "application/problem+json" not in result.stdout


def test_tracker_verify_from_the_command_line(server, database_url):
    _, campaign = call(server, "POST", "/campaigns", {"ruleset": "journey", "name": "CLI"})
    _, session = call(server, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    call(server, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d12": 4}})
    call(server, "POST", f"/sessions/{session['id']}/end", {"outcome": "victory", "reported": {"house_cleared": True}})
    result = subprocess.run(
        [str(BIN / "tracker"), "--database-url", database_url, "verify", session["id"]], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "verified"
    missing = subprocess.run(
        [str(BIN / "tracker"), "--database-url", database_url, "verify", "00000000-0000-0000-0000-000000000000"],
        capture_output=True, text=True, timeout=60,
    )
    assert missing.returncode == 2 and "No session" in missing.stderr


def test_many_campaigns_rolled_at_once_over_http_lose_and_duplicate_no_events(server):
    """32 concurrent clients over 4 campaigns on both workers: each answered roll is stored once, nothing else is."""
    tables = []
    for i in range(4):
        status, campaign = call(server, "POST", "/campaigns", {"ruleset": "journey", "name": f"Table {i}"})
        token = {"Authorization": f"Bearer {campaign['owner_token']}"}
        sids = [call(server, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"}, token)[1]["id"] for _ in range(2)]
        tables.append((token, sids))
    jobs = [(token, sids[n % 2]) for n in range(64) for token, sids in [tables[n % 4]]]
    with ThreadPoolExecutor(max_workers=32) as pool:
        answers = list(pool.map(lambda job: call(server, "POST", f"/sessions/{job[1]}/rolls", {"dice": {"d6": 2}}, job[0]), jobs))
    assert [status for status, _ in answers] == [201] * 64
    answered = sorted((sid, body["position"]) for (_, sid), (_, body) in zip(jobs, answers))
    assert len(set(answered)) == 64
    stored = []
    for token, sids in tables:
        for sid in sids:
            _, events = call(server, "GET", f"/sessions/{sid}/events?limit=1000", headers=token)
            assert [e["position"] for e in events["events"]] == list(range(1, events["total"] + 1))
            stored += [(sid, e["position"]) for e in events["events"] if e["type"] == "DiceRolled"]
            call(server, "POST", f"/sessions/{sid}/end", {"outcome": "victory", "reported": {"house_cleared": True}}, token)
            _, report = call(server, "GET", f"/sessions/{sid}/verification", headers=token)
            assert report["status"] == "verified", report
    assert sorted(stored) == answered
