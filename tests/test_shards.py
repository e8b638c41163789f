"""Campaigns over two PostgreSQL servers: placement, routing, per-shard views and feed, and a move under writes.

The home database is a schema on the suite's PostgreSQL server; the shard "b" a schema on a second
server, a throwaway cluster started for the run (tests/kit/second_cluster.py).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import psycopg
from eventsourcing.persistence import ProgrammingError

import pytest

from api import create_app
from projections import every_shard
from tests.kit.databases import fresh_schema, started_or_skipped
from tests.kit.shards import campaign as _campaign, holds as _on, session as _session
from tests.kit.shards import shard_urls, sharded  # noqa: F401  (fixtures: a home database and the shard "b", a service on them)
from tests.kit.second_cluster import streaming_replica
from tests.kit.forgery_kit import resign
from tracker.sharding import moving
from tracker.portability import stored_answers
from tracker.application.service import Tracker
from tracker.cli import main as cli
from tracker.adapters.config import persistence_env
from tracker.sharding.placement import NewLease, Placement
from tracker.integrity.signing import KeyRing

pytestmark = pytest.mark.postgres

ROLL = {"dice": {"d6": 2}}
LONG_LEASE = NewLease("test-host", 1, "held-by-the-test", 600)  # a move the test holds open, outliving the test


def test_new_campaigns_go_to_the_least_loaded_shard_and_requests_follow_them(sharded, shard_urls):
    home, other = shard_urls
    client = sharded.test_client()
    campaigns = [_campaign(client, f"Group {n}") for n in range(4)]
    placement = sharded.extensions["tracker_router"].placement
    where = {p.campaign_id: p.shard for p in placement.placed()}
    assert sorted(where.values()) == ["b", "b", "home", "home"]
    for campaign_id, owner in campaigns:
        url = other if where[campaign_id] == "b" else home
        assert _on(url, campaign_id) and not _on(home if url == other else other, campaign_id)  # its events on its shard only
        session_id = _session(client, campaign_id, owner)
        rolled = client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner)
        assert rolled.status_code == 201, rolled.get_json()
        assert client.get(f"/sessions/{session_id}", headers=owner).get_json()["version"] == rolled.get_json()["version"]
        feed = client.get("/events", headers=owner).get_json()
        assert feed["shard"] == where[campaign_id]
        assert {e["stream"] for e in feed["events"]} == {campaign_id, session_id}  # its own shard's log, its own campaign
    # The views beside each shard's events: each runner projects its own log.
    for shard in sharded.extensions["tracker_router"].every_shard():
        shard.views.catch_up()
    for campaign_id, owner in campaigns:
        faces = client.get(f"/campaigns/{campaign_id}/dice-statistics", headers=owner).get_json()["faces"]
        assert sum(row["count"] for row in faces) == 2


def test_a_token_reaches_only_its_own_campaign_across_shards(sharded):
    client = sharded.test_client()
    (first, first_owner), (second, second_owner) = _campaign(client, "One"), _campaign(client, "Two")
    where = {p.campaign_id: p.shard for p in sharded.extensions["tracker_router"].placement.placed()}
    assert where[first] != where[second]
    assert client.get(f"/campaigns/{second}", headers=first_owner).status_code == 404  # as a missing campaign answers
    session_id = _session(client, second, second_owner)
    assert client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=first_owner).status_code == 404
    assert client.post(f"/sessions/{session_id}/rolls", json=ROLL).status_code == 401
    assert client.post("/sessions/00000000-0000-4000-8000-000000000000/rolls", json=ROLL).status_code == 401
    assert client.get("/events", headers={"Authorization": "Bearer not-a-token"}).status_code == 401


def test_writes_answer_503_while_a_campaign_moves_and_reads_still_answer(sharded):
    client = sharded.test_client()
    campaign_id, owner = _campaign(client, "Moving")
    session_id = _session(client, campaign_id, owner)
    placement: Placement = sharded.extensions["tracker_router"].placement
    before = client.get(f"/sessions/{session_id}", headers=owner).get_json()["version"]
    placement.begin_move(campaign_id, _other(placement, campaign_id), LONG_LEASE)
    refused = client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner)
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    assert "being moved" in refused.get_json()["title"]
    assert client.get(f"/sessions/{session_id}", headers=owner).get_json()["version"] == before  # nothing appended; reads answer
    assert placement.release(campaign_id, LONG_LEASE)
    assert client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).status_code == 201


def test_a_campaign_moved_under_concurrent_writes_keeps_every_acknowledged_roll(sharded, shard_urls):
    home, _ = shard_urls
    client = sharded.test_client()
    campaign_id, owner = _campaign(client, "Busy group")
    sessions = [_session(client, campaign_id, owner) for _ in range(3)]
    placement: Placement = sharded.extensions["tracker_router"].placement
    source = placement.of(campaign_id).shard
    target = "b" if source == "home" else "home"
    acknowledged: dict[str, list[dict]] = {sid: [] for sid in sessions}
    refused = [0]
    stop = threading.Event()
    moved = threading.Event()
    after_move = {sid: 0 for sid in sessions}

    def writer(session_id: str) -> None:
        own = sharded.test_client()
        while not stop.is_set():
            answer = own.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner)
            if answer.status_code == 201:
                acknowledged[session_id].append(answer.get_json())
                if moved.is_set():
                    after_move[session_id] += 1
            else:
                assert answer.status_code == 503 and answer.headers["Retry-After"], answer.get_json()
                refused[0] += 1
                time.sleep(0.01)

    threads = [threading.Thread(target=writer, args=(sid,)) for sid in sessions]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 30
        while min(len(a) for a in acknowledged.values()) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        report = moving.move(placement, campaign_id, target)
        moved.set()
        while min(after_move.values()) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    assert report["from"] == source and report["to"] == target
    assert placement.of(campaign_id).shard == target and not placement.of(campaign_id).moving and placement.of(campaign_id).lease is None
    assert min(after_move.values()) >= 5, "writes resumed on the new shard"
    new_home = Tracker(env=persistence_env(placement.shards()[target]))
    try:
        for session_id, answers in acknowledged.items():
            events = [e for e in new_home.session_events(session_id, limit=10_000)["events"] if e["type"] == "DiceRolled"]
            stored = {e["position"]: e for e in events}
            assert len(stored) == len(events) == len(answers), "each acknowledged roll once, and nothing else"
            for answer in answers:
                assert stored[answer["position"]]["payload"]["roll"]["results"] == answer["results"]
    finally:
        new_home.close()


def test_shards_list_names_each_shard_and_its_campaigns(sharded, shard_urls, capsys):
    home, _ = shard_urls
    client = sharded.test_client()
    campaign_id, _ = _campaign(client, "Listed")
    capsys.readouterr()
    assert cli(["--database-url", home, "shards", "list"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in listed["shards"]] == ["home", "b"]
    assert sum(s["campaigns"] for s in listed["shards"]) == 1
    assert listed["placement"][0]["campaign_id"] == campaign_id
    assert cli(["--database-url", home, "shards", "move", campaign_id, "--to", "nowhere"]) == 1
    capsys.readouterr()
    assert cli(["--database-url", home, "rebuild"]) == 0  # each shard's views from its own log
    rebuilt = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["shard"] for r in rebuilt] == ["home", "b"]
    assert sorted(r["position"] > 0 for r in rebuilt) == [False, True]  # the one campaign's events are on one shard


def test_turning_shards_on_places_the_campaigns_already_there(postgres_base_url, second_postgres_url):
    with fresh_schema(postgres_base_url) as home, fresh_schema(second_postgres_url) as other:
        flat = create_app({"TESTING": True, "DATABASE_URL": home, "PROJECTIONS_IN_PROCESS": False})
        campaign_id, owner = _campaign(flat.test_client(), "From before")
        flat.extensions["tracker"].close()
        flat.extensions["tracker_views"].store.datastore.close()
        assert cli(["--database-url", home, "shards", "add", "b", other]) == 0
        placement = Placement(home)
        try:
            assert placement.of(campaign_id).shard == "home"
            assert moving.move(placement, campaign_id, "b")["to"] == "b"
        finally:
            placement.close()
        sharded = create_app({"TESTING": True, "DATABASE_URL": home, "PROJECTIONS_IN_PROCESS": False})
        try:
            client = sharded.test_client()
            session_id = _session(client, campaign_id, owner)  # the owner's token still works, on the new shard
            assert _on(other, campaign_id)
            assert client.get("/events", headers=owner).get_json()["shard"] == "b"
            # A position counted on the old shard is refused, not read against the new log.
            stale = client.get("/events", query_string={"after": 3, "shard": "home"}, headers=owner)
            assert stale.status_code == 409 and "moved" in stale.get_json()["title"]
            assert client.get("/events", query_string={"after": 0, "shard": "b"}, headers=owner).status_code == 200
            assert client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).status_code == 201
        finally:
            sharded.extensions["tracker_router"].close()


@pytest.fixture(scope="module")
def views_replica(second_postgres_url: str) -> Iterator[str]:
    """A streaming replica of the second server (a hot standby started for these tests)."""
    yield from started_or_skipped(streaming_replica(second_postgres_url), "a streaming replica", "REPLICA TEST")


def _replica_position(shard) -> int:
    """The replica's views position, or -1 while it has not yet replayed the views' tables themselves."""
    try:
        return shard.replica.position
    except ProgrammingError:
        return -1


def test_views_read_from_a_replica_wait_for_min_position_or_fall_back_to_the_primary(postgres_base_url, second_postgres_url, views_replica):
    with fresh_schema(postgres_base_url) as home, fresh_schema(second_postgres_url) as other:
        Tracker(env=persistence_env(home)).close()
        assert cli(["--database-url", home, "shards", "add", "b", other]) == 0
        replica_url = other.replace(urlsplit(other).netloc, urlsplit(views_replica).netloc)
        assert cli(["--database-url", home, "shards", "replica", "b", replica_url]) == 0
        app = create_app({"TESTING": True, "DATABASE_URL": home, "PROJECTIONS_IN_PROCESS": False, "REPLICA_WAIT_SECONDS": 0.2})
        try:
            client = app.test_client()
            campaign_id, owner = _campaign(client, "Read from the replica")
            router = app.extensions["tracker_router"]
            assert router.placement.of(campaign_id).shard == "b"
            shard = router.shard("b")
            session_id = _session(client, campaign_id, owner)
            assert client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).status_code == 201
            shard.views.catch_up()
            first = shard.views.position
            deadline = time.monotonic() + 20
            while _replica_position(shard) < first and time.monotonic() < deadline:  # streaming: a moment behind
                time.sleep(0.05)

            def faces(**query):
                answer = client.get(f"/campaigns/{campaign_id}/dice-statistics", query_string=query, headers=owner)
                assert answer.status_code == 200, answer.get_json()
                return answer.headers["X-Views-From"], sum(row["count"] for row in answer.get_json()["faces"]), answer.get_json()["projected_to"]

            assert faces(min_position=first) == ("replica", 2, first)
            with psycopg.connect(views_replica, autocommit=True) as standby:
                standby.execute("SELECT pg_wal_replay_pause()")
                try:
                    assert client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).status_code == 201
                    shard.views.catch_up()
                    second = shard.views.position
                    assert faces() == ("replica", 2, first)  # no min_position: the replica as it is, behind
                    assert faces(min_position=second) == ("primary", 4, second)  # waited, then read the primary
                finally:
                    standby.execute("SELECT pg_wal_replay_resume()")
            while _replica_position(shard) < second and time.monotonic() < deadline:
                time.sleep(0.05)
            assert faces(min_position=second) == ("replica", 4, second)
        finally:
            router.close()


def test_the_operator_commands_find_a_campaign_on_its_shard(sharded, shard_urls, capsys, tmp_path):
    home, _ = shard_urls
    client = sharded.test_client()
    campaigns = [_campaign(client, f"Group {n}") for n in range(2)]
    placement: Placement = sharded.extensions["tracker_router"].placement
    on_b = next(cid for cid, _ in campaigns if placement.of(cid).shard == "b")
    owner = dict(campaigns)[on_b]
    session_id = _session(client, on_b, owner)
    capsys.readouterr()
    assert cli(["--database-url", home, "token", "mint", on_b, "--role", "viewer"]) == 0
    minted = json.loads(capsys.readouterr().out)
    assert client.get(f"/campaigns/{on_b}", headers={"Authorization": f"Bearer {minted['token']}"}).status_code == 200
    assert cli(["--database-url", home, "verify", session_id]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "pending"
    backup = tmp_path / "campaign.jsonl"
    assert cli(["--database-url", home, "export", on_b, "--backup", "-o", str(backup)]) == 0
    placement.begin_move(on_b, "home", LONG_LEASE)
    assert cli(["--database-url", home, "token", "mint", on_b, "--role", "viewer"]) == 2  # a write waits out the move
    assert "being moved" in capsys.readouterr().err
    placement.release(on_b, LONG_LEASE)


def _other(placement: Placement, campaign_id: str) -> str:
    return "b" if placement.of(campaign_id).shard == "home" else "home"


def _without_position(body: dict) -> dict:
    return {key: value for key, value in body.items() if key != "log_position"}  # a position counts on its own shard's log


def test_a_retry_after_a_move_answers_the_stored_answer_and_rolls_once(sharded):
    client = sharded.test_client()
    campaign_id, owner = _campaign(client, "Retrying group")
    session_id = _session(client, campaign_id, owner)
    placement: Placement = sharded.extensions["tracker_router"].placement
    keyed = {**owner, "Idempotency-Key": "roll-before-the-move"}
    first = client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=keyed)
    assert first.status_code == 201, first.get_json()
    started_keyed = client.post(f"/campaigns/{campaign_id}/sessions", json={"quest": "q1-meeting"}, headers={**owner, "Idempotency-Key": "second-session"})
    assert started_keyed.status_code == 201
    moved = moving.move(placement, campaign_id, _other(placement, campaign_id))
    assert placement.of(campaign_id).shard == moved["to"]
    retry = client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=keyed)
    assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
    assert _without_position(retry.get_json()) == _without_position(first.get_json())
    assert client.get(f"/sessions/{session_id}", headers=owner).get_json()["version"] == first.get_json()["version"]  # one roll
    again = client.post(f"/campaigns/{campaign_id}/sessions", json={"quest": "q1-meeting"}, headers={**owner, "Idempotency-Key": "second-session"})
    assert again.headers["Idempotent-Replayed"] == "true" and again.get_json()["id"] == started_keyed.get_json()["id"]
    assert len(client.get(f"/campaigns/{campaign_id}", headers=owner).get_json()["sessions"]) == 2
    changed = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 3}}, headers=keyed)
    assert changed.status_code == 422 and "Idempotency-Key" in changed.get_json()["title"]  # the key stays bound to its request
    fresh = client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers={**owner, "Idempotency-Key": "after-the-move"})
    assert fresh.status_code == 201 and fresh.get_json()["version"] == first.get_json()["version"] + 1


def test_a_backup_cannot_plant_an_answer_for_another_campaigns_session(sharded, shard_urls):
    home, other = shard_urls
    client = sharded.test_client()
    (mine, my_owner), (theirs, their_owner) = _campaign(client, "Mine"), _campaign(client, "Theirs")
    my_session, their_session = _session(client, mine, my_owner), _session(client, theirs, their_owner)
    assert client.post(f"/sessions/{my_session}/rolls", json=ROLL, headers={**my_owner, "Idempotency-Key": "k"}).status_code == 201
    placement: Placement = sharded.extensions["tracker_router"].placement
    url = home if placement.of(mine).shard == "home" else other
    app = Tracker(env=persistence_env(url))
    try:
        lines = app.export_campaign(mine, backup=True)
    finally:
        app.close()
    header = json.loads(lines[0])
    [answer] = header["header"]["answers"]
    answer["state"]["scope"] = answer["state"]["scope"].replace(my_session, their_session)
    # signed again with the deployment's own key, as its operator could: the answers' own check still refuses it
    signed = resign([header, *(json.loads(line) for line in lines[1:])], KeyRing())
    forged = [json.dumps(line) + "\n" for line in signed]
    target = Tracker(env=persistence_env(other if url == home else home))
    try:
        with pytest.raises(Exception) as refused:
            target.import_campaign(forged, continuing=True)
        assert "answers are damaged" in refused.value.title
    finally:
        target.close()


def test_a_campaign_moves_back_to_a_shard_holding_its_old_copy_and_keeps_every_event(sharded, shard_urls):
    client = sharded.test_client()
    campaign_id, owner = _campaign(client, "Travelling group")
    session_id = _session(client, campaign_id, owner)
    placement: Placement = sharded.extensions["tracker_router"].placement
    first_home = placement.of(campaign_id).shard
    elsewhere = _other(placement, campaign_id)
    viewer = client.post(f"/campaigns/{campaign_id}/tokens", json={"role": "viewer"}, headers=owner).get_json()
    rolls = [client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).get_json()]
    moving.move(placement, campaign_id, elsewhere)
    rolls.append(client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).get_json())
    assert client.delete(f"/campaigns/{campaign_id}/tokens/{viewer['id']}", headers=owner).status_code == 200  # revoked away from its first shard
    player = client.post(f"/campaigns/{campaign_id}/tokens", json={"role": "player"}, headers=owner).get_json()
    back = moving.move(placement, campaign_id, first_home)
    assert back["to"] == first_home and placement.of(campaign_id).shard == first_home
    assert back["events"] >= 1  # only what came after its old copy was written
    rolls.append(client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).get_json())
    assert client.get(f"/campaigns/{campaign_id}", headers={"Authorization": f"Bearer {viewer['token']}"}).status_code == 401
    assert client.get(f"/campaigns/{campaign_id}", headers={"Authorization": f"Bearer {player['token']}"}).status_code == 200
    log = client.get(f"/sessions/{session_id}/events", headers=owner).get_json()
    positions = [e["position"] for e in log["events"]]
    assert positions == list(range(1, len(positions) + 1))  # every event once, none lost, none twice
    assert [r["version"] for r in rolls] == [rolls[0]["version"] + n for n in range(3)]
    assert positions[-1] == rolls[-1]["version"]
    verified = client.get(f"/sessions/{session_id}/verification", headers=owner)
    assert verified.status_code == 200 and verified.get_json()["status"] in ("verified", "pending")
    moving.move(placement, campaign_id, elsewhere)  # and on again: that shard's copy continues too
    assert client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).get_json()["version"] == rolls[-1]["version"] + 1


def test_an_import_of_a_campaign_placed_on_another_shard_is_refused(sharded, shard_urls):
    home, other = shard_urls
    client = sharded.test_client()
    campaign_id, owner = _campaign(client, "Placed once")
    placement: Placement = sharded.extensions["tracker_router"].placement
    placed = placement.of(campaign_id).shard
    assert placement.least_loaded() != placed  # the import goes to the other shard
    exported = client.get(f"/campaigns/{campaign_id}/export", headers=owner)
    assert exported.status_code == 200
    refused = client.post("/campaigns/import", data=exported.data, content_type="application/x-ndjson")
    assert refused.status_code == 409 and refused.content_type == "application/problem+json"
    assert f"already on this service (on shard {placed})" in refused.get_json()["title"]
    assert "tracker shards move" in refused.get_json()["detail"]
    assert placement.of(campaign_id).shard == placed
    assert not _on(other if placed == "home" else home, campaign_id)  # no copy nothing routes to


def test_the_command_line_import_refuses_a_campaign_placed_on_another_shard(sharded, shard_urls, tmp_path, capsys):
    home, other = shard_urls
    client = sharded.test_client()
    campaign_id, owner = _campaign(client, "Placed once")
    placement: Placement = sharded.extensions["tracker_router"].placement
    placed = placement.of(campaign_id).shard
    export = tmp_path / "campaign.jsonl"
    export.write_bytes(client.get(f"/campaigns/{campaign_id}/export", headers=owner).data)
    capsys.readouterr()
    assert cli(["--database-url", home, "import", str(export)]) == 1
    assert "already on this service" in capsys.readouterr().err
    assert not _on(other if placed == "home" else home, campaign_id)
    imported = client.post("/campaigns/import", data=export.read_bytes(), content_type="application/x-ndjson")
    assert imported.status_code == 409  # and through the API, the same


def test_health_reports_every_shards_log_and_views(sharded):
    client = sharded.test_client()
    campaign_id, _ = _campaign(client, "Healthy")
    placement: Placement = sharded.extensions["tracker_router"].placement
    placed = placement.of(campaign_id).shard
    health = client.get("/health")
    assert health.status_code == 200, health.get_json()
    shards = {s["name"]: s for s in health.get_json()["shards"]}
    assert set(shards) == {"home", "b"}
    assert shards[placed]["notifications"] > 0 and shards[_other(placement, campaign_id)]["notifications"] == 0
    assert all(s["views"]["status"] == "current" and s["projected_to"] == 0 for s in shards.values())
    for shard in sharded.extensions["tracker_router"].every_shard():
        shard.views.catch_up()
    shards = {s["name"]: s for s in client.get("/health").get_json()["shards"]}
    assert shards[placed]["projected_to"] == shards[placed]["notifications"]
    placement.add_shard("down", "postgresql://tracker@127.0.0.1:1/nowhere")
    down = client.get("/health")
    assert down.status_code == 503 and down.get_json()["status"] == "shard-unreachable"
    assert next(s for s in down.get_json()["shards"] if s["name"] == "down")["error"]


def test_a_shard_added_while_the_server_runs_gets_its_projection_runner(shard_urls, second_postgres_url, monkeypatch):
    home, _ = shard_urls
    monkeypatch.setattr(every_shard, "SHARD_WATCH_SECONDS", 0.05)
    flask_app = create_app({"TESTING": True, "DATABASE_URL": home, "PROJECTIONS_IN_PROCESS": True})
    every = flask_app.extensions["tracker_projection_shards"]
    client = flask_app.test_client()
    try:
        assert set(every.threads) == {"home", "b"}
        _campaign(client, "On b")  # b first by name among the empty shards; the next new campaign goes to c
        with fresh_schema(second_postgres_url) as third:
            assert cli(["--database-url", home, "shards", "add", "c", third]) == 0
            for _ in range(400):  # bounded wait for the watcher (a count, not a clock)
                if "c" in every.threads:
                    break
                time.sleep(0.05)
            assert "c" in every.threads and every.threads["c"].is_alive()
            campaign_id, owner = _campaign(client, "On the new shard")
            assert flask_app.extensions["tracker_router"].placement.of(campaign_id).shard == "c"
            session_id = _session(client, campaign_id, owner)
            rolled = client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner).get_json()
            stats = client.get(f"/campaigns/{campaign_id}/dice-statistics?min_position={rolled['log_position']}", headers=owner)
            assert stats.status_code == 200, stats.get_json()
            assert sum(row["count"] for row in stats.get_json()["faces"]) == 2  # projected by c's own runner
            every.stop.set()
            every.join()  # before its schema goes
    finally:
        every.stop.set()
        flask_app.extensions["tracker_router"].close()


def test_a_retried_campaign_creation_goes_back_to_the_shard_that_answered_it(sharded):
    client = sharded.test_client()
    body = {"ruleset": "journey", "name": "Created once"}
    first = client.post("/campaigns", json=body, headers={"Idempotency-Key": "create-once"})
    assert first.status_code == 201
    placement: Placement = sharded.extensions["tracker_router"].placement
    assert placement.least_loaded() != placement.of(first.get_json()["id"]).shard  # a fresh creation would go elsewhere
    retry = client.post("/campaigns", json=body, headers={"Idempotency-Key": "create-once"})
    assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json()["id"] == first.get_json()["id"]
    assert len(placement.placed()) == 1  # one campaign, not two


def test_a_moves_backup_holds_the_answers_gathered_early_and_every_one_recorded_after(sharded, shard_urls):
    home, other = shard_urls
    client = sharded.test_client()
    campaign_id, owner = _campaign(client, "Answered group")
    session_id = _session(client, campaign_id, owner)
    assert client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers={**owner, "Idempotency-Key": "early"}).status_code == 201
    placement: Placement = sharded.extensions["tracker_router"].placement
    app = Tracker(env=persistence_env(home if placement.of(campaign_id).shard == "home" else other))
    try:
        gathered = stored_answers.gather_before_move(app, campaign_id)
        assert [r["state"]["key"] for r in gathered.records] == ["early"]
        assert client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers={**owner, "Idempotency-Key": "late"}).status_code == 201
        started = client.post(f"/campaigns/{campaign_id}/sessions", json={"quest": "q1-meeting"}, headers={**owner, "Idempotency-Key": "late-session"})
        later_session = started.get_json()["id"]
        assert client.post(f"/sessions/{later_session}/rolls", json=ROLL, headers={**owner, "Idempotency-Key": "late-roll"}).status_code == 201
        other_campaign, other_owner = _campaign(client, "Someone else")
        other_session = _session(client, other_campaign, other_owner)
        client.post(f"/sessions/{other_session}/rolls", json=ROLL, headers={**other_owner, "Idempotency-Key": "not-theirs"})
        header = json.loads(app.export_campaign(campaign_id, backup=True, answers=gathered)[0])["header"]
    finally:
        app.close()
    assert sorted(r["state"]["key"] for r in header["answers"]) == ["early", "late", "late-roll", "late-session"]
