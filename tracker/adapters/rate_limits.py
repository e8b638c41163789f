"""Per-token write limits: TRACKER_RATE_LIMIT (tracker/settings.py) and where the writes are counted, so that the
limit holds for the whole service and not per worker: in Redis when REDIS_URL is set, else in the PostgreSQL
database the service already has (tracker/adapters/postgres_rate_limits.py), else (the embedded SQLite default, one
machine) in each worker's memory. The REST API counts them with Flask-Limiter (api/rate_limit.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from urllib.parse import quote

from tracker.adapters import postgres_rate_limits, postgres_url  # the first registers its scheme with the limits library

MEMORY = "memory://"


@dataclass(frozen=True)
class WriteLimit:
    """``rate`` writes per ``per`` seconds per token, counted in ``storage_uri`` (a storage of the limits library)."""

    rate: int
    per: int
    storage_uri: str

    @property
    def text(self) -> str:
        return f"{self.rate} per {self.per} second"

    @property
    def shared(self) -> bool:
        """Whether every worker (and every server on the same storage) counts into one window."""
        return self.storage_uri != MEMORY


def storage_uri(database_url: str, redis_url: str | None) -> str:
    if redis_url:
        return redis_url
    if postgres_url.is_postgres(database_url):
        return f"{postgres_rate_limits.SCHEME}://?url={quote(database_url, safe='')}"
    return MEMORY


def parse_rate_limit(setting: str | None, database_url: str = "sqlite://", redis_url: str | None = None) -> WriteLimit | None:
    """'30/10' means 30 writes per 10 seconds per token; empty or 'off' disables limiting."""
    if not setting or setting.strip().lower() == "off":
        return None
    rate, _, per = setting.partition("/")
    return WriteLimit(int(rate), max(1, math.ceil(float(per or 1))), storage_uri(database_url, redis_url))
