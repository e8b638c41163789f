"""The REST API through Flask's test client, on SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib

import pytest

from tracker import rulesets
from tests.kit.session import notifications as _notifications

PROBLEM = "application/problem+json"


def _events(client, sid: str) -> int:
    return client.get(f"/sessions/{sid}/events?limit=1000").json["total"]


def test_create_and_read_a_campaign(client, journey_campaign):
    journey = rulesets.get("journey")
    assert journey_campaign["ruleset"] == {"id": "journey", "version": journey.version, "hash": journey.hash}
    got = client.get(f"/campaigns/{journey_campaign['id']}")
    assert got.status_code == 200
    assert got.json["id"] == journey_campaign["id"] and got.json["name"] == "Tuesday group"
    assert got.json["party"] == ["tripitaka", "monkey-king"]


def test_the_walk_through_of_a_session(client, journey_campaign):
    cid = journey_campaign["id"]
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})
    assert started.status_code == 201
    assert set(started.json) >= {"id", "quest", "seed_commitment", "version"}
    sid = started.json["id"]

    rolled = client.post(f"/sessions/{sid}/rolls", json={"dice": {"attack": 2, "d6": 1}})
    assert rolled.status_code == 201
    assert set(rolled.json["results"]) == {"attack", "d6"} and len(rolled.json["results"]["attack"]) == 2
    first = started.json["version"] + 1  # after the session's start and its quest set-up
    assert rolled.json["event_id"] == f"{sid}/{first}" and rolled.json["version"] == first

    reported = client.post(f"/sessions/{sid}/rolls", json={"faces": {"defense": ["3", "2"]}})
    assert reported.status_code == 201 and reported.json["results"] == {"defense": ["3", "2"]}

    drawn = client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 2})
    assert drawn.status_code == 201 and len(drawn.json["cards"]) == 2 and "version" in drawn.json

    physical = client.post(f"/sessions/{sid}/draws", json={"deck": "misfortune", "cards": ["Ambush"]})
    assert physical.status_code == 201 and physical.json["cards"] == ["Ambush"]

    acted = client.post(f"/sessions/{sid}/actions", json={"type": "end-turn"})
    assert acted.status_code == 201
    assert [e["type"] for e in acted.json["events"]] == ["ActionTaken", "TurnEnded"]
    assert acted.json["state"]["turn"] == 2

    pending = client.get(f"/sessions/{sid}/verification")
    assert pending.status_code == 200 and pending.json["status"] == "pending" and pending.json["seed"] is None

    ended = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    assert ended.status_code == 200
    assert hashlib.sha256(bytes.fromhex(ended.json["seed"])).hexdigest() == started.json["seed_commitment"]

    verified = client.get(f"/sessions/{sid}/verification")
    assert verified.json["status"] == "verified" and verified.json["seed"] == ended.json["seed"]
    assert [r["position"] for r in verified.json["rolls"]] == [first, first + 1]
    assert verified.json["rolls"][0]["counter_start"] == started.json["state"]["random_counter"] and "HMAC" in verified.json["derivation"]

    page = client.get(f"/sessions/{sid}/events?after=0&limit=3")
    assert [e["position"] for e in page.json["events"]] == [1, 2, 3]
    assert page.json["events"][0]["payload"]["seed"] == ended.json["seed"]  # revealed now

    state = client.get(f"/sessions/{sid}").json
    assert state["status"] == "ended" and state["outcome"] == "victory"
    campaign = client.get(f"/campaigns/{cid}").json
    assert campaign["sessions"] == [{"id": sid, "quest": "q1-meeting", "outcome": "victory"}]
    assert campaign["next_quest"] == "q2-rescue"


def test_rulesets_are_served_with_unknowns_explicit(client):
    listing = client.get("/rulesets")
    assert listing.status_code == 200
    assert {"id": "journey", "name": "Journey: Wrath of Demons", "version": rulesets.get("journey").version, "hash": rulesets.get("journey").hash} in listing.json
    journey = client.get("/rulesets/journey").json
    attack = next(d for d in journey["dice"] if d["id"] == "attack")
    assert attack["faces"] is None and attack["unknowns"]["faces"]
    assert {d["id"] for d in journey["plain_dice"]} == {"d4", "d6", "d8", "d10", "d12", "d20"}
    actions = {a["type"]: a for a in journey["actions"]}
    assert actions["skill-reward"]["schema"]["properties"]["kind"] == {"enum": ["one-time", "permanent"]}
    assert "attack" in journey["component_schema"]["properties"]["dice"]["properties"]
    assert client.get("/rulesets/chess").status_code == 404


def test_openapi_and_health_are_served(client):
    spec = client.get("/openapi.json")
    assert spec.status_code == 200
    for path in ("/campaigns", "/campaigns/{campaign_id}/sessions", "/sessions/{session_id}/rolls", "/sessions/{session_id}/draws",
                 "/sessions/{session_id}/actions", "/sessions/{session_id}/end", "/sessions/{session_id}/events",
                 "/sessions/{session_id}/verification", "/rulesets/{ruleset_id}", "/health"):
        assert path in spec.json["paths"], path
    health = client.get("/health")
    assert health.status_code == 200 and health.json["status"] == "ok"


BAD_ROLLS = [
    ({"dice": {"d6": 1}, "colour": "red"}, 422, "colour"),  # unknown field
    ({"dice": {"d6": "two"}}, 422, "dice.d6"),  # wrong type
    ({"dice": {"d6": 1.5}}, 422, "dice.d6"),
    ({"dice": {"d6": 0}}, 422, "dice.d6"),  # count below 1
    ({"dice": {"d6": 101}}, 422, "dice.d6"),  # count above 100
    ({"dice": {"d7": 1}}, 422, "Unknown die"),  # unknown die id
    ({"dice": {}}, 422, "dice"),
    ({}, 422, "dice"),
    ({"faces": {"attack": ["4"]}}, 422, "no face"),  # not a face of the die
    ({"dice": {"defense": 1}}, 422, "unknown"),  # faces lost in transcription
    ([1, 2], 422, ""),  # not an object
]


@pytest.mark.parametrize(("body", "status", "mentions"), BAD_ROLLS)
def test_bad_rolls_get_a_problem_and_append_nothing(app, client, session_id, body, status, mentions):
    before, notifications = _events(client, session_id), _notifications(app)
    response = client.post(f"/sessions/{session_id}/rolls", json=body)
    assert response.status_code == status
    assert response.content_type == PROBLEM
    assert response.json["status"] == status and response.json["title"]
    assert mentions in response.json["title"] + str(response.json.get("errors", ""))
    assert _events(client, session_id) == before and _notifications(app) == notifications


BAD_DRAWS = [
    ({"deck": "tarot", "count": 1}, "Unknown deck"),
    ({"deck": "fortune", "count": 0}, "count"),
    ({"deck": "fortune", "count": 101}, "count"),
    ({"deck": "fortune", "count": "1"}, "count"),
    ({"deck": "fortune"}, "how many"),
    ({"deck": "misfortune", "count": 1}, "unknown"),
    ({"deck": "fortune", "count": 2, "cards": ["Fortune 1"]}, "count"),
    ({"deck": "fortune", "cards": ["Fortune 99"]}, "cannot hold"),
    ({"deck": "fortune", "count": 1, "shuffle": True}, "shuffle"),
]


@pytest.mark.parametrize(("body", "mentions"), BAD_DRAWS)
def test_bad_draws_get_a_problem_and_append_nothing(app, client, session_id, body, mentions):
    before, notifications = _events(client, session_id), _notifications(app)
    response = client.post(f"/sessions/{session_id}/draws", json=body)
    assert response.status_code == 422 and response.content_type == PROBLEM
    assert mentions in response.json["title"] + str(response.json.get("errors", ""))
    assert _events(client, session_id) == before and _notifications(app) == notifications


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/sessions/{sid}/actions", {"type": "teleport"}, 422),
        ("/sessions/{sid}/actions", {"type": "discard", "deck": "fortune"}, 422),
        ("/sessions/{sid}/actions", {"type": "discard", "deck": "fortune", "cards": ["Fortune 1"]}, 422),
        ("/sessions/{sid}/actions", {"deck": "fortune"}, 422),
        ("/sessions/{sid}/end", {"outcome": "draw"}, 422),
        ("/sessions/{sid}/end", {"outcome": "victory", "mvp": "Monkey King"}, 422),
    ],
)
def test_bad_actions_and_outcomes_get_a_problem_and_append_nothing(app, client, session_id, path, body, status):
    before, notifications = _events(client, session_id), _notifications(app)
    response = client.post(path.format(sid=session_id), json=body)
    assert response.status_code == status and response.content_type == PROBLEM and response.json["title"]
    assert _events(client, session_id) == before and _notifications(app) == notifications


def test_malformed_json_oversized_bodies_and_wrong_content_types(app, client, session_id):
    before, notifications = _events(client, session_id), _notifications(app)
    malformed = client.post(f"/sessions/{session_id}/rolls", data='{"dice": {"d6": 1}', content_type="application/json")
    assert malformed.status_code == 400 and malformed.content_type == PROBLEM and "JSON" in malformed.json["title"]
    huge = client.post(f"/sessions/{session_id}/rolls", data=b"[" + b"1," * 600_000 + b"1]", content_type="application/json")
    assert huge.status_code == 413 and huge.content_type == PROBLEM and "1 MB" in huge.json["detail"]
    text = client.post(f"/sessions/{session_id}/rolls", data="d6=1", content_type="application/x-www-form-urlencoded")
    assert text.status_code == 415 and text.content_type == PROBLEM
    assert _events(client, session_id) == before and _notifications(app) == notifications


def test_unknown_campaigns_sessions_rulesets_and_quests(app, client, journey_campaign):
    notifications = _notifications(app)
    missing = "00000000-0000-0000-0000-000000000000"
    assert client.get(f"/campaigns/{missing}").status_code == 404
    assert client.get(f"/sessions/{missing}").json["title"].startswith("No session")
    assert client.post(f"/sessions/{missing}/rolls", json={"dice": {"d6": 1}}).status_code == 404
    unknown_ruleset = client.post("/campaigns", json={"ruleset": "chess", "name": "x"})
    assert unknown_ruleset.status_code == 422 and "chess" in unknown_ruleset.json["title"]
    unknown_quest = client.post(f"/campaigns/{journey_campaign['id']}/sessions", json={"quest": "q99"})
    assert unknown_quest.status_code == 422 and "q99" in unknown_quest.json["title"]
    bad_components = client.post("/campaigns", json={"ruleset": "journey", "name": "x", "components": {"dice": {"attack": {"faces": ["9"]}}}})
    assert bad_components.status_code == 422 and bad_components.content_type == PROBLEM
    assert _notifications(app) == notifications


def test_idempotency_key_replays_the_first_answer(client, session_id):
    headers = {"Idempotency-Key": "4a1c0d1e-roll"}
    first = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d20": 2}}, headers=headers)
    events = _events(client, session_id)
    retry = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d20": 2}}, headers=headers)
    assert retry.status_code == first.status_code == 201 and retry.json == first.json
    assert retry.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert _events(client, session_id) == events
    changed = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d20": 3}}, headers=headers)
    assert changed.status_code == 422 and changed.content_type == PROBLEM and "Idempotency-Key" in changed.json["title"]
    assert _events(client, session_id) == events


def test_idempotency_key_on_campaign_and_session_creation(app, client, journey_campaign):
    body = {"ruleset": "journey", "name": "Retry group"}
    first = client.post("/campaigns", json=body, headers={"Idempotency-Key": "create-1"})
    notifications = _notifications(app)
    again = client.post("/campaigns", json=body, headers={"Idempotency-Key": "create-1"})
    assert again.status_code == 201 and again.json["id"] == first.json["id"]
    started = client.post(f"/campaigns/{first.json['id']}/sessions", json={"quest": "q2-rescue"}, headers={"Idempotency-Key": "s-1"})
    restarted = client.post(f"/campaigns/{first.json['id']}/sessions", json={"quest": "q2-rescue"}, headers={"Idempotency-Key": "s-1"})
    assert restarted.json == started.json
    assert _notifications(app) > notifications
    assert len(client.get(f"/campaigns/{first.json['id']}").json["sessions"]) == 1


def test_if_match_gives_412_on_a_stale_version(client, session_id):
    version = client.get(f"/sessions/{session_id}").json["version"]
    ok = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}, headers={"If-Match": str(version)})
    assert ok.status_code == 201
    stale = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}, headers={"If-Match": str(version)})
    assert stale.status_code == 412 and stale.content_type == PROBLEM
    garbled = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}, headers={"If-Match": "yesterday"})
    assert garbled.status_code == 400 and garbled.content_type == PROBLEM
    assert client.get(f"/sessions/{session_id}").json["version"] == version + 1


def test_an_ended_session_refuses_commands(client, session_id):
    client.post(f"/sessions/{session_id}/end", json={"outcome": "defeat", "reported": {"defeated": ["tripitaka"]}})
    again = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}})
    assert again.status_code == 409 and again.content_type == PROBLEM and "ended" in again.json["title"]


def test_the_correlation_id_is_echoed_and_recorded(client, session_id):
    response = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d4": 1}}, headers={"X-Correlation-Id": "table-3-req-9"})
    assert response.headers["X-Correlation-Id"] == "table-3-req-9"
    last = client.get(f"/sessions/{session_id}/events?after={response.json['position'] - 1}").json["events"][0]
    assert last["meta"]["correlation_id"] == "table-3-req-9"
    generated = client.get("/health").headers["X-Correlation-Id"]
    assert len(generated) == 36


def test_events_paging_bounds(client, session_id):
    assert client.get(f"/sessions/{session_id}/events?limit=0").status_code == 422
    assert client.get(f"/sessions/{session_id}/events?after=-1").status_code == 422
    assert client.get(f"/sessions/{session_id}/events?after=abc").content_type == PROBLEM
