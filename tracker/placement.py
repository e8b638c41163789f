"""Which PostgreSQL server holds a campaign: the shards and the placement table, in the home database.

Every command touches one campaign, so a campaign's events, its sessions' events and its views live
on one server, a *shard*. The home database (DATABASE_URL) keeps two small tables:

    tracker_shards     name -> a PostgreSQL URL; the home database is itself the shard "home"
    tracker_placement  campaign id -> shard name, and whether the campaign is being moved

Writes fence themselves against a move: a write holds the campaign's advisory lock shared while its
command runs on the shard (``Placement.fence``), and a move's first step takes it exclusively and sets
``moving``: it waits for every write already holding it, and every later one reads ``moving`` and
answers 503.
So when the move exports, no write it could miss is in flight, and none starts until the flip.

A campaign without a row (created before sharding was turned on) lives on the home shard; the
first write to it places it there, so that its writes fence like any other's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit, urlunsplit

import psycopg
from psycopg.sql import SQL, Identifier
from psycopg_pool import ConnectionPool

from tracker.errors import Conflict

HOME = "home"
SHARDS_TABLE = "tracker_shards"
PLACEMENT_TABLE = "tracker_placement"


@dataclass(frozen=True)
class Placed:
    campaign_id: str
    shard: str
    moving: bool


class Moving(Exception):
    """A write to a campaign that is being moved to another shard."""

    def __init__(self, campaign_id: str) -> None:
        super().__init__(campaign_id)
        self.campaign_id = campaign_id


def conninfo(url: str) -> tuple[str, str | None]:
    """A DATABASE_URL as psycopg takes it, and its ?schema= (our URLs carry pool settings psycopg does not know)."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "postgresql+psycopg"):
        raise ValueError(f"A shard is a PostgreSQL database: postgresql://..., not {parts.scheme}://")
    schema = parse_qs(parts.query).get("schema", [None])[0]
    return urlunsplit(parts._replace(scheme="postgresql", query="")), schema


def is_postgres(url: str) -> bool:
    return urlsplit(url).scheme in ("postgres", "postgresql", "postgresql+psycopg")


def enabled(home_url: str) -> bool:
    """Whether the home database routes by placement: it is PostgreSQL and `tracker shards add` made the tables."""
    if not is_postgres(home_url):
        return False
    info, schema = conninfo(home_url)
    with psycopg.connect(info, connect_timeout=5) as conn:
        return conn.execute("SELECT to_regclass(%s) IS NOT NULL", (_qualified(schema, SHARDS_TABLE),)).fetchone()[0]


def _qualified(schema: str | None, table: str) -> str:
    return f'"{schema}".{table}' if schema else table


class Placement:
    """The shards and the placement of campaigns on them."""

    def __init__(self, home_url: str, pool_size: int = 8) -> None:
        self.home_url = home_url
        info, self.schema = conninfo(home_url)
        self.shards_table = Identifier(*(p for p in (self.schema, SHARDS_TABLE) if p))
        self.placement_table = Identifier(*(p for p in (self.schema, PLACEMENT_TABLE) if p))
        # Writes hold a connection while their command runs (the row lock is a transaction's), so the
        # pool is as large as the worker's threads can ask for at once.
        self.pool = ConnectionPool(info, min_size=1, max_size=pool_size, open=True, timeout=5, kwargs={"autocommit": False})
        self._lock = threading.Lock()

    def close(self) -> None:
        self.pool.close()

    def create_tables(self) -> None:
        """The two tables, and the home database registered as the shard "home" (idempotent)."""
        with self.pool.connection() as conn:
            conn.execute(SQL("CREATE TABLE IF NOT EXISTS {} (name text PRIMARY KEY, url text NOT NULL, added_at timestamptz NOT NULL DEFAULT now(), "
                             "replica_url text)").format(self.shards_table))
            conn.execute(SQL("ALTER TABLE {} ADD COLUMN IF NOT EXISTS replica_url text").format(self.shards_table))
            conn.execute(SQL(
                "CREATE TABLE IF NOT EXISTS {} (campaign_id text PRIMARY KEY, shard text NOT NULL REFERENCES {} (name), "
                "moving boolean NOT NULL DEFAULT false, placed_at timestamptz NOT NULL DEFAULT now())"
            ).format(self.placement_table, self.shards_table))
            conn.execute(SQL("INSERT INTO {} (name, url) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING").format(self.shards_table), (HOME, self.home_url))

    # -- shards --------------------------------------------------------------

    def shards(self) -> dict[str, str]:
        """Every shard's name and URL, the home shard first."""
        with self.pool.connection() as conn:
            rows = conn.execute(SQL("SELECT name, url FROM {} ORDER BY name <> %s, added_at, name").format(self.shards_table), (HOME,)).fetchall()
        return dict(rows)

    def replicas(self) -> dict[str, str]:
        """The streaming replica each shard's views may be read from, for the shards that have one."""
        with self.pool.connection() as conn:
            rows = conn.execute(SQL("SELECT name, replica_url FROM {} WHERE replica_url IS NOT NULL").format(self.shards_table)).fetchall()
        return dict(rows)

    def set_replica(self, name: str, url: str | None) -> None:
        if url is not None:
            conninfo(url)
        with self.pool.connection() as conn:
            if conn.execute(SQL("UPDATE {} SET replica_url = %s WHERE name = %s").format(self.shards_table), (url, name)).rowcount == 0:
                raise ValueError(f"No shard named {name!r}")

    def add_shard(self, name: str, url: str) -> None:
        conninfo(url)  # a PostgreSQL URL, or ValueError
        with self.pool.connection() as conn:
            try:
                conn.execute(SQL("INSERT INTO {} (name, url) VALUES (%s, %s)").format(self.shards_table), (name, url))
            except psycopg.errors.UniqueViolation:
                raise ValueError(f"There is a shard named {name!r} already") from None

    def load(self) -> dict[str, int]:
        """How many campaigns each shard holds (the placed ones)."""
        with self.pool.connection() as conn:
            rows = conn.execute(SQL(
                "SELECT s.name, count(p.campaign_id) FROM {} s LEFT JOIN {} p ON p.shard = s.name GROUP BY s.name"
            ).format(self.shards_table, self.placement_table)).fetchall()
        return dict(rows)

    def least_loaded(self) -> str:
        """The shard a new campaign goes to: the one holding fewest campaigns (ties: by name)."""
        return min(self.load().items(), key=lambda item: (item[1], item[0]))[0]

    # -- placement -----------------------------------------------------------

    def place(self, campaign_id: str, shard: str) -> None:
        with self.pool.connection() as conn:
            conn.execute(SQL("INSERT INTO {} (campaign_id, shard) VALUES (%s, %s) ON CONFLICT (campaign_id) DO NOTHING").format(self.placement_table), (campaign_id, shard))

    @contextmanager
    def placing(self, campaign_id: str, shard: str) -> Iterator[None]:
        """An imported campaign, placed on the shard it is being written to before it is written there. A campaign
        placed on another shard already is refused: its copy here would be one nothing routes to. When the write
        fails, the row this placed goes again (a row is no event: it may be taken back)."""
        with self.pool.connection() as conn:
            claimed = conn.execute(SQL("INSERT INTO {} (campaign_id, shard) VALUES (%s, %s) ON CONFLICT (campaign_id) DO NOTHING RETURNING shard")
                                   .format(self.placement_table), (campaign_id, shard)).fetchone()
            placed = None if claimed else conn.execute(SQL("SELECT shard FROM {} WHERE campaign_id = %s").format(self.placement_table), (campaign_id,)).fetchone()
        if placed is not None and placed[0] != shard:
            raise Conflict(
                f"Campaign {campaign_id} is already on this service (on shard {placed[0]}); nothing was imported",
                detail=f"GET /campaigns/{campaign_id} shows it. To put it on another server, move it: tracker shards move {campaign_id} --to SHARD.",
            )
        try:
            yield
        except BaseException:
            if claimed:
                with self.pool.connection() as conn:
                    conn.execute(SQL("DELETE FROM {} WHERE campaign_id = %s AND shard = %s AND NOT moving").format(self.placement_table), (campaign_id, shard))
            raise

    def of(self, campaign_id: str) -> Placed | None:
        with self.pool.connection() as conn:
            row = conn.execute(SQL("SELECT shard, moving FROM {} WHERE campaign_id = %s").format(self.placement_table), (campaign_id,)).fetchone()
        return None if row is None else Placed(campaign_id, row[0], row[1])

    def placed(self) -> list[Placed]:
        with self.pool.connection() as conn:
            rows = conn.execute(SQL("SELECT campaign_id, shard, moving FROM {} ORDER BY shard, campaign_id").format(self.placement_table)).fetchall()
        return [Placed(*row) for row in rows]

    @contextmanager
    def fence(self, campaign_id: str) -> Iterator[Placed | None]:
        """Hold the campaign's move lock shared while a write runs: a move waits for it, and the write sees where
        the campaign is. Raises Moving while the campaign is being moved; yields None for a campaign without a
        row (the caller places it on the home shard, then fences again).

        An advisory lock, not a row lock: a row lock marks the row, so each write's transaction would be
        committed and flushed to disk on the home database too. The lock is taken in one statement and the
        row read in the next, so the read sees a move that committed while the lock was awaited; both go in
        one pipeline, one round trip."""
        with self.pool.connection() as conn:
            with conn.pipeline():
                conn.execute("SELECT pg_advisory_xact_lock_shared(hashtextextended(%s, 0))", (campaign_id,))
                cursor = conn.execute(SQL("SELECT shard, moving FROM {} WHERE campaign_id = %s").format(self.placement_table), (campaign_id,))
            row = cursor.fetchone()
            if row is not None and row[1]:
                raise Moving(campaign_id)
            yield None if row is None else Placed(campaign_id, row[0], row[1])
            # leaving the block commits, which lets the lock go

    def begin_move(self, campaign_id: str) -> Placed:
        """Mark the campaign as moving: waits for the writes holding its lock, and later ones answer 503."""
        with self.pool.connection() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (campaign_id,))
            row = conn.execute(SQL("UPDATE {} SET moving = true WHERE campaign_id = %s AND NOT moving RETURNING shard").format(self.placement_table), (campaign_id,)).fetchone()
        if row is None:
            placed = self.of(campaign_id)
            raise ValueError(f"Campaign {campaign_id} is not placed on any shard" if placed is None else f"Campaign {campaign_id} is being moved already")
        return Placed(campaign_id, row[0], True)

    def end_move(self, campaign_id: str, shard: str) -> None:
        """The flip: the campaign is on ``shard`` (its new one, or its old one when the move failed), writable again."""
        with self.pool.connection() as conn:
            conn.execute(SQL("UPDATE {} SET shard = %s, moving = false WHERE campaign_id = %s").format(self.placement_table), (shard, campaign_id))
