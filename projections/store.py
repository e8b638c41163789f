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

log = logging.getLogger(__name__)

LOCAL_COLUMNS = {"notification_id", "started"}
VIEWS_VERSION = 5  # bump when a view table's columns (or the summaries written into them) change

TABLES = {
    "view_sessions": (
        "session_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, quest TEXT NOT NULL, outcome TEXT",
        ("session_id",),
    ),
    "view_timeline": (
        "session_id TEXT NOT NULL, position INTEGER NOT NULL, campaign_id TEXT NOT NULL, event_type TEXT NOT NULL, "
        "summary TEXT NOT NULL, issued_by TEXT, occurred_at TEXT NOT NULL, secret_to TEXT, public_summary TEXT NOT NULL, "
        "PRIMARY KEY (session_id, position)",
        ("session_id", "position"),
    ),
    "view_undone": (
        "session_id TEXT NOT NULL, position INTEGER NOT NULL, undone_by INTEGER NOT NULL, PRIMARY KEY (session_id, position)",
        ("session_id", "position"),
    ),
    "view_dice_faces": (
        "campaign_id TEXT NOT NULL, die TEXT NOT NULL, source TEXT NOT NULL, face TEXT NOT NULL, "
        "count INTEGER NOT NULL, PRIMARY KEY (campaign_id, die, source, face)",
        ("campaign_id", "die", "source", "face"),
    ),
    "view_game_events": (
        "notification_id INTEGER PRIMARY KEY, campaign_id TEXT NOT NULL, session_id TEXT NOT NULL, position INTEGER NOT NULL, "
        "event_type TEXT NOT NULL, kind TEXT NOT NULL, change TEXT NOT NULL",
        ("session_id", "position"),
    ),
    "view_game_states": (
        "session_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, quest TEXT NOT NULL, started INTEGER NOT NULL, state TEXT NOT NULL",
        ("session_id",),
    ),
    "view_campaign_progress": ("campaign_id TEXT PRIMARY KEY, progress TEXT NOT NULL", ("campaign_id",)),
}

_WRITES = {
    "session": "INSERT INTO {view_sessions} (session_id, campaign_id, quest, outcome) VALUES (%s, %s, %s, NULL) "
    "ON CONFLICT (session_id) DO NOTHING",
    "session_end": "UPDATE {view_sessions} SET outcome = %s WHERE session_id = %s",
    "timeline": "INSERT INTO {view_timeline} "
    "(session_id, position, campaign_id, event_type, summary, issued_by, occurred_at, secret_to, public_summary) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (session_id, position) DO NOTHING",
    "game_event": "INSERT INTO {view_game_events} (notification_id, campaign_id, session_id, position, event_type, kind, change) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (notification_id) DO NOTHING",
    "game_state_start": "INSERT INTO {view_game_states} (session_id, campaign_id, quest, started, state) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (session_id) DO NOTHING",
    "game_state": "UPDATE {view_game_states} SET state = %s WHERE session_id = %s",
    "progress": "INSERT INTO {view_campaign_progress} AS t (campaign_id, progress) VALUES (%s, %s) "
    "ON CONFLICT (campaign_id) DO UPDATE SET progress = excluded.progress",
    "undone": "INSERT INTO {view_undone} (session_id, position, undone_by) VALUES (%s, %s, %s) "
    "ON CONFLICT (session_id, position) DO NOTHING",
    "dice": "INSERT INTO {view_dice_faces} AS t (campaign_id, die, source, face, count) VALUES (%s, %s, %s, %s, %s) "
    "ON CONFLICT (campaign_id, die, source, face) DO UPDATE SET count = t.count + excluded.count",
}


# Rows that create what later rows of the same batch update are written first.
_CREATING = ("session", "game_state_start")

# Rows one notification alone creates (keyed by its session and version, or its id): PostgreSQL
# takes them by COPY, several times faster than an INSERT per row. The tracking position, moved in
# the same transaction, keeps another batch from writing them again; should a view hold one anyway
# (restored by hand, say), the batch is written again with the INSERTs, which pass over it.
_COPIED = {
    "timeline": "COPY {view_timeline} "
    "(session_id, position, campaign_id, event_type, summary, issued_by, occurred_at, secret_to, public_summary) FROM STDIN",
    "game_event": "COPY {view_game_events} (notification_id, campaign_id, session_id, position, event_type, kind, change) FROM STDIN",
}


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
    dice: dict[tuple[Any, ...], int] = {}
    states: dict[str, tuple[Any, ...]] = {}
    for row in rows:
        kind = row[0]
        if kind == "dice":
            key = row[1:5]
            dice[key] = dice.get(key, 0) + row[5]
            groups.setdefault("dice", [])
        elif kind == "game_state":
            states[row[2]] = row
            groups.setdefault("game_state", [])
        else:
            groups.setdefault(kind, []).append(row)
    if dice:  # in key order, so two runners racing over one batch take the rows' locks in one order
        groups["dice"] = [("dice", *key, count) for key, count in sorted(dice.items())]
    if states:
        groups["game_state"] = list(states.values())
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
        for table, (columns, _) in TABLES.items():
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

    def campaign_of(self, session_id: str) -> str | None:
        rows = self.query("SELECT campaign_id FROM {view_sessions} WHERE session_id = %s", (session_id,))
        return rows[0]["campaign_id"] if rows else None

    def timeline(self, session_id: str, after: int = 0, limit: int = 100, viewer: str | None = None) -> list[dict[str, Any]]:
        """The timeline as ``viewer``'s side may read it (None: everything, as the owner or after the quest),
        undone actions marked with the position of the undo."""
        rows = self.query(
            "SELECT t.position, t.event_type, t.summary, t.issued_by, t.occurred_at, t.secret_to, t.public_summary, u.undone_by "
            "FROM {view_timeline} t LEFT JOIN {view_undone} u ON u.session_id = t.session_id AND u.position = t.position "
            "WHERE t.session_id = %s AND t.position > %s ORDER BY t.position LIMIT %s",
            (session_id, after, limit),
        )
        for row in rows:
            secret_to, public = row.pop("secret_to"), row.pop("public_summary")
            if viewer is not None and secret_to is not None and secret_to != viewer:
                row["summary"] = public
        return rows

    def dice_faces(self, campaign_id: str) -> list[dict[str, Any]]:
        return self.query(
            "SELECT die, source, face, count FROM {view_dice_faces} WHERE campaign_id = %s ORDER BY die, source, face",
            (campaign_id,),
        )

    def game_events(self, campaign_id: str) -> list[dict[str, Any]]:
        """A campaign's game events (the rulesets' own changes) in log order, with their session's quest and
        outcome, less those an undo reverted (the log keeps them; standings and ledgers must not count them)."""
        rows = self.query(
            "SELECT g.session_id, g.position, g.event_type, g.kind, g.change, s.quest, s.outcome FROM {view_game_events} g "
            "JOIN {view_sessions} s ON s.session_id = g.session_id "
            "LEFT JOIN {view_undone} u ON u.session_id = g.session_id AND u.position = g.position "
            "WHERE g.campaign_id = %s AND u.position IS NULL ORDER BY g.notification_id",
            (campaign_id,),
        )
        return [{**row, "change": json.loads(row["change"])} for row in rows]

    def game_state(self, session_id: str) -> dict[str, Any]:
        rows = self.query("SELECT state FROM {view_game_states} WHERE session_id = %s", (session_id,))
        return json.loads(rows[0]["state"]) if rows else {}

    def standing(self, campaign_id: str) -> dict[str, Any]:
        """The campaign's progress at its last quest's end, and the game state of its latest session."""
        progress = self.query("SELECT progress FROM {view_campaign_progress} WHERE campaign_id = %s", (campaign_id,))
        latest = self.query(
            "SELECT session_id, quest, state FROM {view_game_states} WHERE campaign_id = %s ORDER BY started DESC LIMIT 1",
            (campaign_id,),
        )
        return {
            "progress": json.loads(progress[0]["progress"]) if progress else {},
            "latest_session": {"session_id": latest[0]["session_id"], "quest": latest[0]["quest"], "game": json.loads(latest[0]["state"])}
            if latest
            else None,
        }

    def digest(self, campaign_id: str | None = None) -> str:
        """SHA-256 over every view row in a fixed order: equal views, equal digests.
        With a campaign id, over that campaign's rows only (to compare a campaign across databases).

        Each row counts as ``json.dumps([table, row], sort_keys=True, default=str)``, the row without
        its local columns; the text is put together here rather than by json.dumps, the same text
        several times faster (a rebuild's digest reads every row of every view)."""
        sha = hashlib.sha256()
        for table, (_, key) in TABLES.items():
            where, params = "", ()
            if campaign_id is not None:
                where = (
                    "WHERE session_id IN (SELECT session_id FROM {view_sessions} WHERE campaign_id = %s)"
                    if table == "view_undone"
                    else "WHERE campaign_id = %s"
                )
                params = (campaign_id,)
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
