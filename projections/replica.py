"""Reading the views from a streaming replica, and falling back to the primary when the replica is behind.

A replica of a shard's database carries its views and their tracking position, a little behind the
primary. A read that names a ``min_position`` (a notification position the caller has seen, e.g. from
a command it just made and the views' ``projected_to`` afterwards) waits up to ``wait`` seconds for the
replica's views to reach it, then reads the primary's instead; a read without one takes the replica as
it is. The position compared is the views' own tracking position (the one every view answer reports
as ``projected_to``), read from the replica in one query.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from eventsourcing.persistence import OperationalError, ProgrammingError

log = logging.getLogger(__name__)

POLL_SECONDS = 0.02


def choose(primary: Any, replica: Any, min_position: int | None, wait: float) -> tuple[Any, str]:
    """The views to read (a runner with ``store`` and ``position``), and which they are: "replica" or "primary"."""
    deadline = time.monotonic() + wait
    while True:
        try:
            position = replica.position
        except (OperationalError, OSError) as error:  # a replica that does not answer is skipped, not waited for
            log.warning("views replica unavailable, reading the primary: %s", error)
            return primary, "primary"
        except ProgrammingError:  # the replica has not replayed the views' tables yet: it is behind, not broken
            position = None
        if position is not None and (min_position is None or position >= min_position):
            return replica, "replica"
        if position is None and min_position is None or time.monotonic() >= deadline:
            return primary, "primary"
        time.sleep(POLL_SECONDS)
