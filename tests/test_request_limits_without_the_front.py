"""Requests over the URL and header limits answer problem+json from gunicorn itself, with no proxy in front:
plain gunicorn on gunicorn.conf.py (the worker answers the requests it cannot read) and `tracker serve`, as
they answer through the front (tests/test_front.py, the same requests: tests/kit/front.py's OVER_LIMITS)."""

from __future__ import annotations

import os

import pytest

from tests.kit.front import OVER_LIMITS, assert_a_problem as _assert_a_problem, exchange as _exchange
from tests.kit.server import BIN, free_port as _free_port, start as _start

pytestmark = pytest.mark.server


@pytest.fixture(scope="module", params=["gunicorn", "tracker serve"])
def plain_gunicorn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """No proxy: the gunicorn.conf.py worker itself answers the requests it cannot read."""
    tmp_path = tmp_path_factory.mktemp("plain")
    port = _free_port()
    url = f"sqlite:///{tmp_path / 'tracker.sqlite3'}"
    if request.param == "gunicorn":
        command = [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.wsgi:app"]
    else:
        command = [str(BIN / "tracker"), "serve", "--port", str(port), "--workers", "1", "--no-request-log"]
    env = {**os.environ, "DATABASE_URL": url, "PORT": str(port), "WEB_CONCURRENCY": "1"}
    process, base, _ = _start(command, env, tmp_path, port)
    yield base
    process.terminate()
    process.wait(timeout=30)


@pytest.mark.parametrize("case", list(OVER_LIMITS))
def test_over_long_urls_and_headers_answer_problem_json_from_plain_gunicorn(plain_gunicorn, case):
    raw, expected, word = OVER_LIMITS[case]
    _assert_a_problem(*_exchange(plain_gunicorn, raw), expected, word)
