"""A DATABASE_URL naming several servers, as a failover formation is reached (issue 36; tracker/adapters/postgres_url.py):
libpq's host and port lists and its target_session_attrs reach every connection the service makes, the service's own
settings (schema, pool sizes) are taken off first, and what the operator reads never shows the password."""

from __future__ import annotations

import json
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.kit.databases import fresh_schema
from tests.kit.server import free_port
from tracker.adapters import postgres_url
from tracker.adapters.config import LIBPQ_EXTRA, describe, persistence_env
from tracker.application.service import Tracker
from tracker.cli import main as cli


def test_a_formation_url_gives_the_library_every_host_and_the_pool_the_rest_of_libpqs_keywords() -> None:
    env = persistence_env("postgresql://tracker:s3cret@db-a:5433,db-b:5434/campaigns?target_session_attrs=read-write&schema=t1&pool_size=3")
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == ("db-a,db-b", "5433,5434", "campaigns")
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"], env["POSTGRES_SCHEMA"], env["POSTGRES_POOL_SIZE"]) == ("tracker", "s3cret", "t1", "3")
    assert env[LIBPQ_EXTRA] == "target_session_attrs=read-write"
    assert LIBPQ_EXTRA not in persistence_env("postgresql://tracker@db-a/campaigns")


def test_the_key_value_form_is_taken_as_libpq_takes_it() -> None:
    env = persistence_env("host=db-a,db-b port=5432,5432 dbname=campaigns user=tracker target_session_attrs=read-write")
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env[LIBPQ_EXTRA]) == ("db-a,db-b", "5432,5432", "target_session_attrs=read-write")


def test_what_the_operator_reads_names_every_node_and_no_password() -> None:
    shown = describe("postgresql://tracker:s3cret@db-a:5433,db-b:5434/campaigns?target_session_attrs=read-write")
    assert shown == "postgresql://tracker@db-a:5433,db-b:5434/campaigns" and "s3cret" not in shown


@pytest.mark.parametrize("url", ["postgresql://db-a/x?no_such_keyword=1", "host=db-a no_such_keyword=1"])
def test_a_url_libpq_would_refuse_is_refused_in_words_before_anything_connects(url: str) -> None:
    with pytest.raises(ValueError, match="cannot be read"):
        postgres_url.parse(url)


def _first_host_dead(url: str) -> str:
    """The same database, with a server that does not answer named first (a lost primary)."""
    parts = urlsplit(url)
    dead = free_port()
    return urlunsplit(parts._replace(netloc=f"{parts.username or 'postgres'}@127.0.0.1:{dead},{parts.hostname}:{parts.port or 5432}",
                                     query=parts.query + "&target_session_attrs=read-write&connect_timeout=2"))


@pytest.mark.postgres
def test_the_service_writes_through_the_node_that_answers_when_the_first_named_is_gone(postgres_base_url: str) -> None:
    with fresh_schema(postgres_base_url) as url:
        app = Tracker(env=persistence_env(_first_host_dead(url)))
        try:
            campaign_id = app.create_campaign("journey", "Across the dead node").body["id"]
            assert app.get_campaign(campaign_id)["name"] == "Across the dead node"
        finally:
            app.close()
        # Stored where the answering node keeps it.
        app = Tracker(env=persistence_env(url))
        try:
            assert app.get_campaign(campaign_id)["name"] == "Across the dead node"
        finally:
            app.close()


@pytest.mark.postgres
def test_shards_add_takes_a_multi_host_url_and_shards_list_shows_who_answers(postgres_base_url: str, capsys) -> None:
    with fresh_schema(postgres_base_url) as home, fresh_schema(postgres_base_url) as other:
        Tracker(env=persistence_env(home)).close()
        assert cli(["--database-url", home, "shards", "add", "b", _first_host_dead(other)]) == 0
        capsys.readouterr()
        assert cli(["--database-url", home, "shards", "list"]) == 0
        listed = {shard["name"]: shard for shard in json.loads(capsys.readouterr().out)["shards"]}
        port = urlsplit(postgres_base_url).port or 5432
        assert listed["b"]["formation"]["role"] == "primary" and listed["b"]["formation"]["answering"].endswith(f":{port}")
        assert "," in listed["b"]["at"], "both nodes are named"
        with psycopg.connect(postgres_base_url) as conn:
            assert conn.execute("SELECT pg_is_in_recovery()").fetchone() == (False,)
