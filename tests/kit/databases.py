"""The databases and servers a test runs on, beside the fixtures of tests/conftest.py that hand them out: a PostgreSQL
schema of a test's own, and a throwaway server started for a fixture or skipped with the reason (failed in CI)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
import pytest

from tests.kit.second_cluster import NoCluster

REQUIRE_POSTGRES = os.environ.get("TRACKER_REQUIRE_POSTGRES") == "1"  # CI: a PostgreSQL test that cannot run fails


@contextmanager
def fresh_schema(postgres_base_url: str, pool: str = "pool_size=2&max_overflow=30") -> Iterator[str]:
    """A database URL on a schema of its own, dropped afterwards."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_base_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{postgres_base_url}?schema={schema}&{pool}"
    finally:
        with psycopg.connect(postgres_base_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def started_or_skipped(server: AbstractContextManager[Any], what: str, skipped: str) -> Iterator[Any]:
    """A throwaway server (its URL, or a formation) for a fixture to yield, stopped after; a server that cannot start (tools missing)
    skips the tests that need it with the reason (``skipped`` says which), and fails them in CI."""
    try:
        url = server.__enter__()
    except NoCluster as error:
        if REQUIRE_POSTGRES:
            pytest.fail(f"TRACKER_REQUIRE_POSTGRES=1 but {what} could not start: {error}", pytrace=False)
        pytest.skip(f"{skipped} SKIPPED: {what} could not start: {error}")
    try:
        yield url
    finally:
        server.__exit__(None, None, None)
