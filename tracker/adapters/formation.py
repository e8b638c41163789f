"""Which server of a PostgreSQL formation answers, and how its standbys replicate: what an operator reads in /health
and `tracker shards list` (README "Failover").

Asked of the server the service's connections reach (with a formation's multi-host URL and
``target_session_attrs=read-write``, the primary). ``pg_stat_replication`` lists the standbys streaming from it:
``sync_state`` is ``sync`` or ``quorum`` for a standby a commit waits for, ``async`` for one it does not. Without a
synchronous standby (a lone server, or a promoted one whose standby has not come back: pg_auto_failover's
wait_primary) a commit is on one server only, and ``synchronous`` says so. The replication columns need the
``pg_monitor`` role (or a superuser); without it they read as null, and the report says who answered all the same.
"""

from __future__ import annotations

from typing import Any

STATEMENT = """
SELECT host(inet_server_addr()) AS host, inet_server_port() AS port, pg_is_in_recovery() AS in_recovery,
       current_setting('synchronous_standby_names') AS synchronous_standby_names,
       (SELECT coalesce(json_agg(json_build_object(
            'name', application_name, 'address', host(client_addr), 'state', state, 'sync_state', sync_state,
            'replay_behind_bytes', (pg_current_wal_lsn() - replay_lsn)::bigint) ORDER BY application_name), '[]'::json)
          FROM pg_stat_replication WHERE NOT pg_is_in_recovery()) AS standbys
"""


def report(conn: Any) -> dict[str, Any]:
    """The answering server, its role, and its standbys, read on ``conn`` (a psycopg connection, tuple or dict rows)."""
    row = conn.execute(STATEMENT).fetchone()
    host, port, in_recovery, names, standbys = row.values() if isinstance(row, dict) else row
    standbys = list(standbys or [])
    return {
        "answering": f"{host or 'local socket'}:{port}",
        "role": "standby" if in_recovery else "primary",
        "synchronous": any(s.get("sync_state") in ("sync", "quorum") for s in standbys),
        "synchronous_standby_names": names or "",
        "standbys": standbys,
    }


def of_recorder(recorder: Any) -> dict[str, Any] | None:
    """The report for an event store's recorder on PostgreSQL; None on SQLite (one file: nothing to fail over)."""
    datastore = getattr(recorder, "datastore", None)
    if datastore is None or not type(datastore).__module__.startswith("eventsourcing.postgres"):
        return None
    with datastore.get_connection() as conn:
        return report(conn)
