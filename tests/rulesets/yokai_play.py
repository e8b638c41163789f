"""Helpers for playing Yōkai Quest through the REST API in tests."""

from __future__ import annotations

# Component data a group might supply: the heroes' Health from their control panels.
# These are test inputs, not facts about the real components.
YOKAI_TEST_COMPONENTS = {"characters": {"ryo": {"stats": {"health": 6}}, "ami": {"stats": {"health": 5}}}}

HIT = {"red": ["katana"]}
MISS = {"blue": ["blank"]}


def create_campaign(client, options=None, components=YOKAI_TEST_COMPONENTS, party=("ryo", "ami")):
    body = {"ruleset": "yokai-quest", "name": "Friday group", "party": list(party), "components": components}
    if options is not None:
        body["options"] = options
    response = client.post("/campaigns", json=body)
    assert response.status_code == 201, response.json
    return response.json


def start(client, campaign_id, scene):
    response = client.post(f"/campaigns/{campaign_id}/sessions", json={"quest": scene})
    assert response.status_code == 201, response.json
    return response.json["id"]


def act(client, session_id, action, status=201):
    response = client.post(f"/sessions/{session_id}/actions", json=action)
    assert response.status_code == status, response.json
    return response.json


def game(client, session_id):
    return client.get(f"/sessions/{session_id}").json["game"]


def strike(client, session_id, attacker, defenders):
    """The attacker hits every defender with one katana against no helmet (reported dice)."""
    targets = [{"defender": d, "attack_faces": HIT, "defense_faces": MISS} for d in defenders]
    return act(client, session_id, {"type": "attack", "attacker": attacker, "source": "test", "targets": targets})


def end(client, session_id, outcome, status=200):
    response = client.post(f"/sessions/{session_id}/end", json={"outcome": outcome})
    assert response.status_code == status, response.json
    return response.json


def draw_owed(client, session_id):
    """Draw every treasure card owed, as Nigiri, refusing it once the hand is full."""
    while owed := game(client, session_id)["treasure_owed"]:
        hero = owed[0]["hero"]
        full = len(game(client, session_id)["heroes"][hero]["hand"]) >= 4
        act(client, session_id, {"type": "draw-treasure", "hero": hero, "card": "Nigiri", **({"discard": "Nigiri"} if full else {})})
