"""What one attack records for the rest of the quest, through the REST API on SQLite and PostgreSQL (issue 16, rules
data 1.5.0): a leap's one dodge, the threat a monster's surges buy, a spirit's fate when a fight kills it. Each test
quotes the line it holds the service to."""

from __future__ import annotations

from tests.test_descent_abilities import _attack
from tests.test_descent_api import _act, _game, _refused, _verified
from tests.test_descent_combat import _change, _placed, _session


def test_a_leap_is_dodged_by_one_of_the_figures_it_affects_not_two(client):
    # L224: "If a Leap attack is dodged by more than one figure, only one re-roll may be made"; L225: "Either Aurim or
    # Sahla may dodge this attack, but not both of them."
    sid = _session(client)
    for hero in ("aurim", "tahlia"):
        _act(client, sid, type="ready", hero=hero, half_actions=["attack", "order"], order="dodge")
    [ape] = _placed(client, sid, {"monster": "blood ape", "wounds": 10, "armor": 1})
    leap = {"abilities": [{"ability": "Leap"}], "attack_type": "melee", "range": 6}
    dodged = _attack(client, sid, ape, "aurim", {"red": ["3D 0R"]}, orders_used=["dodge"], **leap)  # the re-rolled faces, as reported
    assert _change(dodged, "AttackMade")["leap"]["dodged_by"] == ["aurim"]
    refused = _refused(client, sid, type="attack", attacker=ape, target="tahlia", faces={"red": ["3D 0R"]}, orders_used=["dodge"], **leap)
    assert refused["title"] == f"aurim already dodged {ape}'s leap" and "L224" in refused["detail"]
    assert "dodge" in _game(client, sid)["game"]["heroes"]["tahlia"]["orders"]  # the refusal took nothing
    second = _attack(client, sid, ape, "tahlia", {"red": ["3D 0R"]}, **leap)  # the same roll reaches her undodged
    assert _change(second, "AttackMade")["wounds"] == 1 and "dodge" in second["state"]["game"]["heroes"]["tahlia"]["orders"]
    # the next turn's leap is another attack: it may be dodged again
    _act(client, sid, type="end-turn")
    again = _attack(client, sid, ape, "tahlia", {"red": ["1D 0R"]}, orders_used=["dodge"], **leap)
    assert _change(again, "AttackMade")["leap"]["dodged_by"] == ["tahlia"]
    _verified(client, sid)


def test_a_monsters_surges_spent_on_threat_give_it_to_the_overlord_in_the_same_attack(client):
    # L218: "A monster with the Dark Prayer ability generates 1 threat for the overlord for every surge it rolls when
    # attacking, instead of for every 2 surges." The base rate is the one the text implies; the attack names the surges.
    sid = _session(client)
    before = _game(client, sid)["game"]["threat"]
    [beastman, priest] = _placed(client, sid, {"monster": "beastman", "wounds": 5, "armor": 0},
                                 {"monster": "dark priest", "wounds": 5, "armor": 0, "abilities": {"Dark Prayer": 1}})
    plain = _attack(client, sid, beastman, "tahlia", {"red": ["2D 0R 1S", "1D 1R 1S"]}, surges=[{"ability": "threat", "count": 2}])
    gained = _change(plain, "ThreatGained")
    assert (gained["amount"], gained["source"], gained["count"], gained["dark_prayer"]) == (1, "monster-surges", 2, False)
    assert plain["state"]["game"]["threat"] == before + 1
    # Dark Prayer: 1 per surge (and +1 range and damage per surge rolled, L299)
    prayed = _attack(client, sid, priest, "aurim", {"white": ["1D 1R 1S", "0D 2R 1S"]}, attack_type="magic", range=2,
                     surges=[{"ability": "threat", "count": 2}])
    assert _change(prayed, "ThreatGained")["amount"] == 2 and prayed["state"]["game"]["threat"] == before + 3
    # no more surges than the roll gave; a hero's surges buy none
    assert _refused(client, sid, type="attack", attacker=beastman, target="tahlia", attack_type="melee", faces={"red": ["2D 0R 1S"]},
                    surges=[{"ability": "threat", "count": 2}])["title"] == "The roll gives 1 surges, not 2"
    hero = _refused(client, sid, type="attack", attacker="tahlia", target=beastman, attack_type="melee", faces={"red": ["2D 0R 1S", "1D 1R 1S"]},
                    surges=[{"ability": "threat", "count": 2}])
    assert hero["title"] == "Only a monster's surges give the overlord threat" and "L218" in hero["detail"]
    assert _game(client, sid)["game"]["threat"] == before + 3  # the refusals gained nothing
    _verified(client, sid)
