"""A move that outlives its mover: `tracker shards move` killed (SIGKILL) at each step, then writes and a second move.

The mover is a real `tracker shards move` process, stopped at a named step by its own documented setting
(TRACKER_MOVE_PAUSE_AT with TRACKER_MOVE_PAUSE_FILE, tracker/sharding/moving.py), with a lease of one second
(TRACKER_MOVE_LEASE_SECONDS). The home database and the shard "b" are the suite's two PostgreSQL servers
(tests/kit/second_cluster.py), the writes go through the API as a client sends them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from psycopg.sql import SQL, Identifier

from tests.kit.shards import campaign as _campaign, holds as _holds, session as _session
from tests.kit.shards import shard_urls, sharded  # noqa: F401  (fixtures: a home database and the shard "b", a service on them)
from tracker.application.service import Tracker
from tracker.cli import main as cli
from tracker.adapters.config import persistence_env
from tracker.core.errors import NotFound
from tracker.sharding.placement import NewLease, Placement, conninfo

pytestmark = pytest.mark.postgres

ROLL = {"dice": {"d6": 2}}
LEASE_SECONDS = "2"  # the killed movers': what a test waits for its writes to resume
OWN_LEASE_SECONDS = "10"  # the moves run in the test's process: never meant to run out, on a loaded machine either
ROOT = Path(__file__).resolve().parent.parent
RECORDED = {"before-copy": "fenced", "during-copy": "copying", "before-flip": "copied"}  # the step the lease records at each pause
WAITS = 600  # polls of 0.05 s: bounded waits for a process or a lease, counted, not timed


@pytest.fixture(autouse=True)
def short_lease(monkeypatch) -> None:
    monkeypatch.setenv("TRACKER_MOVE_LEASE_SECONDS", OWN_LEASE_SECONDS)
    monkeypatch.delenv("TRACKER_MOVE_PAUSE_AT", raising=False)


def _rolls_on(url: str, session_id: str) -> list[dict] | None:
    """The session's rolls as that shard holds them, or None when it holds no copy of the session."""
    app = Tracker(env=persistence_env(url))
    try:
        return [e for e in app.session_events(session_id, limit=10_000)["events"] if e["type"] == "DiceRolled"]
    except NotFound:
        return None
    finally:
        app.close()


def _mover(home: str, campaign_id: str, to: str, pause_at: str, pause_file: Path) -> subprocess.Popen:
    """`tracker shards move` in a process of its own, stopped at ``pause_at`` once it writes ``pause_file``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TRACKER_MOVE_LEASE_SECONDS": LEASE_SECONDS,
           "TRACKER_MOVE_PAUSE_AT": pause_at, "TRACKER_MOVE_PAUSE_FILE": str(pause_file)}
    proc = subprocess.Popen([sys.executable, "-m", "tracker.cli", "--database-url", home, "shards", "move", campaign_id, "--to", to],
                            env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(WAITS * 4):
        if pause_file.exists():
            return proc
        if proc.poll() is not None:
            pytest.fail(f"the mover ended before its pause: {proc.stderr.read()}")
        time.sleep(0.05)
    proc.kill()
    pytest.fail("the mover never reached its pause")


def _renewed(home: str, campaign_id: str, capsys) -> None:
    """Waits (bounded) until the paused mover has renewed its lease at least once."""
    for _ in range(WAITS):
        move = _listed_move(home, campaign_id, capsys)["move"]
        if datetime.fromisoformat(move["expires_at"]) > datetime.fromisoformat(move["began_at"]) + timedelta(seconds=float(LEASE_SECONDS) + 0.1):
            return
        time.sleep(0.05)
    pytest.fail("the mover never renewed its lease")


def _listed_move(home: str, campaign_id: str, capsys) -> dict:
    capsys.readouterr()
    assert cli(["--database-url", home, "shards", "list"]) == 0
    listed = json.loads(capsys.readouterr().out)
    return next(p for p in listed["placement"] if p["campaign_id"] == campaign_id)


class Table:
    """A campaign played through the API, every acknowledged roll kept to be found again."""

    def __init__(self, client, name: str) -> None:
        self.client = client
        self.campaign_id, self.owner = _campaign(client, name)
        self.sessions = [_session(client, self.campaign_id, self.owner) for _ in range(2)]
        self.acknowledged: dict[str, list[dict]] = {sid: [] for sid in self.sessions}

    def roll(self, session_id: str, **headers: str):
        answer = self.client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers={**self.owner, **headers})
        if answer.status_code == 201:
            self.acknowledged[session_id].append(answer.get_json())
        return answer

    def roll_each(self) -> None:
        for session_id in self.sessions:
            assert self.roll(session_id).status_code == 201

    def roll_once_writable(self, session_id: str) -> None:
        """Rolls until a write is taken (the lease has expired), every refusal a 503 with Retry-After meanwhile."""
        for _ in range(WAITS):
            answer = self.roll(session_id)
            if answer.status_code == 201:
                return
            assert answer.status_code == 503 and answer.headers["Retry-After"], answer.get_json()
            time.sleep(0.05)
        pytest.fail("writes never resumed after the mover died")

    def all_on(self, url: str) -> None:
        """Every acknowledged roll once on that shard, nothing else, and every session verifies there."""
        for session_id, answers in self.acknowledged.items():
            stored = _rolls_on(url, session_id)
            assert stored is not None
            by_position = {e["position"]: e for e in stored}
            assert len(by_position) == len(stored) == len(answers), "each acknowledged roll once, and nothing else"
            for answer in answers:
                assert by_position[answer["position"]]["payload"]["roll"]["results"] == answer["results"]
            verified = self.client.get(f"/sessions/{session_id}/verification", headers=self.owner)
            assert verified.status_code == 200 and verified.get_json()["status"] in ("verified", "pending"), verified.get_json()


def _where(sharded, table: Table) -> tuple[Placement, str, str]:
    """The service's placement, the shard the table's campaign is on, and the other one (where a move takes it)."""
    placement: Placement = sharded.extensions["tracker_router"].placement
    source = placement.of(table.campaign_id).shard
    return placement, source, "home" if source == "b" else "b"


@pytest.mark.parametrize("step", ["before-copy", "during-copy", "before-flip"])
def test_a_mover_killed_at_each_step_lets_writes_resume_on_the_old_shard_and_the_next_move_completes(sharded, shard_urls, step, tmp_path, capsys):
    home, other = shard_urls
    urls = {"home": home, "b": other}
    client = sharded.test_client()
    table = Table(client, "Interrupted move")
    placement, source, target = _where(sharded, table)
    table.roll_each()
    keyed = table.roll(table.sessions[0], **{"Idempotency-Key": "before-the-move"})
    assert keyed.status_code == 201

    pause = tmp_path / "pause"
    mover = _mover(home, table.campaign_id, target, step, pause)
    try:
        # The mover is alive and renews its lease: writes are held back, as during any move.
        _renewed(home, table.campaign_id, capsys)
        refused = table.roll(table.sessions[0])
        assert refused.status_code == 503 and refused.headers["Retry-After"]
        assert "being moved" in refused.get_json()["title"]
        listed = _listed_move(home, table.campaign_id, capsys)
        assert listed["moving"] is True and listed["shard"] == source
        assert listed["move"]["lease"] == "live" and listed["move"]["to"] == target
        assert listed["move"]["owner"]["pid"] == mover.pid and listed["move"]["step"] == RECORDED[step]
        assert _holds(urls[target], table.campaign_id) == (step == "before-flip")  # the copy is committed only before the flip
        assert cli(["--database-url", home, "shards", "move", table.campaign_id, "--to", target]) == 1  # a live move is not taken over
        assert f"pid {mover.pid}" in capsys.readouterr().err
    finally:
        mover.send_signal(signal.SIGKILL)
        mover.wait()

    # Its lease runs out: writes go on, on the shard the placement names, the old one.
    for session_id in table.sessions:
        table.roll_once_writable(session_id)
    table.roll_each()
    listed = _listed_move(home, table.campaign_id, capsys)
    assert listed["moving"] is False and listed["shard"] == source and listed["move"]["lease"] == "expired"
    table.all_on(urls[source])
    assert _holds(urls[target], table.campaign_id) == (step == "before-flip")  # a copy not committed left nothing on the target
    if step == "before-flip":  # the copy the dead mover left there is behind now, and nothing reads it
        assert len(_rolls_on(urls[target], table.sessions[0])) < len(table.acknowledged[table.sessions[0]])

    # The move again: it takes the abandoned one over, rolled back, and completes.
    capsys.readouterr()
    assert cli(["--database-url", home, "shards", "move", table.campaign_id, "--to", target]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["from"] == source and report["to"] == target
    abandoned = report["abandoned_move"]
    assert abandoned["owner"]["pid"] == mover.pid and abandoned["to"] == target and abandoned["outcome"].startswith("rolled back")
    after = placement.of(table.campaign_id)
    assert after.shard == target and not after.moving and after.lease is None
    table.roll_each()
    table.all_on(urls[target])
    retry = table.client.post(f"/sessions/{table.sessions[0]}/rolls", json=ROLL, headers={**table.owner, "Idempotency-Key": "before-the-move"})
    assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json()["results"] == keyed.get_json()["results"]
    assert _listed_move(home, table.campaign_id, capsys)["move"] is None


def test_a_mover_held_up_past_its_lease_does_not_flip_and_leaves_the_writes_it_missed_on_the_old_shard(sharded, shard_urls, tmp_path, capsys):
    home, other = shard_urls
    urls = {"home": home, "b": other}
    client = sharded.test_client()
    table = Table(client, "Stalled mover")
    placement, source, target = _where(sharded, table)
    table.roll_each()
    pause = tmp_path / "pause"
    mover = _mover(home, table.campaign_id, target, "before-flip", pause)
    try:
        mover.send_signal(signal.SIGSTOP)  # every thread stops, its lease renewal too
        for session_id in table.sessions:
            table.roll_once_writable(session_id)  # taken on the old shard: the copy on the target lacks it
        mover.send_signal(signal.SIGCONT)
        pause.unlink()  # go on to the flip
        _, err = mover.communicate(timeout=120)
    finally:
        if mover.poll() is None:
            mover.kill()
            mover.wait()
    assert mover.returncode == 1 and "lost its lease" in err
    after = placement.of(table.campaign_id)
    assert after.shard == source and not after.moving and after.lease is None  # it gave up and cleared its move
    table.roll_each()
    table.all_on(urls[source])
    assert cli(["--database-url", home, "shards", "move", table.campaign_id, "--to", target]) == 0
    assert "abandoned_move" not in json.loads(capsys.readouterr().out)  # it left none behind
    table.roll_each()
    table.all_on(urls[target])


def test_a_move_with_an_expired_lease_is_cleared_by_a_move_to_its_own_shard(sharded, shard_urls, capsys):
    home, _ = shard_urls
    client = sharded.test_client()
    table = Table(client, "Cleared")
    placement, source, target = _where(sharded, table)
    placement.begin_move(table.campaign_id, target, NewLease("gone-host", 4242, "dead-mover", 0.5))
    table.roll_once_writable(table.sessions[0])
    capsys.readouterr()
    assert cli(["--database-url", home, "shards", "move", table.campaign_id, "--to", source]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["abandoned_move"]["owner"] == {"host": "gone-host", "pid": 4242, "lease_id": "dead-mover"}
    assert report["abandoned_move"]["outcome"].startswith(f"rolled back: its copy was never flipped, so the campaign stayed on {source}")
    assert placement.of(table.campaign_id).moving is False
    assert cli(["--database-url", home, "shards", "move", table.campaign_id, "--to", source]) == 1
    assert "already" in capsys.readouterr().err  # nothing left to clear


def test_a_campaign_left_moving_by_a_mover_from_before_leases_is_writable_and_movable(sharded, shard_urls, capsys):
    """Today's stuck state: the placement row says moving and no lease names a mover."""
    home, other = shard_urls
    client = sharded.test_client()
    table = Table(client, "Stuck before leases")
    placement, source, target = _where(sharded, table)
    info, schema = conninfo(home)
    with psycopg.connect(info, autocommit=True) as conn:
        conn.execute(SQL("UPDATE {} SET moving = true WHERE campaign_id = %s").format(Identifier(schema, "tracker_placement")), (table.campaign_id,))
    assert table.roll(table.sessions[0]).status_code == 201
    assert _listed_move(home, table.campaign_id, capsys)["move"]["lease"] == "none"
    assert cli(["--database-url", home, "shards", "move", table.campaign_id, "--to", target]) == 0
    assert json.loads(capsys.readouterr().out)["abandoned_move"]["outcome"].startswith("rolled back: a move left by a mover from before leases")
    table.roll_each()
    table.all_on({"home": home, "b": other}[target])


@pytest.mark.parametrize(("name", "value", "says"), [
    ("TRACKER_MOVE_PAUSE_AT", "halfway", "one of before-copy, during-copy, before-flip"),
    ("TRACKER_MOVE_LEASE_SECONDS", "soon", "a number of seconds"),
    ("TRACKER_MOVE_LEASE_SECONDS", "0", "between 0.3 and 3600"),
])
def test_a_move_setting_that_cannot_be_used_is_refused_before_anything_is_held(sharded, shard_urls, monkeypatch, capsys, name, value, says):
    home, _ = shard_urls
    table = Table(sharded.test_client(), "Not moved")
    placement: Placement = sharded.extensions["tracker_router"].placement
    monkeypatch.setenv(name, value)
    monkeypatch.setenv("TRACKER_MOVE_PAUSE_FILE", "/nonexistent/pause")
    capsys.readouterr()
    assert cli(["--database-url", home, "shards", "move", table.campaign_id, "--to", "home" if placement.of(table.campaign_id).shard == "b" else "b"]) == 2
    assert says in capsys.readouterr().err
    assert not placement.of(table.campaign_id).moving
