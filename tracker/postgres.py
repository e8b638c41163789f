"""PostgreSQL persistence that fails fast when the database is down.

The eventsourcing library retries each database call ten times when a
connection fails, and each try waits for the pool: a request during an outage
would hang for the whole outage. Here a call fails once the pool's connect
timeout passes, the API answers 503 with Retry-After, and the client decides
when to retry (with its Idempotency-Key, safely). Version conflicts and every
other error behave exactly as in the library.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresAggregateRecorder, PostgresApplicationRecorder, PostgresFactory


def _unretried(method: Any) -> Any:
    return getattr(method, "__wrapped__", method)


class FailFastAggregateRecorder(PostgresAggregateRecorder):
    insert_events = _unretried(PostgresAggregateRecorder.insert_events)
    select_events = _unretried(PostgresAggregateRecorder.select_events)


class FailFastApplicationRecorder(PostgresApplicationRecorder):
    insert_events = _unretried(PostgresApplicationRecorder.insert_events)
    select_events = _unretried(PostgresAggregateRecorder.select_events)
    select_notifications = _unretried(PostgresApplicationRecorder.select_notifications)
    max_notification_id = _unretried(PostgresApplicationRecorder.max_notification_id)


class FailFastPostgresFactory(PostgresFactory):
    aggregate_recorder_class = FailFastAggregateRecorder
    application_recorder_class = FailFastApplicationRecorder
