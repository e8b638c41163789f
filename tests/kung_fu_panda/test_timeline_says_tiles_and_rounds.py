"""Kung Fu Panda's timeline and pages in the game's words (issue 32): tiles by their names from the rules data
("Training Room (A)", not "to A" or "start tile t"), the Action Die by its name (not "action-die"), and the log
counted in rounds (L71: "played in three-minute rounds ... with pauses in between"), never "Turn 1"."""

from __future__ import annotations

import re

from tests.kit import session
from tests.kit.kung_fu_panda import act, start

def _text(client, app, token, url) -> str:
    app.extensions["tracker_views"].catch_up()
    pages = app.test_client()  # the pages sign in with a cookie
    assert pages.post("/pages/sign-in", data={"token": token}, headers={"Origin": "http://localhost"}).status_code == 303
    page = pages.get(url)
    assert page.status_code == 200, page.get_data(as_text=True)[:300]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.get_data(as_text=True)))


def _lesson_1(client):
    made = session.campaign(client, "kung-fu-panda", ("po", "tigress"), options={"length": "single", "mission": "lesson-1"})
    return start(client, made["id"], "lesson-1", {"start_tile": "t"}), made["owner_token"]  # L218: the Training Ground


def test_the_timeline_names_the_tiles_the_die_and_the_rounds(client, app):
    sid, token = _lesson_1(client)

    def timeline():
        app.extensions["tracker_views"].catch_up()
        return [e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=100").json["entries"]]

    assert any("start tile Training Ground (t)" in line for line in timeline()), timeline()
    act(client, sid, {"type": "start-round", "entry": "detail"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Chi", "Chi", "Kick"]})
    act(client, sid, {"type": "spend", "heroes": {"po": ["Move", "Chi", "Chi"]}, "for": "move", "to": "A"})  # L221
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "spend", "heroes": {"po": ["Kick"]}, "for": "move", "to": "r"})
    assert refused.status_code == 422 and "moving onto Hot Springs (r) from Training Room (A)" in refused.json["title"], refused.json
    lines = timeline()
    assert "Po moved from Training Ground (t) to Training Room (A)" in " ".join(lines), lines
    assert any(line.startswith("Spend: ") and "to Training Room (A)" in line for line in lines), lines
    assert any("on the Action dice" in line for line in lines) and not any("action-die" in line for line in lines), lines
    assert any("Round 1: 1, 2, KUNG FU! (entered roll by roll)" in line for line in lines), lines
    assert not any(re.search(r"\b(to|from|tile) [A-Za-z]\b", line) for line in lines), lines

    session_page = _text(client, app, token, f"/pages/sessions/{sid}")
    play_page = _text(client, app, token, f"/pages/sessions/{sid}/play")
    replay = _text(client, app, token, f"/pages/sessions/{sid}/replay")
    for text in (session_page, play_page, replay):
        assert "Turn 1" not in text and "Turn 2" not in text
    assert "Setting up" in session_page and "Round 1" in session_page
    assert "Round 1 ·" in replay  # the replay's count is the game's (GameRules.turn_said)


def test_the_play_pages_last_lines_stay_under_their_round(client, app):
    """The play page's last lines were grouped from the last dozen events alone: once the round's start had scrolled
    out of them, the lines were labelled "Turn 1"."""
    sid, token = _lesson_1(client)
    act(client, sid, {"type": "start-round", "entry": "detail"})
    for _ in range(5):  # a roll entered, and undone: the round's start leaves the last dozen events
        act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Move", "Move", "Punch", "Kick"]})
        assert client.post(f"/sessions/{sid}/undo", json={}).status_code in (200, 201)
    play_page = _text(client, app, token, f"/pages/sessions/{sid}/play")
    assert "Turn 1" not in play_page and "Round 1" in play_page
