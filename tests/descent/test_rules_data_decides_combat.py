"""Descent's rules data decides its combat and Ready rules (issue 31, "Nothing in the rules data is decoration"): the miss
face, range, surges, pierce, armour and what damage before armour decides, Bash, Shadowcloak, the Leap's one roll, Dark
Prayer's threat, Frost's blank, a stunned hero's half actions were copies in the code; a ruleset built from data with
another value plays by that value. Where the code plays a rule one way only (surges stack, concentrate needs a prolonged
order, the clock's numerical order, the Thing's one rate of growth) data saying otherwise is refused when it loads.
Pure functions over edited data; seed lines of ../shared/seeds/004_6da044077b02a6e4.txt."""

from __future__ import annotations

import pytest

from tests.kit.descent_pure import apply as _apply, ctx as _ctx, game as _game
from tests.kit.pure_table import edited
from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream
from tracker.rulesets import descent
from tracker.rulesets.descent import abilities, combat, conditions, figures, glyphs, ready
from tracker.rulesets.descent.attack_abilities import Applied
from tracker.rulesets.engine.data import RulesDataError

DATA = rulesets.get("descent").data


def _combat(**values):
    return edited(descent.load, DATA, lambda d: d["combat"].update(values)).data["combat"]


def _ability(name, **values):
    return edited(descent.load, DATA, lambda d: d["combat"]["abilities"][name].update(values)).data["combat"]


def _hit(rules, faces, params, armour=0, steps=None, target=None):
    result = combat.resolve(faces, {"attack_type": "melee", **params}, 0, armour, steps or Applied(rules["abilities"]), {}, target or {}, rules=rules)
    return result["hit"], result["wounds"]


def test_the_miss_face_is_the_data_s():
    # L211: "it is treated as though the figure rolled a miss result"; the data writes a miss as X
    assert _hit(_combat(), {"red": ["X", "3D 0R"]}, {}) == (False, 0)
    assert _hit(_combat(miss_face="M"), {"red": ["M", "3D 0R"]}, {}) == (False, 0)


def test_melee_ignores_range_where_the_data_says():
    # L215: "Melee attacks still ignore range"
    assert _hit(_combat(), {"red": ["2D 0R"]}, {"range": 3}) == (True, 2)
    assert _hit(_combat(melee_ignores_range=False), {"red": ["2D 0R"]}, {"range": 3}) == (False, 0)


def test_power_surges_are_spent_as_surges_where_the_data_says():
    # L211: "for each power surge spent"
    spent = {"surges": [{"ability": "+1 Damage", "count": 1, "damage": 1}]}
    assert _hit(_combat(), {"red": ["2D 0R"], "power": ["surge"]}, spent) == (True, 3)
    with pytest.raises(Unprocessable, match="The roll gives 0 surges, not 1"):
        _hit(_combat(power_surges_spent_as_surges=False), {"red": ["2D 0R"], "power": ["surge"]}, spent)


def test_pierce_and_armour_count_as_the_data_says():
    # L311: "Pierce attacks ignore X points of armor"; L197: "his chain mail and base armor reduces it by another 4"
    pierced = {"abilities": [{"ability": "Pierce 2", "pierce": 2}]}
    assert _hit(_combat(), {"red": ["4D 0R"]}, pierced, armour=3) == (True, 3)
    assert _hit(_combat(pierce_ignores_armour=False), {"red": ["4D 0R"]}, pierced, armour=3) == (True, 1)
    assert _hit(_combat(), {"red": ["4D 0R"]}, {}, armour=3) == (True, 1)
    assert _hit(_combat(armour_reduces_wounds=False), {"red": ["4D 0R"]}, {}, armour=3) == (True, 4)


def test_surges_that_do_not_stack_are_refused_when_the_data_loads():
    # L280: "Special abilities that require you to spend surges are designed to stack"
    with pytest.raises(RulesDataError, match="combat.surges_stack is false"):
        edited(descent.load, DATA, lambda d: d["combat"].update(surges_stack=False))


def test_damage_before_or_after_armour_decides_the_conditions_as_the_data_says():
    # L325 †: "Determine whether damage is inflicted before applying the effects of armor"
    def burned(decides: bool) -> list[dict]:
        ruleset = edited(descent.load, DATA, lambda d: d["combat"].update(damage_before_armour_decides_effects=decides))
        game = _game(ruleset, "altar-of-despair")
        game = _apply(ruleset, game, figures.place_monsters(_ctx(ruleset, game), {"monsters": [{"monster": "ogre"}], "source": "zone 1"}, None))
        attack = {"attacker": "ogre-1", "target": "aurim", "attack_type": "melee", "faces": {"red": ["2D 0R"]}, "armor": 3, "abilities": [{"ability": "Burn"}]}
        changes = combat.attack(_ctx(ruleset, game), attack, RandomStream(b"d" * 32))
        assert next(c for c in changes if c["kind"] == "attack-made")["wounds"] == 0  # 2 damage, 3 armour
        return [c for c in changes if c["kind"] == "condition-tokens-placed"]

    assert [c["condition"] for c in burned(True)] == ["burn"]
    assert burned(False) == []


def test_bash_misses_on_a_blank_and_owes_no_power_dice_as_the_data_says():
    # L211: "If any of the power dice roll a blank, it is treated as though the figure rolled a miss result ... The figure
    # never has to roll any power dice when making a Bash attack, regardless of other effects."
    bash = {"abilities": [{"ability": "Bash"}]}
    assert _hit(_combat(), {"red": ["3D 0R"], "power": ["blank"]}, bash) == (False, 0)
    assert _hit(_ability("bash", blank_misses=False), {"red": ["3D 0R"], "power": ["blank"]}, bash) == (True, 3)
    berserker = {"abilities": {"berserk": 1}, "wounds": 3, "max_wounds": 5}
    params = {"attack_type": "melee", **bash}
    abilities.before_roll(_combat()["abilities"], params, berserker, {}, {"red": ["3D 0R"]})  # no power dice, bashing
    with pytest.raises(Unprocessable, match="A wounded figure with Berserk rolls all 5 power dice"):
        abilities.before_roll(_ability("bash", power_dice_optional=False)["abilities"], params, berserker, {}, {"red": ["3D 0R"]})


def test_shadowcloak_is_unaffected_by_far_attackers_as_the_data_says():
    # L222: "only affected by attacks made by adjacent figures"
    far = {"attack_type": "ranged", "range": 3}
    assert _hit(_combat(), {"blue": ["3D 4R"]}, far, target={"shadowcloak": 1}) == (False, 0)
    assert _hit(_ability("shadowcloak", only_adjacent_attackers=False), {"blue": ["3D 4R"]}, far, target={"shadowcloak": 1}) == (True, 3)


def test_a_leap_s_figures_share_its_one_roll_as_the_data_says():
    # L224: "The leaping figure may then make one attack roll that affects any enemy figures in the spaces it just moved through"
    leaper = {"abilities": {"leap": 1}, "leap": {"turn": 1, "results": {"red": ["3D 0R"]}, "targets": ["aurim"]}}
    params = {"attacker": "ape-1", "target": "sahla", "attack_type": "melee"}
    with pytest.raises(Unprocessable, match="already leapt this turn"):
        abilities.leap(1, params, "ape-1", leaper, {"red": ["1D 0R"]}, _combat()["abilities"]["leap"]["same_roll_for_each_figure"])
    own_roll = _ability("leap", same_roll_for_each_figure=False)["abilities"]["leap"]["same_roll_for_each_figure"]
    assert abilities.leap(1, params, "ape-1", leaper, {"red": ["1D 0R"]}, own_roll) == {"turn": 1, "results": {"red": ["1D 0R"]}}


def test_dark_prayer_gives_the_threat_per_surge_the_data_says():
    # L218: "generates 1 threat for the overlord for every surge it rolls when attacking, instead of for every 2 surges"
    params = {"attacker": "priest-1", "surges": [{"ability": "threat", "count": 3}]}
    for per, threat in ((1, 3), (2, 6)):
        ruleset = edited(descent.load, DATA, lambda d: d["combat"]["abilities"]["dark-prayer"].update(threat_per_surge=per))
        [gained] = combat.surges_to_threat(_ctx(ruleset), params, "monster", {"dark-prayer": 1}, ruleset.data["combat"]["surges_buy_threat"])
        assert gained["amount"] == threat
    assert combat.surges_to_threat(_ctx(ruleset), params, "monster", {}, ruleset.data["combat"]["surges_buy_threat"])[0]["amount"] == 1  # 1 per 2


def test_a_frosted_item_shatters_on_a_blank_as_the_data_says():
    # L195: "If any power die rolls a blank, the weapon used to make the attack is shattered and discarded"
    def checked(shatters: bool) -> list[str]:
        ruleset = edited(descent.load, DATA, lambda d: d["frost"].update(blank_shatters=shatters))
        game = _game(ruleset, "altar-of-despair")
        game = _apply(ruleset, game, conditions.gain_frost(_ctx(ruleset, game), {"hero": "aurim", "count": 1}, None))
        check = {"hero": "aurim", "item": "sword", "trigger": "weapon-attack", "faces": ["blank"]}
        return [c["kind"] for c in conditions.frost_check(_ctx(ruleset, game), check, RandomStream(b"d" * 32))]

    assert checked(True) == ["rolled", "item-shattered"]
    assert checked(False) == ["rolled"]


def test_a_stunned_hero_takes_the_half_actions_the_data_says():
    # L141: "A stunned hero now effectively receives one half action instead of his normal action"
    for allowed in (1, 2):
        ruleset = edited(descent.load, DATA, lambda d: d["ready"].update(stunned_half_actions=allowed))
        game = _game(ruleset, "altar-of-despair")
        game["heroes"]["aurim"]["stunned_turn"] = 1
        game = _apply(ruleset, game, ready.stunned_half_action(_ctx(ruleset, game), {"hero": "aurim", "half_action": "move"}, None))
        second = {"hero": "aurim", "half_action": "attack"}
        if allowed == 1:
            with pytest.raises(Unprocessable, match="aurim already took his half action this turn"):
                ready.stunned_half_action(_ctx(ruleset, game), second, None)
        else:
            game = _apply(ruleset, game, ready.stunned_half_action(_ctx(ruleset, game), second, None))
            with pytest.raises(Unprocessable, match="aurim already took his 2 half actions this turn"):
                ready.stunned_half_action(_ctx(ruleset, game), {"hero": "aurim", "half_action": "order", "order": "aim"}, None)


def test_rules_the_code_plays_one_way_are_refused_otherwise_when_the_data_loads():
    # L139: "A hero with a prolonged order token on him may take a concentrate half action"
    with pytest.raises(RulesDataError, match='ready.concentrate_needs is "aim order"'):
        edited(descent.load, DATA, lambda d: d["ready"].update(concentrate_needs="aim order"))
    # L345: "one of the prisoners is sacrificed to the chaos beast, in the numerical order shown on the map"
    thing_in_the_pit = lambda d: next(q for q in d["quests"] if q["id"] == "thing-in-the-pit")  # noqa: E731
    with pytest.raises(RulesDataError, match='sacrifice_order is "random"'):
        edited(descent.load, DATA, lambda d: thing_in_the_pit(d)["prisoners"].update(sacrifice_order="random"))
    # L388: "the Thing in the Pit has 4 additional wounds for each villager that has been sacrificed"
    with pytest.raises(RulesDataError, match="4 in thing-in-the-pit.monsters but 5 in combat.named_monsters"):
        edited(descent.load, DATA, lambda d: next(m for m in d["combat"]["named_monsters"] if m["id"] == "thing-in-the-pit").update(extra_wounds_per_sacrifice=5))
    assert descent.load().version == DATA["version"]  # the data as it is loads


# -- Rules 1.8.0: what the data states and 1.7.0 left to the table -----------------------------------------------------

PIN_1_7_0 = {"id": "descent", "version": "1.7.0", "hash": "sha256:8b7177566af8edefe587f812fbbd019cf004c09dc8d3eb8bcf51a46bcda4e9eb"}


def _pinned_1_7_0():
    rulesets.archived.cache_clear()
    old = rulesets.resolve(PIN_1_7_0)
    assert old is not None and old.pin == PIN_1_7_0 and old.rules.version.number == "1.7.0"
    return old


def test_a_campaign_pinned_to_descent_1_7_0_still_resolves_to_its_published_contract():
    """1.8.0 enforces the power dice's limit and Zorek's glyph hit: 1.7.0's data and contract are archived."""
    old = _pinned_1_7_0()
    assert rulesets.get("descent").version == "1.8.0" and rulesets.get("descent").hash != PIN_1_7_0["hash"]
    assert old.data["dice"] == DATA["dice"]


def _power_attack(ruleset, power: int) -> list[dict]:
    game = _game(ruleset, "altar-of-despair")
    game = _apply(ruleset, game, figures.place_monsters(_ctx(ruleset, game), {"monsters": [{"monster": "ogre"}], "source": "zone 1"}, None))
    attack = {"attacker": "aurim", "target": "ogre-1", "attack_type": "melee", "faces": {"red": ["2D 0R"], "power": ["surge"] * power}, "armor": 0}
    return combat.attack(_ctx(ruleset, game), attack, RandomStream(b"d" * 32))


def test_an_attack_rolls_at_most_the_power_dice_the_data_says_from_1_8_0():
    # L139: "He may spend fatigue to bring this roll up to a maximum of 5 power dice, as normal"; L213: "all 5 power dice"
    assert next(c for c in _power_attack(descent.load(), 5) if c["kind"] == "attack-made")["hit"]
    with pytest.raises(Unprocessable, match="An attack rolls at most 5 black power dice"):
        _power_attack(descent.load(), 6)
    six = edited(descent.load, DATA, lambda d: next(x for x in d["dice"] if x["id"] == "power").update(max_per_roll=6))
    assert next(c for c in _power_attack(six, 6) if c["kind"] == "attack-made")["hit"]
    assert next(c for c in _power_attack(_pinned_1_7_0(), 6) if c["kind"] == "attack-made")["hit"]  # as 1.7.0 played it


def test_zorek_s_glyph_hit_deals_the_wounds_the_data_says_from_1_8_0():
    # L686: "he automatically hits the glyph of his choice, inflicting 1 wound on it"
    def hit(ruleset, **params):
        game = _game(ruleset, "altar-of-despair")
        return glyphs.damage_glyph(_ctx(ruleset, game), {"glyph": "1", **params}, None)[0]["wounds"]

    assert hit(descent.load()) == 1
    with pytest.raises(Unprocessable, match="Zorek's hit inflicts 1 wound on a glyph, not 2"):
        hit(descent.load(), wounds=2)
    two = edited(descent.load, DATA, lambda d: next(q for q in d["quests"] if q["id"] == "altar-of-despair")["zorek"].update(glyph_attack_wounds=2))
    assert hit(two) == 2
    with pytest.raises(Unprocessable, match="Zorek's hit inflicts 2 wounds on a glyph, not 1"):
        hit(two, wounds=1)
    assert hit(_pinned_1_7_0(), wounds=2) == 2  # 1.7.0 took the wounds the table stated
