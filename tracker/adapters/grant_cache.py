"""Which grants a worker may answer from memory: the token check without a query per request.

Every request with a token asks for its grant (api/access.py). Asking the store costs a query (bench/RESULTS.md:
12% of a roll request's CPU in the running server). A grant changes once at most, when it is revoked, so a worker
may keep the grants it has read, as long as it hears of every revocation:

- on PostgreSQL, each worker LISTENs on a channel of its events table on a connection of its own, and a revocation
  saved by any process sends the revoked grant's id there (``announce``). The channel is read before every answer
  from memory, without a round trip (libpq reads what has already arrived on the socket), and the grant is dropped.
  PostgreSQL signals the listening sessions when the revoking transaction commits, before the revoker hears that
  it committed; the listening session then passes the notification on at once. A reading: "takes effect at once"
  is met as far as that hand-over, which is far shorter than any client's round trip between a revocation's answer
  and its next request.
- in this process, every Tracker's cache drops the grant as the revocation is saved (``forget_everywhere``), so two
  applications in one process (shards, tests) never wait for the notification.
- if the listening connection is lost, everything kept is dropped and every check asks the store again until a new
  connection listens. On SQLite (one file, no notifications) nothing is kept: the check stays one query.

A grant read from the store is kept only if no revocation was heard while it was being read: a revocation that
committed during the read would otherwise be dropped before the grant was kept, and the grant would stay.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from typing import Any
from uuid import UUID

import psycopg
from psycopg.pq import ConnStatus

CHANNEL_SUFFIX = "_grant_revoked"
RELISTEN_AFTER_SECONDS = 1.0  # after a failed attempt to listen, checks ask the store until then

_everywhere: weakref.WeakSet[GrantCache] = weakref.WeakSet()
_everywhere_lock = threading.Lock()


def channel_of(events_table: str, schema: str) -> str:
    """One channel per events table: notifications are per database, and tests keep many schemas in one database."""
    return f"{schema}_{events_table}{CHANNEL_SUFFIX}"[-63:]


class GrantCache:
    """Grants this process has read, by grant id, while a listening connection guarantees it hears of revocations."""

    def __init__(self, connect: Any | None, channel: str) -> None:
        """``connect``: makes an autocommit psycopg connection to the events' database (None: keep nothing)."""
        self._connect, self.channel = connect, channel
        self._kept: dict[UUID, Any] = {}
        self._lock = threading.Lock()
        self._listener: Any = None
        self._pid = 0
        self._next_attempt = 0.0
        self.heard = 0  # revocations heard (and connections lost): a read that spans one is not kept
        with _everywhere_lock:
            _everywhere.add(self)

    def get(self, grant_id: UUID) -> tuple[Any | None, int]:
        """The kept grant (or None) and the count to hand back to ``keep`` after reading it from the store."""
        with self._lock:
            self._hear()
            return self._kept.get(grant_id), self.heard

    def keep(self, grant: Any, heard_before: int) -> None:
        with self._lock:
            self._hear()
            if self._listener is not None and self.heard == heard_before:
                self._kept[grant.id] = grant

    def forget(self, grant_id: UUID) -> None:
        with self._lock:
            self._kept.pop(grant_id, None)
            self.heard += 1

    def announce(self, grant_ids: list[UUID]) -> None:
        """Tell every process (and every application in this one) that these grants were revoked."""
        forget_everywhere(grant_ids)
        if self._connect is None or not grant_ids:
            return
        with self._connect() as conn:
            for grant_id in grant_ids:
                conn.execute("SELECT pg_notify(%s, %s)", (self.channel, str(grant_id)))

    def close(self) -> None:
        with self._lock:
            self._drop_listener()

    def _hear(self) -> None:
        """Read the revocations that have arrived; (re)connect the listener when this process has none."""
        if self._connect is None:
            return
        if self._listener is None or self._pid != os.getpid():  # a forked worker listens on a connection of its own
            self._listener = None
            self._listen()
            return
        try:
            pgconn = self._listener.pgconn
            pgconn.consume_input()  # what has arrived on the socket; never waits
            while (notice := pgconn.notifies()) is not None:
                self._drop(notice.extra)
            # A read that found data does not look for the connection's end (a terminated session sends its
            # error, then closes): a second read does, and raises, so nothing is answered from memory after.
            pgconn.consume_input()
            if pgconn.status != ConnStatus.OK:
                self._drop_listener()
        except (psycopg.Error, OSError):  # a lost connection: nothing kept can be trusted
            self._drop_listener()

    def _listen(self) -> None:
        if time.monotonic() < self._next_attempt:
            return
        try:
            listener = self._connect()
            listener.execute(f'LISTEN "{self.channel}"')
        except (psycopg.Error, OSError):
            self._drop_listener()
            self._next_attempt = time.monotonic() + RELISTEN_AFTER_SECONDS
            return
        self._kept.clear()  # anything kept before this connection listened may have missed a revocation
        self.heard += 1
        self._listener, self._pid = listener, os.getpid()

    def _drop(self, payload: bytes | str) -> None:
        try:
            self._kept.pop(UUID(payload.decode() if isinstance(payload, bytes) else payload), None)
        except ValueError:
            self._kept.clear()
        self.heard += 1

    def _drop_listener(self) -> None:
        self._kept.clear()
        self.heard += 1
        listener, self._listener = self._listener, None
        if listener is not None and self._pid == os.getpid():
            with contextlib.suppress(psycopg.Error, OSError):  # already gone: nothing to close
                listener.close()


def forget_everywhere(grant_ids: list[UUID]) -> None:
    with _everywhere_lock:
        caches = list(_everywhere)
    for cache in caches:
        for grant_id in grant_ids:
            cache.forget(grant_id)
