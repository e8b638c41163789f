"""The home database lost under writes (issue 36): the home database, which holds the placement of every campaign and
the move fences, is a pg_auto_failover formation (tests/kit/formation.py); shard "b" is a second server. Its primary
is killed while writers roll on campaigns on both shards and while a move of one campaign is paused before its flip.

What must hold: the placement and the fences survive (every campaign is where the placement said, the paused move
either completes or is rolled back, never half-done), writes resume on both shards, every acknowledged roll is stored
exactly once on the shard its campaign is placed on.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from api import create_app
from tests.kit.databases import fresh_schema
from tests.kit.formation import Formation, ha  # noqa: F401 - the formation fixture
from tracker.adapters.config import persistence_env
from tracker.application.service import Tracker
from tracker.cli import main as cli
from tracker.settings import MoveSettings
from tracker.sharding import moving
from tracker.sharding.placement import Placement

pytestmark = [pytest.mark.postgres]

ROLL = {"dice": {"d6": 2}}


@pytest.fixture
def sharded_on_formation(ha: Formation, second_postgres_url: str) -> Iterator[tuple[object, str]]:
    """The service with its home database on the formation and shard "b" on the second server."""
    home = ha.url()
    with fresh_schema(second_postgres_url) as other:
        Tracker(env=persistence_env(home)).close()
        assert cli(["--database-url", home, "shards", "add", "b", other]) == 0
        flask_app = create_app({"TESTING": True, "DATABASE_URL": home, "PROJECTIONS_IN_PROCESS": False})
        try:
            yield flask_app, home
        finally:
            flask_app.extensions["tracker_router"].close()


def test_the_home_database_fails_over_under_writes_and_a_paused_move_completes_or_rolls_back(
    ha: Formation, sharded_on_formation, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flask_app, home = sharded_on_formation
    client = flask_app.test_client()
    placement: Placement = flask_app.extensions["tracker_router"].placement
    sessions: list[tuple[str, str, dict[str, str]]] = []  # (campaign, session, owner)
    for n in range(4):
        made = client.post("/campaigns", json={"ruleset": "journey", "name": f"Group {n}"}).get_json()
        owner = {"Authorization": f"Bearer {made['owner_token']}"}
        started = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting"}, headers=owner)
        assert started.status_code == 201, started.get_json()
        sessions.append((made["id"], started.get_json()["id"], owner))
    assert {placement.of(cid).shard for cid, _, _ in sessions} == {"home", "b"}, "campaigns on both shards"

    acknowledged: dict[str, list[dict]] = {sid: [] for _, sid, _ in sessions}
    unexpected: list[tuple[int, object]] = []
    stop = threading.Event()

    given_up: list[str] = []

    def writer(session_id: str, owner: dict[str, str]) -> None:
        own = flask_app.test_client()
        while not stop.is_set():
            key = str(uuid.uuid4())
            # A key once sent is retried until answered 201, even after stop: a roll refused with 503 may have been
            # stored (its commit reached the server, its answer did not), and only the retry tells the client so.
            give_up_at = None
            while True:
                answer = own.post(f"/sessions/{session_id}/rolls", json=ROLL, headers={**owner, "Idempotency-Key": key})
                if answer.status_code == 201:
                    acknowledged[session_id].append(answer.get_json())
                    break
                if not (answer.status_code == 503 and answer.headers.get("Retry-After")):
                    unexpected.append((answer.status_code, answer.get_json()))
                if stop.is_set():
                    give_up_at = give_up_at or time.monotonic() + 60
                    if time.monotonic() > give_up_at:
                        given_up.append(key)
                        break
                time.sleep(0.1)

    def count() -> int:
        return sum(len(a) for a in acknowledged.values())

    def wait_for_more(more: int, seconds: float) -> None:
        target, deadline = count() + more, time.monotonic() + seconds
        while count() < target:
            assert time.monotonic() < deadline, f"writes did not resume: {count()} acknowledged, {unexpected[-3:]}"
            time.sleep(0.05)

    threads = [threading.Thread(target=writer, args=(sid, owner), daemon=True) for _, sid, owner in sessions]
    for thread in threads:
        thread.start()
    # A move of the first campaign, paused before its flip with its lease held (the fence up: its writes answer 503).
    moved_id = sessions[0][0]
    source = placement.of(moved_id).shard
    target = "b" if source == "home" else "home"
    pause = tmp_path / "pause"
    outcome: dict[str, object] = {}

    def mover() -> None:
        try:
            outcome["report"] = moving.move(placement, moved_id, target, MoveSettings(lease_seconds=60, pause_at="before-flip", pause_file=str(pause)))
        except Exception as error:  # noqa: BLE001 - the move may give up; what matters is where the campaign is after
            outcome["error"] = error

    move_thread = threading.Thread(target=mover, daemon=True)
    try:
        wait_for_more(20, 60)
        move_thread.start()
        deadline = time.monotonic() + 60
        while not pause.exists():
            assert time.monotonic() < deadline and move_thread.is_alive(), outcome
            time.sleep(0.05)
        assert placement.of(moved_id).moving, "the fence is up while the move is paused"

        moved_before = len(acknowledged[sessions[0][1]])
        killed = ha.primary()
        promoted = next(name for name in ha.nodes if name != killed)
        ha.kill(killed)
        ha.wait(f"{promoted} promoted", lambda: ha.primary() == promoted, 60)
        pause.unlink()  # the mover goes on, against the promoted home database
        move_thread.join(timeout=90)
        assert not move_thread.is_alive(), "the move finished or gave up"
        wait_for_more(40, 60)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=90)

    assert not unexpected, unexpected[:3]
    assert not given_up and not any(t.is_alive() for t in threads), "a writer's last roll was never answered 201 on a retry of its key"
    # `tracker shards list` names the promoted node as the one the home database's connections reach.
    capsys.readouterr()
    assert cli(["--database-url", home, "shards", "list"]) == 0
    listed = {shard["name"]: shard for shard in json.loads(capsys.readouterr().out)["shards"]}
    assert listed["home"]["formation"]["answering"] == f"127.0.0.1:{ha.nodes[promoted].port}" and listed["home"]["formation"]["role"] == "primary"
    # GET /ready says the same of the home database, and reports shard "b" (one server: primary, no standbys)
    ready = client.get("/ready").get_json()
    assert ready["formation"]["answering"] == listed["home"]["formation"]["answering"] and ready["formation"]["role"] == "primary"
    assert [s["name"] for s in ready["shards"]] == ["b"] and ready["shards"][0]["formation"]["role"] == "primary"
    placed = placement.of(moved_id)
    assert not placed.moving and placed.lease is None, "no fence left up: the move completed or was rolled back"
    if "report" in outcome:
        assert placed.shard == target
    else:
        assert placed.shard == source, f"a move that gave up ({outcome['error']!r}) leaves the campaign where it was"
    # Writes resumed on the moved campaign too, and every acknowledged roll is stored once where its campaign is.
    for campaign_id, session_id, _ in sessions:
        where = placement.shards()[placement.of(campaign_id).shard]
        stored = Tracker(env=persistence_env(where if where != home else ha.node_url(ha.primary())))
        try:
            rolls = [e for e in stored.session_events(session_id, limit=100_000)["events"] if e["type"] == "DiceRolled"]
            answers = acknowledged[session_id]
            assert len({e["position"] for e in rolls}) == len(rolls) == len(answers), f"{session_id}: {len(answers)} acknowledged, {len(rolls)} stored"
            by_position = {e["position"]: e for e in rolls}
            for answer in answers:
                assert by_position[answer["position"]]["payload"]["roll"]["results"] == answer["results"]
        finally:
            stored.close()
    assert len(acknowledged[sessions[0][1]]) > moved_before, "the campaign whose move met the failover takes writes again"
