"""What the shard tests share: a home database on the suite's PostgreSQL server with the shard "b" on a second,
throwaway server (tests/kit/second_cluster.py), a service on it, and the campaigns and sessions they play."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from api import create_app
from tests.kit.databases import fresh_schema
from tracker.application.service import Tracker
from tracker.cli import main as cli
from tracker.adapters.config import persistence_env
from tracker.core.errors import NotFound


@contextmanager
def two_shards(postgres_base_url: str, second_postgres_url: str) -> Iterator[tuple[str, str]]:
    """(home, b): a fresh schema on each server, the home database made as it was before shards, then
    `tracker shards add b` run on it; both dropped afterwards."""
    with fresh_schema(postgres_base_url) as home, fresh_schema(second_postgres_url) as other:
        Tracker(env=persistence_env(home)).close()
        assert cli(["--database-url", home, "shards", "add", "b", other]) == 0
        yield home, other


@pytest.fixture
def shard_urls(postgres_base_url: str, second_postgres_url: str) -> Iterator[tuple[str, str]]:
    with two_shards(postgres_base_url, second_postgres_url) as urls:
        yield urls


@pytest.fixture
def sharded(shard_urls: tuple[str, str]):
    """The service on the home database, routing each campaign to its shard."""
    flask_app = create_app({"TESTING": True, "DATABASE_URL": shard_urls[0], "PROJECTIONS_IN_PROCESS": False})
    yield flask_app
    flask_app.extensions["tracker_router"].close()


def campaign(client, name: str) -> tuple[str, dict[str, str]]:
    """A Journey campaign made through the API: its id and its owner's Authorization header."""
    created = client.post("/campaigns", json={"ruleset": "journey", "name": name})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    return body["id"], {"Authorization": f"Bearer {body['owner_token']}"}


def session(client, campaign_id: str, owner: dict[str, str]) -> str:
    started = client.post(f"/campaigns/{campaign_id}/sessions", json={"quest": "q1-meeting"}, headers=owner)
    assert started.status_code == 201, started.get_json()
    return started.get_json()["id"]


def holds(url: str, campaign_id: str) -> bool:
    """Whether the database at ``url`` holds the campaign (its events are there)."""
    app = Tracker(env=persistence_env(url))
    try:
        app.get_campaign(campaign_id)
        return True
    except NotFound:
        return False
    finally:
        app.close()
