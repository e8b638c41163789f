"""Where a fact the rulebooks lost is unknown and nothing is supplied, the table states the result of that use:
the refusal's example shows the stated form, that form is accepted, recorded as stated and shown as stated."""

from __future__ import annotations
from tests.kit.session import post as _post

PARTY = ["tripitaka", "monkey-king"]


def _journey_pilgrim_active(client) -> tuple[str, str, dict]:
    """A Quest 1 session with no component data: the Berroks' HP, BKR, SP and GKR are lost (their sheets), and so is
    every Weapon Card. The first Pilgrim in initiative order is active."""
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": PARTY})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "maintenance"})["state"]
    hero = state["game"]["initiative"][0]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "activate-pilgrim", "hero": hero})["state"]
    return sid, hero, state


def _follow_examples(client, sid: str, body: dict, limit: int = 6) -> tuple[dict, list[dict]]:
    """Send ``body``; while refused for a lost fact, send the refusal's example instead (what a client reading only
    the answers would do). The accepted answer and the refusals met on the way."""
    refusals = []
    for _ in range(limit):
        answer = client.post(f"/sessions/{sid}/actions", json=body)
        if answer.status_code == 201:
            return answer.json, refusals
        assert answer.status_code == 422 and answer.json.get("example"), answer.json
        refusals.append(answer.json)
        body = answer.json["example"]
    raise AssertionError(f"still refused after {limit} examples: {refusals[-1]}")


def test_a_journey_attack_on_a_demon_whose_sheet_was_lost_is_settled_by_stating_its_results(client, app):
    sid, hero, state = _journey_pilgrim_active(client)
    demon = min(state["game"]["demons"])
    level = state["game"]["heroes"][hero]["weapon_level"]
    body = {"type": "pilgrim-attack", "hero": hero, "target": demon, "faces": {"attack": ["3", "3"], "pilgrim": ["1"]}, "outcome": "kill"}
    refused = client.post(f"/sessions/{sid}/actions", json=body)
    assert refused.status_code == 422
    assert any(key.startswith("stated.") for key in refused.json["errors"]), refused.json
    assert "stated" in refused.json["example"]

    done, refusals = _follow_examples(client, sid, body)
    assert len(refusals) == 1  # the example states every lost result the attack reads, at once
    said = set(refusals[0]["example"]["stated"])
    assert {"defeated", "karma"} <= said and (("weapon" in said) == bool(level))
    stated = refusals[-1]["example"]["stated"]
    kinds = {e["payload"]["change"]["kind"]: e["payload"]["change"] for e in done["events"] if "change" in (e.get("payload") or {})}
    assert kinds["attack-resolved"]["stated"]["defeated"] is True and kinds["attack-resolved"]["one_hit_kill"] is None
    assert kinds["demon-killed"]["stated"] == {"karma": stated["karma"]} and kinds["demon-killed"]["bkr"] == stated["karma"]
    assert demon not in done["state"]["game"]["demons"]

    app.extensions["tracker_views"].catch_up()
    lines = [e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=1000").json["entries"]]
    assert any("defeated (stated by the table: defeated yes" in line for line in lines), lines
    assert any("Bad Karma) (stated by the table: karma" in line for line in lines), lines
    _post(client, f"/sessions/{sid}/abandon", {"reason": "only checking stated results"}, 200)
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"  # a stated result replays exactly


def test_a_stated_cleanse_and_a_stated_miss_are_recorded_as_stated(client):
    sid, hero, state = _journey_pilgrim_active(client)
    demon = min(state["game"]["demons"])
    weapon = {"weapon": {"damage": 0, "knock_back": 0}} if state["game"]["heroes"][hero]["weapon_level"] else {}
    missed = _post(client, f"/sessions/{sid}/actions", {"type": "pilgrim-attack", "hero": hero, "target": demon, "faces": {"attack": ["X"], "pilgrim": ["1"]},
                                                         "stated": {**weapon, "defeated": False}})
    assert demon in missed["state"]["game"]["demons"]
    body = {"type": "pilgrim-attack", "hero": hero, "target": demon, "faces": {"attack": ["3"], "pilgrim": ["1"]}, "outcome": "cleanse",
            "cleanse_faces": ["2"], "stated": {**weapon, "defeated": True, "cleansed": True, "karma": 4}}
    done = _post(client, f"/sessions/{sid}/actions", body)
    cleansed = next(e["payload"]["change"] for e in done["events"] if (e.get("payload") or {}).get("change", {}).get("kind") == "demon-cleansed")
    assert cleansed["stated"] == {"cleansed": True, "karma": 4} and cleansed["gkr"] == 4
    assert done["state"]["game"]["heroes"][hero]["good"] >= 4


def test_a_fact_the_campaign_knows_cannot_be_stated_over(client):
    components = {"characters": {"berrok": {"stats": {"HP": 4, "BKR": 2, "SP": 2, "GKR": 2}}}}
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "J", "party": PARTY, "components": components})["id"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "maintenance"})["state"]
    hero = state["game"]["initiative"][0]
    state = _post(client, f"/sessions/{sid}/actions", {"type": "activate-pilgrim", "hero": hero})["state"]
    demon = next(d for d, c in sorted(state["game"]["demons"].items()) if c == "berrok")
    weapon = {"weapon": {"damage": 0, "knock_back": 0}} if state["game"]["heroes"][hero]["weapon_level"] else {}
    before = client.get(f"/sessions/{sid}").json["version"]
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "pilgrim-attack", "hero": hero, "target": demon,
                                                           "faces": {"attack": ["X"], "pilgrim": ["1"]}, "stated": {**weapon, "defeated": True}})
    assert refused.status_code == 422 and "stated.defeated" in refused.json["errors"] and "known" in refused.json["title"]
    assert client.get(f"/sessions/{sid}").json["version"] == before  # nothing appended


def test_a_demon_die_whose_sheet_was_lost_is_stated_for_the_attack(client):
    sid, hero, state = _journey_pilgrim_active(client)
    demon = min(state["game"]["demons"])
    _post(client, f"/sessions/{sid}/actions", {"type": "report-health", "hero": hero, "hp": 10})  # hero.HP's stated form
    _post(client, f"/sessions/{sid}/actions", {"type": "demon-phase"})
    body = {"type": "demon-attack", "demon": demon, "target": hero, "faces": {"attack": ["1"], "demon": ["1"], "defense": ["X"]}}
    done, refusals = _follow_examples(client, sid, body)
    assert len(refusals) == 1 and refusals[0]["example"]["stated"] == {"demon_die": {"damage": 1, "knock_back": 0}}
    resolved = next(e["payload"]["change"] for e in done["events"] if (e.get("payload") or {}).get("change", {}).get("kind") == "attack-resolved")
    assert resolved["stated"] == {"demon_die": {"damage": 1, "knock_back": 0}} and resolved["attack_total"] == 2
