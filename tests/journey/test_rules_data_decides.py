"""The rules data decides the Journey rules the service applies, not a copy in the code (issue 31: "Nothing in the rules
data is decoration"): each test plays the rule on the live data, then on data with the one figure changed, and the
service follows the data. Pure functions (tests/kit/journey_pure.py): no database, no API."""

from __future__ import annotations

import pytest

from tests.kit.journey import DEMON_DECK, COMPONENTS
from tests.kit.journey_pure import Table, data
from tracker.core.errors import Unprocessable
from tracker.rulesets.journey import conditions
from tracker.rulesets.journey.resolution import Resolution

KILL = {"faces": {"attack": ["1", "X"], "pilgrim": ["X"]}, "outcome": "kill"}  # Berrok: HP 1, BKR 6 (test components)


def _active(table: Table, hero: str = "monkey-king") -> Table:
    table.act(type="maintenance")
    for pilgrim in table.game["initiative"]:
        table.act(type="activate-pilgrim", hero=pilgrim)
        if pilgrim == hero:
            return table
    raise AssertionError(hero)


def _pilgrim_rules(change):
    return data(lambda d: change(d["pilgrim_rules"]))


def _refused(table: Table, **action) -> str:
    with pytest.raises(Unprocessable) as refusal:
        table.act(**action)
    return refusal.value.title


def test_action_points_per_activation_are_the_data_s():
    # L362: "Normally, each Pilgrim has 2 Action Points to spend"
    assert _active(Table()).game["ap"] == 2
    assert _active(Table(rules_data=_pilgrim_rules(lambda r: r.update(action_points=3)))).game["ap"] == 3


def test_what_one_action_costs_is_the_data_s():
    # L362: "All actions take 1 Action Point."
    (rested,) = _active(Table()).act(type="rest", hero="monkey-king")
    assert rested["ap"] == 1
    table = _active(Table(rules_data=_pilgrim_rules(lambda r: r.update(actions_cost_ap=2))))
    (rested,) = table.act(type="rest", hero="monkey-king")
    assert (rested["ap"], table.game["ap"]) == (2, 0)


def test_rests_per_activation_are_the_data_s():
    # L437: "Resting can be performed twice per Activation, if required."
    table = _active(Table(rules_data=_pilgrim_rules(lambda r: r["actions"]["rest"].update(max_per_activation=1))))
    table.act(type="rest", hero="monkey-king")
    assert _refused(table, type="rest", hero="monkey-king") == "monkey-king has rested once this activation"
    table = _active(Table())
    table.act(type="rest", hero="monkey-king")
    table.act(type="rest", hero="monkey-king")  # twice on the live data


def test_mystical_box_uses_per_activation_are_the_data_s():
    # L414: "Each Pilgrim can only use a Mystical Box once (to Pray or Meditate) each time they are Activated"
    black = {"type": "meditate", "hero": "monkey-king", "spin": "black"}
    table = _active(Table())
    table.act(**black, drawn={"misfortune": ["Lose 2 Good Karma"]})
    assert _refused(table, **black, drawn={"misfortune": ["Lose 1 Chi"]}) == "monkey-king has used a Mystical Box this activation"
    table = _active(Table(rules_data=_pilgrim_rules(lambda r: r["actions"].update(mystical_box_uses_per_activation=2))))
    table.act(**black, drawn={"misfortune": ["Lose 2 Good Karma"]})
    table.act(**black, drawn={"misfortune": ["Lose 1 Chi"]})


def test_a_treasure_chest_token_is_no_mystical_box_where_the_data_says_so():
    # L919 (Quest 7): its box is the treasure chest, not a Mystical Box
    def chest(d):
        next(q for q in d["quests"] if q["id"] == "q1-meeting")["treasure_chest_token"] = "mystical_box"
    table = _active(Table(rules_data=data(chest)))
    assert _refused(table, type="meditate", hero="monkey-king", spin="black") == "Quest 1's box is the treasure chest"


def test_the_good_karma_of_a_rescue_is_the_data_s():
    # L433: "Pilgrims gain 3 Good Karma Points for this heroic deed"
    table = _active(Table())
    table.act(type="rescue-villager", hero="monkey-king", villager="villager-1")
    assert table.hero("monkey-king")["good"] == 3
    table = _active(Table(rules_data=data(lambda d: d["karma"]["gains"].update(rescue_villager=5))))
    table.act(type="rescue-villager", hero="monkey-king", villager="villager-1")
    assert table.hero("monkey-king")["good"] == 5


def _trade_cost(trade, wheel, cost):
    def change(d):
        next(row for row in d["karma"]["trade_table"] if row["id"] == trade)["cost"][wheel] = cost
    return change


def test_master_skill_cost_and_limit_are_the_data_s():
    # L547: "4 Good Karma + 1 Action Point | A One-time-use Skill Card"
    table = _active(Table())
    table.act(type="rescue-villager", hero="monkey-king", villager="villager-1")  # 3 Good Karma
    assert _refused(table, type="master-skill", hero="monkey-king") == "monkey-king has 3 Good Karma"
    table = _active(Table(rules_data=data(_trade_cost("master-skill", "good_karma", 3))))
    table.act(type="rescue-villager", hero="monkey-king", villager="villager-1")
    traded = next(c for c in table.act(type="master-skill", hero="monkey-king") if c["kind"] == "karma-traded")
    assert (traded["cost"], table.hero("monkey-king")["good"]) == (3, 0)

    def twice(d):
        _trade_cost("master-skill", "good_karma", 1)(d)
        d["pilgrim_rules"]["actions"]["master_skill"]["per_activation"] = 2
    table = _active(Table(rules_data=data(twice)))
    table.act(type="rescue-villager", hero="monkey-king", villager="villager-1")
    table.state["game"]["ap"] = 2  # a card's extra Action Points (L288): the test gives them
    table.act(type="master-skill", hero="monkey-king")
    table.act(type="master-skill", hero="monkey-king")
    assert table.hero("monkey-king")["good"] == 1


def test_the_bad_karma_trade_is_made_at_the_data_s_cost_up_to_the_data_s_weapon_level():
    # L549: "10 Bad Karma | An upgraded Weapon Card & a Corruption Card (mandatory trade)"; L553: up to Level 3
    table = _active(Table())
    table.act(type="pilgrim-attack", hero="monkey-king", target="berrok-1", **KILL)
    assert (table.hero("monkey-king")["bad"], table.hero("monkey-king")["weapon_level"]) == (6, 1)
    table = _active(Table(rules_data=data(_trade_cost("weapon-upgrade", "bad_karma", 6))))
    table.act(type="pilgrim-attack", hero="monkey-king", target="berrok-1", **KILL)
    sheet = table.hero("monkey-king")
    assert (sheet["bad"], sheet["weapon_level"], len(sheet["corruption"])) == (0, 2, 1)

    def at_most_level_1(d):
        _trade_cost("weapon-upgrade", "bad_karma", 6)(d)
        d["pilgrim_rules"]["weapon_max_level"] = 1
    table = _active(Table(rules_data=data(at_most_level_1)))
    changes = table.act(type="pilgrim-attack", hero="monkey-king", target="berrok-1", **KILL)
    assert [c["trade"] for c in changes if c["kind"] == "karma-traded"] == ["corruption-only"]
    assert (table.hero("monkey-king")["weapon_level"], len(table.hero("monkey-king")["corruption"])) == (1, 1)


def test_a_pilgrim_s_set_up_is_the_data_s():
    # L221: "Shuffle the Skill Cards and draw the top 2"; L224: Chi 10, both Karma wheels 0; a Level 1 Weapon (L553)
    sheet = Table().hero("cho-hakkai")
    assert (len(sheet["skills"]), sheet["weapon_level"], sheet["good"], sheet["bad"]) == (2, 1, 0, 0)

    def changed(d):
        d["pilgrim_rules"].update(weapon_level_at_setup=2)
        d["pilgrim_rules"]["karma_wheels"]["bad"]["start"] = 4
        next(deck for deck in d["decks"] if deck["id"] == "skill-cho-hakkai")["setup_draw"] = 3
    table = Table(rules_data=data(changed))
    sheet = table.hero("cho-hakkai")
    assert (len(sheet["skills"]), sheet["weapon_level"], sheet["bad"]) == (3, 2, 4)
    assert len(table.hero("tripitaka")["skills"]) == 2


def test_the_rage_card_is_known_by_the_data_s_name():
    # L178: the Rage Card is removed from the Demon deck before play; a supplied deck holds it by its name
    supplied = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}}
    Table(components=supplied)
    renamed = data(lambda d: next(deck for deck in d["decks"] if deck["id"] == "demon").update(rage_card_name="Card of Rage"))
    with pytest.raises(Unprocessable) as refusal:
        Table(rules_data=renamed, components=supplied)
    assert refusal.value.title == "The supplied Demon deck has no Rage Card"


def _holding(table: Table, hero: str, condition: str) -> Table:
    table.state["game"]["heroes"][hero]["conditions"].append({"id": condition, "tokens": 0})
    return table


def _condition_effect(condition, **effect):
    return data(lambda d: next(c for c in d["conditions"] if c["id"] == condition)["effect"].update(effect))


def test_what_a_condition_forbids_is_its_effect_in_the_data():
    # L301-L302: Disabled cannot attack but can defend and take other actions; Paralyzed cannot act, play cards or defend
    table = _holding(_active(Table()), "monkey-king", "disabled")
    assert _refused(table, type="pilgrim-attack", hero="monkey-king", target="berrok-1", **KILL) == "monkey-king is Disabled and cannot attack"
    table = _holding(_active(Table(rules_data=_condition_effect("disabled", cannot_attack=False))), "monkey-king", "disabled")
    table.act(type="pilgrim-attack", hero="monkey-king", target="berrok-1", **KILL)

    def forbids(rules_data, condition):
        table = _holding(Table(rules_data=rules_data), "monk-sha", condition)
        res = Resolution(table._ctx())  # noqa: SLF001
        return {what for what in conditions.FORBIDS if conditions.forbidding(res, "monk-sha", what)}

    assert forbids(data(), "paralyzed") == {"attack", "act", "play", "defend"}
    assert forbids(data(), "disabled") == {"attack"}
    assert forbids(_condition_effect("disabled", can_defend=False, other_actions_allowed=False), "disabled") == {"attack", "act", "defend"}
    assert forbids(_condition_effect("paralyzed", cannot_take_actions=False, cannot_play_cards=False), "paralyzed") == {"defend"}


def test_a_paralyzed_pilgrim_activates_with_the_action_points_its_effect_leaves():
    # L302: "While Paralyzed, the Pilgrim cannot make any actions"
    def activated(rules_data):
        table = Table(rules_data=rules_data)
        table.act(type="maintenance")
        _holding(table, "monkey-king", "paralyzed")
        return table.act(type="activate-pilgrim", hero="monkey-king")[0]["ap"]
    assert activated(data()) == 0
    assert activated(_condition_effect("paralyzed", cannot_take_actions=False)) == 2


def test_the_health_a_card_s_cost_must_leave_is_the_data_s():
    # L270: "when paying Health Point costs, you must leave the Pilgrim with at least 1 Health Point"
    def pay(rules_data):
        table = _active(Table(rules_data=rules_data))
        card = table.hero("monkey-king")["skills"][0]["name"]
        return table.act(type="play-card", hero="monkey-king", deck="skill-monkey-king", card=card, costs={"hp": 8})  # 10 HP
    pay(data())
    with pytest.raises(Unprocessable) as refusal:
        pay(_pilgrim_rules(lambda r: r.update(card_hp_cost_min_hp_left=3)))
    assert refusal.value.title == "An HP cost must leave monkey-king at least 3 HP"


def _reviving(rules_data, tripitaka_hp=10):
    table = _active(Table(rules_data=rules_data), "tripitaka")
    table.state["game"]["heroes"]["cho-hakkai"]["status"] = "face-down"
    table.state["game"]["heroes"]["tripitaka"]["hp"] = tripitaka_hp
    return table


def test_what_a_revive_may_sacrifice_and_needs_is_the_data_s():
    # L447-L449: "1-5 Health Points", "0-5 Chi Points"; "Tripitaka must have at least 1 Action and 2 Health Points"
    revive = {"type": "revive", "hero": "tripitaka", "target": "cho-hakkai"}
    _reviving(data()).act(**revive, hp=4, chi=5)
    narrower = _pilgrim_rules(lambda r: r["actions"]["revive"].update(hp_sacrificed=[1, 3], chi_sacrificed=[0, 2]))
    assert _refused(_reviving(narrower), **revive, hp=4) == "Tripitaka sacrifices 1-3 Health to Revive"
    assert _refused(_reviving(narrower), **revive, hp=1, chi=3) == "Tripitaka sacrifices 0-2 Chi to Revive"
    _reviving(data(), tripitaka_hp=3).act(**revive, hp=1)
    needs_4 = _pilgrim_rules(lambda r: r["actions"]["revive"].update(needs_tripitaka_hp=4))
    assert _refused(_reviving(needs_4, tripitaka_hp=3), **revive, hp=1) == "Tripitaka has 3 HP and needs at least 4 to Revive"


def test_each_well_s_uses_per_quest_are_the_data_s():
    # L435: "each Pilgrim can only use each Water Well once per Quest"
    def drunk(uses=None):
        def changed(d):
            next(q for q in d["quests"] if q["id"] == "q1-meeting")["tokens"]["well"] = 1  # a Well on Quest 1's board
            if uses is not None:
                d["pilgrim_rules"]["actions"]["recover"]["uses_per_well_per_quest"] = uses
        table = _active(Table(rules_data=data(changed)))
        table.act(type="recover", hero="monkey-king", well="well-1")
        return table
    assert _refused(drunk(), type="recover", hero="monkey-king", well="well-1") == "monkey-king has used well-1 this quest"
    drunk(uses=2).act(type="recover", hero="monkey-king", well="well-1")


def test_tripitaka_s_own_actions_are_those_the_data_lists():
    # L440: "Only Tripitaka can Close a Demon Gate"
    close = {"type": "close-gate", "hero": "monkey-king", "gate": "gate-1"}
    assert _refused(_active(Table()), **close) == "Only Tripitaka may close a Gate"
    others = data(lambda d: next(c for c in d["characters"] if c["id"] == "tripitaka").update(exclusive_actions=["revive"]))
    assert _refused(_active(Table(rules_data=others)), **close) == "Tripitaka holds no Sutra"


def test_red_line_damage_per_square_is_the_data_s():
    # L571: "Pilgrims take one point of damage every time they enter one of these squares"
    for red_damage, hp in ((None, 8), (2, 6)):
        table = _active(Table(rules_data=_pilgrim_rules(lambda r: red_damage and r["terrain"].update(red_damage=red_damage))))
        table.act(type="red-line-damage", hero="monkey-king", squares=2)
        assert table.hero("monkey-king")["hp"] == hp


def test_an_unconscious_pilgrim_turns_as_the_data_s_rotation_says():
    # L355: "If an Unconscious Pilgrim is face down, turn them on their side. If they are on their side, place them on
    # their back. If they are on their back, the time to revive them has run out"
    def turned(rotation=None):
        table = Table(rules_data=_pilgrim_rules(lambda r: rotation and r["unconscious"].update(rotation=rotation)))
        table.state["game"]["heroes"]["cho-hakkai"]["status"] = "face-down"
        return [(c["from"], c["to"]) for c in table.act(type="maintenance") if c["kind"] == "unconscious-pilgrim-turned"]
    assert turned() == [("face-down", "side")]
    assert turned(["face-down", "dead"]) == [("face-down", "dead")]


def test_a_pilgrim_falls_unconscious_at_the_data_s_health_and_orientation():
    # L557: "If a Pilgrim is reduced to zero Health Points, the Pilgrim is Unconscious"; face down first (L355)
    def fell(unconscious=None):
        table = _active(Table(rules_data=_pilgrim_rules(lambda r: unconscious and r["unconscious"].update(unconscious))))
        changes = table.act(type="red-line-damage", hero="monkey-king", squares=9)  # 10 HP -> 1
        return [c["orientation"] for c in changes if c["kind"] == "pilgrim-fell-unconscious"]
    assert fell() == []
    assert fell({"at_hp": 1, "initial_orientation": "side"}) == ["side"]


def test_the_skill_card_a_karma_trade_gives_is_the_data_s_kind():
    # L547: "4 Good Karma + 1 Action Point | A One-time-use Skill Card"
    def taken(kind=None):
        def change(d):
            _trade_cost("master-skill", "good_karma", 3)(d)
            if kind:
                next(row for row in d["karma"]["trade_table"] if row["id"] == "master-skill")["reward"]["skill_card"] = kind
        table = _active(Table(rules_data=data(change)))
        table.act(type="rescue-villager", hero="monkey-king", villager="villager-1")
        return [c["card_kind"] for c in table.act(type="master-skill", hero="monkey-king") if c["kind"] == "card-taken"]
    assert taken() == ["one-time"]
    assert taken("permanent") == ["permanent"]


def test_the_demon_cards_drawn_at_each_active_gate_are_the_data_s():
    # L596: "Starting at the active Gate closest to Tripitaka, draw one Demon Card from the Demon Deck."
    supplied = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}}

    def cards(per_gate=None):
        deck = data(lambda d: per_gate and next(deck for deck in d["decks"] if deck["id"] == "demon").update(draw_per_active_gate=per_gate))
        table = Table(rules_data=deck, components=supplied)
        table.act(type="maintenance")
        table.act(type="demon-phase")
        changes = table.act(type="spawn-demons", gates=["gate-1"], drawn={"demon": ["Archers 1", "Archers 2"][:per_gate or 1]})
        return [c["card"] for c in changes if c["kind"] == "demon-card-resolved"]
    assert cards() == ["Archers 1"]
    assert cards(2) == ["Archers 1", "Archers 2"]


def test_tripitaka_s_cleanse_ritual_rolls_the_data_s_die():
    # L527: "Tripitaka's Profile Sheet shows he rolls 1 Pilgrim Die during the Ritual"; L532: "Roll the dice specified
    # in the Attacker's Cleanse Ritual Attribute"
    def rolled(die=None):
        rules_data = data(lambda d: die and next(c for c in d["characters"] if c["id"] == "tripitaka").update(cr_die=die))
        table = _active(Table(rules_data=rules_data), "tripitaka")
        changes = table.act(type="pilgrim-attack", hero="tripitaka", target="berrok-1", faces={"attack": ["1", "X"], "pilgrim": ["X"]},
                            outcome="cleanse", cleanse_faces=["2"])
        return [sorted(c["roll"]["results"]) for c in changes if c["kind"] == "rolled"][-1]
    assert rolled() == ["pilgrim"]
    assert rolled("attack") == ["attack"]


def test_a_condition_s_effect_applies_at_maintenance_where_its_data_says_so():
    # L294: "Apply the effect as soon as you get the card and then in future Maintenance Phases, if the card is still active"
    def lost(rules_data):
        table = _holding(Table(rules_data=rules_data), "monkey-king", "poisoned")
        before = table.hero("monkey-king")["hp"]
        table.act(type="maintenance")
        return before - table.hero("monkey-king")["hp"]
    assert lost(data()) == 1
    assert lost(_condition_effect("poisoned", applies_each_maintenance=False)) == 0
