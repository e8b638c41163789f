"""Descent's special abilities and the Daze and Web conditions in combat, through the REST API on SQLite and
PostgreSQL (issue 16; rules data 1.3.0). Each test quotes the line it holds the service to."""

from __future__ import annotations

from tests.kit.descent import (
    act,
    attack,
    in_combat,
    placed,
    refused as _refused,
    verified,
)
from tests.kit.session import change

WOUNDED = {"tahlia": {"wounds": 12, "fatigue": 4, "armor": 2}, "aurim": {"wounds": 8, "fatigue": 5, "armor": 1}}


def test_shadowcloak_is_affected_only_by_adjacent_attackers(client):
    # L222: "A figure with the Shadowcloak ability is only affected by attacks made by adjacent figures."
    sid = in_combat(client)
    [elf] = placed(client, sid, {"monster": "deep elf", "wounds": 6, "armor": 0, "abilities": {"Shadowcloak": 1}})
    far = attack(client, sid, "aurim", elf, {"white": ["3D 3R"]}, attack_type="magic", range=3)
    made = change(far, "AttackMade")
    assert (made["hit"], made["wounds"], made["miss"]) == (False, 0, "Shadowcloak: an attacker 3 spaces away does not affect it (L222)")
    assert far["state"]["game"]["monsters"][elf]["wounds"] == 6
    near = attack(client, sid, "tahlia", elf, {"red": ["3D 1R"]})  # melee, from an adjacent space
    assert change(near, "AttackMade")["wounds"] == 3
    # a melee attack with Reach (L314) is made from 2 spaces: its distance must be said
    assert _refused(client, sid, type="attack", attacker="tahlia", target=elf, attack_type="melee", faces={"red": ["3D 1R"]},
                    abilities=[{"ability": "Reach"}])["title"] == "Say the distance to a target with Shadowcloak"
    verified(client, sid)


def test_fear_makes_an_attack_miss_unless_its_rank_in_surges_is_spent(client):
    # L301: "When an attack affects a space containing a figure with Fear, the attacker must spend X power surges or else the attack misses."
    sid = in_combat(client)
    [demon] = placed(client, sid, {"monster": "demon", "master": True, "wounds": 20, "armor": 0, "abilities": {"fear": 2}})
    unpaid = attack(client, sid, "tahlia", demon, {"red": ["3D 1R 1S", "2D 2R 1S"]}, surges=[{"ability": "+1 Damage", "count": 2, "damage": 1}])
    assert change(unpaid, "AttackMade")["miss"] == "Fear 2: 2 surges not spent on fear (L301)"
    paid = attack(client, sid, "tahlia", demon, {"red": ["3D 1R 1S", "2D 2R 1S"]}, surges=[{"ability": "fear", "count": 2}])
    assert (change(paid, "AttackMade")["hit"], paid["state"]["game"]["monsters"][demon]["wounds"]) == (True, 15)
    # the rank on record is the figure's: a contradicting statement is refused
    assert _refused(client, sid, type="attack", attacker="tahlia", target=demon, attack_type="melee", faces={"red": ["3D 1R"]},
                    target_abilities={"fear": 3})["title"] == f"{demon} has fear 2, not 3"


def test_ironskin_ignores_pierce_and_takes_no_damage_from_blast_bolt_or_breath(client):
    # L305: "immune to Aura, Bleed, Burn, Pierce, Poison, and Sorcery ... all damage dealt to the figure by Blast, Bolt, or Breath attacks is reduced to 0."
    sid = in_combat(client)
    [golem] = placed(client, sid, {"monster": "golem", "wounds": 20, "armor": 3})
    pierced = attack(client, sid, "tahlia", golem, {"red": ["4D 0R 1S"]}, surges=[{"ability": "Pierce 2", "count": 1, "pierce": 2}],
                      target_abilities={"Ironskin": 1})
    made = change(pierced, "AttackMade")
    assert (made["pierce"], made["effective_armour"], made["wounds"]) == (0, 3, 1)  # 4 damage against the whole 3 armour
    assert made["abilities_applied"][0]["ability"] == "ironskin"
    breath = attack(client, sid, "aurim", golem, {"white": ["4D 3R"]}, attack_type="magic", range=2, abilities=[{"ability": "Breath"}],
                     target_abilities={"ironskin": 1})
    assert (change(breath, "AttackMade")["damage"], breath["state"]["game"]["monsters"][golem]["wounds"]) == (0, 19)


def test_bash_misses_on_a_blank_and_each_surge_is_five_damage_and_pierce_two(client):
    # L211: "If any of the power dice roll a blank, it is treated as though the figure rolled a miss result. Otherwise ...
    # for each power surge spent, +5 Damage and Pierce 2."
    sid = in_combat(client)
    [ogre] = placed(client, sid, {"monster": "ogre", "wounds": 30, "armor": 4, "abilities": {"bash": 1}})
    blank = attack(client, sid, ogre, "tahlia", {"red": ["2D 0R"], "power": ["surge", "blank"]}, abilities=[{"ability": "Bash"}])
    assert change(blank, "AttackMade")["miss"] == "Bash: a power die shows a blank (L211)"
    bashed = attack(client, sid, ogre, "tahlia", {"red": ["2D 0R"], "power": ["surge", "surge"]}, abilities=[{"ability": "Bash"}],
                     surges=[{"ability": "bash", "count": 2}], death={"conquest_value": 2})
    made = change(bashed, "AttackMade")
    # 2 + 10 damage, pierce 4 against Tahlia's 2 armour: 12 wounds, she had 12
    assert (made["damage"], made["pierce"], made["effective_armour"], made["wounds"]) == (12, 4, 0, 12)
    assert change(bashed, "HeroKilled")["hero"] == "tahlia"
    assert _refused(client, sid, type="attack", attacker=ogre, target="aurim", attack_type="melee", faces={"red": ["2D 0R"], "power": ["surge"] * 6},
                    abilities=[{"ability": "Bash"}])["title"] == "A Bash attack rolls at most 5 power dice"


def test_a_wounded_berserker_rolls_all_five_power_dice(client):
    # L213: "If a monster with the Berserk ability is wounded ... it rolls all 5 power dice when attacking."
    sid = in_combat(client)
    [beast] = placed(client, sid, {"monster": "chaos beast", "wounds": 10, "armor": 0, "abilities": {"berserk": 1}})
    attack(client, sid, beast, "aurim", {"white": ["1D 1R"]})  # whole: no power dice needed
    attack(client, sid, "tahlia", beast, {"red": ["2D 1R"]})
    assert _refused(client, sid, type="attack", attacker=beast, target="aurim", attack_type="melee", faces={"white": ["1D 1R"], "power": ["surge"]}
                    )["title"] == "A wounded figure with Berserk rolls all 5 power dice"
    attack(client, sid, beast, "aurim", {"white": ["1D 1R"], "power": ["enhancement", "surge", "surge", "blank", "blank"]}, stated={"damage": 1})


def test_leech_drains_fatigue_and_heals_the_attacker(client):
    # L308: "For every wound token lost due to a Leech attack, the target also loses 1 fatigue, and the attacker is healed of 1 wound."
    sid = in_combat(client)
    [wraith] = placed(client, sid, {"monster": "wraith", "wounds": 8, "armor": 0})
    attack(client, sid, "tahlia", wraith, {"red": ["3D 1R"]})  # 8 -> 5
    drained = attack(client, sid, wraith, "aurim", {"white": ["4D 1R"]}, abilities=[{"ability": "Leech"}])  # 4 damage - 1 armour = 3 wounds
    assert change(drained, "Leeched") == {"kind": "leeched", "attacker": wraith, "target": "aurim", "wounds_lost": 3, "fatigue_lost": 3, "attacker_healed": 3}
    game = drained["state"]["game"]
    assert (game["heroes"]["aurim"]["wounds"], game["heroes"]["aurim"]["fatigue"], game["monsters"][wraith]["wounds"]) == (5, 2, 8)
    verified(client, sid)


def test_undying_restores_a_killed_figure_on_a_surge_and_black_curse_curses_its_killer(client):
    # L321: "A figure with Undying rolls 1 power die when killed. On a power surge, the figure is instantly restored to full health."
    # L216: "any enemy figure that deals the killing blow to a figure with Black Curse receives one curse token. This only
    # takes effect if the figure with Black Curse actually dies (i.e., isn't saved by Undying or a similar ability)."
    sid = in_combat(client)
    [lich] = placed(client, sid, {"monster": "lich", "wounds": 4, "armor": 0, "abilities": {"undying": 1, "black curse": 1}})
    assert _refused(client, sid, type="attack", attacker="tahlia", target=lich, attack_type="melee", faces={"red": ["4D 0R"]})["title"] == f"Say the Undying power die's face for {lich}"
    saved = attack(client, sid, "tahlia", lich, {"red": ["4D 0R"]}, undying_face="surge")
    assert change(saved, "UndyingRolled") == {"kind": "undying-rolled", "figure": lich, "face": "surge", "restored": True, "wounds": 4}
    assert saved["state"]["game"]["monsters"][lich]["wounds"] == 4 and saved["state"]["game"]["heroes"]["tahlia"]["curses"] == 0
    assert not [e for e in saved["events"] if e["type"] == "MonsterKilled"]
    dead = attack(client, sid, "tahlia", lich, {"red": ["4D 0R"]}, undying_face="blank")
    assert change(dead, "MonsterKilled")["figure"] == lich and dead["state"]["game"]["heroes"]["tahlia"]["curses"] == 1
    verified(client, sid)


def test_leap_ignores_rolled_range_and_is_one_roll_once_a_turn(client):
    # L224: "A Leap attack ignores rolled range, only missing on a miss result. If the attack does not miss, it deals full
    # damage to each figure affected by it. ... A figure is limited to one Leap attack per turn"
    sid = in_combat(client)
    [ape] = placed(client, sid, {"monster": "blood ape", "wounds": 10, "armor": 1})
    leap = {"abilities": [{"ability": "Leap"}], "attack_type": "melee", "range": 6}
    first = attack(client, sid, ape, "aurim", {"red": ["3D 0R"]}, **leap)
    assert change(first, "AttackMade")["wounds"] == 2  # 0 range rolled, 6 spaces away: still a hit
    second = attack(client, sid, ape, "tahlia", {"red": ["3D 0R"]}, **leap)  # the same roll, the other hero it passed
    assert change(second, "AttackMade")["wounds"] == 1
    assert _refused(client, sid, type="attack", attacker=ape, target="tahlia", faces={"red": ["3D 0R"]}, **leap)["title"] == "The leap already affected Tahlia"
    assert _refused(client, sid, type="attack", attacker=ape, target="aurim", faces={"red": ["4D 0R"]}, **leap)["title"] == f"{ape} already leapt this turn"
    act(client, sid, type="end-turn")
    attack(client, sid, ape, "aurim", {"red": ["1D 0R"]}, **leap)
    verified(client, sid)


def test_unstoppable_and_ironskin_take_no_condition_tokens(client):
    # L322: "A figure with Unstoppable is immune to Daze, Grapple, Knockback, Stun, and Web."
    sid = in_combat(client)
    [spider] = placed(client, sid, {"monster": "bane spider", "wounds": 6, "armor": 0})
    hit = attack(client, sid, spider, "tahlia", {"red": ["3D 1R"]}, abilities=[{"ability": "Web"}, {"ability": "Stun"}, {"ability": "Burn"}],
                  target_abilities={"unstoppable": 1})
    assert hit["state"]["game"]["heroes"]["tahlia"]["tokens"] == {"burn": 1}


def test_a_dazed_hero_rolls_one_fewer_die_per_daze_token_left_after_his_roll(client):
    # L300: "Victim must roll a power die for each daze token next turn: Discard a daze token for each power surge, then
    # victim rolls 1 fewer die for each daze token that remains when making attacks."
    sid = in_combat(client)
    [troll] = placed(client, sid, {"monster": "troll", "wounds": 20, "armor": 0})
    act(client, sid, type="place-condition", hero="tahlia", condition="daze", count=2)
    attack(client, sid, "tahlia", troll, {"red": ["3D 1R"]})  # a guard attack before her next turn: not rolled yet, no die fewer
    act(client, sid, type="end-turn")
    act(client, sid, type="condition-turn-start", hero="tahlia", faces={"daze": ["surge", "blank"]})  # one left
    assert _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee",
                    faces={"red": ["3D 1R"]})["title"] == "Tahlia is dazed: say the dice his attack rolls without daze"
    assert _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R"], "power": ["surge", "surge"]},
                    dice_without_daze={"red": 1, "power": 2})["title"] == "Tahlia rolls 2 dice, not 3"
    dazed = attack(client, sid, "tahlia", troll, {"red": ["3D 1R"], "power": ["blank"]}, dice_without_daze={"red": 1, "power": 2})
    assert change(dazed, "AttackMade")["daze"] == {"tokens": 1, "dice_without_daze": {"red": 1, "power": 2}, "fewer": 1}
    act(client, sid, type="end-turn")  # next turn: the token left must be rolled again before she attacks
    assert _refused(client, sid, type="attack", attacker="tahlia", target=troll, attack_type="melee", faces={"red": ["3D 1R"]})["title"] == "Roll Tahlia's daze tokens first"
    assert _refused(client, sid, type="attack", attacker="aurim", target=troll, attack_type="magic", range=1, faces={"white": ["3D 1R"]},
                    dice_without_daze={"white": 2})["title"] == "Aurim has no daze token left from a start-of-turn roll"
    verified(client, sid)


def test_a_webbed_hero_spends_no_movement_points(client):
    # L323: "Discard a web token for each power surge, and victim may not spend movement points if any web tokens remain."
    sid = in_combat(client)
    act(client, sid, type="gain-potion", hero="aurim", potion="healing")
    act(client, sid, type="place-condition", hero="aurim", condition="web", count=1)
    refused = _refused(client, sid, type="drink-potion", hero="aurim", potion="healing")  # 1 movement point (L185)
    assert refused["title"] == "Aurim is caught in a web: no movement points while a web token remains"
    assert _refused(client, sid, type="ready", hero="aurim", half_actions=["move", "order"], order="dodge")["title"] == refused["title"]
    act(client, sid, type="ready", hero="aurim", half_actions=["attack", "order"], order="dodge")  # attacking needs no movement
    act(client, sid, type="end-turn")
    freed = act(client, sid, type="condition-turn-start", hero="aurim", faces={"web": ["surge"]})
    assert "web" not in freed["state"]["game"]["heroes"]["aurim"]["tokens"]
    act(client, sid, type="drink-potion", hero="aurim", potion="healing")
    verified(client, sid)


def test_sharr_cleanses_an_activated_dark_glyph_and_an_aura_wounds_through_armour_but_not_ironskin(client):
    # L200: "If Sharr ends her movement in the same space as an activated dark glyph, that dark glyph is removed from the
    # board and replaced with an activated normal glyph."  L289: "Enemy figures that move into a space adjacent to a
    # figure with Aura suffer 1 wound that cannot be reduced by armor."  L305: Ironskin is immune to Aura.
    from tests.kit.descent import (
        TEST_OVERLORD_DECK,
        campaign as _campaign,
        start as _start,
    )

    cid = _campaign(client, ["tahlia", "aurim"], components=TEST_OVERLORD_DECK)
    sid = _start(client, cid, "altar-of-despair", {"hero_sheets": {"tahlia": {"wounds": 12, "armor": 2}}, "dark_glyphs": [{"glyph": "power"}]})
    act(client, sid, type="place-glyph", glyph="power")
    act(client, sid, type="activate-glyph", glyph="power", conquest=3)
    assert _refused(client, sid, type="sharr-cleanses-glyph", glyph="summoning")["title"] == "No activated summoning dark glyph is on the map"
    cleansed = act(client, sid, type="sharr-cleanses-glyph", glyph="power")
    assert cleansed["state"]["game"]["glyphs_activated"] == ["normal"]
    assert _refused(client, sid, type="town-travel", hero="tahlia", glyph="power", direction="to-town")["title"] == "No power glyph has been activated"
    [troll, golem] = placed(client, sid, {"monster": "troll", "wounds": 1, "armor": 5}, {"monster": "golem", "wounds": 9, "abilities": {"ironskin": 1}})
    struck = act(client, sid, type="aura-wound", figure=troll, by="bottle-imp")
    assert change(struck, "AuraWounded")["wounds_left"] == 0 and change(struck, "MonsterKilled")["figure"] == troll  # 5 armour does not help
    assert _refused(client, sid, type="aura-wound", figure=golem, by="bottle-imp")["title"] == f"{golem} has Ironskin: Aura does not wound it"
    assert act(client, sid, type="aura-wound", figure="tahlia", by="a monster with Aura")["state"]["game"]["heroes"]["tahlia"]["wounds"] == 11
    verified(client, sid)


def test_a_campaign_pinned_to_descent_1_2_0_still_resolves_and_plays_its_attacks_as_they_were():
    """Sessions pinned to 1.2.0 re-derive as played: no abilities, daze, web or secret-room rules they never had."""
    import pytest

    from tracker import rulesets
    from tracker.core.errors import Unprocessable
    from tracker.rulesets.descent import combat, figures
    from tracker.rulesets.engine.ruleset import ActionContext

    rulesets.archived.cache_clear()
    pin = {"id": "descent", "version": "1.2.0", "hash": "sha256:4114f104350dcb054ec88b2754e187e1e934804e6a1e9da388763bcfd9425654"}
    old = rulesets.resolve(pin)
    assert old is not None and old.pin == pin and "abilities" not in old.data["combat"] and "secret_room" not in old.quest("thing-in-the-pit")
    game = {"quest": "mists-of-time", "heroes": {"tahlia": {"wounds": 12, "armor": 2, "tokens": {"web": 1, "daze": 1}}}, "monsters": {}}
    ctx = ActionContext(state={"game": game, "turn": 1}, ruleset=old, decks={})
    with pytest.raises(Unprocessable, match="records no abilities"):
        figures.place_monsters(ctx, {"monsters": [{"monster": "ogre", "abilities": {"bash": 1}}], "source": "zone 1"}, None)
    # a far attack on a figure the table calls Shadowcloaked resolves by the dice alone, as 1.2.0 did
    assert combat.resolve({"red": ["3D 3R"]}, {"attack_type": "ranged", "range": 3}, 0, 0, rules=old.data["combat"])["wounds"] == 3
    old.action("ready").resolve(ctx, {"type": "ready", "hero": "tahlia", "half_actions": ["move", "order"], "order": "aim"}, None)  # webbed, unchecked then


def test_monsters_take_condition_tokens_and_a_stunned_one_does_nothing_else(client):
    # L317: "Normal monsters that begin a turn with a stun token may do nothing else, while heroes may take one half
    # action and master monsters may move or attack once. Figures discard 1 stun token each turn. Named monsters cannot
    # be stunned."  L297: burn, "a wound for each remaining burn token" (ignoring armour, L325 **).
    sid = in_combat(client)
    skeleton, master, basalt = placed(client, sid, {"monster": "skeleton", "wounds": 5, "armor": 2}, {"monster": "skeleton", "master": True, "wounds": 6, "armor": 2},
                                       {"monster": "troll", "named": "basalt", "wounds": 30})
    for target in (skeleton, master, basalt):
        attack(client, sid, "tahlia", target, {"red": ["2D 1R"]}, abilities=[{"ability": "Stun"}, {"ability": "Burn"}])  # 2 damage, armour 2+: no wound, still tokens
    game = client.get(f"/sessions/{sid}").json["game"]["monsters"]
    assert (game[skeleton]["tokens"], game[master]["tokens"], game[basalt]["tokens"]) == ({"stun": 1, "burn": 1}, {"stun": 1, "burn": 1}, {"burn": 1})
    act(client, sid, type="end-turn")
    burned = act(client, sid, type="monster-condition-turn-start", figure=skeleton, faces={"burn": ["blank"]})
    assert change(burned, "MonsterTokensResolved")["wounds_left"] == 4 and burned["state"]["game"]["monsters"][skeleton]["tokens"] == {"burn": 1}
    assert _refused(client, sid, type="attack", attacker=skeleton, target="aurim", attack_type="melee", faces={"red": ["1D 0R"]})["title"] == f"{skeleton} is stunned: it may do nothing else this turn"
    act(client, sid, type="monster-condition-turn-start", figure=master, faces={"burn": ["surge"]})
    attack(client, sid, master, "aurim", {"red": ["1D 0R"]})
    assert _refused(client, sid, type="attack", attacker=master, target="aurim", attack_type="melee", faces={"red": ["1D 0R"]})["title"] == f"{master} is stunned: it already attacked this turn"
    attack(client, sid, basalt, "aurim", {"red": ["1D 0R"]})  # never stunned
    act(client, sid, type="end-turn")
    attack(client, sid, skeleton, "aurim", {"red": ["1D 0R"]})  # its stun token is gone: it acts again
    verified(client, sid)


def test_a_spirits_superior_undying_revives_it_on_anything_but_a_surge(client):
    # L618: "they have the Superior Undying ability, which revives them on any die result except a power surge."
    sid = in_combat(client, quest="into-the-heart-of-darkness", spirits_zone_4=2)
    [spirit] = placed(client, sid, {"monster": "skeleton", "master": True, "wounds": 3, "armor": 0, "abilities": {"Superior Undying": 1}}, source="zone 3 revealed")
    revived = attack(client, sid, "tahlia", spirit, {"red": ["4D 0R"]}, undying_face="blank")
    assert change(revived, "UndyingRolled")["restored"] is True and revived["state"]["game"]["monsters"][spirit]["wounds"] == 3
    gone = attack(client, sid, "tahlia", spirit, {"red": ["4D 0R"]}, undying_face="surge")
    assert change(gone, "MonsterKilled")["figure"] == spirit
