"""Two phones at one table, in a real headless Chromium at 390 px, on SQLite and PostgreSQL: a session's pages follow
it live (api/pages/live.py, static/live.js). One device rolls, draws and undoes, the other shows each within two seconds
without a reload, keeping what its player was typing, and its refreshed form rolls anew; the timeline and the replay
follow too; a roll pressed while offline (the browser's offline emulation)
is kept on the device and sent when the connection returns, exactly once, even sent again; a roll pressed offline on
a session that moved on meanwhile is refused, shown with what was pressed, and sent again only when asked; the live
state turns to reconnecting when the server goes away and back to live when it returns, and a page refused a stream
by a busy server says so and still follows by asking for the page; and without a script the
page still posts. The event log is checked over the API. Screenshots only into tmp_path."""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.kit import server
from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tests.kit.live_table import live, phone, shows, table  # noqa: F401  (fixture)
from tests.kit.pages_browser import PHONE, chromium, live_server, open_to, sign_in  # noqa: F401  (fixtures)
from tests.kit.session import version as _version

pytestmark = pytest.mark.browser

SHOWN_WITHIN_MS = 2000


def _phone(chromium, base, token, sid, script=True):  # noqa: F811
    return phone(chromium, base, token, sid, script)


def _state(page, state, timeout=10_000):
    live(page, state, timeout)


ROLL_FORM = "form[action$='/play/roll']:has([name='dice.d6'])"
DRAW_FORM = "form[action$='/play/draw']:has([name=count])"


def _roll_form(page):
    """The service's roll, its fold opened as a player taps it (the play page folds the roll away)."""
    open_to(page, ROLL_FORM)
    return page.locator(ROLL_FORM)


def _still_open(page, selector) -> bool:
    """Whether the folds around a form are all open (as its player left them), without tapping any."""
    return page.locator(selector).evaluate(
        "form => { for (let d = form.closest('details'); d; d = d.parentElement.closest('details')) if (!d.open) return false; return true; }")


def _sent(page, form) -> float:
    """Press the form's button, as the browser posts it: the moment the server answered (the command recorded)."""
    with page.expect_navigation():
        with page.expect_response(lambda r: r.request.method == "POST"):
            form.locator("button[type=submit]").click()
        answered = time.monotonic()
    return answered


def _roll(page, count, *, navigates=True) -> float | None:
    form = _roll_form(page)
    form.locator("[name='dice.d6']").fill(str(count))
    if navigates:
        return _sent(page, form)
    form.locator("button[type=submit]").click()
    return None


def _draw(page, deck, holder):
    open_to(page, DRAW_FORM)
    form = page.locator(DRAW_FORM)
    form.locator("[name=deck]").select_option(deck)
    form.locator("[name=holder]").select_option(holder)
    return _sent(page, form)


def _events(client, sid, after, kind=None):
    events = client.get(f"/sessions/{sid}/events?after={after}&limit=1000").json["events"]
    return [e for e in events if kind is None or e["type"] == kind]


def _rolled(event) -> str:
    return "Rolled " + ", ".join(str(face) for face in event["payload"]["roll"]["results"]["d6"])


def _shows(page, text, timeout):
    shows(page, text, timeout)


def test_one_device_rolls_and_draws_and_the_other_shows_both_within_two_seconds(client, chromium, table, tmp_path):  # noqa: F811
    base, sid = table["base"], table["sid"]
    here, roller = _phone(chromium, base, table["owner"], sid)
    there, watcher = _phone(chromium, base, table["player"], sid)
    try:
        # the watcher is typing a purpose for its own roll when the other device rolls: it is kept
        _roll_form(watcher).locator("[name=purpose]").fill("to cross the gate")
        before = _version(client, sid)
        recorded = _roll(roller, 2)
        roll = _events(client, sid, before, "DiceRolled")[0]
        _shows(watcher, _rolled(roll), SHOWN_WITHIN_MS - (time.monotonic() - recorded) * 1000)
        assert _still_open(watcher, ROLL_FORM)  # the fold its player opened stays open when the page is drawn again
        assert _roll_form(watcher).locator("[name=purpose]").input_value() == "to cross the gate"
        before = _version(client, sid)
        recorded = _draw(roller, "corruption", "monkey-king")
        card = _events(client, sid, before, "CardsDrawn")[0]["payload"]["change"]["cards"][0]
        _shows(watcher, f"Monkey King drew {card}", SHOWN_WITHIN_MS - (time.monotonic() - recorded) * 1000)
        before = _version(client, sid)
        recorded = _sent(roller, roller.locator("form[action$='/play/undo']"))  # the draw taken back
        assert [e["type"] for e in _events(client, sid, before)] == ["ActionUndone"]
        watcher.wait_for_function("card => Array.from(document.querySelectorAll('main del')).some(d => d.innerText.includes(card))",
                                  arg=card, timeout=max(1, SHOWN_WITHIN_MS - (time.monotonic() - recorded) * 1000))
        assert watcher.evaluate("window.notReloaded") is True
        assert watcher.evaluate("Number(document.documentElement.dataset.liveVersion)") == _version(client, sid)
        assert _still_open(watcher, ROLL_FORM)
        watcher.screenshot(path=str(tmp_path / "live-watcher.png"), full_page=True)
        # The watcher's forms were drawn again with the session: its own roll, with what it typed, is a new roll
        before = _version(client, sid)
        _roll(watcher, 1)
        mine = _events(client, sid, before, "DiceRolled")
        assert len(mine) == 1 and "to cross the gate" in str(mine[0]["payload"]) and len(mine[0]["payload"]["roll"]["results"]["d6"]) == 1
    finally:
        here.close()
        there.close()


def test_the_timeline_and_the_replay_follow_the_table_too(client, chromium, table):  # noqa: F811
    base, sid = table["base"], table["sid"]
    here, roller = _phone(chromium, base, table["owner"], sid)
    there, reader = _phone(chromium, base, table["player"], sid)
    replay = there.new_page()
    try:
        reader.goto(f"{base}/pages/sessions/{sid}")  # the timeline reads the views: the stream waits for them to hold the roll
        replay.goto(f"{base}/pages/sessions/{sid}/replay")
        for page in (reader, replay):
            _state(page, "live")
            page.evaluate("window.notReloaded = true")
        last = replay.locator("main").inner_text()
        before = _version(client, sid)
        recorded = _roll(roller, 2)
        roll = _events(client, sid, before, "DiceRolled")[0]
        _shows(reader, _rolled(roll), SHOWN_WITHIN_MS - (time.monotonic() - recorded) * 1000)
        _shows(replay, _rolled(roll), SHOWN_WITHIN_MS - (time.monotonic() - recorded) * 1000)  # the replay moves on to the newest event
        assert replay.locator("main").inner_text() != last
        assert reader.evaluate("window.notReloaded") is True and replay.evaluate("window.notReloaded") is True
    finally:
        here.close()
        there.close()


def test_a_roll_pressed_offline_is_kept_on_the_device_and_recorded_once_when_it_returns(client, chromium, table):  # noqa: F811
    base, sid = table["base"], table["sid"]
    here, watcher = _phone(chromium, base, table["owner"], sid)
    there, offline = _phone(chromium, base, table["player"], sid)
    try:
        before = _version(client, sid)
        there.set_offline(True)
        _state(offline, "offline")
        _roll(offline, 3, navigates=False)  # no page can load: the press is kept
        offline.wait_for_selector("#live-status[data-waiting='1']")
        kept = offline.evaluate(f"localStorage.getItem('tracker-live-queue:{sid}')")
        assert '"live-' in kept and "dice.d6" in kept
        time.sleep(0.5)
        assert _events(client, sid, before) == []  # nothing reached the server
        pressed = time.monotonic()
        there.set_offline(False)
        offline.wait_for_selector("#live-status[data-waiting='0']", timeout=10_000)
        rolls = _events(client, sid, before, "DiceRolled")
        assert len(rolls) == 1 and len(rolls[0]["payload"]["roll"]["results"]["d6"]) == 3
        _shows(offline, _rolled(rolls[0]), 5000)
        _shows(watcher, _rolled(rolls[0]), SHOWN_WITHIN_MS + 5000 - (time.monotonic() - pressed) * 1000)
        # Sent again (its answer lost, say): the key drawn when it was pressed makes it the same roll
        offline.evaluate(f"kept => localStorage.setItem('tracker-live-queue:{sid}', kept)", kept)
        there.set_offline(True)
        there.set_offline(False)
        # sent and answered (an entry leaves the device only on the server's answer), and still one roll
        offline.wait_for_function("sid => localStorage.getItem('tracker-live-queue:' + sid) === null", arg=sid, timeout=10_000)
        assert len(_events(client, sid, before, "DiceRolled")) == 1
        assert offline.locator(".live-notice").count() == 0
        assert watcher.evaluate("window.notReloaded") is True and offline.evaluate("window.notReloaded") is True
    finally:
        here.close()
        there.close()


def test_a_roll_pressed_offline_on_a_session_that_moved_on_is_shown_not_lost(client, chromium, table):  # noqa: F811
    base, sid = table["base"], table["sid"]
    here, other = _phone(chromium, base, table["owner"], sid)
    there, late = _phone(chromium, base, table["player"], sid)
    try:
        before = _version(client, sid)
        there.set_offline(True)
        _state(late, "offline")
        _roll(late, 1, navigates=False)
        late.wait_for_selector("#live-status[data-waiting='1']")
        _roll(other, 2)  # the table moved on meanwhile
        there.set_offline(False)
        notice = late.locator(".live-notice")
        notice.wait_for(timeout=10_000)
        said = notice.inner_text()
        assert "Not recorded: Roll" in said and "Someone else changed the session first" in said, said
        assert "{" not in said and "None" not in said
        rolls = _events(client, sid, before, "DiceRolled")
        assert [len(r["payload"]["roll"]["results"]["d6"]) for r in rolls] == [2]  # only the other device's
        late.wait_for_selector("#live-status[data-waiting='0']")
        notice.locator("button.live-again").click()  # pressed again, on the session as it is now
        late.wait_for_selector(".live-notice", state="detached", timeout=10_000)
        late.wait_for_selector("#live-status[data-waiting='0']", timeout=10_000)
        rolls = _events(client, sid, before, "DiceRolled")
        assert [len(r["payload"]["roll"]["results"]["d6"]) for r in rolls] == [2, 1]
        _shows(other, _rolled(rolls[1]), SHOWN_WITHIN_MS + 1000)
    finally:
        here.close()
        there.close()


def test_a_page_the_busy_server_refuses_a_stream_says_so_and_still_follows(app, client, chromium, table):  # noqa: F811
    """Every stream slot taken (503): the page says it is reconnecting, and asks for the page now and then meanwhile."""
    base, sid = table["base"], table["sid"]
    here, roller = _phone(chromium, base, table["owner"], sid)  # holds the one slot
    app.extensions["tracker_stream_slots"].cap = 1
    there = chromium.new_context(viewport=PHONE)
    try:
        refused = there.new_page()
        sign_in(refused, base, table["player"])
        refused.goto(f"{base}/pages/sessions/{sid}/play")
        _state(refused, "reconnecting")
        refused.evaluate("window.notReloaded = true")
        before = _version(client, sid)
        assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}}).status_code == 201  # (the other phone keeps its slot)
        roll = _events(client, sid, before, "DiceRolled")[0]
        _shows(refused, _rolled(roll), 2000 + SHOWN_WITHIN_MS)  # the page is asked for every two seconds
        _shows(roller, _rolled(roll), SHOWN_WITHIN_MS)
        assert refused.evaluate("window.notReloaded") is True
        assert refused.locator("#live-status").get_attribute("data-state") == "reconnecting"
    finally:
        here.close()
        there.close()


def test_without_a_script_the_play_page_still_posts_and_redirects(client, chromium, table):  # noqa: F811
    base, sid = table["base"], table["sid"]
    context, page = _phone(chromium, base, table["player"], sid, script=False)
    try:
        assert page.locator("#live-status").count() == 0
        before = _version(client, sid)
        _roll(page, 2)
        assert page.url.endswith(f"/pages/sessions/{sid}/play#done")
        rolls = _events(client, sid, before, "DiceRolled")
        assert len(rolls) == 1
        assert _rolled(rolls[0]) in page.locator("main").inner_text()
    finally:
        context.close()


def test_the_live_state_turns_to_reconnecting_when_the_server_goes_away_and_back(chromium, sqlite_url, tmp_path, request):  # noqa: F811
    port = server.free_port()
    command = [str(server.BIN / "tracker"), "serve", "--port", str(port), "--workers", "1", "--database-url", sqlite_url]
    env = {**os.environ, "TRACKER_STREAMS_PER_WORKER": "2"}
    process, base, log_path = server.start(command, env, tmp_path, port)
    context = None
    try:
        status, made = server.call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": COMPONENTS})
        assert status == 201, made
        status, started = server.call(base, "POST", f"/campaigns/{made['id']}/sessions", {"quest": "q1-meeting", "setup": {"initiative": ORDER}})
        assert status == 201, started
        context, page = _phone(chromium, base, made["owner_token"], started["id"])
        process.send_signal(signal.SIGQUIT)  # gunicorn's quick shutdown: the stream's connection goes with it
        process.wait(timeout=60)  # seconds when quiet; a loaded machine (CI beside other work) took longer than 15
        _state(page, "reconnecting", timeout=10_000)
        assert "Reconnecting" in page.locator("#live-status").inner_text()
        process, base, log_path = server.start(command, env, tmp_path, port)
        _state(page, "live", timeout=20_000)
        status, rolled = server.call(base, "POST", f"/sessions/{started['id']}/rolls", {"dice": {"d6": 2}})
        assert status == 201, rolled
        _shows(page, "Rolled " + ", ".join(str(f) for f in rolled["results"]["d6"]), SHOWN_WITHIN_MS + 1000)
        assert page.evaluate("window.notReloaded") is True
    finally:
        if context is not None:
            context.close()
        server.stop(process, log_path, request)
