"""A projection runner for every shard, one added while the process runs included.

`tracker shards add` writes the new shard's row in the home database. The processes that project
(`tracker serve`'s workers, `tracker project`) look at the shards every SHARD_WATCH_SECONDS and start a
runner for each one they have none for, so no restart is needed. Starting one live is as safe as the
runners started at launch: several processes already project each shard at once (every worker of
`tracker serve` runs a runner per shard), and a runner commits its view rows with its tracking position,
once per position, whoever else projects the same log.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger(__name__)

SHARD_WATCH_SECONDS = 5.0


class EveryShard:
    """``runners()``: each shard's runner by name, read afresh each time (a new shard appears in it)."""

    def __init__(self, runners: Callable[[], Mapping[str, Any]], stop: threading.Event, daemon: bool = True,
                 interval: float | None = None) -> None:
        self._runners = runners
        self.stop = stop
        self.daemon = daemon
        self.interval = SHARD_WATCH_SECONDS if interval is None else interval
        self.threads: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()

    def start_new(self) -> list[str]:
        """Start a runner for each shard that has none here; returns the shards started."""
        started = []
        with self._lock:
            for name, runner in self._runners().items():
                if name in self.threads:
                    continue
                thread = threading.Thread(target=runner.run_forever, args=(self.stop,), name=f"projections-{name}", daemon=self.daemon)
                thread.start()
                self.threads[name] = thread
                started.append(name)
        return started

    def watch(self, announce: Callable[[str], None] | None = None) -> threading.Thread:
        """Start the runners now, then look for new shards every ``interval`` seconds until ``stop``."""

        def look() -> None:
            while not self.stop.wait(self.interval):
                try:
                    for name in self.start_new():
                        log.info("projecting shard %s, added while this process ran", name)
                        if announce:
                            announce(name)
                except Exception:  # the home database away: look again next time
                    log.warning("could not read the shards to project", exc_info=True)

        for name in self.start_new():
            if announce:
                announce(name)
        watcher = threading.Thread(target=look, name="projections-shard-watch", daemon=True)
        watcher.start()
        return watcher

    def join(self) -> None:
        """Wait for every runner (they end when ``stop`` is set), those started meanwhile included."""
        while True:
            with self._lock:
                waiting = [t for t in self.threads.values() if t.is_alive()]
            if not waiting:
                return
            for thread in waiting:
                thread.join()
