"""PostgreSQL persistence: fail fast when the database is down, and one round trip per command.

Failing fast: the eventsourcing library retries each database call ten times when a
connection fails, and each try waits for the pool: a request during an outage
would hang for the whole outage. Here a call fails once the pool's connect
timeout passes, the API answers 503 with Retry-After, and the client decides
when to retry (with its Idempotency-Key, safely). Version conflicts and every
other error behave exactly as in the library.

One round trip: the library's default insert sends SET lock_timeout, LOCK TABLE,
NOTIFY, the INSERT of every event and COMMIT in a pipeline with a sync in the
middle, as separate statements. With POSTGRES_ENABLE_DB_FUNCTIONS the library
instead calls a stored function, in one statement and so one transaction, but its
function leaves the table lock out: two writers could then commit notification
ids out of order (11 before 10), and a projection runner that has read 11 would
never see 10. Our functions (``es_insert_rows_in_order_<table>``, and ``es_insert_row_...`` for one event) keep the library's
``LOCK TABLE ... IN EXCLUSIVE MODE`` inside the one statement, so commit order
still equals id order and the notification log has no late-filled gaps, at the
cost of one commit at a time per events table (bench/RESULTS.md measures both).
"""

from __future__ import annotations

import time
from contextlib import nullcontext
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import psycopg
from eventsourcing import persistence
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresFactory
from eventsourcing.persistence import StoredEvent
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier
from psycopg.types.composite import register_composite
from psycopg.types.numeric import Int8
from psycopg_pool import ConnectionPool

from tracker.adapters.config import LIBPQ_EXTRA

# A pooled connection handed out less than this long ago is not pinged again before use.
PING_AFTER_IDLE_SECONDS = 1.0


def _unretried(method: Any) -> Any:
    return getattr(method, "__wrapped__", method)


# The library's translation of psycopg's errors into its own (PostgresDatastore.get_connection), in its order.
_TRANSLATED = (
    (psycopg.InterfaceError, persistence.InterfaceError),
    (psycopg.OperationalError, persistence.OperationalError),
    (psycopg.DataError, persistence.DataError),
    (psycopg.IntegrityError, persistence.IntegrityError),
    (psycopg.InternalError, persistence.InternalError),
    (psycopg.ProgrammingError, persistence.ProgrammingError),
    (psycopg.NotSupportedError, persistence.NotSupportedError),
    (psycopg.DatabaseError, persistence.DatabaseError),
    (psycopg.Error, persistence.PersistenceError),
)


def _translated(error: psycopg.Error) -> persistence.PersistenceError:
    return next(ours(str(error)) for theirs, ours in _TRANSLATED if isinstance(error, theirs))


class Checkout:
    """``with Checkout(datastore) as conn``: what the library's ``datastore.get_connection()`` does, in the same order
    (open the pool, take a connection, give it the type adapters; on leaving, the connection's own exit, which commits
    or rolls back, then back to the pool; psycopg's errors raised as the library's), without the two generator context
    managers it nests (its own and the pool's ``connection()``): about 15 us of a command's CPU."""

    __slots__ = ("conn", "datastore", "taken_at")

    def __init__(self, datastore: Any) -> None:
        self.datastore = datastore

    def __enter__(self) -> Any:
        datastore = self.datastore
        pool = datastore.pool
        try:
            pool.open(datastore.pool_open_timeout is not None, datastore.pool_open_timeout or 30.0)
            conn = self.conn = pool.getconn()
        except psycopg.Error as error:
            raise _translated(error) from error
        self.taken_at = time.monotonic()
        try:
            for info in datastore.psycopg_type_adapters.values():
                if not conn.adapters.types.get(info.oid):
                    register_composite(info, conn)
        except BaseException as error:
            self.__exit__(type(error), error, error.__traceback__)
            raise
        return conn

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        pool, conn = self.datastore.pool, self.conn
        try:
            try:
                conn.__exit__(exc_type, exc, tb)
            finally:
                pool.putconn(conn)
                pool._stats[pool._USAGE_MS] += int(1000.0 * (time.monotonic() - self.taken_at))  # as connection() counts
        except psycopg.Error as error:
            raise _translated(error) from error
        if isinstance(exc, psycopg.Error):
            raise _translated(exc) from exc


def _cursor(conn: Any) -> Any:
    """A cursor of tuples this connection keeps for the insert (made once, not per command: a connection is one
    thread's at a time, and each execute starts the cursor afresh)."""
    cursor = getattr(conn, "_tracker_insert_cursor", None)
    if cursor is None:
        cursor = conn._tracker_insert_cursor = conn.cursor(row_factory=tuple_row)
    return cursor


class RenderedOnce:
    """The library's select_events, with each shape of its query rendered to text once.

    The library composes the query (``SQL`` objects) on every call and psycopg renders the
    composition to text on every execute, a tenth of the CPU of reading a token's grant."""

    def select_events(
        self: Any,
        originator_id: Any,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        shape = (gt is not None, lte is not None, desc, limit is not None)
        params = [originator_id, *(p for p in (gt, lte, limit) if p is not None)]
        with Checkout(self.datastore) as conn, conn.cursor() as curs:
            curs.execute(self._select_text(shape, conn), params, prepare=True)
            return [
                StoredEvent(
                    originator_id=row["originator_id"],
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=bytes(row["state"]),
                )
                for row in curs.fetchall()
            ]

    def _select_text(self: Any, shape: tuple[bool, bool, bool, bool], conn: Any) -> str:
        texts = self.__dict__.setdefault("_select_texts", {})
        text = texts.get(shape)
        if text is None:
            gt, lte, desc, limit = shape
            statement = self.select_events_statement
            statement += SQL(" AND originator_version > %s") if gt else SQL("")
            statement += SQL(" AND originator_version <= %s") if lte else SQL("")
            statement += SQL(" ORDER BY originator_version DESC") if desc else SQL(" ORDER BY originator_version ASC")
            statement += SQL(" LIMIT %s") if limit else SQL("")
            text = texts[shape] = statement.as_string(conn)
        return text


class FailFastAggregateRecorder(RenderedOnce, PostgresAggregateRecorder):
    insert_events = _unretried(PostgresAggregateRecorder.insert_events)


class FailFastApplicationRecorder(RenderedOnce, PostgresApplicationRecorder):
    select_notifications = _unretried(PostgresApplicationRecorder.select_notifications)
    max_notification_id = _unretried(PostgresApplicationRecorder.max_notification_id)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._insert_texts: dict[str, str] = {}
        if not self.datastore.enable_db_functions:
            return
        schema = Identifier(self.datastore.schema)
        id_type = SQL(self.datastore.originator_id_type)
        # Named after its table: the library names its function after the id type only, so two
        # applications in one schema would replace each other's function and write to one table.
        self.pg_function_name_insert_events = f"es_insert_rows_in_order_{self.events_table_name}"[:63]
        rows = Identifier(self.pg_function_name_insert_events)
        row = Identifier(f"es_insert_row_in_order_{self.events_table_name}"[:63])
        # Plain values sent in binary (the library's array of a composite type is dumped as text
        # by Python code, a fifth of the insert's CPU), and scalars for the usual one event (a
        # third less again than four one-element arrays).
        self._insert_statements = {
            "rows": SQL("SELECT notification_id FROM {schema}.{function}(%b::{id_type}[], %b::bigint[], %b::text[], %b::bytea[])").format(
                schema=schema, function=rows, id_type=id_type
            ),
            "row": SQL("SELECT notification_id FROM {schema}.{function}(%b::{id_type}, %b::bigint, %b::text, %b::bytea)").format(
                schema=schema, function=row, id_type=id_type
            ),
        }
        self.sql_invoke_pg_function_insert_events = self._insert_statements["rows"]
        body = (
            "RETURNS TABLE (notification_id bigint) LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "SET LOCAL lock_timeout = '{lock_timeout}s'; "
            "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "NOTIFY {channel}; "
            "RETURN QUERY INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
        )
        names = {
            "schema": schema,
            "id_type": id_type,
            "lock_timeout": self.datastore.lock_timeout,
            "table": Identifier(self.events_table_name),
            "channel": Identifier(self.channel_name),
        }
        self.sql_create_statements[self.create_insert_function_statement_index] = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(ids {id_type}[], versions bigint[], topics text[], states bytea[]) "
            + body
            + "SELECT * FROM unnest(ids, versions, topics, states) RETURNING t.notification_id; END; $BODY$"
        ).format(function=rows, **names)
        self.sql_create_statements.append(
            SQL(
                "CREATE OR REPLACE FUNCTION {schema}.{function}(id {id_type}, version bigint, topic text, state bytea) "
                + body
                + "VALUES (id, version, topic, state) RETURNING t.notification_id; END; $BODY$"
            ).format(function=row, **names)
        )

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        # (kwargs: an application recorder has nothing to do with them, as in the library)
        if not self.datastore.enable_db_functions:
            return _unretried(PostgresApplicationRecorder.insert_events)(self, stored_events, **kwargs)
        if len(stored_events) == 1:
            (one,) = stored_events
            kind, batches = "row", [(one.originator_id, Int8(one.originator_version), one.topic, one.state)]
        else:
            # A large insert (an import) goes in batches, each call of the function in the same transaction (the
            # table's lock is taken by the first and held to the commit): the arrays and their binary dump then hold
            # a batch's events, not a copy of every event of the file at once.
            kind, batches = "rows", (
                (
                    [e.originator_id for e in batch],
                    [Int8(e.originator_version) for e in batch],
                    [e.topic for e in batch],
                    [e.state for e in batch],
                )
                for batch in (stored_events[start : start + INSERT_BATCH] for start in range(0, len(stored_events), INSERT_BATCH))
            )
        with Checkout(self.datastore) as conn:
            curs = _cursor(conn)
            text = self._insert_texts.get(kind)
            if text is None:  # rendered once, not on every execute
                text = self._insert_texts[kind] = self._insert_statements[kind].as_string(conn)
            ids = []
            # The pool's connections autocommit: one statement is its own transaction; several are made one here.
            with conn.transaction() if len(stored_events) > INSERT_BATCH else nullcontext():
                for params in batches:
                    curs.execute(text, params, prepare=True)
                    ids += [row[0] for row in curs.fetchall()]
            return ids


INSERT_BATCH = 2000  # events per call of the insert function within one transaction


def _check_when_idle(conn: Any) -> None:
    """POSTGRES_PRE_PING, but only for a connection not handed out in the last second.

    The library pings every connection it takes from the pool: a round trip before each of a
    command's three statements (load session, load campaign, insert), about a fifth of a roll's
    time. A connection in use a moment ago is alive unless the server went away since; if it
    did, that one statement fails (503, like any outage), the pool drops the broken connection,
    and the connections that sat idle through the outage are still pinged and replaced."""
    now = time.monotonic()
    last = getattr(conn, "_tracker_handed_out_at", None)
    conn._tracker_handed_out_at = now
    if last is None or now - last > PING_AFTER_IDLE_SECONDS:
        ConnectionPool.check_connection(conn)


class FailFastPostgresFactory(PostgresFactory):
    aggregate_recorder_class = FailFastAggregateRecorder
    application_recorder_class = FailFastApplicationRecorder

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        extra = self.env.get(LIBPQ_EXTRA)
        if extra:
            # The library passes libpq host, port, dbname, user and password only; a formation's URL also needs
            # target_session_attrs=read-write, so that a connection made after a failover finds the new primary.
            self.datastore.pool.kwargs.update(conninfo_to_dict(extra))
        if self.datastore.pre_ping:
            self.datastore.pool._check = _check_when_idle  # psycopg_pool keeps the check callable here
