"""Journey: a Pilgrim's attack refused for the facts the rulebook lost is refused once, with an example that is a whole
body (issue 31). Q1 without component data: the Attack and Pilgrim Dice's faces, the Weapon Card's table and Berrok's
HP and BKR are all lost, so the attack needs every die's faces, the stated results (L492 Weapon Card, L502 One Hit
Kill, the Karma of a Kill) and the "outcome" the defeat asks for (L679) — all in the first refusal."""

from __future__ import annotations

from tests.kit import session as kit


def _attacking(client) -> tuple[str, str, str]:
    campaign = kit.campaign(client, "journey", ["tripitaka", "monkey-king"])
    started = kit.start(client, campaign["id"], "q1-meeting")
    sid = started["id"]
    kit.act(client, sid, {"type": "maintenance"})
    state = client.get(f"/sessions/{sid}").json
    hero = next(e for e in state["allowed"] if e["type"] == "activate-pilgrim")["heroes"][0]
    kit.act(client, sid, {"type": "activate-pilgrim", "hero": hero})
    return sid, hero, sorted(started["state"]["game"]["demons"])[0]


def test_the_first_refusal_of_an_attack_names_every_lost_fact_and_its_example_is_accepted(client):
    sid, hero, demon = _attacking(client)
    refusal = kit.refused(client, sid, {"type": "pilgrim-attack", "hero": hero, "target": demon}, "unknown")
    example = refusal["example"]
    assert set(example["faces"]) == {"attack", "pilgrim"}  # every die the attack rolls, not one
    assert {"weapon", "defeated", "karma"} <= set(example["stated"]) and example["outcome"] in ("kill", "cleanse")
    assert {"components.dice.attack.faces", "components.dice.pilgrim.faces"} <= set(refusal["errors"])
    kit.act(client, sid, example)


def test_the_example_is_accepted_whatever_faces_the_table_rolled(client):
    sid, hero, demon = _attacking(client)
    example = kit.refused(client, sid, {"type": "pilgrim-attack", "hero": hero, "target": demon}, "unknown")["example"]
    rolled = {**example, "faces": {"attack": ["3", "2"], "pilgrim": ["3"]}}  # a face the Weapon Card is read for
    answer = kit.act(client, sid, rolled)
    resolved = next(e["payload"]["change"] for e in answer["events"] if e["type"] == "AttackResolved")
    assert resolved["weapon"] == example["stated"]["weapon"] == resolved["stated"]["weapon"]  # the stated Weapon Card effect was read
