"""Every gunicorn worker builds the PostgreSQL write-limit storage at boot, all at once (api/rate_limit.py): the
table they count in must come out of that race once, with no worker failing to boot. CI once failed on exactly
this, a worker's `CREATE TABLE IF NOT EXISTS` losing to another's on PostgreSQL's catalogue index."""

from __future__ import annotations

import threading
import pytest

from tracker.adapters.postgres_rate_limits import PostgresWindows
from tracker.adapters.rate_limits import storage_uri

pytestmark = pytest.mark.postgres


def _boot_at_once(uri: str, builders: int) -> tuple[list[PostgresWindows], list[BaseException]]:
    start = threading.Barrier(builders)
    built: list[PostgresWindows] = []
    failures: list[BaseException] = []

    def boot() -> None:
        start.wait()
        try:
            built.append(PostgresWindows(uri))
        except BaseException as error:  # noqa: BLE001 - the test reports every worker that failed to boot
            failures.append(error)

    threads = [threading.Thread(target=boot) for _ in range(builders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return built, failures


@pytest.mark.parametrize("boot", range(4))  # the race is a matter of timing: several boots from no table at all
def test_many_workers_building_the_storage_at_once_all_boot_and_count_in_one_table(boot, postgres_url):
    builders = 12
    built, failures = _boot_at_once(storage_uri(postgres_url, redis_url=None), builders)
    try:
        assert failures == []
        assert len(built) == builders
        # One table: what one worker counted, every other reads.
        assert built[0].incr("token-a/writes", 60) == 1
        assert [storage.get("token-a/writes") for storage in built] == [1] * builders
        assert built[-1].incr("token-a/writes", 60) == 2
    finally:
        for storage in built:
            storage.pool.close()
