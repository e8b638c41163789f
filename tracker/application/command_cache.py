"""Where a command starts from: the aggregate this process last saved, handed over, not copied.

Without it a command loads its session fresh each time: one query for events newer
than the library's cached copy (which, right after this process saved, is always
the event it just wrote) and a deep copy of the aggregate. Starting from the object
the last command saved skips both, and stays correct because of two rules in
``WritePath.execute`` (tracker/application/unit_of_work.py):

- every aggregate taken from here is one the command writes, so if another process
  wrote it meanwhile, the save fails on the store's (id, version) uniqueness and the
  command runs again from a fresh load;
- a command that refuses (any 4xx) after starting from here runs again from a fresh
  load before it answers, so no refusal rests on a state that was out of date.

``take`` removes the aggregate: one command at a time holds it, so no copy is needed
to keep commands apart. It comes back only with ``put`` after a successful save; a
command that fails part-way never puts back what it may have half changed, and a
second command on the same aggregate meanwhile simply loads fresh.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate


class CommandCache:
    """The aggregates kept, by the integer of their id (``UUID.int``: a UUID's hash and equality are Python code,
    called on every look-up; its integer's are not)."""

    def __init__(self, maxsize: int = 1000) -> None:
        self.maxsize = maxsize
        self._kept: OrderedDict[int, Aggregate] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, aggregate_id: UUID) -> Any | None:
        """The aggregate as this process last saved it, now the caller's alone; or None."""
        with self._lock:
            return self._kept.pop(aggregate_id.int, None)

    def put(self, aggregate: Aggregate) -> None:
        """Keep a just-saved aggregate, unless a newer one is kept (threads may finish out of order).
        The caller must not touch it afterwards."""
        aggregate_id = aggregate.id.int  # (a property of the library's: read once)
        with self._lock:
            kept = self._kept.get(aggregate_id)
            if kept is not None and kept.version >= aggregate.version:
                return
            self._kept[aggregate_id] = aggregate
            self._kept.move_to_end(aggregate_id)
            while len(self._kept) > self.maxsize:
                self._kept.popitem(last=False)

    def version(self, aggregate_id: UUID) -> int | None:
        """The version kept, if any (for tests and diagnostics)."""
        with self._lock:
            kept = self._kept.get(aggregate_id.int)
            return None if kept is None else kept.version

    def __len__(self) -> int:
        return len(self._kept)


class Turns:
    """One command at a time per scope (a session, a campaign) in this process.

    Commands on one session from several threads would otherwise all but one start
    from a fresh load and then lose the race to save: each waits its turn instead and
    starts from the aggregate the one before it saved. Other processes still race,
    and the store's optimistic concurrency settles that."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._turns: dict[str, tuple[threading.Lock, int]] = {}  # scope -> (its lock, commands waiting or running)

    def __call__(self, scope: str) -> _Turn:
        """``with turns(scope):`` waits for the scope's turn and holds it to the end of the block."""
        return _Turn(self, scope)

    def _join(self, scope: str) -> threading.Lock:
        with self._lock:
            lock, waiting = self._turns.get(scope) or (threading.Lock(), 0)
            self._turns[scope] = (lock, waiting + 1)
        return lock

    def _leave(self, scope: str, lock: threading.Lock) -> None:
        with self._lock:
            waiting = self._turns[scope][1] - 1
            if waiting:
                self._turns[scope] = (lock, waiting)
            else:
                del self._turns[scope]

    def __len__(self) -> int:
        return len(self._turns)


class _Turn:
    """One command's turn in its scope: join the scope's queue, take its lock; release it and leave, whatever happens
    (a context manager class, not a generator: a command pays for two calls, not contextlib's five)."""

    __slots__ = ("lock", "scope", "turns")

    def __init__(self, turns: Turns, scope: str) -> None:
        self.turns = turns
        self.scope = scope

    def __enter__(self) -> None:
        lock = self.lock = self.turns._join(self.scope)
        try:
            lock.acquire()
        except BaseException:
            self.turns._leave(self.scope, lock)
            raise

    def __exit__(self, *exc: object) -> None:
        try:
            self.lock.release()
        finally:
            self.turns._leave(self.scope, self.lock)
