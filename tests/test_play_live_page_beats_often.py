"""A phone that posts a play form leaves its page, and the page's live stream keeps its stream slot until the server
finds the phone gone: when a beat (a comment line) cannot be delivered. The feed's streams beat every 15 s by default
(TRACKER_STREAM_HEARTBEAT_SECONDS); a page's stream beats at least every two seconds, so the page a phone lands on
after a press finds a slot again within seconds instead of reading "Reconnecting…" for half a minute (seen playing
on two phones, issue 32). Measured on the stream's own clock, made to run fast here: no test waits on the wall clock."""

from __future__ import annotations

import pytest

from api.pages.live import PAGE_HEARTBEAT_SECONDS
from api.routes import feed
from tests.kit.journey import COMPONENTS, PILGRIMS, start

NO_AUTH = {"Authorization": ""}
HERE = {**NO_AUTH, "Origin": "http://localhost"}


class FastClock:
    """The stream's ``time``: each sleep moves the clock on at once."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def _seconds_to_first_beat(response, clock: FastClock) -> float:
    chunks = iter(response.response)
    opened = clock.now
    assert next(chunks).decode().startswith("retry: ")
    for _ in range(10_000):
        chunk = next(chunks).decode()
        if chunk.startswith(": keep-alive"):
            return clock.now - opened
    raise AssertionError("the stream never beat")


@pytest.fixture
def fast_clock(monkeypatch) -> FastClock:
    clock = FastClock()
    monkeypatch.setattr(feed, "time", clock)
    return clock


def test_a_play_page_stream_beats_within_two_seconds_though_the_feed_beats_every_fifteen(app, client, fast_clock):
    app.config["STREAM_HEARTBEAT_SECONDS"] = 15.0  # the default
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": COMPONENTS})
    sid, _ = start(client, made.json["id"], "q1-meeting")
    pages = app.test_client()
    assert pages.post("/pages/sign-in", data={"token": made.json["owner_token"]}, headers=HERE).status_code == 303

    page_stream = pages.get(f"/pages/sessions/{sid}/live", headers=NO_AUTH)
    try:
        assert page_stream.status_code == 200
        assert _seconds_to_first_beat(page_stream, fast_clock) <= 2.0 + feed.POLL_SECONDS
    finally:
        page_stream.close()
    # The API's feed keeps its setting: its clients (other services, behind proxies) chose it.
    api_stream = client.get("/events/stream", headers={"Authorization": f"Bearer {made.json['owner_token']}"})
    try:
        assert api_stream.status_code == 200
        assert _seconds_to_first_beat(api_stream, fast_clock) >= 15.0
    finally:
        api_stream.close()
