"""Campaigns over two PostgreSQL servers: placement, routing, per-shard views and feed, and a move under writes.

The home database is a schema on the suite's PostgreSQL server; the shard "b" a schema on a second
server, a throwaway cluster started for the run (tests/second_cluster.py).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import psycopg

import pytest

from api import create_app
from tests.conftest import fresh_schema
from tracker import moving
from tracker.application import Tracker
from tracker.cli import main as cli
from tracker.config import persistence_env
from tracker.errors import NotFound
from tracker.placement import Placement

pytestmark = pytest.mark.postgres

ROLL = {"dice": {"d6": 2}}


@pytest.fixture
def shard_urls(postgres_base_url: str, second_postgres_url: str) -> Iterator[tuple[str, str]]:
    with fresh_schema(postgres_base_url) as home, fresh_schema(second_postgres_url) as other:
        Tracker(env=persistence_env(home)).close()  # the home database as it was before shards
        assert cli(["--database-url", home, "shards", "add", "b", other]) == 0
        yield home, other


@pytest.fixture
def sharded(shard_urls: tuple[str, str]):
    home, _ = shard_urls
    flask_app = create_app({"TESTING": True, "DATABASE_URL": home, "PROJECTIONS_IN_PROCESS": False})
    yield flask_app
    flask_app.extensions["tracker_router"].close()


def _campaign(client, name: str) -> tuple[str, dict[str, str]]:
    created = client.post("/campaigns", json={"ruleset": "journey", "name": name})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    return body["id"], {"Authorization": f"Bearer {body['owner_token']}"}


def _session(client, campaign_id: str, owner: dict[str, str]) -> str:
    started = client.post(f"/campaigns/{campaign_id}/sessions", json={"quest": "q1-meeting"}, headers=owner)
    assert started.status_code == 201, started.get_json()
    return started.get_json()["id"]


def _on(url: str, campaign_id: str) -> bool:
    app = Tracker(env=persistence_env(url))
    try:
        app.get_campaign(campaign_id)
        return True
    except NotFound:
        return False
    finally:
        app.close()


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
    placement.begin_move(campaign_id)
    refused = client.post(f"/sessions/{session_id}/rolls", json=ROLL, headers=owner)
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    assert "being moved" in refused.get_json()["title"]
    assert client.get(f"/sessions/{session_id}", headers=owner).get_json()["version"] == before  # nothing appended; reads answer
    placement.end_move(campaign_id, placement.of(campaign_id).shard)
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
    assert placement.of(campaign_id).shard == target and not placement.of(campaign_id).moving
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
    from tests.conftest import REQUIRE_POSTGRES
    from tests.second_cluster import NoCluster, streaming_replica

    replica = streaming_replica(second_postgres_url)
    try:
        url = replica.__enter__()
    except NoCluster as error:
        if REQUIRE_POSTGRES:
            pytest.fail(f"TRACKER_REQUIRE_POSTGRES=1 but a streaming replica could not start: {error}", pytrace=False)
        pytest.skip(f"REPLICA TEST SKIPPED: a streaming replica could not start: {error}")
    try:
        yield url
    finally:
        replica.__exit__(None, None, None)


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
            while shard.replica.position < first and time.monotonic() < deadline:  # streaming: a moment behind
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
            while shard.replica.position < second and time.monotonic() < deadline:
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
    placement.begin_move(on_b)
    assert cli(["--database-url", home, "token", "mint", on_b, "--role", "viewer"]) == 2  # a write waits out the move
    assert "being moved" in capsys.readouterr().err
    placement.end_move(on_b, "b")
