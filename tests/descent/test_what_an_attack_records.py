"""What one attack records for the rest of the quest, through the REST API on SQLite and PostgreSQL (issue 16, rules
data 1.5.0): a leap's one dodge, the threat a monster's surges buy, a spirit's fate when a fight kills it. Each test
quotes the line it holds the service to."""

from __future__ import annotations

from tests.kit.descent import (
    act,
    attack,
    game as _game,
    in_combat,
    placed,
    refused as _refused,
    verified,
)
from tests.kit.session import change


def test_a_leap_is_dodged_by_one_of_the_figures_it_affects_not_two(client):
    # L224: "If a Leap attack is dodged by more than one figure, only one re-roll may be made"; L225: "Either Aurim or
    # Sahla may dodge this attack, but not both of them."
    sid = in_combat(client)
    for hero in ("aurim", "tahlia"):
        act(client, sid, type="ready", hero=hero, half_actions=["attack", "order"], order="dodge")
    [ape] = placed(client, sid, {"monster": "blood ape", "wounds": 10, "armor": 1})
    leap = {"abilities": [{"ability": "Leap"}], "attack_type": "melee", "range": 6}
    dodged = attack(client, sid, ape, "aurim", {"red": ["3D 0R"]}, orders_used=["dodge"], **leap)  # the re-rolled faces, as reported
    assert change(dodged, "AttackMade")["leap"]["dodged_by"] == ["aurim"]
    refused = _refused(client, sid, type="attack", attacker=ape, target="tahlia", faces={"red": ["3D 0R"]}, orders_used=["dodge"], **leap)
    assert refused["title"] == f"Aurim already dodged {ape}'s leap" and "L224" in refused["detail"]
    assert "dodge" in _game(client, sid)["game"]["heroes"]["tahlia"]["orders"]  # the refusal took nothing
    second = attack(client, sid, ape, "tahlia", {"red": ["3D 0R"]}, **leap)  # the same roll reaches her undodged
    assert change(second, "AttackMade")["wounds"] == 1 and "dodge" in second["state"]["game"]["heroes"]["tahlia"]["orders"]
    # the next turn's leap is another attack: it may be dodged again
    act(client, sid, type="end-turn")
    again = attack(client, sid, ape, "tahlia", {"red": ["1D 0R"]}, orders_used=["dodge"], **leap)
    assert change(again, "AttackMade")["leap"]["dodged_by"] == ["tahlia"]
    verified(client, sid)


def test_a_monsters_surges_spent_on_threat_give_it_to_the_overlord_in_the_same_attack(client):
    # L218: "A monster with the Dark Prayer ability generates 1 threat for the overlord for every surge it rolls when
    # attacking, instead of for every 2 surges." The base rate is the one the text implies; the attack names the surges.
    sid = in_combat(client)
    before = _game(client, sid)["game"]["threat"]
    [beastman, priest] = placed(client, sid, {"monster": "beastman", "wounds": 5, "armor": 0},
                                 {"monster": "dark priest", "wounds": 5, "armor": 0, "abilities": {"Dark Prayer": 1}})
    plain = attack(client, sid, beastman, "tahlia", {"red": ["2D 0R 1S", "1D 1R 1S"]}, surges=[{"ability": "threat", "count": 2}])
    gained = change(plain, "ThreatGained")
    assert (gained["amount"], gained["source"], gained["count"], gained["dark_prayer"]) == (1, "monster-surges", 2, False)
    assert plain["state"]["game"]["threat"] == before + 1
    # Dark Prayer: 1 per surge (and +1 range and damage per surge rolled, L299)
    prayed = attack(client, sid, priest, "aurim", {"white": ["1D 1R 1S", "0D 2R 1S"]}, attack_type="magic", range=2,
                     surges=[{"ability": "threat", "count": 2}])
    assert change(prayed, "ThreatGained")["amount"] == 2 and prayed["state"]["game"]["threat"] == before + 3
    # no more surges than the roll gave; a hero's surges buy none
    assert _refused(client, sid, type="attack", attacker=beastman, target="tahlia", attack_type="melee", faces={"red": ["2D 0R 1S"]},
                    surges=[{"ability": "threat", "count": 2}])["title"] == "The roll gives 1 surges, not 2"
    hero = _refused(client, sid, type="attack", attacker="tahlia", target=beastman, attack_type="melee", faces={"red": ["2D 0R 1S", "1D 1R 1S"]},
                    surges=[{"ability": "threat", "count": 2}])
    assert hero["title"] == "Only a monster's surges give the overlord threat" and "L218" in hero["detail"]
    assert _game(client, sid)["game"]["threat"] == before + 3  # the refusals gained nothing
    verified(client, sid)


def test_a_spirit_killed_in_a_fight_is_recorded_in_the_quests_spirit_record_once(client):
    # L618: "they have the Superior Undying ability, which revives them on any die result except a power surge."
    # L619: "Spirits do not attack heroes unless the heroes attacked them first. Once a spirit has been attacked, it will
    # attack the heroes until it is destroyed."
    sid = in_combat(client, quest="into-the-heart-of-darkness", spirits_zone_4=2)
    not_one = _refused(client, sid, type="place-monsters", monsters=[{"monster": "skeleton", "master": True, "spirit": "zone-9-spirit-1"}], source="zone 5")
    assert not_one["title"] == "'zone-9-spirit-1' is not a spirit of this quest" and "zone-5-spirit-1" in not_one["detail"]
    assert _refused(client, sid, type="place-monsters", monsters=[{"monster": "skeleton", "spirit": "zone-5-spirit-1"}],
                    source="zone 5")["title"] == "zone-5-spirit-1 is a master figure"
    [spirit] = placed(client, sid, {"monster": "skeleton", "master": True, "wounds": 3, "armor": 0, "spirit": "zone-5-spirit-1"}, source="zone 5 revealed")
    assert _game(client, sid)["game"]["monsters"][spirit]["abilities"] == {"superior-undying": 1}
    assert _refused(client, sid, type="place-monsters", monsters=[{"monster": "skeleton", "master": True, "spirit": "zone-5-spirit-1"}],
                    source="zone 5")["title"] == "zone-5-spirit-1 is already a figure in play"
    # a hero's attack angers it, hit or miss
    missed = attack(client, sid, "tahlia", spirit, {"red": ["X"]})
    assert missed["state"]["game"]["spirits"]["angered"] == ["zone-5-spirit-1"]
    # the kill rolls Superior Undying and records it as spirit-killed does: revived on a blank
    revived = attack(client, sid, "tahlia", spirit, {"red": ["4D 0R"]}, undying_face="blank")
    assert change(revived, "SpiritKilled") == {"kind": "spirit-killed", "spirit": "zone-5-spirit-1", "result": "blank", "destroyed": False, "figure": spirit}
    assert revived["state"]["game"]["monsters"][spirit]["wounds"] == 3 and revived["state"]["game"]["spirits"]["destroyed"] == []
    # the table's separate spirit-killed for the same fight would count it twice
    twice = _refused(client, sid, type="spirit-killed", spirit="zone-5-spirit-1", face="surge")
    assert twice["title"] == f"zone-5-spirit-1 is the figure {spirit} in play: record the attack that kills it"
    destroyed = attack(client, sid, "tahlia", spirit, {"red": ["4D 0R"]}, undying_face="surge")
    assert change(destroyed, "MonsterKilled")["figure"] == spirit
    assert destroyed["state"]["game"]["spirits"]["destroyed"] == ["zone-5-spirit-1"]
    assert _refused(client, sid, type="spirit-killed", spirit="zone-5-spirit-1", face="surge")["title"] == "zone-5-spirit-1 is already destroyed"
    verified(client, sid)


def test_the_last_angered_spirit_destroyed_in_a_fight_completes_the_leaders_award(client):
    # L662: "If the heroes kill the master dark priest, the master ogre, and the master demon (and the spirits, if they
    # have been angered)"; L664: "The heroes gain 4 conquest points ... They have completed their quest!"
    sid = in_combat(client, quest="into-the-heart-of-darkness", spirits_zone_4=2)
    [spirit] = placed(client, sid, {"monster": "sorcerer", "master": True, "wounds": 2, "armor": 0, "spirit": "zone-8-spirit-3"}, source="zone 8 revealed")
    attack(client, sid, "tahlia", spirit, {"red": ["1D 0R"]})  # angered (L661: "unless the heroes attack these spirits")
    leaders = placed(client, sid, {"monster": "dark priest", "named": "the-dark-priest", "wounds": 4, "armor": 0}, {"monster": "ogre", "named": "the-ogre", "wounds": 4, "armor": 0},
                      {"monster": "demon", "named": "the-demon", "wounds": 4, "armor": 0}, source="zone 8 revealed")
    for leader in leaders:
        done = attack(client, sid, "tahlia", leader, {"red": ["4D 0R 1S", "1D 0R 1S", "1D 0R 1S"]}, surges=[{"ability": "fear", "count": 3}])
    assert done["state"]["verdict"] is None  # the angered spirit still stands
    last = attack(client, sid, "tahlia", spirit, {"red": ["4D 0R"]}, undying_face="surge")
    assert [e["payload"]["change"]["reason"] for e in last["events"] if e["type"] == "ConquestChanged"] == ["leaders-killed"]
    assert last["state"]["verdict"]["outcome"] == "victory"


def test_a_campaign_pinned_to_descent_1_4_0_plays_its_attacks_as_they_were():
    """Sessions pinned to 1.4.0 re-derive as played: their threat surges gained nothing in the attack (the table's
    gain-threat did), and no figure there was a spirit."""
    import pytest

    from tracker import rulesets
    from tracker.core.errors import Unprocessable
    from tracker.rulesets.descent import figures
    from tracker.rulesets.engine.ruleset import ActionContext

    rulesets.archived.cache_clear()
    old = rulesets.resolve({"id": "descent", "version": "1.4.0", "hash": "sha256:3f3ec90eed198342f37b77685995b5ae38067176e2351f02b17571d9ab64111b"})
    assert old is not None and "surges_buy_threat" not in old.data["combat"] and "dodge_rerolls" not in old.data["combat"]["abilities"]["leap"]
    game = {"quest": "into-the-heart-of-darkness", "heroes": {"tahlia": {"wounds": 12, "armor": 2}}, "monsters": {},
            "spirits": {"ids": ["zone-5-spirit-1"], "angered": [], "destroyed": [], "convinced": []}}
    ctx = ActionContext(state={"game": game, "turn": 1}, ruleset=old, decks={})
    assert old.rules.version.surges_to_threat(ctx, {"attacker": "beastman-1", "surges": [{"ability": "threat", "count": 2}]}, "monster", {}) == []
    with pytest.raises(Unprocessable, match="No figure here can be a spirit"):
        figures.place_monsters(ctx, {"monsters": [{"monster": "skeleton", "master": True, "spirit": "zone-5-spirit-1"}], "source": "zone 5"}, None)


def test_a_spirit_convinced_to_leave_is_no_figure_to_attack(client):
    # L640: "A hero within 3 spaces of the spirit may make a continuous prolonged Magic (3) action to convince it to leave."
    sid = in_combat(client, quest="into-the-heart-of-darkness", spirits_zone_4=2)
    [ghost] = placed(client, sid, {"monster": "skeleton", "master": True, "wounds": 3, "armor": 0, "spirit": "zone-3-spirit-1"}, source="zone 3 revealed")
    act(client, sid, type="prolonged-roll", hero="aurim", task="convince-spirit", trait="magic", half_action="order", fatigue=2, faces=["enhancement"] * 3)
    act(client, sid, type="spirit-convinced", spirit="zone-3-spirit-1", hero="aurim")
    refused = _refused(client, sid, type="attack", attacker="tahlia", target=ghost, attack_type="melee", faces={"red": ["4D 0R"]})
    assert refused["title"] == "zone-3-spirit-1 was convinced to leave"
    assert _game(client, sid)["game"]["spirits"]["angered"] == []
