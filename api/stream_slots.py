"""How many Server-Sent Event streams one worker may hold open at once.

A stream holds one of the worker's threads for as long as it is open, so a few idle streams
(creating a campaign is public, so anyone can hold some) took every thread and stalled the whole
service. Streams beyond the cap are answered 503 with Retry-After; the cap is kept below the
worker's thread count, so commands always find a thread.
"""

from __future__ import annotations

import threading

# Longest a stream stays open, and longest ?wait= may ask for: a client reconnects with
# Last-Event-ID and loses nothing, while a slot cannot be held for ever.
MAX_STREAM_SECONDS = 300.0
RETRY_AFTER_SECONDS = 5


class StreamSlots:
    """``cap``: TRACKER_STREAMS_PER_WORKER, else half the worker's threads (tracker/settings.py)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """One more open stream, if the cap allows it."""
        with self._lock:
            if self.open >= self.cap:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open -= 1
