"""The `correct` action: a value recorded wrongly is corrected by a new event that says what was wrong, what it
should be and why, and the sheet shows it as a correction wherever the value appears (Journey here; Kung Fu
Panda keeps its own amendment of the board, tests/kung_fu_panda/)."""

from __future__ import annotations


def _post(client, path: str, body: dict, status: int = 201, headers: dict | None = None) -> dict:
    response = client.post(path, json=body, headers=headers or {})
    assert response.status_code == status, response.json
    return response.json


def test_a_pilgrims_health_recorded_wrongly_is_corrected_and_shown_as_a_correction(client, app):
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": ["tripitaka", "monkey-king"]})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    reported = _post(client, f"/sessions/{sid}/actions", {"type": "report-health", "hero": "monkey-king", "hp": 9})
    wrong_at = reported["version"]
    schema = next(a["schema"] for a in client.get("/rulesets/journey").json["actions"] if a["type"] == "correct")
    assert {"hero", "field", "should_be", "reason"} <= set(schema["required"])

    body = {"type": "correct", "hero": "monkey-king", "field": "hp", "should_be": 10, "reason": "misread the profile sheet", "refers_to": wrong_at}
    state = _post(client, f"/sessions/{sid}/actions", body)["state"]
    sheet = state["game"]["heroes"]["monkey-king"]
    assert sheet["hp"] == 10
    assert sheet["corrections"] == [{"field": "hp", "was": 9, "to": 10, "reason": "misread the profile sheet", "refers_to": wrong_at}]
    events = client.get(f"/sessions/{sid}/events?limit=100").json["events"]
    assert [e["type"] for e in events].count("ValueCorrected") == 1 and any(e["type"] == "HealthReported" for e in events)  # nothing rewritten

    # Where else the value appears: the campaign's hero progress, and the timeline.
    app.extensions["tracker_views"].catch_up()
    progress = client.get(f"/campaigns/{cid}/heroes/monkey-king").json
    assert progress["hp"] == 10 and progress["corrections"][0]["was"] == 9
    app.extensions["tracker_views"].catch_up()
    lines = [e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=1000").json["entries"]]
    assert any(line.startswith("Corrected") and "hp from 9 to 10: misread the profile sheet" in line for line in lines)

    same = client.post(f"/sessions/{sid}/actions", json=body)
    assert same.status_code == 422 and "already" in same.json["title"]
    future = client.post(f"/sessions/{sid}/actions", json={**body, "should_be": 8, "refers_to": 999})
    assert future.status_code == 422

    # A player corrects their own Pilgrim, never another's.
    player = _post(client, f"/campaigns/{cid}/tokens", {"role": "player", "heroes": ["tripitaka"]})["token"]
    mine = {"Authorization": f"Bearer {player}"}
    refused = client.post(f"/sessions/{sid}/actions", json={**body, "should_be": 7}, headers=mine)
    assert refused.status_code == 403
    _post(client, f"/sessions/{sid}/actions", {"type": "correct", "hero": "tripitaka", "field": "chi", "should_be": 9, "reason": "spent one on a card"}, headers=mine)

    _post(client, f"/sessions/{sid}/abandon", {"reason": "only checking corrections"}, 200)
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_descent_and_yokai_correct_a_heros_sheet_the_same_way(client):
    from tests.kit import yokai_quest as yokai_play

    cid = _post(client, "/campaigns", {"ruleset": "descent", "name": "D", "party": ["aurim"]})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "thing-in-the-pit"})["id"]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "correct", "hero": "aurim", "field": "coins", "should_be": 25, "reason": "the shop change was miscounted"})["state"]
    assert next(e for e in state["allowed"] if e["type"] == "correct")["side"] == "heroes"
    sheet = state["game"]["heroes"]["aurim"]
    assert sheet["coins"] == 25 and sheet["corrections"] == [{"field": "coins", "was": 0, "to": 25, "reason": "the shop change was miscounted", "refers_to": None}]
    assert client.post(f"/sessions/{sid}/actions", json={"type": "correct", "hero": "nobody", "field": "coins", "should_be": 1, "reason": "x"}).status_code == 422

    cid = yokai_play.create_campaign(client)["id"]
    sid = yokai_play.start(client, cid, "shake-them-skeleton-bones-1")
    before = client.get(f"/sessions/{sid}").json["game"]["heroes"]["ryo"]["health"]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "correct", "hero": "ryo", "field": "health", "should_be": before - 1, "reason": "took a hit we forgot"})["state"]
    assert next(e for e in state["allowed"] if e["type"] == "correct")["heroes"] == ["ami", "ryo"]
    sheet = state["game"]["heroes"]["ryo"]
    assert sheet["health"] == before - 1 and sheet["corrections"][0]["was"] == before
    for sid_ in (sid,):
        _post(client, f"/sessions/{sid_}/abandon", {"reason": "checking corrections"}, 200)
        assert client.get(f"/sessions/{sid_}/verification").json["status"] == "verified"


def test_descent_hero_standing_shows_the_corrections_made_to_a_heros_sheet(client, app):
    cid = _post(client, "/campaigns", {"ruleset": "descent", "name": "D", "party": ["aurim"]})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "thing-in-the-pit"})["id"]
    body = {"type": "correct", "hero": "aurim", "field": "curses", "should_be": 1, "reason": "the cursed item was equipped off the log"}
    done = _post(client, f"/sessions/{sid}/actions", body)
    app.extensions["tracker_views"].catch_up()
    standing = client.get(f"/campaigns/{cid}/heroes").json["heroes"]["aurim"]
    (shown,) = standing["corrections"]
    assert {k: shown[k] for k in ("field", "was", "to", "reason")} == {"field": "curses", "was": 0, "to": 1, "reason": "the cursed item was equipped off the log"}
    assert shown["session_id"] == sid and shown["position"] == done["version"]
    assert {"session_id": sid, "quest": "thing-in-the-pit", "position": done["version"]} in standing["events"]
