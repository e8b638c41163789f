"""A session's live page stream through the production front (`tracker front`: nginx buffering requests in front of
gunicorn, api/front/): signed in with the page's cookie, the stream's first line and another device's roll arrive
while it is still open, as the feed's own stream does (tests/test_front.py), so the phones at a table are live
behind nginx too."""

from __future__ import annotations

import http.client
import json

import pytest

from tests.kit.front import address, nginx, start_front  # noqa: F401  (fixture)
from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tests.kit.server import call, stop


@pytest.fixture
def front(nginx, sqlite_url, tmp_path, request):  # noqa: F811
    process, base, log_path = start_front(nginx, sqlite_url, tmp_path)
    yield base
    stop(process, log_path, request)


def _cookie(base: str, token: str) -> str:
    connection = http.client.HTTPConnection(*address(base), timeout=30)
    try:
        connection.request("POST", "/pages/sign-in", body=f"token={token}",
                           headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": base})
        response = connection.getresponse()
        response.read()
        assert response.status == 303, response.status
        return response.getheader("Set-Cookie", "").split(";", 1)[0]
    finally:
        connection.close()


def test_the_page_stream_passes_the_front_event_by_event(front):
    status, campaign = call(front, "POST", "/campaigns", {"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": COMPONENTS})
    assert status == 201, campaign
    status, session = call(front, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting", "setup": {"initiative": ORDER}})
    assert status == 201, session
    cookie = _cookie(front, campaign["owner_token"])
    connection = http.client.HTTPConnection(*address(front), timeout=30)
    try:
        connection.request("GET", f"/pages/sessions/{session['id']}/live", headers={"Cookie": cookie, "Accept": "text/event-stream"})
        stream = connection.getresponse()
        assert stream.status == 200 and stream.getheader("Content-Type", "").startswith("text/event-stream")
        assert stream.readline() == b"retry: 2000\n"  # before the stream ends: not buffered
        status, roll = call(front, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d6": 2}})
        assert status == 201, roll
        while True:  # the roll arrives while the stream is still open
            line = stream.readline()
            assert line, "the stream ended before the roll arrived"
            if line.startswith(b"data: "):
                event = json.loads(line[len(b"data: "):])
                assert event["type"] == "DiceRolled" and event["payload"]["roll"]["results"] == roll["results"]
                break
    finally:
        connection.close()
