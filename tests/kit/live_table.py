"""Phones at one table for the live pages' browser tests (api/pages/live.py, static/live.js): a Journey session in
play, served to a headless Chromium, and a phone signed in on its play page that waits for the page to be live."""

from __future__ import annotations

import time

import pytest

from tests.kit.journey import COMPONENTS, PILGRIMS, start
from tests.kit.pages_browser import PHONE, sign_in
from tests.kit.secrets import mint


@pytest.fixture
def table(app, client, live_server):
    """A Journey session in play and the server the phones reach; enough stream slots for every page of the test, and
    a heartbeat often enough that a stream whose phone closed ends (and gives its slot back) before the database does."""
    slots = app.extensions["tracker_stream_slots"]
    slots.cap = 8
    app.config["STREAM_HEARTBEAT_SECONDS"] = 0.3
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": COMPONENTS})
    assert made.status_code == 201, made.json
    cid = made.json["id"]
    sid, _ = start(client, cid, "q1-meeting")
    yield {"base": live_server, "cid": cid, "sid": sid, "owner": made.json["owner_token"], "player": mint(client, cid, role="player")}
    deadline = time.monotonic() + 10
    while slots.open and time.monotonic() < deadline:
        time.sleep(0.1)
    assert slots.open == 0, f"{slots.open} streams still open after their pages closed"


def phone(chromium, base, token, sid, script=True):
    """A phone's browser context and its play page, signed in with ``token``; with a script, once the page is live
    and marked (window.notReloaded is gone if the page is ever loaded again)."""
    context = chromium.new_context(viewport=PHONE, java_script_enabled=script)
    page = context.new_page()
    sign_in(page, base, token)
    page.goto(f"{base}/pages/sessions/{sid}/play")
    if script:
        live(page, "live")
        page.evaluate("window.notReloaded = true")
    return context, page


def live(page, state, timeout=10_000):
    """Wait until the page's live status says ``state`` (connecting, live, reconnecting, offline)."""
    page.wait_for_selector(f"#live-status[data-state='{state}']", timeout=timeout)


def shows(page, text, timeout):
    """Wait (at most ``timeout`` ms) until the page's <main> holds ``text``."""
    page.wait_for_function("text => document.querySelector('main').innerText.includes(text)", arg=text, timeout=max(1, timeout))
