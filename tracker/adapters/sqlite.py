"""SQLite persistence: the library's application recorder, its insert without three layers of context managers (and
one event's insert as one statement).

The library's ``insert_events`` takes the writer's connection, begins, inserts, commits and gives the connection
back through three generator context managers (the datastore's transaction, its connection, the connection's
transaction) around its own transaction and cursor objects: about a fifth of the Python calls a one-event command
makes on its way to the commit. Here the same objects are used in the same order (the pool's writer connection,
``SQLiteTransaction``'s BEGIN, its commit or rollback and its translation of sqlite3's errors into the library's:
an IntegrityError stays an optimistic-concurrency conflict), called directly, and the rows are inserted on sqlite3's
own cursor as the library's ``_insert_events`` inserts them through its wrapper. tracker/adapters/config.py selects
it with the library's APPLICATION_RECORDER_TOPIC setting.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteTransaction

TOPIC = "tracker.adapters.sqlite:DirectSQLiteApplicationRecorder"


class DirectSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        pool = self.datastore.pool
        connection = pool.get_connection(is_writer=True)
        try:
            if len(stored_events) == 1:
                return self._insert_one(connection, stored_events[0])
            transaction = SQLiteTransaction(connection, commit=True)
            cursor = transaction.__enter__()  # BEGIN
            try:
                ids = self._insert_rows(cursor.sqlite_cursor, stored_events)
            except BaseException as error:
                cursor.__exit__()
                transaction.__exit__(type(error), error, error.__traceback__)  # rolls back; raises the library's error
                raise
            cursor.__exit__()
            transaction.__exit__(None, None, None)  # commits
            return ids
        finally:
            pool.put_connection(connection)

    def _insert_one(self, connection: Any, stored: StoredEvent) -> list[int]:
        """One event (a roll's, a draw's): its INSERT alone, which the writer's connection (in sqlite3's autocommit mode,
        as the library opens it) runs as its own transaction, committed when it succeeds and rolled back when it fails,
        as BEGIN, the INSERT and COMMIT would be. One statement, not three: sqlite3 keeps one prepared statement per
        connection (the library's ``cached_statements=True``), so BEGIN and the INSERT each parsed the other out of it
        and both were compiled again on every command, as COMMIT (``Connection.commit``) is: about 45 thousand
        instructions a command. A failure is raised as the library's error, by the library's own translation."""
        cursor = connection._sqlite_conn.cursor()
        try:
            return self._insert_rows(cursor, (stored,))
        except sqlite3.Error as error:
            # rolls back (nothing to roll back: the statement's own transaction ended with it) and raises it translated
            SQLiteTransaction(connection, commit=True).__exit__(type(error), error, error.__traceback__)
            raise
        finally:
            cursor.close()

    def _insert_rows(self, cursor: sqlite3.Cursor, stored_events: Sequence[StoredEvent]) -> list[int]:
        """The library's ``_insert_events`` for an application recorder (each event's row, its rowid its notification
        id), on sqlite3's own cursor rather than through the library's wrapper of it."""
        statement = self.insert_events_statement
        ids = []
        for s in stored_events:
            originator_id = s.originator_id.hex if isinstance(s.originator_id, UUID) else s.originator_id
            cursor.execute(statement, (originator_id, s.originator_version, s.topic, s.state))
            ids.append(cursor.lastrowid)
        return ids
