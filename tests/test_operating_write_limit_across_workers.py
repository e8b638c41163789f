"""TRACKER_RATE_LIMIT across gunicorn's workers (issue 34): with 5/60 and two workers, at most 5 writes of a token are
accepted in the window, whichever worker each lands on, counted in Redis (REDIS_URL) or in the PostgreSQL database."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.kit.server import BIN, call, free_port, start, stop

pytestmark = pytest.mark.server
REDIS_URL = "redis://127.0.0.1:6379/0"


def _redis_or_skip() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as error:
        pytest.skip(f"no Redis at {REDIS_URL}: {error}")
    return REDIS_URL


def _limited_server(database_url: str, tmp_path: Path, request: pytest.FixtureRequest, redis_url: str | None):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "WEB_CONCURRENCY": "2", "TRACKER_RATE_LIMIT": "5/60",
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    # Sync workers answer one request at a time each, so concurrent writes land on both (gthread workers may take them all).
    return start([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "-k", "sync", "api.wsgi:app"], env, tmp_path, port)


def _writes_accepted(base: str, metrics_dir: Path) -> tuple[list[int], int]:
    """A campaign and a session (a write), then rolls on separate connections: the statuses of the rolls, and how
    many workers answered rolls."""
    deadline = time.monotonic() + 60
    with ThreadPoolExecutor(max_workers=4) as pool:  # reads until both workers serve (the second may still be warming up)
        while len(list(metrics_dir.glob("counter_*.db"))) < 2 and time.monotonic() < deadline:
            list(pool.map(lambda _: call(base, "GET", "/rulesets"), range(8)))
    status, campaign = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Limited"})
    assert status == 201  # public: no token, so no token's limit
    status, session = call(base, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    assert status == 201
    with ThreadPoolExecutor(max_workers=4) as pool:
        statuses = list(pool.map(lambda _: call(base, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d6": 1}})[0], range(12)))
    # Each worker counts its commands in a file of its own (api/metrics.py): those naming rollDice answered a roll.
    return statuses, sum(b"rollDice" in counts.read_bytes() for counts in metrics_dir.glob("counter_*.db"))


@pytest.mark.parametrize("where", ["redis", "postgresql"])
def test_at_most_five_writes_in_the_window_across_two_workers(where, postgres_url, tmp_path, request):
    redis_url = _redis_or_skip() if where == "redis" else None
    process, base, log_path = _limited_server(postgres_url, tmp_path, request, redis_url)
    try:
        statuses, workers = _writes_accepted(base, tmp_path / "metrics")
        # The session's start was the token's first write: four rolls more, the other eight refused.
        assert sorted(statuses) == [201] * 4 + [429] * 8, statuses
        assert workers == 2, "one worker answered every roll: the test would prove nothing"
        status, problem = call(base, "POST", "/sessions/anything/rolls", {"dice": {"d6": 1}})
        assert status in (404, 429)  # another path, the same token: still limited, or not found before the count
    finally:
        stop(process, log_path, request)
