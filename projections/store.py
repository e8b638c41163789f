"""View tables beside the event store, written with the tracking position in one transaction.

The recorders extend the eventsourcing library's tracking recorders for SQLite
and PostgreSQL, so a batch's view rows and its tracking record commit or roll
back together: a notification is reflected in the views exactly once.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from eventsourcing.persistence import InfrastructureFactory, IntegrityError, Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from projections import dice_statistics, game_events, sessions, standing, timeline, views

log = logging.getLogger(__name__)

LOCAL_COLUMNS = {"notification_id", "started"}

# The tables and statements of every registered view (projections/views.py): each view declares its own.
TABLES = views.tables()
_WRITES = views.statements("writes")
_SUMMED = views.statements("summed")  # statement -> key length
_LATEST = views.statements("latest")  # statement -> index of the key in the row
# Rows that create what later rows of the same batch update are written first.
_CREATING = views.creating()
# Rows one notification alone creates (keyed by its session and version, or its id): PostgreSQL
# takes them by COPY, several times faster than an INSERT per row. The tracking position, moved in
# the same transaction, keeps another batch from writing them again; should a view hold one anyway
# (restored by hand, say), the batch is written again with the INSERTs, which pass over it.
_COPIED = views.statements("copied")
VIEWS_VERSION = views.schema_version()  # changes when a view's tables (or its version) change


def _grouped(rows: Iterable[tuple[Any, ...]]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """A batch's rows as one executemany per statement: creating statements first, then the rest in
    the order each first appears, rows of one statement in log order. No statement depends on
    another's rows except updates of what the creating statements insert (sessions, game states),
    and upserts of counts commute; so the views come out as if written row by row.

    Two statements are folded first: a batch's dice counts are summed per face (one upsert per
    face instead of one per roll; a face whose rolls and undos cancel still gets its row, as row by
    row), and a session's game state is set once, to the last state the batch folded.
    Rows keep their statement's name in front (the writer passes over it): copies of a batch's
    rows without it would only be more for the garbage collector to look through."""
    groups: dict[str, list[tuple[Any, ...]]] = {key: [] for key in _CREATING}
    sums: dict[str, dict[tuple[Any, ...], int]] = {}
    latest: dict[str, dict[Any, tuple[Any, ...]]] = {}
    for row in rows:
        kind = row[0]
        if kind in _SUMMED:
            width = _SUMMED[kind]
            key = row[1 : 1 + width]
            counts = sums.setdefault(kind, {})
            counts[key] = counts.get(key, 0) + row[1 + width]
            groups.setdefault(kind, [])
        elif kind in _LATEST:
            latest.setdefault(kind, {})[row[_LATEST[kind]]] = row
            groups.setdefault(kind, [])
        else:
            groups.setdefault(kind, []).append(row)
    for kind, counts in sums.items():  # in key order, so two runners racing over one batch take the rows' locks in one order
        groups[kind] = [(kind, *key, count) for key, count in sorted(counts.items())]
    for kind, last in latest.items():
        groups[kind] = list(last.values())
    return [(key, params) for key, params in groups.items() if params]


class LostRace(Exception):
    """Another runner moved the tracking position first; this batch was rolled back."""

    def __init__(self, application_name: str, start: int) -> None:
        super().__init__(f"{application_name}: position is no longer {start}")


class ViewStore:
    """SQL shared by both databases; subclasses say how to name tables and bind parameters."""

    def _name(self, table: str) -> str:
        raise NotImplementedError

    def _sql(self, statement: str) -> str:
        return statement.format(**{table: self._name(table) for table in (*TABLES, "view_schema")})

    def _create_view_tables(self, cursor: Any) -> None:
        """Create the view tables; when their shape changed (VIEWS_VERSION), drop them and forget the
        position, so the runner rebuilds them from the log: views are derived, the log is the truth."""
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {self._name('view_schema')} (version INTEGER NOT NULL)")
        cursor.execute(f"SELECT version FROM {self._name('view_schema')}")
        row = cursor.fetchone()
        stored = (row["version"] if isinstance(row, dict) else row[0]) if row else None
        if stored != VIEWS_VERSION:
            for table in TABLES:
                cursor.execute(f"DROP TABLE IF EXISTS {self._name(table)}")
            cursor.execute(f"DELETE FROM {self._tracking_table()} WHERE application_name <> '__migration__'")
            cursor.execute(f"DELETE FROM {self._name('view_schema')}")
            cursor.execute(f"INSERT INTO {self._name('view_schema')} (version) VALUES ({VIEWS_VERSION})")
        for table, (columns, *_) in TABLES.items():
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {self._name(table)} ({columns})")

    def write(self, rows: Iterable[tuple[Any, ...]], start: int, tracking: Tracking) -> None:
        """Write a batch read after position ``start``, and move the position to ``tracking``.

        The position moves first and only if it is still ``start``: a runner that lost the race to
        another waits for the other's commit, gets LostRace before writing a row, its transaction
        rolls back, and nothing counts twice.
        """
        grouped = _grouped(rows)
        try:
            self._write(grouped, start, tracking, copy=self.copies)
        except IntegrityError:  # the library's name for a broken constraint; only a key can break here
            if not self.copies:
                raise
            log.warning("a view already held a row of the batch after position %s; writing it row by row", start)
            self._write(grouped, start, tracking, copy=False)

    copies = False  # whether this database takes rows by COPY

    def _write(self, grouped: list[tuple[str, list[tuple[Any, ...]]]], start: int, tracking: Tracking, copy: bool) -> None:
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            self._begin_batch(cursor)
            self._advance_tracking(cursor, start, tracking)
            self._write_rows(cursor, grouped, copy)

    def _write_rows(self, cursor: Any, grouped: list[tuple[str, list[tuple[Any, ...]]]], copy: bool) -> None:
        for statement, rows in grouped:
            if copy and statement in _COPIED:
                self._copy(cursor, statement, rows)
            else:
                cursor.executemany(self._written(statement), (row[1:] for row in rows))

    def _begin_batch(self, cursor: Any) -> None:
        """Settings for a batch's transaction (none by default)."""

    def _copy(self, cursor: Any, statement: str, rows: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    def _written(self, statement: str) -> str:
        """A write statement in this database's dialect (formatted once, then reused)."""
        cache = self.__dict__.setdefault("_written_sql", {})
        if statement not in cache:
            cache[statement] = self._sql(_WRITES[statement])
        return cache[statement]

    def _advance_tracking(self, cursor: Any, start: int, tracking: Tracking) -> None:
        table = self._tracking_table()
        if start == 0:
            try:
                cursor.execute(
                    self._sql(f"INSERT INTO {table} (application_name, notification_id) VALUES (%s, %s)"),
                    (tracking.application_name, tracking.notification_id),
                )
            except Exception as error:  # the row exists: another runner moved first
                if type(error).__name__ in ("IntegrityError", "UniqueViolation"):
                    raise LostRace(tracking.application_name, start) from error
                raise
            return
        cursor.execute(
            self._sql(f"UPDATE {table} SET notification_id = %s WHERE application_name = %s AND notification_id = %s"),
            (tracking.notification_id, tracking.application_name, start),
        )
        if getattr(cursor, "sqlite_cursor", cursor).rowcount != 1:  # the library wraps sqlite3's cursor
            raise LostRace(tracking.application_name, start)

    def _tracking_table(self) -> str:
        raise NotImplementedError

    def clear(self, application_name: str) -> None:
        """Forget every view row and the tracking position, so the views can be rebuilt from zero."""
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            self._empty_views(cursor)
            cursor.execute(self._sql(f"DELETE FROM {self._tracking_table()} WHERE application_name = %s"), (application_name,))

    def _empty_views(self, cursor: Any) -> None:
        for table in TABLES:
            cursor.execute(f"DELETE FROM {self._name(table)}")

    def query(self, statement: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute(self._sql(statement), tuple(params))
            return [dict(row) for row in cursor.fetchall()]

    # Each view's queries live in its module; these read through them for the callers that hold a store.
    def campaign_of(self, session_id: str) -> str | None:
        found = sessions.session_of(self, session_id)
        return found[0] if found else None

    def timeline(self, session_id: str, after: int = 0, limit: int = 100, viewer: str | None = None) -> list[dict[str, Any]]:
        return timeline.read(self, session_id, after, limit, viewer)

    def dice_faces(self, campaign_id: str) -> list[dict[str, Any]]:
        return dice_statistics.read(self, campaign_id)

    def game_events(self, campaign_id: str) -> list[dict[str, Any]]:
        return game_events.read(self, campaign_id)

    def game_state(self, session_id: str) -> dict[str, Any]:
        return standing.VIEW.stored_state(self, session_id) or {}

    def standing(self, campaign_id: str) -> dict[str, Any]:
        return standing.read(self, campaign_id)

    def digest(self, campaign_id: str | None = None, tables: Iterable[str] | None = None) -> str:
        """SHA-256 over every view row in a fixed order: equal views, equal digests.
        With a campaign id, over that campaign's rows only (to compare a campaign across databases); with
        ``tables``, over those views' tables only (every view's, the games' included, by default).

        Each row counts as ``json.dumps([table, row], sort_keys=True, default=str)``, the row without
        its local columns; the text is put together here rather than by json.dumps, the same text
        several times faster (a rebuild's digest reads every row of every view)."""
        sha = hashlib.sha256()
        chosen = TABLES if tables is None else {table: TABLES[table] for table in TABLES if table in set(tables)}
        for table, (_, key, of_campaign) in chosen.items():
            where, params = "", ()
            if campaign_id is not None:
                where, params = f"WHERE {of_campaign}", (campaign_id,)
            with self.datastore.transaction(commit=False) as wrapped:  # type: ignore[attr-defined]
                cursor = getattr(wrapped, "sqlite_cursor", wrapped)  # the library wraps sqlite3's cursor
                cursor.execute(self._sql(f"SELECT * FROM {{{table}}} {where} ORDER BY {', '.join(key)}"), params)
                # Positions in the notification log are this database's own: an imported campaign
                # has other ones, so they stay out of the digest (they only order rows).
                columns = sorted(d[0] for d in cursor.description if d[0] not in LOCAL_COLUMNS)
                while rows := cursor.fetchmany(5000):
                    sha.update(_digested(table, columns, rows).encode())
        return sha.hexdigest()


def _digested(table: str, columns: list[str], rows: list[Any]) -> str:
    """``json.dumps([table, {column: row[column]}], sort_keys=True, default=str)`` of each row, joined."""
    opening = f"[{_json(table)}, {{"
    keys = [f"{_json(column)}: " for column in columns]
    return "".join(
        opening + ", ".join([key + _json(row[column]) for key, column in zip(keys, columns)]) + "}]" for row in rows
    )


def _json(value: Any) -> str:
    """``json.dumps(value, default=str)``, quicker for what the views hold (text, integers, NULL)."""
    kind = type(value)
    if kind is str:
        return _json_text(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    return json.dumps(value, sort_keys=True, default=str)


_json_text = json.encoder.encode_basestring_ascii  # what json.dumps writes a str as (ensure_ascii)


class SQLiteViewStore(ViewStore, SQLiteTrackingRecorder):
    def _create_table(self, c: Any) -> None:
        super()._create_table(c)
        self._create_view_tables(c)

    def _name(self, table: str) -> str:
        return table

    def _sql(self, statement: str) -> str:
        return super()._sql(statement).replace("%s", "?")

    def _tracking_table(self) -> str:
        return "tracking"


class PostgresViewStore(ViewStore, PostgresTrackingRecorder):
    def _create_table(self, curs: Any) -> None:
        super()._create_table(curs)
        self._create_view_tables(curs)

    def _name(self, table: str) -> str:
        return f'"{self.datastore.schema}"."{table}"'

    def _tracking_table(self) -> str:
        return f'"{self.datastore.schema}"."{self.tracking_table_name}"'

    copies = True

    def query(self, statement: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        # One statement needs no transaction around it: on the pool's autocommit connection it is one round trip.
        # The library's read transaction (BEGIN, the statement, ROLLBACK) is three, and psycopg drops every
        # statement the connection had prepared on a rollback (DEALLOCATE ALL: a fourth), so no read of the views
        # and no position check was ever answered by a prepared statement.
        with self.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(self._sql(statement), tuple(params))
            return [dict(row) for row in cursor.fetchall()]

    def _empty_views(self, cursor: Any) -> None:
        # TRUNCATE: a DELETE would leave every old row behind as a dead tuple for the rebuild's
        # inserts to wade through until vacuum comes. It waits for readers of the views, briefly.
        cursor.execute(f"TRUNCATE {', '.join(self._name(table) for table in TABLES)}")

    def _begin_batch(self, cursor: Any) -> None:
        # Views are derived and a batch commits with its position: a commit lost in a server crash
        # loses both, and the runner projects those notifications again. So the commit need not wait
        # for the disk.
        cursor.execute("SET LOCAL synchronous_commit = off")

    def _copy(self, cursor: Any, statement: str, rows: list[tuple[Any, ...]]) -> None:
        with cursor.copy(self._copied(statement)) as copy:
            write = copy.write_row
            for row in rows:
                write(row[1:])

    def _copied(self, statement: str) -> str:
        cache = self.__dict__.setdefault("_copied_sql", {})
        if statement not in cache:
            cache[statement] = self._sql(_COPIED[statement])
        return cache[statement]


def open_view_store(env: dict[str, str]) -> ViewStore:
    factory = InfrastructureFactory.construct(env=env)
    module = env["PERSISTENCE_MODULE"]
    store_class = PostgresViewStore if "postgres" in module else SQLiteViewStore
    return factory.tracking_recorder(store_class)  # type: ignore[arg-type]
