"""The write limits' counts in the service's own PostgreSQL database: a storage of the limits library (the one
Flask-Limiter is built on, api/rate_limit.py), for the fixed-window strategy.

One row per token and window: the count and when the window ends. A write adds one in a single statement (an
upsert that starts a new window once the old one has ended), so every worker of every server on the database counts
into the same window, atomically, without a lock held across statements.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg
from limits.storage import Storage
from psycopg_pool import ConnectionPool

from tracker.adapters import postgres_url

SCHEME = "tracker+postgresql"
TABLE = "tracker_write_limits"


class PostgresWindows(Storage):
    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        url = parse_qs(urlsplit(uri).query)["url"][0]
        given = postgres_url.parse(url)
        schema = given.ours.get("schema")
        self.table = f'"{schema}".{TABLE}' if schema else TABLE
        self.pool = ConnectionPool(given.conninfo, min_size=1, max_size=4, kwargs={"autocommit": True}, open=True)
        # Every worker of every server creates the table at boot, at once: CREATE TABLE IF NOT EXISTS is not safe
        # against itself (two creators both pass the check and one fails on the catalogue's unique index), so the
        # creators take turns under a transaction-scoped advisory lock named after the table.
        with self.pool.connection() as connection, connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (self.table,))
            connection.execute(f"CREATE TABLE IF NOT EXISTS {self.table} "
                               "(key text PRIMARY KEY, count bigint NOT NULL, ends double precision NOT NULL)")

    @property
    def base_exceptions(self) -> type[Exception]:
        return psycopg.Error

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self.pool.connection() as connection:
            row = connection.execute(
                f"INSERT INTO {self.table} AS w (key, count, ends) VALUES (%s, %s, %s) ON CONFLICT (key) DO UPDATE SET "
                "count = CASE WHEN w.ends <= %s THEN EXCLUDED.count ELSE w.count + EXCLUDED.count END, "
                "ends = CASE WHEN w.ends <= %s THEN EXCLUDED.ends ELSE w.ends END RETURNING count",
                (key, amount, now + expiry, now, now),
            ).fetchone()
        return int(row[0])

    def get(self, key: str) -> int:
        with self.pool.connection() as connection:
            row = connection.execute(f"SELECT count FROM {self.table} WHERE key = %s AND ends > %s", (key, time.time())).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        with self.pool.connection() as connection:
            row = connection.execute(f"SELECT ends FROM {self.table} WHERE key = %s", (key,)).fetchone()
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            with self.pool.connection() as connection:
                connection.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def reset(self) -> int | None:
        with self.pool.connection() as connection:
            return connection.execute(f"DELETE FROM {self.table}").rowcount

    def clear(self, key: str) -> None:
        with self.pool.connection() as connection:
            connection.execute(f"DELETE FROM {self.table} WHERE key = %s", (key,))
