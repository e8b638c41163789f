"""Without a PostgreSQL server the PostgreSQL tests skip loudly, and CI (TRACKER_REQUIRE_POSTGRES=1) fails instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOWHERE = "postgresql://postgres@127.0.0.1:9/nowhere"  # the discard port: nothing answers


def _run(require: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TRACKER_TEST_DATABASE_URL": NOWHERE, "TRACKER_REQUIRE_POSTGRES": require}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", "tests/test_application.py", "-k", "paged"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


def test_postgres_tests_skip_with_the_reason_in_the_summary():
    result = _run("")
    assert result.returncode == 0, result.stdout
    assert "1 passed, 1 skipped" in result.stdout
    assert f"TRACKER_TEST_DATABASE_URL={NOWHERE} does not answer" in result.stdout


def test_with_postgres_required_a_missing_server_fails_the_run():
    result = _run("1")
    assert result.returncode != 0
    assert "TRACKER_REQUIRE_POSTGRES=1 but" in result.stdout
