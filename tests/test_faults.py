"""Faults against a real gunicorn and a real PostgreSQL: no acknowledged event is ever lost.

The database restart runs on a private PostgreSQL cluster started for this
module (so the shared test server is never disturbed); everything stays on
loopback and is bounded in time and count.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.kit.databases import REQUIRE_POSTGRES
from tests.kit.server import OWNER_TOKENS, free_port as _free_port, start as _start, stop as _stop, call

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
pytestmark = [pytest.mark.server, pytest.mark.postgres]


def _pg_bin(name: str) -> str | None:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True)
    return str(found[0]) if found else shutil.which(name)


def _as_postgres(command: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the postgres user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@pytest.fixture(scope="module")
def private_postgres() -> Iterator[dict[str, str]]:
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    if not initdb or not pg_ctl or (os.geteuid() == 0 and not shutil.which("runuser")):
        if REQUIRE_POSTGRES:
            pytest.fail("TRACKER_REQUIRE_POSTGRES=1 but initdb/pg_ctl are not installed for the fault tests", pytrace=False)
        pytest.skip("fault tests need initdb and pg_ctl to run a private PostgreSQL cluster")
    base = Path(tempfile.mkdtemp(prefix="tracker-faults-"))
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    data = base / "data"
    port = _free_port()
    subprocess.run(_as_postgres([initdb, "-D", str(data), "-A", "trust", "-U", "postgres"]), check=True, capture_output=True, timeout=120)
    control = {
        "start": _as_postgres([pg_ctl, "-D", str(data), "-l", str(base / "log"), "-w", "-o", f"-p {port} -k {base} -c listen_addresses=127.0.0.1", "start"]),
        "stop": _as_postgres([pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"]),
    }
    subprocess.run(control["start"], check=True, capture_output=True, timeout=60)
    try:
        yield {"url": f"postgresql://postgres@127.0.0.1:{port}/postgres", **{k: json.dumps(v) for k, v in control.items()}}
    finally:
        subprocess.run(control["stop"], capture_output=True, timeout=60)
        shutil.rmtree(base, ignore_errors=True)


def _control(pg: dict[str, str], what: str) -> None:
    subprocess.run(json.loads(pg[what]), check=True, capture_output=True, timeout=60)


@pytest.fixture
def gunicorn_on(tmp_path, request):
    started = []

    def start(url: str, workers: int = 2):
        port = _free_port()
        env = {**os.environ, "DATABASE_URL": url, "PORT": str(port), "WEB_CONCURRENCY": str(workers)}
        process, base, log = _start([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.wsgi:app"], env, tmp_path, port)
        started.append((process, log))
        return process, base

    yield start
    for process, log in started:
        _stop(process, log, request)


def _new_session(base: str) -> str:
    status, campaign = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Faults"})
    assert status == 201, campaign
    status, session = call(base, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    assert status == 201, session
    return session["id"]


def _writer(base: str, sid: str, stop: threading.Event, acked: list, answers: list, name: str) -> None:
    n = 0
    deadline = time.monotonic() + 60
    while not stop.is_set() and time.monotonic() < deadline:
        n += 1
        started = time.monotonic()
        try:
            status, body = call(base, "POST", f"/sessions/{sid}/rolls", {"dice": {"d6": 1}}, {"Idempotency-Key": f"{name}-{n}"})
        except OSError as error:  # a connection cut by a dying worker: not acknowledged
            answers.append(("connection", str(error), time.monotonic() - started))
            continue
        answers.append((status, body.get("title"), time.monotonic() - started, body))
        if 200 <= status < 300:
            acked.append(body)
        time.sleep(0.01 if status != 503 else 0.2)


def _assert_every_acknowledged_roll_is_in_the_log(base: str, sid: str, acked: list) -> dict:
    status, page = call(base, "GET", f"/sessions/{sid}/events?limit=1000")
    assert status == 200
    by_position = {e["position"]: e for e in page["events"]}
    for body in acked:
        event = by_position.get(body["position"])
        assert event is not None and event["type"] == "DiceRolled", body
        assert event["payload"]["roll"]["results"] == body["results"]
    return page


def test_a_database_restart_fails_fast_with_503_and_loses_no_acknowledged_event(private_postgres, gunicorn_on):
    _, base = gunicorn_on(private_postgres["url"])
    sid = _new_session(base)
    stop, acked, answers = threading.Event(), [], []
    writers = [threading.Thread(target=_writer, args=(base, sid, stop, acked, answers, f"w{i}")) for i in range(3)]
    for writer in writers:
        writer.start()
    time.sleep(0.5)
    _control(private_postgres, "stop")
    # The library rides over blips shorter than its ~2 s of retries; a longer outage must
    # answer 503 promptly rather than hang.
    time.sleep(8)  # clients keep writing into the outage
    _control(private_postgres, "start")
    restarted = len(answers)
    deadline = time.monotonic() + 40

    def recovered() -> bool:  # every worker writes again: the last ten answers all succeeded
        recent = answers[restarted:][-10:]
        return len(recent) == 10 and all(a[0] == 201 for a in recent)

    while time.monotonic() < deadline and not recovered():
        time.sleep(0.2)  # without restarting the service
    stop.set()
    for writer in writers:
        writer.join(timeout=60)

    outage = [a for a in answers if a[0] == 503]
    assert outage, "no request saw the outage"
    assert all(a[2] < 8 for a in outage), "no request may hang through the outage"
    assert sum(1 for a in outage if a[2] < 0.5) >= len(outage) // 2, "most requests during the outage must fail at once"
    assert all(a[3].get("status") == 503 for a in outage)
    assert {a[0] for a in answers} <= {201, 503}, {a[0] for a in answers}
    assert recovered(), "the service did not recover by itself"
    page = _assert_every_acknowledged_roll_is_in_the_log(base, sid, acked)
    rolls = [e for e in page["events"] if e["type"] == "DiceRolled"]
    assert len(rolls) >= len(acked)
    status, _ = call(base, "POST", f"/sessions/{sid}/end", {"outcome": "victory", "reported": {"house_cleared": True}})
    assert call(base, "GET", f"/sessions/{sid}/verification")[1]["status"] == "verified"


def test_retry_after_is_sent_while_the_database_is_down(private_postgres, gunicorn_on):
    _, base = gunicorn_on(private_postgres["url"])
    sid = _new_session(base)
    _control(private_postgres, "stop")
    try:
        request = __import__("urllib.request").request.Request(
            f"{base}/sessions/{sid}/rolls", data=b'{"dice": {"d6": 1}}', method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {OWNER_TOKENS[base]}"},
        )
        with pytest.raises(__import__("urllib.error").error.HTTPError) as error:
            __import__("urllib.request").request.urlopen(request, timeout=30)
        assert error.value.code == 503 and int(error.value.headers["Retry-After"]) >= 1
        assert error.value.headers["Content-Type"] == "application/problem+json"
    finally:
        _control(private_postgres, "start")


def test_a_worker_killed_mid_burst_leaves_no_half_written_command(postgres_url, gunicorn_on):
    master, base = gunicorn_on(postgres_url, workers=2)
    sid = _new_session(base)
    stop, acked, answers = threading.Event(), [], []
    writers = [threading.Thread(target=_writer, args=(base, sid, stop, acked, answers, f"k{i}")) for i in range(4)]
    for writer in writers:
        writer.start()
    time.sleep(0.7)
    children = subprocess.run(["pgrep", "-P", str(master.pid)], capture_output=True, text=True).stdout.split()
    assert children, "no gunicorn workers found"
    os.kill(int(children[0]), signal.SIGKILL)
    time.sleep(1.0)
    stop.set()
    for writer in writers:
        writer.join(timeout=60)
    assert acked
    _assert_every_acknowledged_roll_is_in_the_log(base, sid, acked)
    # Retrying every key: a recorded answer always comes with its events; an unrecorded one rolls now.
    keys = [f"k{i}-{n}" for i in range(4) for n in range(1, 16)]
    for key in keys:
        status, body = call(base, "POST", f"/sessions/{sid}/rolls", {"dice": {"d6": 1}}, {"Idempotency-Key": key})
        assert status == 201
    page = _assert_every_acknowledged_roll_is_in_the_log(base, sid, acked)
    status, _ = call(base, "POST", f"/sessions/{sid}/end", {"outcome": "victory", "reported": {"house_cleared": True}})
    report = call(base, "GET", f"/sessions/{sid}/verification")[1]
    assert report["status"] == "verified", report["first_mismatch"]  # counters continuous, no half-written roll
    positions = [e["position"] for e in page["events"]]
    assert positions == list(range(1, len(positions) + 1))


def test_a_rebuild_killed_part_way_is_finished_by_the_next_run(postgres_url):
    from projections.runner import ProjectionRunner
    from projections.store import open_view_store
    from tracker.application.service import Tracker
    from tracker.adapters.config import persistence_env

    env = persistence_env(postgres_url)
    app = Tracker(env=env)
    campaign = app.create_campaign("journey", "Rebuild").body["id"]
    sid = app.start_session(campaign, "q1-meeting").body["id"]
    for _ in range(300):
        app.roll(sid, dice={"d6": 2})
    tracker_cli = str(BIN / "tracker")
    rebuild = subprocess.Popen(
        [tracker_cli, "--database-url", postgres_url, "rebuild", "--batch-size", "10", "--pause", "0.05"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    store = open_view_store(env)
    runner = ProjectionRunner(app, store)
    try:
        end = app.recorder.max_notification_id()
        deadline = time.monotonic() + 30
        while runner.position < 50 and time.monotonic() < deadline:
            time.sleep(0.02)
        rebuild.send_signal(signal.SIGKILL)
        rebuild.wait(timeout=30)
        part_way = runner.position
        assert 0 < part_way < end, (part_way, end)
        runner.catch_up()  # the next run: `tracker project`, in-process here
        incremental = store.digest()
        assert incremental == runner.rebuild()  # equal to a clean rebuild
    finally:
        store.datastore.close()
        app.close()
