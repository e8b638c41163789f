"""The quests' named monsters in combat, through the REST API on SQLite and PostgreSQL: what their text gives them,
and the quest decided by their deaths (rules data 1.3.0)."""

from __future__ import annotations

from tests.kit.descent import act, in_combat, placed, refused, verified
from tests.kit.session import change


def test_both_monkey_kings_killed_complete_the_hall_of_the_monkey_kings(client):
    # L496-L498: "When the heroes defeat both Monkey Kings: ... The heroes gain 4 conquest points for defeating the
    # Monkey Kings. They have completed their quest."
    sid = in_combat(client, quest="hall-of-the-monkey-kings")
    kings = placed(client, sid, {"monster": "blood ape", "named": "monkey-king", "wounds": 5, "armor": 1},
                    {"monster": "blood ape", "named": "monkey-king", "wounds": 5, "armor": 1}, source="zone 7 revealed")
    first = act(client, sid, type="attack", attacker="tahlia", target=kings[0], attack_type="melee", faces={"red": ["4D 0R", "2D 0R"]})
    assert change(first, "MonsterKilled")["figure"] == kings[0] and first["state"]["verdict"] is None  # one is not both
    second = act(client, sid, type="attack", attacker="tahlia", target=kings[1], attack_type="melee", faces={"red": ["4D 0R", "2D 0R"]})
    assert change(second, "ConquestChanged") == {"kind": "conquest-changed", "delta": 4, "reason": "monkey-kings-defeated", "total": 12}
    assert second["state"]["verdict"]["outcome"] == "victory"
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory"}).status_code == 200


def test_the_zone_8_leaders_fall_together_and_the_demon_has_fear_3(client):
    # L661: "The demon has 24 additional wounds and has Fear 3 instead of Fear 2." "The master ogre ... rolls 3 power dice
    # instead of 1." L662-L664: killing the master dark priest, the master ogre and the master demon completes the quest.
    sid = in_combat(client, quest="into-the-heart-of-darkness", spirits_zone_4=2)
    priest, ogre, demon = placed(client, sid, {"monster": "dark priest", "named": "the-dark-priest", "wounds": 4, "armor": 0},
                                  {"monster": "ogre", "named": "the-ogre", "wounds": 4, "armor": 0},
                                  {"monster": "demon", "named": "the-demon", "wounds": 4, "armor": 0}, source="zone 8 revealed")
    assert refused(client, sid, type="place-monsters", monsters=[{"monster": "demon", "named": "the-demon", "abilities": {"fear": 2}}],
                    source="zone 8")["title"] == "The master demon of Zone 8 has fear 3, not 2"
    assert refused(client, sid, type="attack", attacker=ogre, target="tahlia", attack_type="melee",
                    faces={"red": ["1D 0R"], "power": ["blank"]})["title"] == f"{ogre} rolls 3 power dice"
    act(client, sid, type="attack", attacker=ogre, target="tahlia", attack_type="melee", faces={"red": ["1D 0R"], "power": ["blank"] * 3}, stated={"damage": 1})
    unpaid = act(client, sid, type="attack", attacker="tahlia", target=demon, attack_type="melee", faces={"red": ["4D 0R 1S", "1D 0R 1S"]},
                  surges=[{"ability": "fear", "count": 2}])
    assert change(unpaid, "AttackMade")["miss"] == "Fear 3: 3 surges not spent on fear (L301)"
    for target in (priest, ogre):
        assert act(client, sid, type="attack", attacker="tahlia", target=target, attack_type="melee", faces={"red": ["4D 0R"]})["state"]["verdict"] is None
    last = act(client, sid, type="attack", attacker="tahlia", target=demon, attack_type="melee", faces={"red": ["4D 0R 1S", "1D 0R 1S", "0D 1R 1S"]},
                surges=[{"ability": "fear", "count": 3}])
    assert [e["payload"]["change"]["reason"] for e in last["events"] if e["type"] == "ConquestChanged"] == ["leaders-killed"]
    assert last["state"]["verdict"]["outcome"] == "victory"


def test_no_attack_harms_zorek(client):
    # L684: "The master chaos beast in this zone is Zorek. No attack can harm him, and he is immune to all effects."
    sid = in_combat(client, quest="altar-of-despair")
    [zorek] = placed(client, sid, {"monster": "chaos beast", "named": "zorek"}, source="starting zone")
    struck = act(client, sid, type="attack", attacker="tahlia", target=zorek, attack_type="melee", faces={"red": ["4D 0R", "4D 0R"]},
                  abilities=[{"ability": "Burn"}])
    made = change(struck, "AttackMade")
    assert (made["hit"], made["wounds"], made["miss"]) == (False, 0, "No attack can harm Zorek, and he is immune to all effects (L684)")
    assert not [e for e in struck["events"] if e["type"] == "MonsterKilled"]
    assert refused(client, sid, type="attack", attacker=zorek, target="tahlia", attack_type="melee", faces={"red": ["1D 0R"]})["title"] == f"{zorek} rolls 5 power dice"
    verified(client, sid)


def test_the_leaders_award_waits_for_the_last_angered_spirit(client):
    # L662: "If the heroes kill the master dark priest, the master ogre, and the master demon (and the spirits, if they
    # have been angered)": the leaders dead with an angered spirit standing decide nothing until it is destroyed.
    sid = in_combat(client, quest="into-the-heart-of-darkness", spirits_zone_4=2)
    act(client, sid, type="spirit-angered", spirit="zone-8-spirit-1", cause="attacked")
    leaders = placed(client, sid, {"monster": "dark priest", "named": "the-dark-priest", "wounds": 4, "armor": 0}, {"monster": "ogre", "named": "the-ogre", "wounds": 4, "armor": 0},
                      {"monster": "demon", "named": "the-demon", "wounds": 4, "armor": 0}, source="zone 8 revealed")
    for leader in leaders:
        done = act(client, sid, type="attack", attacker="tahlia", target=leader, attack_type="melee", faces={"red": ["4D 0R 1S", "1D 0R 1S", "1D 0R 1S"]},
                    surges=[{"ability": "fear", "count": 3}])
    assert done["state"]["verdict"] is None and done["state"]["game"]["conquest"] == 10
    destroyed = act(client, sid, type="spirit-killed", spirit="zone-8-spirit-1", face="surge")
    assert [e["payload"]["change"]["reason"] for e in destroyed["events"] if e["type"] == "ConquestChanged"] == ["leaders-killed"]
    assert destroyed["state"]["verdict"]["outcome"] == "victory"
