"""GET /ready (issue 34): 503 until the database answers, the worker's warm-up is done and the views are within
TRACKER_READY_MAX_LAG events of the log; 200 after. On SQLite and PostgreSQL."""

from __future__ import annotations

from api import create_app, warming
from api.routes import ready


def _app(database_url: str, max_lag: int):
    return create_app({"TESTING": True, "DATABASE_URL": database_url, "PROJECTIONS_IN_PROCESS": False, "READY_MAX_LAG": max_lag})


def test_not_ready_before_the_warm_up_and_ready_after(database_url):
    app = _app(database_url, 100)
    try:
        ready.expect_warm_up(app)  # as create_app does for a server's worker, before api/warming.py runs
        client = app.test_client()
        before = client.get("/ready")
        assert before.status_code == 503 and int(before.headers["Retry-After"]) >= 1
        assert before.json["status"] == "warming-up" and before.json["warmed_up"] is False and before.json["database"] is True
        assert client.get("/health").status_code == 200  # alive all the while: /health is liveness
        warming.warm(app)
        after = client.get("/ready")
        assert after.status_code == 200 and after.json["status"] == "ready" and after.json["warmed_up"] is True
        assert "reason" not in after.json
    finally:
        app.extensions["tracker_service"].close()


def test_not_ready_while_the_views_are_further_behind_than_the_setting(database_url):
    app = _app(database_url, 0)
    try:
        client = app.test_client()
        assert client.get("/ready").status_code == 200  # nothing in the log yet
        created = client.post("/campaigns", json={"ruleset": "journey", "name": "Behind"})
        assert created.status_code == 201
        behind = client.get("/ready")
        assert behind.status_code == 503 and behind.json["status"] == "views-behind"
        assert behind.json["views"]["lag"] > 0 and behind.json["views"]["max_lag"] == 0
        app.extensions["tracker_views"].catch_up()
        caught_up = client.get("/ready")
        assert caught_up.status_code == 200 and caught_up.json["views"] == {"lag": 0, "max_lag": 0}
    finally:
        app.extensions["tracker_service"].close()


def test_not_ready_while_the_database_fails_the_read(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'gone.sqlite3'}", "PROJECTIONS_IN_PROCESS": False})
    try:
        client = app.test_client()
        assert client.get("/ready").status_code == 200
        recorder = app.extensions["tracker"].recorder
        with recorder.datastore.transaction(commit=True) as cursor:  # the event table gone: the database refuses every read
            cursor.execute(f"ALTER TABLE {recorder.events_table_name} RENAME TO gone_elsewhere")
        refused = client.get("/ready")
        assert refused.status_code == 503 and refused.json["status"] == "database-unavailable" and refused.json["database"] is False
        assert "views" not in refused.json
    finally:
        app.extensions["tracker_service"].close()
