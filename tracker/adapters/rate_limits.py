"""Per-token write limits: TRACKER_RATE_LIMIT (tracker/settings.py) as buckets the REST API takes a write from
(api/access.py answers 429 with Retry-After when one is empty)."""

from __future__ import annotations

import threading
import time


class TokenBuckets:
    """Per-token write allowance: ``rate`` writes per ``per`` seconds, refilled continuously."""

    def __init__(self, rate: int, per: float) -> None:
        self.rate, self.per = rate, per
        self.buckets: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def take(self, key: str, now: float | None = None) -> float:
        """Take one write; returns 0 if allowed, else the seconds until one is available."""
        now = time.monotonic() if now is None else now
        with self.lock:
            tokens, last = self.buckets.get(key, (float(self.rate), now))
            tokens = min(float(self.rate), tokens + (now - last) * self.rate / self.per)
            if tokens >= 1:
                self.buckets[key] = (tokens - 1, now)
                return 0.0
            self.buckets[key] = (tokens, now)
            return (1 - tokens) * self.per / self.rate


def parse_rate_limit(setting: str | None) -> TokenBuckets | None:
    """'30/10' means 30 writes per 10 seconds per token; empty or 'off' disables limiting."""
    if not setting or setting.strip().lower() == "off":
        return None
    rate, _, per = setting.partition("/")
    return TokenBuckets(int(rate), float(per or 1))
