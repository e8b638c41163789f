"""Hidden information holds on every page for every role, on SQLite and PostgreSQL: while a Descent quest is
played, the overlord's hand, his deck customisation and his dark glyphs show to the owner and the overlord's
player, never to the heroes' player or a viewer, on any page; and the replay steps through the same session
showing each side only its own."""

from __future__ import annotations

import re

import pytest

from tests.kit.descent import (
    TEST_OVERLORD_DECK,
    act as descent_act,
    start as descent_start,
)
from tests.kit.secrets import without_orders

NO_AUTH = {"Authorization": ""}
PAGES = ["campaign", "session", "play", "replay", "replay-start", "hero", "dice"]
ROLES = {"owner": True, "overlord": True, "heroes": False, "viewer": False}  # whether the role sees the overlord's secrets


def _descent_in_play(client, app):
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["aurim"], "components": TEST_OVERLORD_DECK}).json
    cid, owner = made["id"], made["owner_token"]
    mint = {"Authorization": f"Bearer {owner}"}
    tokens = {
        "owner": owner,
        "heroes": client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "side": "heroes"}, headers=mint).json["token"],
        "overlord": client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "side": "overlord"}, headers=mint).json["token"],
        "viewer": client.post(f"/campaigns/{cid}/tokens", json={"role": "viewer"}, headers=mint).json["token"],
    }
    sid = descent_start(client, cid, "altar-of-despair", {"purchases": [{"card": "Dark Power", "remove": "Aim"}], "dark_glyphs": [{"glyph": "summoning"}]})
    descent_act(client, sid, type="place-glyph", glyph="summoning")
    descent_act(client, sid, type="gain-curses", hero="aurim", count=1, source="silver chest")  # a hero sheet to read
    client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}})
    hand = client.get(f"/sessions/{sid}").json["decks"]["overlord"]["held"]["overlord"]
    app.extensions["tracker_views"].catch_up()
    return cid, sid, tokens, hand


def _path(page: str, cid: str, sid: str) -> str:
    return {
        "campaign": f"/pages/campaigns/{cid}", "session": f"/pages/sessions/{sid}", "play": f"/pages/sessions/{sid}/play",
        "replay": f"/pages/sessions/{sid}/replay", "replay-start": f"/pages/sessions/{sid}/replay?at=3",
        "hero": f"/pages/campaigns/{cid}/heroes/aurim", "dice": f"/pages/campaigns/{cid}/dice",
    }[page]


@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize("page", PAGES)
def test_the_overlords_secrets_show_only_to_the_owner_and_the_overlord(client, app, page, role):
    cid, sid, tokens, hand = _descent_in_play(client, app)
    assert client.post("/pages/sign-in", data={"token": tokens[role]}, headers=NO_AUTH).status_code == 303
    shown = client.get(_path(page, cid, sid), headers=NO_AUTH)
    assert shown.status_code == 200, shown.get_data(as_text=True)[:300]
    html = shown.get_data(as_text=True)
    secrets = ["Dark Power", *hand]
    if ROLES[role]:
        if page in ("play", "replay"):
            assert all(card in html for card in hand), (page, role)  # his hand, on his own pages
    else:
        listless = without_orders(html)
        leaked = [s for s in secrets if re.search(rf"(?<![\w ]){re.escape(s)}(?![\w])", listless)]
        assert not leaked, (page, role, leaked)
    assert tokens[role] not in html


def test_the_replay_steps_event_by_event_and_jumps_to_a_turn(client, app):
    cid, sid, tokens, hand = _descent_in_play(client, app)
    # Descent's end-turn (rules 1.7.0) is one request and its changes: the overlord's turn ended, then the turn.
    ended = descent_act(client, sid, type="end-turn")["events"]
    assert ended[0]["type"] == "ActionTaken" and ended[-1]["type"] == "TurnEnded", ended
    client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}})
    app.extensions["tracker_views"].catch_up()
    assert client.post("/pages/sign-in", data={"token": tokens["owner"]}, headers=NO_AUTH).status_code == 303
    last = client.get(f"/sessions/{sid}").json["version"]
    page = client.get(f"/pages/sessions/{sid}/replay", headers=NO_AUTH).get_data(as_text=True)
    assert f"Event {last} of {last}" in page and 'id="next"' not in page and "Pending" in page
    first = client.get(f"/pages/sessions/{sid}/replay?at=1", headers=NO_AUTH).get_data(as_text=True)
    assert "Event 1 of" in first and 'id="prev"' not in first and "began with Aurim" in first
    turns = re.findall(r'<option value="(\d+)">(Turn \d+) \(event', page)
    assert [t[1] for t in turns] == ["Turn 1", "Turn 2"]
    turn_2 = client.get(f"/pages/sessions/{sid}/replay?at={turns[1][0]}", headers=NO_AUTH).get_data(as_text=True)
    assert re.search(r"<p>Turn 2 · \d+ rolls? so far", turn_2)
    assert int(turns[1][0]) == ended[-1]["position"] + 1  # turn 2 starts with the first event after the turn ended
    request = client.get(f"/pages/sessions/{sid}/replay?at={ended[0]['position']}", headers=NO_AUTH).get_data(as_text=True)
    assert re.search(r"<p>Turn 2 · ", request) and 'id="effects"' in request  # the end of turn's request, shown with its effects
    before = client.get(f"/pages/sessions/{sid}/replay?at={ended[0]['position'] - 1}", headers=NO_AUTH).get_data(as_text=True)  # before the turn ended
    assert re.search(r"<p>Turn 1 · ", before)
    beyond = client.get(f"/pages/sessions/{sid}/replay?at=9999", headers=NO_AUTH).get_data(as_text=True)
    assert f"Event {last} of {last}" in beyond  # out of range: the nearest event, not an error
