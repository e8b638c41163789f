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
