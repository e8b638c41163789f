"""Yōkai Quest's rules data decides the rules it states (issue 31, "Nothing in the rules data is decoration"), the
fields that were unanswered: each test builds a ruleset from data with another value and sees the rule follow it, or
sees data the code cannot play refused as it loads. Pure functions over edited data (tests/kit/pure_table.py); seed
lines of ../shared/seeds/001_ad3071ee2c47775f.txt."""

from __future__ import annotations

import copy

import pytest

from tests.kit.pure_table import PureTable, edited
from tests.kit.yokai_quest import LOADOUTS, S1, YOKAI_TEST_COMPONENTS
from tests.kit.pure_table import kinds as _kinds
from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.rulesets import yokai_quest
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.yokai_quest import campaign, state

DATA = rulesets.get("yokai-quest").data


def _table(edit=lambda data: None, quest=S1) -> PureTable:
    table = PureTable(edited(yokai_quest.load, DATA, edit), quest, ["ryo", "ami"], {"abilities": LOADOUTS}, components=YOKAI_TEST_COMPONENTS)
    table.state["game"]["at_entrance"] = []  # the heroes have entered the board (L214)
    return table


def _loaded(edit):
    return edited(yokai_quest.load, DATA, edit)


def test_a_hero_makes_as_many_basic_movements_an_activation_as_the_data_says():
    # "Each hero has a basic movement of up to three squares" (L398): hero_rules.activation.basic_movements
    basic = {"type": "move", "hero": "ryo", "movement": "basic"}
    for edit, moves in ((lambda d: None, 1), (lambda d: d["hero_rules"]["activation"].update(basic_movements=2), 2)):
        table = _table(edit)
        for _ in range(moves):
            assert "hero-moved" in _kinds(table.act(basic))
        with pytest.raises(Unprocessable, match="has made the basic movement"):
            table.act(basic)


def test_a_hero_draws_as_many_energy_cards_a_hero_phase_as_the_data_says():
    # "Each player takes a card of the Energy deck" (L156): hero_rules.energy_card.per_hero_per_hero_phase
    draw = {"type": "draw-energy", "hero": "ryo", "spheres": 1}
    for edit, cards in ((lambda d: None, 1), (lambda d: d["hero_rules"]["energy_card"].update(per_hero_per_hero_phase=2), 2)):
        table = _table(edit)
        for _ in range(cards):
            table.act(draw)
        with pytest.raises(Unprocessable, match="has drawn this Hero phase's energy card"):
            table.act(draw)


def test_each_hero_is_owed_as_many_treasure_cards_as_the_data_says():
    # "each hero takes a card from the Treasure deck" (L431): treasure_rules.each_hero_draws
    for edit, owed in ((lambda d: None, 1), (lambda d: d["treasure_rules"].update(each_hero_draws=2), 2)):
        table = _table(edit)
        table.state["game"]["treasure_reserve"] = 4
        table.state["game"]["heroes"]["ryo"]["hand"] = ["Mochi"]
        table.act({"type": "use-item", "hero": "ryo", "actions": 0, "item": "Mochi", "treasure_tokens": 1})
        assert sorted(o["hero"] for o in table.game["treasure_owed"]) == ["ami"] * owed + ["ryo"] * owed


def test_the_panel_has_the_equipment_spaces_the_data_lists():
    # "Equipment: two spaces, one for each of the equipped enchantment and trinket" (L289): hero_rules.equipment_slots
    for edit, refused in ((lambda d: None, False), (lambda d: d["hero_rules"].update(equipment_slots=["charm"]), True)):
        table = _table(edit)
        assert sorted(table.game["heroes"]["ryo"]["equipped"]) == (["charm"] if refused else ["charm", "enchantment"])
        table.state["game"]["heroes"]["ryo"]["hand"] = ["Ryoufou"]
        equip = {"type": "equip", "hero": "ryo", "card": "Ryoufou"}  # an enchantment
        if refused:
            with pytest.raises(Unprocessable, match="cannot be equipped"):
                table.act(equip)
        else:
            assert "item-equipped" in _kinds(table.act(equip))


def _yokai_attack(table, **params):
    table.state["game"].setdefault("in_play", {})["hone-bushi"] = 1
    return table.act({"type": "attack", "attacker": "hone-bushi", "targets": [{"defender": "ryo", "attack_faces": {"red": ["katana", "katana-helmet"]},
                                                                                "defense_faces": {"blue": ["helmet"]}}], **params})


def test_a_yokai_attacks_in_the_phase_the_data_says():
    # "The behavior chart can be used by a yōkai only once per turn, during the Yōkai phase" (L192): yokai_rules.acts_in.phase
    with pytest.raises(Unprocessable, match="attacks in the Yōkai phase"):
        _yokai_attack(_table())
    table = _table(lambda d: d["yokai_rules"]["acts_in"].update(phase="hero"))
    assert "attack-resolved" in _kinds(_yokai_attack(table))


def test_a_roll_keeps_the_symbols_the_data_says():
    # L248 ""Katana" results are kept", L249 ""Helmet" results are kept": combat.attack_keeps, defense_keeps
    def swapped(data):
        data["combat"].update(attack_keeps="helmet", defense_keeps="katana")
        for die in data["dice"]:
            die["keeps"] = {"attack": "helmet", "defense": "katana"}

    for edit, katanas, helmets in ((lambda d: None, 2, 1), (swapped, 1, 0)):
        table = _table(lambda d: (edit(d), d["yokai_rules"]["acts_in"].update(phase="hero")))
        resolved = next(c for c in _yokai_attack(table) if c["kind"] == "attack-resolved")
        assert (resolved["katanas"], resolved["helmets"]) == (katanas, helmets)


def test_a_die_keeping_other_symbols_than_the_roll_is_refused_at_load():
    with pytest.raises(RulesDataError, match="dice red: keeps"):
        _loaded(lambda d: d["dice"][0].update(keeps={"attack": "helmet", "defense": "helmet"}))


def test_blows_remove_what_the_data_names():
    # "Unless stated otherwise, the number of un-cancelled blows equals the number of health points the defender loses"
    # (L252): combat.blow_conversions
    def acting(extra=lambda d: None):
        return lambda d: (d["yokai_rules"]["acts_in"].update(phase="hero"), extra(d))

    resolved = next(c for c in _yokai_attack(_table(acting()), blows_remove="energy") if c["kind"] == "attack-resolved")
    assert resolved["blows_remove"] == "energy"
    with pytest.raises(Unprocessable, match="no blow conversion 'energy'"):
        _yokai_attack(_table(acting(lambda d: d["combat"]["blow_conversions"].pop("energy"))), blows_remove="energy")
    with pytest.raises(RulesDataError, match="combat.blow_conversions"):
        _loaded(lambda d: d["combat"]["blow_conversions"].update(half="one health per two blows"))


def test_a_chief_s_stats_are_the_scene_s_where_the_roster_marks_them_per_scene():
    # Chiefs are "unique foes, with attributes and behaviors that vary from scene to scene" (L567); "Health: ?" (L743)
    scene = next(q for q in DATA["quests"] if q.get("chief") and any(p["character"] == q["chief"]["character"] for p in q["present_from_start"]))
    chief = scene["chief"]["character"]

    def roster(data):
        entry = next(c for c in data["characters"] if c["id"] == chief)
        entry["per_scene"] = False
        entry["stats"].update(health=3, initiative=1)

    table = PureTable(_loaded(lambda d: None), scene["id"], ["ryo", "ami"], {"abilities": LOADOUTS}, progress={"next_scene": scene["id"]}, components=YOKAI_TEST_COMPONENTS)
    assert table.game["foes"][chief]["health"] == scene["chief"]["health"]
    table = PureTable(_loaded(roster), scene["id"], ["ryo", "ami"], {"abilities": LOADOUTS}, progress={"next_scene": scene["id"]}, components=YOKAI_TEST_COMPONENTS)
    assert table.game["foes"][chief]["health"] == 3


def _failed_game(attempt):
    hero = state.new_standing(6, DATA["hero_rules"]["equipment_slots"])
    game = {
        "story": "shake-them-skeleton-bones", "scene": "shake-them-skeleton-bones-2", "attempt": attempt, "board_kept": True,
        "heroes": {"ryo": hero}, "start_heroes": {"ryo": copy.deepcopy(hero)}, "treasure_reserve": 0, "treasure_owed": [],
        "achievements": [], "scene_result": None,
    }
    return state.fold(game, {"kind": "scene-ended", "outcome": "failed", "treasure_owed": []})


def test_a_scene_is_reattempted_as_often_as_the_data_says():
    # "The reattempt can only be tried once per scene. If the heroes fail twice, they lose the scenario." (L774)
    data = copy.deepcopy(DATA)
    game = _failed_game(2)
    assert campaign.carry_over(data, {}, game, game["scene"], "defeat", {})["stories"]["shake-them-skeleton-bones"]["status"] == "lost"
    data["scene_rules"]["reattempts_per_scene"] = 2
    again = campaign.carry_over(data, {}, game, game["scene"], "defeat", {})
    assert again["next_quest"] == game["scene"] and again["attempt"] == 3
    assert again["stories"]["shake-them-skeleton-bones"]["scenes"][game["scene"]]["reattempts_used"] == 2


def test_a_completed_story_is_followed_by_the_next_in_the_data_s_order():
    # "the narration chains the stories" (campaign.stories_in_order, digest §9)
    def won_last_scene(data):
        story = data["stories"][0]
        hero = state.new_standing(6, data["hero_rules"]["equipment_slots"])
        game = {"story": story["id"], "scene": story["scenes"][-1], "attempt": 1, "board_kept": False, "heroes": {"ryo": hero},
                "start_heroes": {"ryo": copy.deepcopy(hero)}, "treasure_reserve": 0, "treasure_owed": [], "achievements": [],
                "scene_result": {"outcome": "victory", "completes_story": False, "full_energy_next_story": False}}
        return campaign.carry_over(data, {}, game, game["scene"], "victory", {})["next_quest"]

    assert won_last_scene(DATA) == "the-true-culprits-1"
    data = copy.deepcopy(DATA)
    order = data["campaign"]["stories_in_order"]
    order[1], order[2] = order[2], order[1]
    data["campaign"]["chain"] = [scene for story in order for scene in next(s for s in data["stories"] if s["id"] == story)["scenes"]]
    _loaded(lambda d: d["campaign"].update(stories_in_order=order, chain=data["campaign"]["chain"]))  # data it plays
    assert won_last_scene(data) == "rain-of-flames-1"


def test_the_campaign_options_are_the_data_s():
    # the health policies (campaign.health_policies) and one story on its own (campaign.story_alone)
    options = _loaded(lambda d: None).rules.options_schema["properties"]
    assert options["health_policy"]["enum"] == ["carry-over", "full-at-scene-start"] and "story" in options
    options = _loaded(lambda d: (d["campaign"]["health_policies"].pop("full-at-scene-start"), d["campaign"].update(story_alone=False))).rules.options_schema["properties"]
    assert options["health_policy"]["enum"] == ["carry-over"] and "story" not in options
    with pytest.raises(RulesDataError, match="campaign.health_policies"):
        _loaded(lambda d: d["campaign"]["health_policies"].update(halved="half health at each scene"))


def test_rules_data_the_code_cannot_play_is_refused_at_load():
    # L214 a waiting hero makes only the basic movement that enters; L303 4 unique abilities, 6 per class; L473 the candle
    with pytest.raises(RulesDataError, match="allowed_while_waiting"):
        _loaded(lambda d: d["hero_rules"]["entering"]["allowed_while_waiting"].append("run"))
    with pytest.raises(RulesDataError, match="unique_abilities_per_hero"):
        _loaded(lambda d: d["hero_rules"].update(unique_abilities_per_hero=5))
    with pytest.raises(RulesDataError, match="class_abilities"):
        _loaded(lambda d: d["hero_rules"].update(class_abilities=7))
    with pytest.raises(RulesDataError, match="marked revives"):
        _loaded(lambda d: d["hero_rules"]["defeat"].update(revival_item="Mochi"))
    with pytest.raises(RulesDataError, match="stories_in_order"):
        _loaded(lambda d: d["campaign"]["stories_in_order"].reverse())
