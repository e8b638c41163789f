"""Each session's game changes (what hero progress reads), read once and then read on from where it stopped.

Hero progress folds the changes of every session of a campaign. Read in full each time, that
read grows with the log: 100,000 rolls in a session are 100,000 events to decode for a handful
of karma and weapon changes. Events are never changed or removed, so what was read once stays
true: this cache keeps, per session, the changes read so far and the version read up to, and a
read asks the store only for the events after that version (one query, usually empty). Several
processes stay consistent, as with the library's aggregate cache with fast-forward: whatever
another process appended is read on the next call. Bounded: the least recently read sessions
are forgotten first, and simply read in full again when asked.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import EventStore


@dataclass(frozen=True)
class GameChange:
    position: int
    type: str
    change: dict[str, Any]


class GameHistory:
    def __init__(self, maxsize: int = 1000) -> None:
        self.maxsize = maxsize
        self._read: OrderedDict[UUID, tuple[int, tuple[GameChange, ...], frozenset[int]]] = OrderedDict()
        self._lock = threading.Lock()

    def changes(self, events: EventStore, session_id: UUID, kinds: Collection[str]) -> tuple[GameChange, ...]:
        """The session's events that carry a change of one of ``kinds``, in order, less those an
        ActionUndone reverted (the log keeps them; progress must not count them)."""
        with self._lock:
            version, known, undone = self._read.get(session_id, (0, (), frozenset()))
        new: list[GameChange] = []
        reverted: set[int] = set()
        for event in events.get(session_id, gt=version):
            version = event.originator_version
            if type(event).__name__ == "ActionUndone":
                reverted.update(e["position"] for e in event.reverses["events"])
                continue
            change = getattr(event, "change", None)
            if change is not None and change["kind"] in kinds:
                new.append(GameChange(event.originator_version, type(event).__name__, change))
        changes, undone = known + tuple(new), undone | reverted
        with self._lock:
            # another thread may have read further meanwhile: keep whichever read reached further
            if self._read.get(session_id, (0, (), frozenset()))[0] <= version:
                self._read[session_id] = (version, changes, undone)
            self._read.move_to_end(session_id)
            while len(self._read) > self.maxsize:
                self._read.popitem(last=False)
        return tuple(change for change in changes if change.position not in undone)
