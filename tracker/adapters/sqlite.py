"""SQLite persistence: the library's application recorder, its insert without three layers of context managers.

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
