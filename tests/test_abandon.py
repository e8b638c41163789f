"""A session the table stops without an outcome is abandoned: not played, shown as abandoned, its seed revealed.

And a group that starts a quest other than the campaign's next one is told so (a `warnings` entry)."""

from __future__ import annotations

from tracker.integrity.verify_export import verify_lines


def _post(client, path: str, body: dict, status: int = 201, **kwargs) -> dict:
    response = client.post(path, json=body, **kwargs)
    assert response.status_code == status, response.json
    return response.json


def test_an_abandoned_session_is_not_played_and_its_seed_is_revealed(app, client, journey_campaign):
    cid = journey_campaign["id"]
    started = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})
    assert started["warnings"] == []
    sid = started["id"]
    _post(client, f"/sessions/{sid}/rolls", {"dice": {"d6": 2}})

    abandoned = _post(client, f"/sessions/{sid}/abandon", {"reason": "we set up the wrong map"}, 200)
    assert abandoned["status"] == "abandoned" and abandoned["abandoned"]["reason"] == "we set up the wrong map"
    assert abandoned["next_quest"] == "q1-meeting"  # not played: the chain stays where it was
    assert len(bytes.fromhex(abandoned["seed"])) == 32

    state = client.get(f"/sessions/{sid}").json
    assert state["status"] == "abandoned" and state["outcome"] is None and state["seed"] == abandoned["seed"]
    assert state["abandoned"] == {"reason": "we set up the wrong map", "position": abandoned["version"] - 1}

    campaign = client.get(f"/campaigns/{cid}").json
    (entry,) = campaign["sessions"]
    assert entry["outcome"] is None and entry["abandoned"] == {"reason": "we set up the wrong map"}
    assert campaign["next_quest"] == "q1-meeting" and campaign["progress"] == {}
    app.extensions["tracker_views"].catch_up()
    assert client.get(f"/campaigns/{cid}/heroes").json["heroes"] == {}  # nothing of it counts: no quest played

    refused = client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}})
    assert refused.status_code == 409 and refused.json["title"] == "The session was abandoned"
    assert client.post(f"/sessions/{sid}/abandon", json={"reason": "again"}).status_code == 409

    # It verifies like any ended session, with the service and with the standalone verifier alike.
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified" and report["checked"]["digital_rolls"] == 1
    lines = client.get(f"/campaigns/{cid}/export").get_data(as_text=True).splitlines()
    standalone = verify_lines(lines)
    assert standalone["status"] == "verified", standalone
    assert standalone["sessions"][sid]["checked"]["digital_rolls"] == 1

    # The next session of the same quest is the campaign's next one: no warning.
    again = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})
    assert again["warnings"] == []


def test_only_the_owner_abandons_and_says_why(client, journey_campaign):
    cid = journey_campaign["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    player = _post(client, f"/campaigns/{cid}/tokens", {"role": "player", "heroes": ["tripitaka"]})["token"]
    refused = client.post(f"/sessions/{sid}/abandon", json={"reason": "bored"}, headers={"Authorization": f"Bearer {player}"})
    assert refused.status_code == 403
    empty = client.post(f"/sessions/{sid}/abandon", json={"reason": "   "})
    assert empty.status_code == 422 and "why" in empty.json["title"]
    missing = client.post(f"/sessions/{sid}/abandon", json={})
    assert missing.status_code == 422
    assert client.get(f"/sessions/{sid}").json["status"] == "in-progress"
    events = client.get(f"/sessions/{sid}/events").json["events"]
    assert not any(e["type"] in ("SessionAbandoned", "SessionEnded") for e in events)


def test_starting_a_quest_other_than_the_next_one_warns(client, journey_campaign):
    cid = journey_campaign["id"]
    first = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q2-rescue"})
    (warning,) = first["warnings"]
    assert "'q1-meeting'" in warning and "'q2-rescue'" in warning
    _post(client, f"/sessions/{first['id']}/abandon", {"reason": "wrong quest"}, 200)
    second = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})
    assert second["warnings"] == []
    third = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})
    (warning,) = third["warnings"]  # the abandoned one is not in play; the second one is
    assert second["id"] in warning and "still in play" in warning and first["id"] not in warning
