"""The session state says what comes next: its `phase` and the action types `allowed` now, with who may take them.

A group learns the turn order from these, not from 422s: what is listed is accepted in its part of the turn,
and a game's phase action that is not listed is refused."""

from __future__ import annotations

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit import yokai_quest as yokai_play
from tests.kit.descent import TEST_OVERLORD_DECK
from tests.kit.journey import COMPONENTS as JOURNEY_COMPONENTS, PILGRIMS
from tests.kit.kung_fu_panda import TEST_COMPONENTS as KUNG_FU_PANDA_COMPONENTS
from tests.kit.session import post as _post


def _allowed(state: dict) -> dict[str, dict]:
    return {entry["type"]: entry for entry in state["allowed"]}


def _published(client, ruleset: str) -> set[str]:
    return {action["type"] for action in client.get(f"/rulesets/{ruleset}").json["actions"]}


def test_a_journey_turn_is_led_by_phase_and_allowed(client):
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": ["tripitaka", "monkey-king"], "components": JOURNEY_TEST_COMPONENTS})["id"]
    started = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})
    sid, state = started["id"], started["state"]
    assert state["phase"] == "maintenance"
    allowed = _allowed(state)
    assert set(allowed) <= _published(client, "journey")
    assert "maintenance" in allowed and "activate-pilgrim" not in allowed and "spawn-demons" not in allowed
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "activate-pilgrim", "hero": "tripitaka"})
    assert refused.status_code == 422  # not listed, and not accepted

    state = _post(client, f"/sessions/{sid}/actions", {"type": "maintenance"})["state"]  # the action's answer says what comes next
    assert state["phase"] == "pilgrim"
    first = state["game"]["initiative"][0]
    allowed = _allowed(state)
    assert allowed["activate-pilgrim"]["heroes"] == [first] and "maintenance" not in allowed and "rest" not in allowed

    state = _post(client, f"/sessions/{sid}/actions", {"type": "activate-pilgrim", "hero": first})["state"]
    allowed = _allowed(state)
    assert allowed["rest"]["heroes"] == [first] and allowed["end-activation"]["heroes"] == [first]
    assert ("close-gate" in allowed) == (first == "tripitaka")
    _post(client, f"/sessions/{sid}/actions", {"type": "rest", "hero": first})  # what is listed is accepted

    state = _post(client, f"/sessions/{sid}/actions", {"type": "demon-phase"})["state"]
    assert state["phase"] == "demon" and {"spawn-demons", "demon-attack", "end-of-turn"} <= set(_allowed(state))
    assert client.get(f"/sessions/{sid}").json["allowed"] == state["allowed"]

    _post(client, f"/sessions/{sid}/abandon", {"reason": "only checking the turn"}, 200)
    ended = client.get(f"/sessions/{sid}").json
    assert ended["phase"] is None and ended["allowed"] == []


def test_journey_lists_a_quest_s_own_actions_only_in_that_quest(client):
    """The Sealing Ritual is Quest 10 Part 2's (L1096) and Quest 9 seals no Gate (L1008): outside them Tripitaka's
    `allowed` does not offer what the resolver would refuse whatever the state."""
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": PILGRIMS, "components": JOURNEY_COMPONENTS})["id"]
    upgrades = {"karma_upgrades": {hero: ["good"] for hero in PILGRIMS}}
    for quest, close_gate, setup in (("q1-meeting", True, {}), ("q9-kogaijis-trap", False, upgrades)):
        sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": quest, "setup": setup})["id"]
        state = _post(client, f"/sessions/{sid}/actions", {"type": "maintenance"})["state"]
        for hero in state["game"]["initiative"][: state["game"]["initiative"].index("tripitaka")]:
            _post(client, f"/sessions/{sid}/actions", {"type": "activate-pilgrim", "hero": hero})
        allowed = _allowed(_post(client, f"/sessions/{sid}/actions", {"type": "activate-pilgrim", "hero": "tripitaka"})["state"])
        assert allowed["revive"]["heroes"] == ["tripitaka"], quest
        assert "sealing-ritual" not in allowed, quest
        assert ("close-gate" in allowed) == close_gate, quest
        refused = client.post(f"/sessions/{sid}/actions", json={"type": "sealing-ritual", "hero": "tripitaka"})
        assert refused.status_code == 422 and "Quest 10 Part 2" in refused.json["title"]  # not listed, and not accepted
        _post(client, f"/sessions/{sid}/abandon", {"reason": "only checking what is allowed"}, 200)


def test_kung_fu_panda_rounds_and_pauses_are_led_by_allowed(client):
    body = {"ruleset": "kung-fu-panda", "name": "K", "party": ["po", "tigress"], "options": {"length": "single", "mission": "m2-1"}, "components": KUNG_FU_PANDA_COMPONENTS}
    cid = _post(client, "/campaigns", body)["id"]
    setup = {"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}}
    started = _post(client, f"/campaigns/{cid}/sessions", {"quest": "m2-1", "setup": setup})
    sid, state = started["id"], started["state"]
    assert state["phase"] == "ready"
    assert {"start-round", "correct"} <= set(_allowed(state)) and "roll" not in _allowed(state)
    assert client.post(f"/sessions/{sid}/actions", json={"type": "roll", "hero": "po"}).status_code == 422
    state = _post(client, f"/sessions/{sid}/actions", {"type": "start-round"})["state"]
    assert state["phase"] == "round"
    allowed = _allowed(state)
    assert sorted(allowed["roll"]["heroes"]) == ["po", "tigress"] and "start-round" not in allowed
    _post(client, f"/sessions/{sid}/actions", {"type": "roll", "hero": "tigress"})
    state = _post(client, f"/sessions/{sid}/actions", {"type": "end-round"})["state"]
    assert state["phase"] in ("pause", "over")
    assert "roll" not in _allowed(state)


def test_descent_says_which_side_takes_each_action(client):
    cid = _post(client, "/campaigns", {"ruleset": "descent", "name": "D", "party": ["aurim"], "components": TEST_OVERLORD_DECK})["id"]
    setup = {"purchases": [{"card": "Dark Power", "remove": "Aim"}], "dark_glyphs": [{"glyph": "summoning"}]}
    started = _post(client, f"/campaigns/{cid}/sessions", {"quest": "altar-of-despair", "setup": setup})
    state = started["state"]
    allowed = _allowed(state)
    assert set(allowed) <= _published(client, "descent")
    assert state["phase"] == "heroes" and allowed["start-hero-turn"]["heroes"] == ["aurim"] and "prolonged-roll" not in allowed
    assert allowed["play-overlord-card"]["side"] == "overlord"  # his cards at any time, even in a hero's turn (L241)
    state = _post(client, f"/sessions/{started['id']}/actions", {"type": "start-hero-turn", "hero": "aurim"})["state"]
    allowed = _allowed(state)
    assert allowed["prolonged-roll"]["side"] == "heroes" and allowed["prolonged-roll"]["heroes"] == ["aurim"]
    # the hero whose turn it is attacks, and the overlord's monsters may (the troll ambush, L577-L579)
    assert [(e["heroes"], e["side"]) for e in state["allowed"] if e["type"] == "attack"] == [(["aurim"], "heroes"), (None, "overlord")]


def test_a_yokai_turn_is_a_hero_phase_then_a_yokai_phase(client):
    cid = yokai_play.create_campaign(client)["id"]
    sid = yokai_play.start(client, cid, "shake-them-skeleton-bones-1")
    state = client.get(f"/sessions/{sid}").json
    assert state["phase"] == "hero"
    allowed = _allowed(state)
    assert set(allowed) <= _published(client, "yokai-quest")
    assert "draw-appearance" not in allowed and sorted(allowed["draw-energy"]["heroes"]) == ["ami", "ryo"]
    assert "begin-yokai-phase" not in allowed  # each hero activates first (L158)
    assert sorted(allowed["move"]["heroes"]) == ["ami", "ryo"]  # the basic movement, from the entrance (L214, L398)
    state = _post(client, f"/sessions/{sid}/actions", {"type": "draw-energy", "hero": "ami", "spheres": 1})["state"]
    assert _allowed(state)["draw-energy"]["heroes"] == ["ryo"]  # one card each, first in the Hero phase (L156)
    state = _post(client, f"/sessions/{sid}/actions", {"type": "end-activation", "hero": "ryo"})["state"]
    assert "draw-energy" not in _allowed(state) and "begin-yokai-phase" not in _allowed(state)  # the activations have begun (L158)
    assert _allowed(state)["end-activation"]["heroes"] == ["ami"] and _allowed(state)["move"]["heroes"] == ["ami"]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "end-activation", "hero": "ami"})["state"]
    assert "begin-yokai-phase" in _allowed(state) and "draw-energy" not in _allowed(state)
    state = yokai_play.begin_yokai_phase(client, sid)["state"]
    assert state["phase"] == "yokai"
    allowed = _allowed(state)
    assert {"draw-appearance", "end-turn"} <= set(allowed) and "begin-yokai-phase" not in allowed
