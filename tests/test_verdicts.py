"""Outcomes follow the rules, on SQLite and PostgreSQL: the verdict the rules impose is recorded as it happens,
an end that contradicts it is a 409 that appends nothing, and the owner may overrule the rules only by a table
ruling, recorded and shown as one (the session state, the campaign, verification, the timeline and the pages).

Descent's verdicts come from what its quests record (tracker/rulesets/descent/verdict.py): the conquest running
out ("If you fall to 0 conquest points, the dark priests have won", L333), the last glyph destroyed (L567) and
the final award (L402-L406).
"""

from __future__ import annotations

from tests.kit.descent import act, campaign, start
from tests.kit.session import total as _total
from tests.kit.secrets import bearer

PROBLEM = "application/problem+json"


def _mint(client, cid: str, **body) -> dict[str, str]:
    response = client.post(f"/campaigns/{cid}/tokens", json=body)
    assert response.status_code == 201, response.json
    return bearer(response.json["token"])


def _lost_on_conquest(client):
    """Thing in the Pit (start 8 conquest): Astarra (conquest value 2) with 2 curses dies twice: 8 - 4 - 4 = 0."""
    cid = campaign(client, ["runewitch-astarra", "aurim"])
    sid = start(client, cid, "thing-in-the-pit")
    act(client, sid, type="gain-curses", hero="runewitch-astarra", count=2, source="chest")
    act(client, sid, type="hero-killed", hero="runewitch-astarra")
    assert client.get(f"/sessions/{sid}").json["verdict"] is None  # 4 conquest left: undecided
    act(client, sid, type="gain-curses", hero="runewitch-astarra", count=2, source="chest")
    died = act(client, sid, type="hero-killed", hero="runewitch-astarra")
    return cid, sid, died


def test_a_defeat_the_rules_impose_is_recorded_as_it_happens(client):
    cid, sid, died = _lost_on_conquest(client)
    assert [e["type"] for e in died["events"]][-2:] == ["QuestLost", "QuestDecided"]
    verdict = died["state"]["verdict"]
    assert verdict["outcome"] == "defeat" and "L333" in verdict["reason"] and verdict["position"] == died["version"]
    assert client.get(f"/sessions/{sid}").json["verdict"] == verdict


def test_an_end_that_contradicts_the_verdict_is_a_409_that_appends_nothing(client):
    cid, sid, _ = _lost_on_conquest(client)
    before = _total(client, sid)
    for outcome in ("victory", "heroic-victory"):
        refused = client.post(f"/sessions/{sid}/end", json={"outcome": outcome})
        assert refused.status_code == 409 and refused.mimetype == PROBLEM
        assert refused.json["title"].startswith(f"The quest cannot end in {outcome}: the rules decided this quest")
        assert "ruling" in refused.json["detail"]
    assert _total(client, sid) == before and client.get(f"/sessions/{sid}").json["status"] == "in-progress"


def test_an_undecided_quest_does_not_end_in_what_the_state_denies(client):
    cid = campaign(client, ["aurim"])
    sid = start(client, cid, "thing-in-the-pit", {"starting_conquest": 8})
    before = _total(client, sid)
    won = client.post(f"/sessions/{sid}/end", json={"outcome": "victory"})
    assert won.status_code == 409 and "final award is not recorded" in won.json["title"] and "8 conquest" in won.json["title"]
    lost = client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"})
    assert lost.status_code == 409 and "no defeat is recorded" in lost.json["title"]
    assert _total(client, sid) == before


def test_any_player_may_end_with_the_outcome_the_rules_decided(client):
    cid, sid, _ = _lost_on_conquest(client)
    heroes = _mint(client, cid, role="player", side="heroes")
    ended = client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}, headers=heroes)
    assert ended.status_code == 200 and ended.json["verdict"]["outcome"] == "defeat" and ended.json["ruling"] is None
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_the_owner_overrules_by_a_table_ruling_shown_as_one_everywhere(app, client):
    cid, sid, _ = _lost_on_conquest(client)
    heroes = _mint(client, cid, role="player", side="heroes")
    why = "we misread the curse rule on turn 3; the table agreed the heroes held"
    refused = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "ruling": why}, headers=heroes)
    assert refused.status_code == 403 and "owner" in refused.json["title"]
    # The Thing in the Pit's end takes no fact from the table (its reported_schema is empty): an unknown one is refused.
    unknown = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "ruling": why, "reported": {"thing": "defeated"}})
    assert unknown.status_code == 422 and "thing" in unknown.json["title"], unknown.json
    ended = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "ruling": why})
    assert ended.status_code == 200 and ended.json["ruling"] == why
    state = client.get(f"/sessions/{sid}").json
    assert state["outcome"] == "victory" and state["ruling"] == why and state["verdict"]["outcome"] == "defeat"
    session = next(s for s in client.get(f"/campaigns/{cid}").json["sessions"] if s["id"] == sid)
    assert session["ruling"] == why
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified" and report["ruling"]["ruling"] == why and "decided" in report["ruling"]["overrules"]
    app.extensions["tracker_views"].catch_up()
    timeline = [e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=1000").json["entries"]]
    assert any(line.startswith("The rules decided the quest: defeat") for line in timeline), timeline
    assert any(line.startswith("The rules decided the quest: defeat") for line in timeline)
    pages = app.test_client()
    pages.post("/pages/sign-in", data={"token": type(client).tokens[id(app)][cid]}, headers={"Origin": "http://localhost"})
    assert f"by table ruling: {why}" in pages.get(f"/pages/sessions/{sid}").get_data(as_text=True)
    assert "by table ruling" in pages.get(f"/pages/campaigns/{cid}").get_data(as_text=True)


def test_undoing_the_deciding_action_undecides_the_quest(client):
    cid, sid, _ = _lost_on_conquest(client)
    undone = client.post(f"/sessions/{sid}/undo")
    assert undone.status_code == 201 and undone.json["state"]["verdict"] is None
    assert client.get(f"/sessions/{sid}").json["game"]["conquest"] == 4
    act(client, sid, type="open-cell", cell="cell-1", hero="aurim")  # prisoner 1 saved: +2 (L350)
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "ruling": "the group stops here"}).status_code == 200
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_a_forged_verdict_does_not_re_derive(tracker):
    """The verdict is an effect of the action that decided it: verification re-derives it like any other."""
    from tracker.application.service import Request

    cid = tracker.create_campaign("descent", "Forgery", ["runewitch-astarra", "aurim"]).body["id"]
    sid = tracker.start_session(cid, "thing-in-the-pit").body["id"]
    tracker.act(sid, {"type": "gain-curses", "hero": "runewitch-astarra", "count": 2, "source": "chest"})
    tracker.act(sid, {"type": "hero-killed", "hero": "runewitch-astarra"})
    session = tracker._session(sid)
    forged = {"kind": "quest-decided", "outcome": "victory", "reason": "forged"}
    session.trigger_event(type(session).QuestDecided, change=forged, meta={"issued_by": None, "command": session.version + 1})
    tracker.save(session)
    tracker.end_session(sid, "victory", request=Request())
    report = tracker.verify(sid)
    assert report["status"] == "mismatch" and report["first_mismatch"]["type"] == "QuestDecided"
