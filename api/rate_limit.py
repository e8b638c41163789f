"""The per-token write limit (TRACKER_RATE_LIMIT) with Flask-Limiter: every write a token makes (any method but
GET, HEAD and OPTIONS, once the access check has found its token) counts into one window per token, in the storage
tracker/adapters/rate_limits.py chose (Redis, the PostgreSQL database, or this worker's memory on SQLite). Past the
limit: 429 with Retry-After, as problem+json, and nothing recorded."""

from __future__ import annotations

import logging
import math
import time

from flask import Flask, g, request
from flask_limiter import Limiter, RequestLimit

from api import problems
from tracker.adapters.rate_limits import WriteLimit

READS = ("GET", "HEAD", "OPTIONS")
log = logging.getLogger(__name__)


def install(app: Flask, limit: WriteLimit | None) -> Limiter | None:
    """After the access check (whose grant names the token), so registered after it."""
    if limit is None:
        return None

    def refused(breached: RequestLimit):
        seconds = max(1, math.ceil(breached.reset_at - time.time()))
        return problems.problem(
            429, "Too many writes with this token; wait and retry",
            f"This service accepts {limit.rate} writes per {limit.per} seconds per token.",
            headers={"Retry-After": str(seconds)},
        )

    limiter = Limiter(
        key_func=lambda: g.grant.token_id if g.get("grant") is not None else "",
        app=app,
        application_limits=[limit.text],
        application_limits_exempt_when=lambda: request.method in READS or g.get("grant") is None,
        strategy="fixed-window",
        storage_uri=limit.storage_uri,
        key_prefix="tracker-writes",
        on_breach=refused,
        # A storage that does not answer (Redis down) lets the write through, logged: limiting is not worth an outage.
        swallow_errors=True,
    )
    return limiter
