"""The one bootstrap: every entrypoint builds the service from settings, and what a bench or a test wants
different (the seed source, table creation) is a setting, never an environment variable flipped."""

from __future__ import annotations

import gc
import hashlib
from collections import Counter
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

import eventsourcing.sqlite
import psycopg
import pytest

from api import create_app, warming
from tests.kit.clients import OwnerClient
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker.bootstrap import Settings, bootstrap

ROOT = Path(__file__).resolve().parents[1]


def _fixed_seeds():
    made: list[bytes] = []

    def seed() -> bytes:
        made.append(hashlib.sha256(f"bootstrap-test-{len(made)}".encode()).digest())
        return made[-1]

    return seed, made


def test_the_seed_source_is_injected_through_the_settings(database_url: str) -> None:
    seed_source, made = _fixed_seeds()
    app = create_app({"TESTING": True}, settings=Settings(database_url=database_url, seed_source=seed_source))
    app.test_client_class = OwnerClient
    OwnerClient.tokens, OwnerClient.last = {}, {}
    try:
        client = app.test_client()
        created = client.post("/campaigns", json={"ruleset": "journey", "name": "Seeded", "party": ["tripitaka"], "components": JOURNEY_TEST_COMPONENTS})
        assert created.status_code == 201, created.json
        started = client.post(f"/campaigns/{created.json['id']}/sessions", json={"quest": "q1-meeting"})
        assert started.status_code == 201, started.json
        assert len(made) == 1
        assert started.json["seed_commitment"] == hashlib.sha256(made[0]).hexdigest()
        ended = client.post(f"/sessions/{started.json['id']}/end", json={"outcome": "defeat", "ruling": "the table stopped"})
        assert ended.status_code == 200, ended.json
        assert ended.json["seed"] == made[0].hex()  # the seed revealed at the end is the one the source gave
    finally:
        app.extensions["tracker_service"].close()


def test_the_clock_events_record_is_injected_through_the_settings(database_url: str) -> None:
    """No test asserts the wall clock: with a clock given, every event records exactly its time."""
    moment = datetime(2031, 5, 4, 12, 0, tzinfo=timezone.utc)
    app = create_app({"TESTING": True}, settings=Settings(database_url=database_url, clock=lambda: moment))
    app.test_client_class = OwnerClient
    OwnerClient.tokens, OwnerClient.last = {}, {}
    try:
        client = app.test_client()
        created = client.post("/campaigns", json={"ruleset": "journey", "name": "Clocked", "party": ["tripitaka"], "components": JOURNEY_TEST_COMPONENTS})
        sid = client.post(f"/campaigns/{created.json['id']}/sessions", json={"quest": "q1-meeting"}).json["id"]
        assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}}).status_code == 201
        events = client.get(f"/sessions/{sid}/events").json["events"]
        assert len(events) >= 3
        assert {event["timestamp"] for event in events} == {moment.isoformat()}
    finally:
        app.extensions["tracker_service"].close()
        bootstrap(Settings(database_url=database_url)).close()  # the next application built records the time now again


def test_an_app_built_without_creating_tables_uses_those_made_before(database_url: str) -> None:
    """gunicorn's master makes the tables (gunicorn.conf.py); its workers are built with create_tables=False."""
    bootstrap(Settings(database_url=database_url)).close()
    service = bootstrap(Settings(database_url=database_url, create_tables=False))
    try:
        assert service.tracker.recorder.max_notification_id() in (None, 0)
        assert service.runner.position == 0
    finally:
        service.close()


@pytest.mark.parametrize("entrypoint", ["gunicorn.conf.py", "api/wsgi.py", "tracker/cli.py", "api/__init__.py"])
def test_no_entrypoint_flips_an_environment_variable(entrypoint: str) -> None:
    text = (ROOT / entrypoint).read_text(encoding="utf-8")
    assert "os.environ[" not in text, f"{entrypoint} sets the environment to wire the service: pass settings to tracker/bootstrap.py"


def test_a_server_worker_warms_at_boot_without_writing_and_then_serves(database_url: str) -> None:
    """gunicorn's workers (api/wsgi.py, `tracker serve`) warm before serving (api/warming.py): the campaigns played
    lately and their grants loaded, each read run, two internal requests, the collector frozen over what the worker
    built. Nothing is written; an app built for a test does not warm."""
    played = create_app({"TESTING": True}, settings=Settings(database_url=database_url))
    try:
        client = played.test_client()
        created = client.post("/campaigns", json={"ruleset": "journey", "name": "Warm", "party": ["tripitaka"], "components": JOURNEY_TEST_COMPONENTS})
        cid, owner = created.json["id"], created.json["owner_token"]
        assert client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}, headers={"Authorization": f"Bearer {owner}"}).status_code == 201
        played.extensions["tracker_views"].catch_up()
        written = played.extensions["tracker"].recorder.max_notification_id()
        owner_grant = next(t["grant_id"] for t in played.extensions["tracker"]._campaign(cid).tokens.values())
    finally:
        played.extensions["tracker_service"].close()
    assert gc.get_freeze_count() == 0  # the app built for this test above did not warm
    threshold = gc.get_threshold()
    app = create_app({"TESTING": True}, settings=Settings(database_url=database_url, create_tables=False, warm_at_boot=True))
    try:
        assert gc.get_freeze_count() > 0  # what the worker built stays for its life
        tracker = app.extensions["tracker"]
        assert tracker.recorder.max_notification_id() == written  # warming wrote nothing
        assert {UUID(cid), UUID(owner_grant)} <= set(tracker.repository.cache.cache)  # loaded before any request named them
        client = app.test_client()
        statements = []
        for _ in range(3):
            with _statements_counted(database_url) as counted:
                read = client.get(f"/campaigns/{cid}/heroes", headers={"Authorization": f"Bearer {owner}"})
            assert read.status_code == 200 and "tripitaka" in read.json["heroes"]
            statements.append(counted)
        # The first read asks the database what a later one asks, no more: the campaign, its rules and party, and
        # (on PostgreSQL, where grants are kept) the token's grant were loaded at boot.
        assert statements[0] == statements[2], statements
    finally:
        app.extensions["tracker_service"].close()
        gc.unfreeze()
        gc.set_threshold(*threshold)


@contextmanager
def _statements_counted(database_url: str):
    """The statements sent to the database meanwhile, by their first 80 characters."""
    counted: Counter[str] = Counter()
    if database_url.startswith("sqlite"):
        cls, method = eventsourcing.sqlite.SQLiteConnection, "cursor"  # each statement through sqlite3's trace hook

        def wrapped(self, *args, **kwargs):
            self._sqlite_conn.set_trace_callback(lambda sql: counted.update([sql[:80]]))
            return original(self, *args, **kwargs)
    else:
        cls, method = psycopg.Cursor, "execute"

        def wrapped(self, query, *args, **kwargs):
            counted.update([str(query)[:80]])
            return original(self, query, *args, **kwargs)

    original = getattr(cls, method)
    setattr(cls, method, wrapped)
    try:
        yield counted
    finally:
        setattr(cls, method, original)


def test_a_worker_that_projects_warms_beside_its_runner(database_url: str, caplog) -> None:
    """A worker that runs the projections (TRACKER_PROJECTIONS_IN_PROCESS=1) starts its runner before it warms;
    on PostgreSQL the runner holds a pooled connection to LISTEN on. The warm-up takes only idle connections, so
    the runner keeps listening (it fell back to polling, or the boot waited for the pool, when it took them all)."""
    seeded = create_app({"TESTING": True}, settings=Settings(database_url=database_url))
    try:
        created = seeded.test_client().post("/campaigns", json={"ruleset": "journey", "name": "Busy", "party": ["tripitaka"], "components": JOURNEY_TEST_COMPONENTS})
        assert created.status_code == 201
    finally:
        seeded.extensions["tracker_service"].close()
    threshold = gc.get_threshold()
    with caplog.at_level("WARNING"):
        app = create_app({"TESTING": True}, settings=Settings(database_url=database_url, create_tables=False, projections_in_process=True, warm_at_boot=True))
    try:
        assert not [r for r in caplog.records if "LISTEN" in r.getMessage()], [r.getMessage() for r in caplog.records]
        cid, owner = created.json["id"], created.json["owner_token"]
        started = app.test_client().post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}, headers={"Authorization": f"Bearer {owner}"})
        assert started.status_code == 201
        read = app.test_client().get(f"/campaigns/{cid}/standing", query_string={"min_position": started.json["log_position"]},
                                     headers={"Authorization": f"Bearer {owner}"})
        assert read.status_code == 200  # the runner projected the new events within the read's wait
        warming.warm(app)  # again, now that the runner surely holds its LISTEN connection: warmed beside it
        rolled = app.test_client().post(f"/sessions/{started.json['id']}/rolls", json={"dice": {"attack": 1}}, headers={"Authorization": f"Bearer {owner}"})
        assert rolled.status_code == 201
        again = app.test_client().get(f"/campaigns/{cid}/standing", query_string={"min_position": rolled.json["log_position"]},
                                      headers={"Authorization": f"Bearer {owner}"})
        assert again.status_code == 200
        assert not [r for r in caplog.records if "LISTEN" in r.getMessage()], [r.getMessage() for r in caplog.records]
    finally:
        thread, stop = app.extensions["tracker_projection_thread"]
        stop.set()
        thread.join(timeout=5)
        app.extensions["tracker_service"].close()
        gc.unfreeze()
        gc.set_threshold(*threshold)
