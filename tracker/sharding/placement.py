"""Which PostgreSQL server holds a campaign: the shards and the placement table, in the home database.

Every command touches one campaign, so a campaign's events, its sessions' events and its views live
on one server, a *shard*. The home database (DATABASE_URL) keeps two small tables:

    tracker_shards     name -> a PostgreSQL URL; the home database is itself the shard "home"
    tracker_placement  campaign id -> shard name, and whether the campaign is being moved
    tracker_moves      campaign id -> the move under way: its lease (owner, expiry), target and step

Writes fence themselves against a move: a write holds the campaign's advisory lock shared while its
command runs on the shard (``Placement.fence``), and a move's first step takes it exclusively, sets
``moving`` and takes a lease: it waits for every write already holding it, and every later one reads
``moving`` with a live lease and answers 503.
So when the move exports, no write it could miss is in flight, and none starts until the flip.

A lease, so that a mover that dies (SIGKILL, a lost machine) does not leave its campaign unwritable: it
names its owner (host, pid, a random id) and expires unless the mover renews it. Once it has expired, a
write goes to the shard the placement names, which is still the old one (only the flip changes it).
Times are the home database's clock, never a mover's. The renewal and the flip take the advisory lock
exclusively and check the lease is the owner's and live in the same transaction, so a write let through
by an expired lease either ran before them (then they find the lease expired, and the mover gives up)
or waits for them (then it reads the placement they left). A write is never let through on the old
shard and then left behind by a flip.

A campaign without a row (created before sharding was turned on) lives on the home shard; the
first write to it places it there, so that its writes fence like any other's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

import psycopg
from psycopg.sql import SQL, Identifier
from psycopg_pool import ConnectionPool

from tracker.adapters import postgres_url
from tracker.core.errors import Conflict

HOME = "home"
SHARDS_TABLE = "tracker_shards"
PLACEMENT_TABLE = "tracker_placement"
MOVES_TABLE = "tracker_moves"


@dataclass(frozen=True)
class Lease:
    """A move's hold on its campaign: who holds it, until when (the home database's clock), and how far it got."""

    host: str
    pid: int
    lease_id: str
    to: str
    step: str
    began_at: datetime
    expires_at: datetime
    live: bool

    def owner(self) -> str:
        return f"{self.host} pid {self.pid} (lease {self.lease_id})"


@dataclass(frozen=True)
class Placed:
    campaign_id: str
    shard: str
    moving: bool
    lease: Lease | None = None  # the move's lease while ``moving``; None for a move left by a mover from before leases

    @property
    def held(self) -> bool:
        """Whether writes are held back: a move is under way and its lease is live."""
        return self.moving and self.lease is not None and self.lease.live


class LeaseLost(Exception):
    """The mover's lease expired (or another mover took it over): writes may have gone on on the old shard."""


class Moving(Exception):
    """A write to a campaign that is being moved to another shard."""

    def __init__(self, campaign_id: str) -> None:
        super().__init__(campaign_id)
        self.campaign_id = campaign_id


def conninfo(url: str) -> tuple[str, str | None]:
    """A DATABASE_URL as psycopg takes it (every node of a formation, target_session_attrs kept), and its ?schema=
    (our URLs carry settings psycopg does not know)."""
    if not is_postgres(url):
        raise ValueError(f"A shard is a PostgreSQL database: postgresql://..., not {urlsplit(url).scheme or url}://")
    given = postgres_url.parse(url)
    return given.conninfo, given.ours.get("schema")


def is_postgres(url: str) -> bool:
    return postgres_url.is_postgres(url)


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
        self.moves_table = Identifier(*(p for p in (self.schema, MOVES_TABLE) if p))
        # Writes hold a connection while their command runs (the row lock is a transaction's), so the
        # pool is as large as the worker's threads can ask for at once.
        self.pool = ConnectionPool(info, min_size=1, max_size=pool_size, open=True, timeout=5, kwargs={"autocommit": False})
        self._upgrade()

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
        self._create_moves_table()

    def _upgrade(self) -> None:
        """A home database whose shards were added before moves held leases gets the moves table: the fence reads it."""
        with self.pool.connection() as conn:
            placement, moves = conn.execute("SELECT to_regclass(%s), to_regclass(%s)",
                                            (_qualified(self.schema, PLACEMENT_TABLE), _qualified(self.schema, MOVES_TABLE))).fetchone()
        if placement is not None and moves is None:
            self._create_moves_table()

    def _create_moves_table(self) -> None:
        try:
            with self.pool.connection() as conn:
                conn.execute(SQL(
                    "CREATE TABLE IF NOT EXISTS {} (campaign_id text PRIMARY KEY, to_shard text NOT NULL, host text NOT NULL, pid integer NOT NULL, "
                    "lease_id text NOT NULL, step text NOT NULL, began_at timestamptz NOT NULL, expires_at timestamptz NOT NULL)"
                ).format(self.moves_table))
        except (psycopg.errors.UniqueViolation, psycopg.errors.DuplicateTable):
            pass  # another process (a worker starting beside this one) made it meanwhile

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
            return self._read(conn, campaign_id)

    def placed(self) -> list[Placed]:
        with self.pool.connection() as conn:
            rows = conn.execute(self._joined(SQL("ORDER BY p.shard, p.campaign_id"))).fetchall()
        return [_placed(row) for row in rows]

    def _joined(self, where: SQL) -> SQL:
        """Each placement row with its move's lease, and whether that lease is live now by the home database's clock."""
        return SQL(
            "SELECT p.campaign_id, p.shard, p.moving, m.host, m.pid, m.lease_id, m.to_shard, m.step, m.began_at, m.expires_at, "
            "m.expires_at > clock_timestamp() FROM {} p LEFT JOIN {} m ON m.campaign_id = p.campaign_id "
        ).format(self.placement_table, self.moves_table) + where

    def _read(self, conn: psycopg.Connection, campaign_id: str) -> Placed | None:
        row = conn.execute(self._joined(SQL("WHERE p.campaign_id = %s")), (campaign_id,)).fetchone()
        return None if row is None else _placed(row)

    def _lock(self, conn: psycopg.Connection, campaign_id: str) -> None:
        """The campaign's move lock, exclusively, until the transaction ends: every write holding it shared is done."""
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (campaign_id,))

    @contextmanager
    def fence(self, campaign_id: str) -> Iterator[Placed | None]:
        """Hold the campaign's move lock shared while a write runs: a move waits for it, and the write sees where
        the campaign is. Raises Moving while a move holds a live lease on the campaign; yields None for a campaign
        without a row (the caller places it on the home shard, then fences again). A move whose lease has expired
        holds nothing back: its mover is gone, and the write goes to the shard the placement names, the old one.

        An advisory lock, not a row lock: a row lock marks the row, so each write's transaction would be
        committed and flushed to disk on the home database too. The lock is taken in one statement and the
        row read in the next, so the read sees a move (or a flip, or a renewal) that committed while the lock
        was awaited; both go in one pipeline, one round trip."""
        with self.pool.connection() as conn:
            with conn.pipeline():
                conn.execute("SELECT pg_advisory_xact_lock_shared(hashtextextended(%s, 0))", (campaign_id,))
                cursor = conn.execute(self._joined(SQL("WHERE p.campaign_id = %s")), (campaign_id,))
            row = cursor.fetchone()
            placed = None if row is None else _placed(row)
            if placed is not None and placed.held:
                raise Moving(campaign_id)
            yield placed
            # leaving the block commits, which lets the lock go

    def begin_move(self, campaign_id: str, to: str, lease: NewLease) -> tuple[Placed, Placed | None]:
        """Mark the campaign as moving to ``to`` under a new lease: waits for the writes holding its lock, and later
        ones answer 503 while the lease is live. A move left with an expired lease (its mover died) is taken over:
        it is returned as it was found (its lease None for a move from before leases), else None. One still live is
        refused."""
        with self.pool.connection() as conn:
            self._lock(conn, campaign_id)
            found = self._read(conn, campaign_id)
            if found is None:
                raise ValueError(f"Campaign {campaign_id} is not placed on any shard")
            if found.held:
                raise ValueError(_held(found))
            conn.execute(SQL("UPDATE {} SET moving = true WHERE campaign_id = %s").format(self.placement_table), (campaign_id,))
            conn.execute(SQL(
                "INSERT INTO {} AS m (campaign_id, to_shard, host, pid, lease_id, step, began_at, expires_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, clock_timestamp(), clock_timestamp() + make_interval(secs => %s)) "
                "ON CONFLICT (campaign_id) DO UPDATE SET to_shard = EXCLUDED.to_shard, host = EXCLUDED.host, pid = EXCLUDED.pid, "
                "lease_id = EXCLUDED.lease_id, step = EXCLUDED.step, began_at = EXCLUDED.began_at, expires_at = EXCLUDED.expires_at"
            ).format(self.moves_table), (campaign_id, to, lease.host, lease.pid, lease.lease_id, lease.step, lease.seconds))
            began = self._read(conn, campaign_id)
        return began, (found if found.moving else None)

    def renew(self, campaign_id: str, lease: NewLease, step: str | None = None) -> None:
        """The mover's lease for another ``lease.seconds`` (and the step it has reached), or LeaseLost when it expired
        meanwhile or is another's now: the mover must then give up, since writes may have gone on on the old shard.
        Under the exclusive lock, so that no write an expired lease let through is still running unseen."""
        with self.pool.connection() as conn:
            self._lock(conn, campaign_id)
            renewed = conn.execute(SQL(
                "UPDATE {} SET expires_at = clock_timestamp() + make_interval(secs => %s), step = coalesce(%s, step) "
                "WHERE campaign_id = %s AND lease_id = %s AND expires_at > clock_timestamp() RETURNING 1"
            ).format(self.moves_table), (lease.seconds, step, campaign_id, lease.lease_id)).fetchone()
            if renewed is None:
                raise LeaseLost(campaign_id)

    def flip(self, campaign_id: str, lease: NewLease, shard: str) -> None:
        """The flip: the campaign is on ``shard``, writable again, and the move's lease is gone, in one transaction, so
        there is no half-flipped state. Only while the lease is the mover's and live (else LeaseLost, nothing changed):
        a lease that expired let writes go on on the old shard, which the copy on ``shard`` does not hold."""
        with self.pool.connection() as conn:
            self._lock(conn, campaign_id)
            held = conn.execute(SQL("DELETE FROM {} WHERE campaign_id = %s AND lease_id = %s AND expires_at > clock_timestamp() RETURNING 1")
                                .format(self.moves_table), (campaign_id, lease.lease_id)).fetchone()
            if held is None:
                raise LeaseLost(campaign_id)
            conn.execute(SQL("UPDATE {} SET shard = %s, moving = false WHERE campaign_id = %s").format(self.placement_table), (shard, campaign_id))

    def release(self, campaign_id: str, lease: NewLease) -> bool:
        """A move that gives up: the campaign stays on its shard, writable again, unless another mover has taken the
        move over since (then nothing changes; False)."""
        with self.pool.connection() as conn:
            self._lock(conn, campaign_id)
            mine = conn.execute(SQL("DELETE FROM {} WHERE campaign_id = %s AND lease_id = %s RETURNING 1").format(self.moves_table),
                                (campaign_id, lease.lease_id)).fetchone()
            if mine is not None:
                conn.execute(SQL("UPDATE {} SET moving = false WHERE campaign_id = %s").format(self.placement_table), (campaign_id,))
        return mine is not None

    def roll_back_abandoned(self, campaign_id: str) -> Placed | None:
        """A move whose mover is gone (its lease expired, or a move from before leases) ended where it began: the
        campaign stays on the shard the placement names. The move as it was found, or None when none was left;
        ValueError for a move whose lease is live."""
        with self.pool.connection() as conn:
            self._lock(conn, campaign_id)
            found = self._read(conn, campaign_id)
            if found is None or not found.moving:
                return None
            if found.held:
                raise ValueError(_held(found))
            conn.execute(SQL("DELETE FROM {} WHERE campaign_id = %s").format(self.moves_table), (campaign_id,))
            conn.execute(SQL("UPDATE {} SET moving = false WHERE campaign_id = %s").format(self.placement_table), (campaign_id,))
        return found


@dataclass(frozen=True)
class NewLease:
    """The lease a mover takes: its owner (this host, this process, a random id) and its length in seconds."""

    host: str
    pid: int
    lease_id: str
    seconds: float
    step: str = "fenced"


def _placed(row: tuple) -> Placed:
    campaign_id, shard, moving, host, pid, lease_id, to, step, began_at, expires_at, live = row
    lease = Lease(host, pid, lease_id, to, step, began_at, expires_at, bool(live)) if moving and lease_id is not None else None
    return Placed(campaign_id, shard, moving, lease)


def _held(placed: Placed) -> str:
    lease = placed.lease
    assert lease is not None
    return (f"Campaign {placed.campaign_id} is being moved already, to {lease.to} by {lease.owner()}, at step {lease.step}; "
            f"its lease is live until {lease.expires_at.isoformat()} (renewed while that mover works)")
