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
        if os.environ.get("TRACKER_REQUIRE_REDIS") == "1":  # CI (.ci/run): a missing Redis fails the run
            pytest.fail(f"TRACKER_REQUIRE_REDIS=1 but no Redis at {REDIS_URL}: {error}", pytrace=False)
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


def _rolls_by_worker(metrics_dir: Path) -> dict[str, float]:
    """How many rolls each worker has answered, from the counts it keeps in a file of its own (api/metrics.py)."""
    from prometheus_client.mmap_dict import MmapedDict

    return {counts.name: sum(value for key, value, *_ in MmapedDict.read_all_values_from_file(str(counts)) if "rollDice" in key)
            for counts in metrics_dir.glob("counter_*.db")}


def _writes_accepted(base: str, metrics_dir: Path) -> tuple[list[int], int]:
    """A campaign and a session (a write), then rolls on separate connections: the statuses of the rolls, and how
    many workers answered some of them."""
    deadline = time.monotonic() + 60
    with ThreadPoolExecutor(max_workers=4) as pool:  # reads until both workers serve (the second may still be warming up)
        while len(list(metrics_dir.glob("counter_*.db"))) < 2 and time.monotonic() < deadline:
            list(pool.map(lambda _: call(base, "GET", "/rulesets"), range(8)))
    status, campaign = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Limited"})
    assert status == 201  # public: no token, so no token's limit
    status, session = call(base, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    assert status == 201
    before = _rolls_by_worker(metrics_dir)
    with ThreadPoolExecutor(max_workers=6) as pool:
        statuses = list(pool.map(lambda _: call(base, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d6": 1}})[0], range(12)))
    after = _rolls_by_worker(metrics_dir)
    return statuses, sum(after[name] > before.get(name, 0) for name in after)


@pytest.mark.parametrize("where", ["redis", "postgresql"])
def test_at_most_five_writes_in_the_window_across_two_workers(where, postgres_url, tmp_path, request):
    redis_url = _redis_or_skip() if where == "redis" else None
    process, base, log_path = _limited_server(postgres_url, tmp_path, request, redis_url)
    try:
        for _ in range(3):  # a new token each time, until this token's rolls reached both workers
            statuses, workers = _writes_accepted(base, tmp_path / "metrics")
            # The session's start was the token's first write: four rolls more, the other eight refused.
            assert sorted(statuses) == [201] * 4 + [429] * 8, statuses
            if workers == 2:
                break
        assert workers == 2, "one worker answered every roll: the test would prove nothing"
    finally:
        stop(process, log_path, request)
