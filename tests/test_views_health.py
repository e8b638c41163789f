"""A projection batch that keeps failing is visible in /health, on SQLite and on PostgreSQL.

The batches fail for real: a view table an operator renamed away, and on PostgreSQL an event
carrying a NUL (which PostgreSQL text refuses) saved past every command (as an older server saved one)."""

from __future__ import annotations

from uuid import UUID

import pytest

from api import create_app
from tracker.domain.events import make_meta


def _app(database_url: str, stall_seconds: float):
    return create_app({"TESTING": True, "DATABASE_URL": database_url, "PROJECTIONS_IN_PROCESS": False, "VIEWS_STALL_SECONDS": stall_seconds})


def _close(flask_app) -> None:
    flask_app.extensions["tracker"].close()
    flask_app.extensions["tracker_views"].store.datastore.close()


def _rename(store, table: str, to: str) -> None:
    with store.datastore.transaction(commit=True) as cursor:
        cursor.execute(f"ALTER TABLE {store._name(table)} RENAME TO {to}")


def _roll(flask_app) -> str:
    client = flask_app.test_client()
    created = client.post("/campaigns", json={"ruleset": "journey", "name": "Stall"}).json
    auth = {"Authorization": f"Bearer {created['owner_token']}"}
    sid = client.post(f"/campaigns/{created['id']}/sessions", json={"quest": "q1-meeting"}, headers=auth).json["id"]
    assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}}, headers=auth).status_code == 201
    return sid


@pytest.mark.parametrize("stall_seconds, status", [(3600.0, 200), (0.0, 503)], ids=["under-threshold", "past-threshold"])
def test_a_batch_that_keeps_failing_shows_in_health_and_past_the_threshold_it_is_a_503(database_url, stall_seconds, status):
    flask_app = _app(database_url, stall_seconds)
    try:
        runner = flask_app.extensions["tracker_views"]
        client = flask_app.test_client()
        assert client.get("/health").json["views"] == {"status": "current"}
        _roll(flask_app)
        _rename(runner.store, "view_timeline", "view_timeline_elsewhere")  # an operator's mistake the runner cannot write past
        assert runner.step() > 0 and runner.step() > 0  # two failed tries, each followed by a longer wait
        health = client.get("/health")
        assert health.status_code == status
        views = health.json["views"]
        assert views["status"] == "stalled" and views["position"] == 0 and views["failures"] == 2
        assert "view_timeline" in views["error"]
        assert health.json["notifications"] > health.json["projected_to"] == 0
        if status == 503:
            assert health.json["status"] == "views-stalled" and int(health.headers["Retry-After"]) >= 1
        else:  # under the threshold still a 200, but never "ok" beside stalled views (issue 29)
            assert health.json["status"] == "views-failing"
        with runner.store.datastore.transaction(commit=True) as cursor:  # the operator puts it back
            cursor.execute(f"ALTER TABLE {runner.store._name('view_timeline_elsewhere')} RENAME TO view_timeline")
        runner.step()
        healed = client.get("/health")
        assert healed.status_code == 200 and healed.json["views"] == {"status": "current"} and healed.json["status"] == "ok"
        assert healed.json["projected_to"] == healed.json["notifications"]
    finally:
        _close(flask_app)


def test_a_failing_batch_is_retried_ever_more_slowly(sqlite_url):
    flask_app = _app(sqlite_url, 60.0)
    try:
        runner = flask_app.extensions["tracker_views"]
        _roll(flask_app)
        _rename(runner.store, "view_sessions", "view_sessions_elsewhere")
        waits = [runner.step(interval=0.2) for _ in range(12)]
        assert waits == sorted(waits) and waits[0] == 1.0 and waits[-1] == 30.0  # 1, 2, 4, ... then capped
    finally:
        _close(flask_app)


@pytest.mark.postgres
def test_a_nul_saved_past_the_edge_stalls_the_postgres_views_and_health_says_where(postgres_url):
    flask_app = _app(postgres_url, 0.0)
    try:
        runner = flask_app.extensions["tracker_views"]
        sid = _roll(flask_app)
        runner.step()
        before = runner.position
        tracker = flask_app.extensions["tracker"]
        # The roll command refuses it now (tests/test_bad_input_everywhere.py); an older server's event, saved
        # past every command, still reaches the views.
        session = tracker.repository.get(UUID(sid))
        roll = {"dice": {}, "results": {"d6": [3]}, "source": "reported", "purpose": "initiative\x00"}
        session.record_roll(roll=roll, meta=make_meta(None, None, session.ruleset["version"], session.ruleset["id"]))
        tracker.save(session)
        runner.step()
        health = flask_app.test_client().get("/health")
        assert health.status_code == 503
        assert health.json["views"]["position"] == before and "NUL" in health.json["views"]["error"]
    finally:
        _close(flask_app)
