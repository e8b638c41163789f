"""Fixtures: every application and API test runs on SQLite and on PostgreSQL.

PostgreSQL for tests, in this order:
1. TRACKER_TEST_DATABASE_URL, if set;
2. a server answering on 127.0.0.1:5432;
3. a throwaway cluster started for this test run when initdb and pg_ctl are on the machine
   (tests/kit/second_cluster.py; as the `postgres` user when running as root, on a free port);
4. otherwise the PostgreSQL tests skip with the reason in the summary, and with
   TRACKER_REQUIRE_POSTGRES=1 (CI) that is a failure instead.
Each PostgreSQL test gets a schema of its own, dropped afterwards.

The shard tests also need a second PostgreSQL server: a throwaway cluster started for the run
(tests/kit/second_cluster.py; initdb as the `postgres` user when running as root). Without the tools
they skip, saying why; with TRACKER_REQUIRE_POSTGRES=1 (CI) they fail.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from flask import Flask

from tests.kit.clients import OwnerClient
from tests.kit.contract import ContractClient
from tests.kit.databases import REQUIRE_POSTGRES, fresh_schema, started_or_skipped
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit.second_cluster import NoCluster, throwaway_cluster
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env

TEST_DB = "campaign_tracker_test"


def _answers(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.Error:
        return False


def _throwaway_cluster() -> tuple[str | None, str]:
    """A cluster of this run's own (tests/kit/second_cluster.py: initdb and pg_ctl, as `postgres` when run as root, on
    a free port), stopped when the run ends."""
    cluster = throwaway_cluster()
    try:
        url = cluster.__enter__()
    except NoCluster as error:
        return None, f"no PostgreSQL server answered on 127.0.0.1:5432 and no throwaway cluster could start: {error}"
    atexit.register(cluster.__exit__, None, None, None)
    return url, ""


def _find_postgres() -> tuple[str | None, str]:
    explicit = os.environ.get("TRACKER_TEST_DATABASE_URL")
    if explicit:
        return (explicit, "") if _answers(explicit) else (None, f"TRACKER_TEST_DATABASE_URL={explicit} does not answer")
    local = "postgresql://postgres@127.0.0.1:5432/postgres"
    if _answers(local):
        return local, ""
    try:
        return _throwaway_cluster()
    except Exception as error:  # noqa: BLE001 - report why, then skip or fail
        return None, f"could not start a throwaway PostgreSQL cluster: {error}"


@pytest.fixture(scope="session")
def postgres_base_url() -> str:
    """A URL of a test database on a real PostgreSQL server."""
    url, reason = _find_postgres()
    if url is None:
        if REQUIRE_POSTGRES:
            pytest.fail(f"TRACKER_REQUIRE_POSTGRES=1 but {reason}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    parts = urlsplit(url)
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (TEST_DB,)).fetchone()
        if not exists:
            try:
                conn.execute(f'CREATE DATABASE "{TEST_DB}"')
            except psycopg.errors.DuplicateDatabase:
                pass
    return urlunsplit(parts._replace(path=f"/{TEST_DB}", query=""))


@pytest.fixture(scope="session")
def second_postgres_url(postgres_base_url: str) -> Iterator[str]:
    """A second PostgreSQL server, a throwaway cluster started for this run (tests/kit/second_cluster.py): the shard
    tests put campaigns on both. Missing tools skip these tests with the reason; in CI they fail."""
    yield from started_or_skipped(throwaway_cluster(), "a second PostgreSQL cluster", "SHARD TESTS")


@pytest.fixture
def postgres_url(postgres_base_url: str) -> Iterator[str]:
    """A fresh schema for one test."""
    with fresh_schema(postgres_base_url) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/tracker.sqlite3"


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test that takes this runs twice: on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    request.applymarker(pytest.mark.postgres)
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def tracker(database_url: str) -> Iterator[Tracker]:
    app = Tracker(env=persistence_env(database_url))
    yield app
    app.close()


@pytest.fixture(scope="session", autouse=True)
def responses_fit_the_document():
    """Every test client of every application the tests build checks each response against /openapi.json."""
    before = Flask.test_client_class
    Flask.test_client_class = ContractClient
    yield
    Flask.test_client_class = before


@pytest.fixture
def app(database_url: str):
    """The Flask application (flaskr style), on the database under test."""
    from api import create_app

    flask_app = create_app({"TESTING": True, "DATABASE_URL": database_url, "PROJECTIONS_IN_PROCESS": False})
    yield flask_app
    flask_app.extensions["tracker"].close()
    flask_app.extensions["tracker_views"].store.datastore.close()


@pytest.fixture
def client(app):
    OwnerClient.tokens, OwnerClient.last = {}, {}
    app.test_client_class = OwnerClient
    return app.test_client()


@pytest.fixture
def journey_campaign(client) -> dict:
    response = client.post(
        "/campaigns",
        json={"ruleset": "journey", "name": "Tuesday group", "party": ["tripitaka", "monkey-king"], "components": JOURNEY_TEST_COMPONENTS},
    )
    assert response.status_code == 201, response.json
    return response.json


@pytest.fixture
def session_id(client, journey_campaign) -> str:
    response = client.post(f"/campaigns/{journey_campaign['id']}/sessions", json={"quest": "q1-meeting"})
    assert response.status_code == 201, response.json
    return response.json["id"]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can add diagnostics on failure."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


# The files that take longest, longest first (seconds of a worker, --durations=0 on two busy cores, 2026-12-07):
# `make test` hands xdist's two workers these first (--dist loadfile --no-loadscope-reorder), so that no long file
# starts last while the other worker sits idle. xdist's own order, the files with most tests first, put the
# failover files (one or two tests, over a minute each) at the very end of the run.
LONGEST_FIRST = (
    "tests/test_play_live_browser.py",  # 122
    "tests/test_play_browser.py",  # 116
    "tests/test_server.py",  # 112
    "tests/test_import_memory.py",  # 108
    "tests/test_hostile_files_verifier.py",  # 106
    "tests/test_schemathesis.py",  # 97
    "tests/test_failover_home.py",  # 88
    "tests/yokai_quest/test_group_play.py",  # 81
    "tests/test_failover.py",  # 80
    "tests/test_bad_input_everywhere.py",  # 78
    "tests/test_access.py",  # 69
    "tests/test_api.py",  # 62
    "tests/test_shards.py",  # 57
    "tests/test_a_fifth_game.py",  # 51
    "tests/test_server_limits.py",  # 49
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of LONGEST_FIRST first, in its order; then the others, those with most tests first (xdist's own
    heuristic), each file's tests in their own order."""
    rank = {path: place for place, path in enumerate(LONGEST_FIRST)}
    tests_in = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        tests_in[path] = tests_in.get(path, 0) + 1
    items.sort(key=lambda item: (rank.get(path := item.nodeid.split("::", 1)[0], len(rank)), -tests_in[path], path))
