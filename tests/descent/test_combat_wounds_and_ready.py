"""Descent combat, wounds and ready actions through the REST API on SQLite and PostgreSQL (issue 16, rules 1.2.0):
attacks resolved against armour where the facts are known and stated where they were lost, monster figures with ids,
heroes' wounds and fatigue from set-up, healing, a hero killed at 0 wounds, the Ready action's half actions."""

from __future__ import annotations

import json

import pytest

from tests.kit.descent import (
    to_hero_turn,
    TEST_OVERLORD_DECK,
    act,
    campaign,
    game as _game,
    in_combat,
    placed,
    refused as _refused,
    start,
    verified,
)
from tests.kit.secrets import assert_keeps_secrets, bearer, mint
from tests.kit.session import change
from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.rulesets import descent
from tracker.rulesets.descent import combat, figures
from tracker.rulesets.engine.ruleset import ActionContext


def test_heroes_start_with_their_sheets_wounds_and_fatigue(client):
    sid = in_combat(client)
    heroes = _game(client, sid)["game"]["heroes"]
    assert (heroes["tahlia"]["wounds"], heroes["tahlia"]["max_wounds"], heroes["tahlia"]["fatigue"], heroes["tahlia"]["armor"]) == (12, 12, 4, 2)
    unknown = start(client, campaign(client, ["kirga"]), "mists-of-time")
    assert _game(client, unknown)["game"]["heroes"]["kirga"]["wounds"] is None  # no sheet stated: unknown, never invented
    cid = campaign(client, ["tahlia"])
    refused = client.post(f"/campaigns/{cid}/sessions", json={"quest": "mists-of-time", "setup": {"hero_sheets": {"aurim": {"wounds": 8}}}})
    assert refused.status_code == 422 and refused.json["title"] == "Aurim is not in the party"


def test_each_monster_gets_an_id_and_an_unknown_id_lists_those_in_play(client):
    sid = in_combat(client)
    ids = placed(client, sid, {"monster": "troll", "wounds": 9, "armor": 1}, {"monster": "troll"}, {"monster": "beastman", "master": True})
    assert ids == ["troll-1", "troll-2", "beastman-1"]
    refused = _refused(client, sid, type="attack", attacker="tahlia", target="troll-9", attack_type="melee", faces={"red": ["3D 1R"]})
    assert refused["title"] == "'troll-9' is not a figure in play"
    assert "troll-1" in refused["detail"] and "beastman-1" in refused["detail"] and "Tahlia" in refused["detail"]
    # Basalt's 3 armour is in the text (L606): a contradicting statement is refused, the figure carries it
    assert _refused(client, sid, type="place-monsters", monsters=[{"monster": "troll", "named": "basalt", "armor": 2}], source="zone 5")["title"] == "Basalt has 3 armour, not 2"
    assert placed(client, sid, {"monster": "troll", "named": "basalt", "wounds": 40}) == ["basalt-1"]
    assert _game(client, sid)["game"]["monsters"]["basalt-1"]["armor"] == 3


def test_an_attack_resolves_damage_against_armour_and_pierce_and_kills_at_zero(client):
    sid = in_combat(client)
    [troll] = placed(client, sid, {"monster": "troll", "wounds": 9, "armor": 2})
    # 3D 1R 1S + 4D 0R = 7 damage; 1 surge for "+1 Damage and Pierce 1" (L280, L311): 8 damage, armour 2-1 = 1: 7 wounds
    hit = act(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R 1S", "4D 0R"]},
               surges=[{"ability": "+1 Damage and Pierce 1", "count": 1, "damage": 1, "pierce": 1}])
    made = change(hit, "AttackMade")
    assert (made["hit"], made["damage"], made["pierce"], made["effective_armour"], made["wounds"], made["wounds_left"]) == (True, 8, 1, 1, 7, 2)
    assert made["stated"] == {} and hit["state"]["game"]["monsters"][troll]["wounds"] == 2
    assert _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R"]},
                    surges=[{"ability": "+1 Damage", "count": 1, "damage": 1}])["title"] == "The roll gives 0 surges, not 1"
    missed = act(client, sid, type="attack", attacker="aurim", target=troll, attack_type="magic", range=4, faces={"white": ["3D 1R 1S"]})
    assert change(missed, "AttackMade")["miss"] == "range 1 falls short of 4" and missed["state"]["game"]["monsters"][troll]["wounds"] == 2
    killed = act(client, sid, type="attack", attacker="aurim", target=troll, attack_type="magic", range=3, faces={"white": ["3D 1R 1S", "2D 2R"]})
    assert change(killed, "MonsterKilled") == {"kind": "monster-killed", "figure": troll, "monster": "troll", "by": "aurim"}
    again = _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R"]})
    assert again["title"] == f"'{troll}' was killed"
    verified(client, sid)


def test_a_lost_fact_is_stated_and_marked_and_a_statement_the_dice_contradict_is_refused(app, client):
    sid = in_combat(client)
    [ape] = placed(client, sid, {"monster": "blood ape"})  # its card was lost: no wounds, no armour
    asked = _refused(client, sid, type="attack", attacker="tahlia", target=ape, attack_type="melee", faces={"red": ["3D 1R"]})
    assert asked["title"] == f"Say {ape}'s armour, or the result"
    stated = act(client, sid, type="attack", attacker="tahlia", target=ape, attack_type="melee", faces={"red": ["3D 1R"]}, stated={"wounds_dealt": 2})
    made = change(stated, "AttackMade")
    assert made["stated"] == {"wounds_dealt": 2} and made["armour_from"] == "unknown" and made["wounds"] == 2 and made["wounds_left"] is None
    app.extensions["tracker_views"].catch_up()
    timeline = client.get(f"/sessions/{sid}/timeline?limit=1000").get_data(as_text=True)
    assert f"Tahlia attacked {ape}: 2 wound(s) (stated: wounds dealt)" in timeline  # shown as stated, never as worked out
    # a power enhancement's effect on an attack is not in the transcription: the damage is stated
    [troll] = placed(client, sid, {"monster": "troll", "wounds": 9, "armor": 0})
    assert _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R"], "power": ["enhancement"]})["title"].startswith("Say the damage")
    enhanced = act(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R"], "power": ["enhancement"]}, stated={"damage": 4})
    assert change(enhanced, "AttackMade")["wounds_left"] == 5
    assert _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R"]}, stated={"damage": 5})["title"] == "The dice give 3 damage, not 5"
    assert _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["X"]}, stated={"hit": True})["title"] == "The dice say the attack misses"
    assert _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["1D 2R 1S"]}, stated={"killed": True})["title"] == f"{troll} is left with 4 wounds, so it is not killed"
    # Dark Charm: the overlord makes a hero attack another (L274); the overlord's side acts
    assert _refused(client, sid, type="attack", attacker="tahlia", target="aurim", attack_type="melee", faces={"red": ["1D 2R"]})["title"] == "Heroes attack monsters, not each other"
    charmed = act(client, sid, type="attack", attacker="tahlia", target="aurim", attack_type="melee", faces={"red": ["3D 2R"]}, dark_charm=True)
    assert charmed["state"]["game"]["heroes"]["aurim"]["wounds"] == 8 - 2
    assert descent.load().rules.acting_side({"type": "attack", "attacker": "tahlia", "dark_charm": True}) == "overlord"
    assert descent.load().rules.acting_side({"type": "attack", "attacker": "tahlia"}) == "heroes"
    assert descent.load().rules.acting_side({"type": "attack", "attacker": troll}) == "overlord"


def test_a_hero_brought_to_zero_wounds_is_killed_with_the_hero_killed_consequences(client):
    sid = in_combat(client, quest="thing-in-the-pit", party=("runewitch-astarra", "tahlia"), sheets={"runewitch-astarra": {"wounds": 6, "armor": 1}, "tahlia": {"wounds": 12, "armor": 2}})
    [beast] = placed(client, sid, {"monster": "chaos beast", "wounds": 5})
    act(client, sid, type="gain-curses", hero="runewitch-astarra", count=1, source="chest")
    wounded = act(client, sid, type="attack", attacker=beast, target="runewitch-astarra", attack_type="melee", faces={"green": ["3D 0R"]}, on_corrupted=True)
    made = change(wounded, "AttackMade")
    assert (made["wounds"], made["wounds_left"]) == (2, 4)
    assert change(wounded, "ThreatGained")["amount"] == 4  # 2 threat per wound lost on corrupted terrain (L171)
    died = act(client, sid, type="attack", attacker=beast, target="runewitch-astarra", attack_type="melee", faces={"red": ["4D 0R", "2D 2R"]})
    killed = change(died, "HeroKilled")
    assert killed["conquest_value"] == 3 and died["state"]["game"]["conquest"] == 8 - 3  # base 2 + 1 curse (L192-L193)
    astarra = died["state"]["game"]["heroes"]["runewitch-astarra"]
    assert astarra["curses"] == 0 and astarra["wounds"] is None  # how whole she comes back is not in the text
    back = act(client, sid, type="state-wounds", figure="runewitch-astarra", wounds=6, fatigue=3, reason="back in town")
    assert back["state"]["game"]["heroes"]["runewitch-astarra"]["wounds"] == 6
    # Tahlia's conquest value is not in the data: the attack that would kill her must carry it, and appends nothing until it does
    act(client, sid, type="state-wounds", figure="tahlia", wounds=1)
    assert _refused(client, sid, type="attack", attacker=beast, target="tahlia", attack_type="melee", faces={"red": ["4D 0R"]})["title"] == "Say Tahlia's conquest value"
    dead = act(client, sid, type="attack", attacker=beast, target="tahlia", attack_type="melee", faces={"red": ["4D 0R"]}, death={"conquest_value": 2})
    assert dead["state"]["game"]["conquest"] == 5 - 2
    verified(client, sid)


def test_invulnerability_adds_ten_armour_and_healing_potions_restore_what_the_table_states(client):
    sid = in_combat(client)
    [troll] = placed(client, sid, {"monster": "troll", "wounds": 9, "armor": 1})
    act(client, sid, type="gain-potion", hero="aurim", potion="invulnerability")
    act(client, sid, type="gain-potion", hero="aurim", potion="healing")
    assert _refused(client, sid, type="attack", attacker=troll, target="aurim", attack_type="melee", faces={"red": ["4D 0R"]}, invulnerability=True)["title"] == "Aurim has no invulnerability potion in effect"
    act(client, sid, type="drink-potion", hero="aurim", potion="invulnerability")
    shrugged = act(client, sid, type="attack", attacker=troll, target="aurim", attack_type="melee", faces={"red": ["4D 0R", "4D 0R"]}, invulnerability=True)
    assert change(shrugged, "AttackMade")["wounds"] == 0 and shrugged["state"]["game"]["heroes"]["aurim"]["invulnerable"] is False  # 8 damage, 1 + 10 armour (L185)
    hurt = act(client, sid, type="attack", attacker=troll, target="aurim", attack_type="melee", faces={"red": ["4D 0R", "2D 2R"]})
    assert hurt["state"]["game"]["heroes"]["aurim"]["wounds"] == 8 - 5
    act(client, sid, type="place-condition", hero="aurim", condition="poison", count=1)
    act(client, sid, type="end-turn")  # one potion per hero per turn (L186)
    healed = act(client, sid, type="drink-potion", hero="aurim", potion="healing", recovers={"wounds": 3})
    recovered = change(healed, "WoundsRecovered")
    assert recovered["poison_removed"] == 1 and recovered["wounds"] == 2  # poison tokens go first (L312)
    assert healed["state"]["game"]["heroes"]["aurim"]["wounds"] == 5 and "poison" not in healed["state"]["game"]["heroes"]["aurim"].get("tokens", {})
    sharr = act(client, sid, type="recover", hero="aurim", source="sharr")
    assert sharr["state"]["game"]["heroes"]["aurim"]["wounds"] == 7  # Sharr: 2 wounds (L200)
    capped = act(client, sid, type="recover", hero="aurim", source="stated", cause="a skill card", wounds=5)
    assert capped["state"]["game"]["heroes"]["aurim"]["wounds"] == 8  # never above the sheet's 8


def test_fatigue_is_spent_from_the_sheet_and_gives_threat_on_corrupted_terrain(client):
    sid = in_combat(client)
    spent = act(client, sid, type="spend-fatigue", hero="tahlia", count=3, purpose="power dice", on_corrupted=True)
    assert spent["state"]["game"]["heroes"]["tahlia"]["fatigue"] == 1 and change(spent, "ThreatGained")["amount"] == 3  # L171
    assert _refused(client, sid, type="spend-fatigue", hero="tahlia", count=2)["title"] == "Tahlia has 1 fatigue left, not 2"


def test_the_ready_action_is_two_different_half_actions_one_an_order_and_a_stunned_hero_gets_one(client):
    sid = in_combat(client)
    assert _refused(client, sid, type="ready", hero="tahlia", half_actions=["move", "attack"])["title"] == "One of a Ready action's half actions must be an order"
    assert _refused(client, sid, type="ready", hero="tahlia", half_actions=["order", "order"], order="aim")["title"] == "A Ready action is 2 different half actions"
    assert _refused(client, sid, type="ready", hero="tahlia", half_actions=["order", "concentrate"], order="aim")["title"] == "Concentrate needs a prolonged order token on the hero"
    readied = act(client, sid, type="ready", hero="aurim", half_actions=["move", "order"], order="dodge")
    assert readied["state"]["game"]["heroes"]["aurim"]["orders"] == ["dodge"]
    act(client, sid, type="ready", hero="tahlia", half_actions=["order", "move"], order="aim")
    [troll] = placed(client, sid, {"monster": "troll", "wounds": 9, "armor": 1})
    aimed = act(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R"]}, orders_used=["aim"])
    assert change(aimed, "AttackMade")["orders_used"] == [{"order": "aim", "hero": "tahlia"}] and aimed["state"]["game"]["heroes"]["tahlia"]["orders"] == []
    dodged = act(client, sid, type="attack", attacker=troll, target="aurim", attack_type="melee", faces={"red": ["X"]}, orders_used=["dodge"])
    assert dodged["state"]["game"]["heroes"]["aurim"]["orders"] == []
    assert _refused(client, sid, type="attack", attacker=troll, target="aurim", attack_type="melee", faces={"red": ["X"]}, orders_used=["dodge"])["title"] == "Aurim has no dodge order token"
    # Stun: the hero who discards a stun token takes one half action (L141, L249)
    act(client, sid, type="place-condition", hero="tahlia", condition="stun", count=1)
    assert _refused(client, sid, type="stunned-half-action", hero="tahlia", half_action="move")["title"] == "Tahlia is not stunned this turn"
    act(client, sid, type="condition-turn-start", hero="tahlia")
    assert _refused(client, sid, type="ready", hero="tahlia", half_actions=["order", "move"], order="guard")["title"].startswith("Tahlia discarded a stun token this turn")
    half = act(client, sid, type="stunned-half-action", hero="tahlia", half_action="order", order="guard")
    assert half["state"]["game"]["heroes"]["tahlia"]["orders"] == ["guard"]
    assert _refused(client, sid, type="stunned-half-action", hero="tahlia", half_action="move")["title"] == "Tahlia already took his half action this turn"
    verified(client, sid)


def test_summoned_monsters_get_ids_and_the_overlords_secrets_stay_hidden_from_the_heroes(app, client):
    cid = campaign(client, ["tahlia"], components=TEST_OVERLORD_DECK)
    heroes = bearer(mint(client, cid, role="player", side="heroes"))
    sid = start(client, cid, "altar-of-despair", {"purchases": [{"card": "Dark Power", "remove": "Aim"}], "dark_glyphs": [{"glyph": "summoning"}],
                                                    "hero_sheets": {"tahlia": {"wounds": 12, "armor": 2}}})
    act(client, sid, type="place-glyph", glyph="summoning")
    act(client, sid, type="activate-glyph", glyph="summoning", conquest=3)
    spawned = act(client, sid, type="summoning-spawn", monsters=["skeleton", "hellhound"])
    assert [f["id"] for f in change(spawned, "MonstersPlaced")["figures"]] == ["skeleton-1", "hellhound-1"]
    act(client, sid, type="attack", attacker="hellhound-1", target="tahlia", attack_type="melee", faces={"red": ["3D 1R"]})
    hand = _game(client, sid)["decks"]["overlord"]["held"]["overlord"]
    listing = client.get(f"/sessions/{sid}/events?view=heroes&limit=1000").json["events"]
    text = json.dumps([e["payload"] for e in listing if e["type"] != "SessionStarted"])
    assert "Dark Power" not in text and not any(repr(card) in text.replace('"', "'") for card in hand)
    assert _game(client, sid, "heroes")["game"]["heroes"]["tahlia"]["wounds"] == 11
    act(client, sid, type="ready", hero="tahlia", half_actions=["order", "attack"], order="guard")
    assert_keeps_secrets(app, client, heroes, cid, sid, side="heroes")  # every channel a heroes' token reads


def test_an_attack_with_a_condition_ability_leaves_its_tokens_and_burn_can_kill_at_the_turns_start(client):
    sid = in_combat(client, party=("tahlia", "aurim"), sheets={"tahlia": {"wounds": 4, "armor": 3}, "aurim": {"wounds": 8, "armor": 1}})
    [imp] = placed(client, sid, {"monster": "hellhound", "wounds": 6, "armor": 0})
    # 3 damage against 3 armour: no wound, but damage before armour decides the token (L325 †)
    burned = act(client, sid, type="attack", attacker=imp, target="tahlia", attack_type="melee", faces={"red": ["3D 1R"]}, abilities=[{"ability": "Burn"}, {"ability": "Frost"}])
    assert change(burned, "AttackMade")["wounds"] == 0
    tahlia = burned["state"]["game"]["heroes"]["tahlia"]
    assert tahlia["tokens"] == {"burn": 1} and tahlia["frost"] == 1  # L297, L220
    poisoned = act(client, sid, type="attack", attacker=imp, target="aurim", attack_type="melee", faces={"red": ["4D 0R"]}, abilities=[{"ability": "Poison"}])
    assert poisoned["state"]["game"]["heroes"]["aurim"]["tokens"] == {"poison": 3}  # the 3 wounds lost are poison tokens (L312)
    missed = act(client, sid, type="attack", attacker=imp, target="aurim", attack_type="melee", faces={"red": ["X"]}, abilities=[{"ability": "Stun"}])
    assert "stun" not in missed["state"]["game"]["heroes"]["aurim"]["tokens"]
    act(client, sid, type="state-wounds", figure="tahlia", wounds=1)
    act(client, sid, type="end-turn")
    refused = _refused(client, sid, type="condition-turn-start", hero="tahlia", faces={"burn": ["blank"]})
    assert refused["title"] == "Say Tahlia's conquest value"  # the burn's wound kills her: hero-killed needs her value
    died = act(client, sid, type="condition-turn-start", hero="tahlia", faces={"burn": ["blank"]}, death={"conquest_value": 2})
    assert change(died, "HeroKilled")["hero"] == "tahlia" and died["state"]["game"]["conquest"] == 8 - 2


def test_the_thing_in_the_pit_has_1_armour_and_curses_a_hero_dealing_it_4_wounds(client):
    sid = in_combat(client, quest="thing-in-the-pit", party=("tahlia",), sheets={"tahlia": {"wounds": 12}})
    [thing] = placed(client, sid, {"monster": "chaos beast", "named": "thing-in-the-pit", "wounds": 30})
    light = act(client, sid, type="attack", attacker="tahlia", target=thing, attack_type="melee", faces={"red": ["3D 1R", "1D 2R 1S"]})
    assert change(light, "AttackMade")["wounds"] == 3 and light["state"]["game"]["heroes"]["tahlia"]["curses"] == 0  # 4 damage, 1 armour (L388)
    heavy = act(client, sid, type="attack", attacker="tahlia", target=thing, attack_type="melee", faces={"red": ["4D 0R", "1D 2R 1S"]})
    assert change(heavy, "AttackMade")["wounds"] == 4 and heavy["state"]["game"]["heroes"]["tahlia"]["curses"] == 1


def test_a_campaign_pinned_to_descent_1_1_0_still_resolves_and_records_no_combat():
    rulesets.archived.cache_clear()
    pin = {"id": "descent", "version": "1.1.0", "hash": "sha256:9852345e44431190a687c748dd8e6cc295940dd4ee18274551caafa2d3ad1d9f"}
    old = rulesets.resolve(pin)
    assert old is not None and old.version == "1.1.0" and "combat" not in old.data
    assert rulesets.get("descent").version == "1.8.0" and rulesets.get("descent").hash != pin["hash"]


def test_a_campaign_pinned_to_descent_1_4_0_still_resolves_to_its_published_contract():
    """1.5.0 changes the attack (threat surges, spirits, the leap's one dodge): 1.4.0's data and contract are archived."""
    rulesets.archived.cache_clear()
    pin = {"id": "descent", "version": "1.4.0", "hash": "sha256:3f3ec90eed198342f37b77685995b5ae38067176e2351f02b17571d9ab64111b"}
    old = rulesets.resolve(pin)
    assert old is not None and old.version == "1.4.0" and old.pin == pin


def test_zoreks_gaze_takes_6_wounds_after_its_curse_and_kills_monster_figures_by_id(client):
    sid = in_combat(client, quest="altar-of-despair", party=("runewitch-astarra", "tahlia"),
                   sheets={"runewitch-astarra": {"wounds": 6}, "tahlia": {"wounds": 12}})
    [ape] = placed(client, sid, {"monster": "blood ape"})
    assert _refused(client, sid, type="zorek-gaze", face="0D 1R", figures_killed=["ape-7"])["title"] == "'ape-7' is not a figure in play"
    gazed = act(client, sid, type="zorek-gaze", face="0D 1R", heroes_hit=["runewitch-astarra", "tahlia"], figures_killed=[ape])
    game = gazed["state"]["game"]
    assert game["heroes"]["tahlia"]["wounds"] == 6 and game["heroes"]["tahlia"]["curses"] == 1  # a curse, then 6 wounds ignoring armour (L685)
    killed = change(gazed, "HeroKilled")
    assert killed["hero"] == "runewitch-astarra" and killed["conquest_value"] == 2 + 1  # the gaze's curse counts (L192)
    assert game["monsters"][ape]["killed"] is True and game["conquest"] == 10 - 3


def test_restoring_a_glyph_costs_the_hero_a_wound_that_can_kill_him(client):
    sid = in_combat(client, quest="hold-the-position", party=("aurim",), sheets={"aurim": {"wounds": 2}}, glyphs=2)
    act(client, sid, type="damage-glyph", glyph="north", wounds=5)
    restored = act(client, sid, type="restore-glyph", glyph="north", hero="aurim")
    assert restored["state"]["game"]["heroes"]["aurim"]["wounds"] == 1  # 1 wound per heal, which cannot be prevented (L524)
    assert _refused(client, sid, type="restore-glyph", glyph="north", hero="aurim")["title"] == "Say Aurim's conquest value"
    died = act(client, sid, type="restore-glyph", glyph="north", hero="aurim", death={"conquest_value": 2})
    assert change(died, "HeroKilled")["hero"] == "aurim"


def test_a_digital_attack_rolls_from_the_stream_with_supplied_faces_and_verifies(client):
    pack = descent.community_components()["components"]
    cid = campaign(client, ["tahlia"], components=pack)
    sid = start(client, cid, "mists-of-time", {"hero_sheets": {"tahlia": {"wounds": 12, "armor": 2}}})
    [troll] = placed(client, sid, {"monster": "troll", "wounds": 30, "armor": 1})
    rolled = act(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", dice={"red": 2})
    made = change(rolled, "AttackMade")
    assert made["hit"] == (made["rolled"]["misses"] == 0)  # melee: only an X misses
    expected = max(0, made["rolled"]["damage"] - 1) if made["hit"] else 0  # troll armour 1
    assert made["wounds"] == expected and rolled["state"]["game"]["monsters"][troll]["wounds"] == 30 - expected
    unknown = in_combat(client)  # no faces supplied: a digital roll is refused, nothing appended
    [ape] = placed(client, unknown, {"monster": "blood ape", "wounds": 5, "armor": 0})
    assert _refused(client, unknown, type="attack", attacker="tahlia", target=ape, attack_type="melee", dice={"red": 1})["title"] == "The faces of the red attack die are unknown, so it cannot be rolled digitally"
    verified(client, sid)  # the verifier re-derives the attack from the revealed seed


@pytest.mark.parametrize(("faces", "params", "armour", "hit", "wounds"), [
    ({"red": ["3D 1R", "X"]}, {"attack_type": "melee"}, 0, False, 0),  # any X misses (L211)
    ({"blue": ["2D 2R"]}, {"attack_type": "ranged", "range": 3}, 0, False, 0),  # range short of the distance (L215 reading)
    ({"red": ["2D 0R"]}, {"attack_type": "melee", "range": 9}, 0, True, 2),  # melee ignores range (L215)
    ({"red": ["4D 0R"]}, {"attack_type": "melee"}, 6, True, 0),  # never fewer than 0 wounds
    ({"red": ["4D 0R"]}, {"attack_type": "melee", "abilities": [{"ability": "Command", "damage": 1, "range": 1}]}, 2, True, 3),  # L298
    ({"red": ["4D 0R"]}, {"attack_type": "melee", "abilities": [{"ability": "Pierce 5", "pierce": 5}]}, 2, True, 4),  # pierce beyond armour is no bonus (L311)
    ({"red": ["4D 0R"]}, {"attack_type": "melee", "invulnerability": True, "shield": 1}, 0, True, 0),  # +10 armour (L185)
    ({"red": ["4D 0R"], "power": ["surge", "surge"]}, {"attack_type": "melee", "surges": [{"ability": "+2 Damage", "count": 2, "damage": 2}]}, 1, True, 7),  # power surges spent (L211), stacking (L280)
])
def test_the_arithmetic_of_an_attack(faces, params, armour, hit, wounds):
    result = combat.resolve(faces, params, 0, armour, rules=descent.load().data["combat"])
    assert (result["hit"], result["wounds"]) == (hit, wounds)


def test_landrec_has_two_free_surges_on_every_attack_roll():
    with pytest.raises(Unprocessable, match="The roll gives 0 surges, not 1"):
        combat.resolve({"red": ["2D 0R"]}, {"attack_type": "melee", "surges": [{"ability": "x", "count": 1, "damage": 1}]}, 0, 0, rules=descent.load().data["combat"])
    assert combat.resolve({"red": ["2D 0R"]}, {"attack_type": "melee", "surges": [{"ability": "x", "count": 2, "damage": 1}]}, 2, 0, rules=descent.load().data["combat"])["wounds"] == 4  # L245
    assert descent.load().data["combat"]["free_surges"]["landrec-the-wise"] == 2


def test_sessions_pinned_before_1_2_0_record_no_combat():
    old = rulesets.resolve({"id": "descent", "version": "1.1.0", "hash": "sha256:9852345e44431190a687c748dd8e6cc295940dd4ee18274551caafa2d3ad1d9f"})
    ctx = ActionContext(state={"game": {"heroes": {}}, "turn": 1}, ruleset=old, decks={})
    with pytest.raises(Unprocessable, match="records no combat"):
        figures.combat_rules(ctx)


def test_a_monsters_attack_needs_the_overlords_token_and_a_heroes_attack_the_heroes(client):
    cid = campaign(client, ["tahlia"])
    sid = start(client, cid, "mists-of-time", {"hero_sheets": {"tahlia": {"wounds": 12, "armor": 2}}})
    heroes, overlord = (bearer(mint(client, cid, role="player", side=side)) for side in ("heroes", "overlord"))
    assert client.post(f"/sessions/{sid}/actions", json={"type": "place-monsters", "monsters": [{"monster": "troll", "wounds": 9, "armor": 1}], "source": "zone 1"}, headers=heroes).status_code == 403
    assert client.post(f"/sessions/{sid}/actions", json={"type": "place-monsters", "monsters": [{"monster": "troll", "wounds": 9, "armor": 1}], "source": "zone 1"}, headers=overlord).status_code == 201
    swing = {"type": "attack", "attacker": "troll-1", "target": "tahlia", "attack_type": "melee", "faces": {"red": ["3D 1R"]}}
    before = client.get(f"/sessions/{sid}/events?limit=1000").json["total"]
    assert client.post(f"/sessions/{sid}/actions", json=swing, headers=heroes).status_code == 403
    assert client.post(f"/sessions/{sid}/actions", json={**swing, "attacker": "tahlia", "target": "troll-1"}, headers=overlord).status_code == 403
    assert client.post(f"/sessions/{sid}/actions", json={"type": "ready", "hero": "tahlia", "half_actions": ["order", "move"], "order": "rest"}, headers=overlord).status_code == 403
    assert client.get(f"/sessions/{sid}/events?limit=1000").json["total"] == before
    assert client.post(f"/sessions/{sid}/actions", json=swing, headers=overlord).status_code == 201
    to_hero_turn(client, sid, "tahlia")  # a hero attacks in his own turn (rules 1.7.0 on)
    assert client.post(f"/sessions/{sid}/actions", json={**swing, "attacker": "tahlia", "target": "troll-1"}, headers=heroes).status_code == 201


def test_a_hero_killed_in_combat_shows_in_the_conquest_history_and_the_views_rebuild_the_same(app, client):
    runner = app.extensions["tracker_views"]
    cid = campaign(client, ["runewitch-astarra"])
    sid = start(client, cid, "mists-of-time", {"hero_sheets": {"runewitch-astarra": {"wounds": 3, "armor": 0}}})
    [troll] = placed(client, sid, {"monster": "troll", "wounds": 4, "armor": 0})
    act(client, sid, type="attack", attacker="runewitch-astarra", target=troll, attack_type="melee", faces={"red": ["4D 0R"]})
    act(client, sid, type="attack", attacker=placed(client, sid, {"monster": "troll"})[0], target="runewitch-astarra", attack_type="melee", faces={"red": ["3D 1R"]})
    runner.catch_up()
    history = {q["quest"]: q for q in client.get(f"/campaigns/{cid}/conquest").json["quests"]}
    assert [step["reason"] for step in history["mists-of-time"]["conquest"]] == ["starting conquest", "hero-killed"]
    assert client.get(f"/campaigns/{cid}/heroes").json["heroes"]["runewitch-astarra"]["deaths"][0]["conquest_value"] == 2
    views_before = [client.get(f"/campaigns/{cid}/{path}").json for path in ("conquest", "heroes")] + [client.get(f"/sessions/{sid}/timeline?limit=1000").json]
    digest = runner.store.digest()
    assert runner.rebuild() == digest
    assert [client.get(f"/campaigns/{cid}/{path}").json for path in ("conquest", "heroes")] + [client.get(f"/sessions/{sid}/timeline?limit=1000").json] == views_before
