"""Quest 10 Part 2's Villager bonus (L1077): "A Pilgrim gets +1 ATT against the Bull Demon King for each Villager Token
in their possession." The text leaves open whether +1 ATT is one more Attack Die or +1 to the total: the table states its
reading once for the campaign (state-reading), every later session plays by it, and the attack applies it; until then an
attack on the Bull Demon King by a Pilgrim holding a Villager Token is refused with the body that states it."""

from __future__ import annotations

from tests.kit import session
from tests.kit.journey import COMPONENTS, ORDER, act as _act

UPGRADES = {"karma_upgrades": {hero: ["good", "good"] for hero in ORDER}}  # Quest 10 gives each Pilgrim 2 (L672-L673)
BOX = COMPONENTS  # the Bull Demon King (Koorogg) has HP 9 and BKR 5 printed (L477, L504-L506)


def _part_2(client, cid) -> str:
    """Q10 Part 1 won (all 4 Sutras held, the Fiery Bridge reached), then Part 2 started: its session id."""
    sid = session.start(client, cid, "q10-part-1-the-lair", {"initiative": ORDER, **UPGRADES})["id"]
    _act(client, sid, type="maintenance")
    _act(client, sid, type="activate-pilgrim", hero="monkey-king")
    _act(client, sid, type="collect-sutra", hero="monkey-king", sutra="sutra-1")
    _act(client, sid, type="collect-sutra", hero="monkey-king", sutra="sutra-2")
    _act(client, sid, type="activate-pilgrim", hero="tripitaka")
    _act(client, sid, type="collect-sutra", hero="tripitaka", sutra="sutra-3")
    _act(client, sid, type="collect-sutra", hero="tripitaka", sutra="sutra-4")
    assert session.end(client, sid, "heroic-victory", reported={"fiery_bridge_reached": True})["next_quest"] == "q10-part-2-seal-the-gate"
    return session.start(client, cid, "q10-part-2-seal-the-gate")["id"]


def _monkey_king_with_a_villager(client, sid) -> None:
    _act(client, sid, type="maintenance")
    _act(client, sid, type="activate-pilgrim", hero="monkey-king", extra_ap=2)
    _act(client, sid, type="rescue-villager", hero="monkey-king", villager="villager-1")


def _attack(**more):
    return {"type": "pilgrim-attack", "hero": "monkey-king", "target": "koorogg-1", **more}


def test_the_reading_and_its_choices_are_published_with_the_quest(client):
    doc = client.get("/rulesets/journey").json
    quest = next(q for q in doc["quests"] if q["id"] == "q10-part-2-seal-the-gate")
    reading = quest["villager_att_bonus_reading"]
    assert reading["line"] == "L1077" and set(reading["choices"]) == {"attack-die", "total"}
    assert quest["att_bonus_meaning"] is None and "state-reading" in quest["unknowns"]["att_bonus_meaning"]
    action = next(a for a in doc["actions"] if a["type"] == "state-reading")
    assert action["schema"]["properties"]["choice"]["enum"] == ["attack-die", "total"]


def test_an_attack_on_the_bull_demon_king_waits_for_the_reading_then_adds_a_die(client):
    cid = session.campaign(client, "journey", ["tripitaka", "monkey-king", "cho-hakkai", "monk-sha"], components=BOX)["id"]
    sid = _part_2(client, cid)
    _monkey_king_with_a_villager(client, sid)
    before = session.total(client, sid)
    refused = session.refused(client, sid, _attack(faces={"attack": ["1", "1", "1"], "pilgrim": ["X"]}))
    assert refused["title"] == "State how the table reads the Villager bonus against the Bull Demon King first"
    assert "L1077" in refused["detail"] and '"attack-die"' in refused["detail"] and '"total"' in refused["detail"]
    assert refused["example"] == {"type": "state-reading", "reading": "villager-att-bonus", "choice": "attack-die"}
    assert session.total(client, sid) == before  # nothing appended
    stated = _act(client, sid, **refused["example"])
    assert stated["state"]["game"]["readings"] == {"villager-att-bonus": "attack-die"}
    assert session.refused(client, sid, {"type": "state-reading", "reading": "villager-att-bonus", "choice": "total"})["title"] == (
        "The table already read the Villager bonus against the Bull Demon King as one more Attack Die rolled per Villager Token held")
    # ATT 2 and one more die for the one Villager Token held: 3 faces, not 2
    assert session.refused(client, sid, _attack(faces={"attack": ["3", "3"], "pilgrim": ["X"]}))["title"] == "Monkey King rolls 3 Attack Dice here"
    hit = _act(client, sid, **_attack(faces={"attack": ["3", "3", "3"], "pilgrim": ["X"]}, outcome="kill"))
    change = session.change(hit, "AttackResolved")
    assert change["attack_total"] == 9 and change["defeated"] is True
    assert change["villager_bonus"] == {"villagers": 1, "reading": "attack-die", "amount": 1, "line": "L1077"}


def test_read_as_the_total_the_bonus_adds_to_the_damage_and_the_campaign_keeps_the_reading(client):
    cid = session.campaign(client, "journey", ["tripitaka", "monkey-king", "cho-hakkai", "monk-sha"], components=BOX)["id"]
    sid = _part_2(client, cid)
    _monkey_king_with_a_villager(client, sid)
    _act(client, sid, type="state-reading", reading="villager-att-bonus", choice="total")
    # 2 dice of 3 and 3 make 6, +1 for the Villager Token: 7, short of the Bull Demon King's 9 (One Hit Kill)
    missed = _act(client, sid, **_attack(faces={"attack": ["3", "3"], "pilgrim": ["X"]}))
    change = session.change(missed, "AttackResolved")
    assert change["damage"] == 7 and change["defeated"] is False and change["villager_bonus"]["reading"] == "total"
    # a Pilgrim with no Villager Token gets nothing, and is not asked
    _act(client, sid, type="activate-pilgrim", hero="tripitaka")
    plain = _act(client, sid, type="pilgrim-attack", hero="tripitaka", target="koorogg-1", faces={"attack": ["3", "3"], "pilgrim": ["X"]})
    assert "villager_bonus" not in session.change(plain, "AttackResolved")
    session.ruled_and_verified(client, sid, "defeat", ruling="the test stops here")
    progress = client.get(f"/campaigns/{cid}").json["progress"]
    assert progress["readings"] == {"villager-att-bonus": "total"}


def test_a_reading_stated_in_an_earlier_session_holds_in_the_next(client):
    cid = session.campaign(client, "journey", ["tripitaka", "monkey-king", "cho-hakkai", "monk-sha"], components=BOX)["id"]
    first = session.start(client, cid, "q10-part-1-the-lair", {"initiative": ORDER, **UPGRADES})["id"]
    _act(client, first, type="state-reading", reading="villager-att-bonus", choice="total")
    session.ruled_and_verified(client, first, "defeat", ruling="the test stops here")
    second = session.start(client, cid, "q10-part-1-the-lair", {"initiative": ORDER, **UPGRADES})
    assert second["state"]["game"]["readings"] == {"villager-att-bonus": "total"}
    assert session.refused(client, second["id"], {"type": "state-reading", "reading": "villager-att-bonus", "choice": "attack-die"})["status"] == 422
