"""Kung Fu Panda's rules data decides the rules it states (issue 31, "Nothing in the rules data is decoration"): each
rule the code kept a copy of is read from the data now, and a ruleset built from data with another value plays by it.
Pure functions over edited data (tests/kit/pure_table.py); the seed lines are those of
../shared/seeds/003_be4d54eb68938adf.txt."""

from __future__ import annotations

import pytest

from tests.kit.pure_table import PureTable, edited
from tests.kit.pure_table import kinds as _kinds
from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets import kung_fu_panda
from tracker.rulesets.kung_fu_panda import rickshaw, setup as kfp_setup

DATA = rulesets.get("kung-fu-panda").data
SETUP = {
    "start_tile": "t",
    "spawn_points": {"1": "n", "2": "q", "3": "R", "4": "d", "5": "L", "6": "O"},
    "enemies": {"t": {"wolf-spearman": 1}},
    "special_moves": {"po": "Card A", "tigress": "Card B"},
}


def _character(data, hero):
    return next(c for c in data["characters"] if c["id"] == hero)


def _table(edit=lambda data: None, quest="m1-1", setup=SETUP, options=None) -> PureTable:
    return PureTable(edited(kung_fu_panda.load, DATA, edit), quest, ["po", "tigress"], setup, {"length": "single", **(options or {})})


def _in_a_round(edit=lambda data: None, **kw) -> PureTable:
    table = _table(edit, **kw)
    table.act({"type": "start-round"})
    return table


def test_a_hero_starts_on_the_highest_health_of_their_own_board():
    # "Heroes start on the highest health number on their board (usually 4)" (L130)
    assert _table().game["heroes"]["tigress"]["health"] == 4
    table = _table(lambda d: _character(d, "tigress").update(starting_health=3))
    assert (table.game["heroes"]["tigress"]["health"], table.game["heroes"]["po"]["health"]) == (3, 4)


def test_a_revived_hero_comes_back_to_their_full_health():
    # "Revived heroes move their health counter back up to full health" (L143)
    def stronger(d):
        _character(d, "tigress").update(starting_health=5, max_health=5)

    table = _table(stronger)
    changes = table.act({"type": "round-summary", "damage": {"tigress": 5}, "revived": ["tigress"]})
    assert next(c for c in changes if c["kind"] == "hero-revived")["health"] == 5
    changes = _table().act({"type": "round-summary", "damage": {"tigress": 4}, "revived": ["tigress"]})
    assert next(c for c in changes if c["kind"] == "hero-revived")["health"] == 4


def test_each_claws_moves_the_counter_as_many_spaces_as_the_data_says():
    # "For each Claws result on the Action Dice, the counter moves one space clockwise" (L120)
    table = _in_a_round()
    table.act({"type": "roll", "hero": "po", "faces": ["Claws", "Punch", "Punch", "Punch"]})
    assert _kinds(table.act({"type": "resolve-claws", "hero": "po", "spaces": [{"space": "blank"}]})) == ["dial-advanced"]
    table = _in_a_round(lambda d: d["destiny"].update(moves_per_claws=2))
    table.act({"type": "roll", "hero": "po", "faces": ["Claws", "Punch", "Punch", "Punch"]})
    with pytest.raises(Unprocessable, match="name 2 dial spaces"):
        table.act({"type": "resolve-claws", "hero": "po", "spaces": [{"space": "blank"}]})
    table.act({"type": "resolve-claws", "hero": "po", "spaces": [{"space": "blank"}, {"space": "blank"}]})
    assert table.game["heroes"]["po"]["dial"] == 2
    summarised = _table(lambda d: d["destiny"].update(moves_per_claws=2))
    summarised.act({"type": "round-summary", "claws": {"tigress": 3}})
    assert summarised.game["heroes"]["tigress"]["dial"] == 6


def test_enemies_on_the_tile_cost_the_extra_moves_the_data_says():
    # "a hero moving to an adjacent tile requires one additional Move result for each enemy present" (L95)
    table = _in_a_round()
    table.act({"type": "roll", "hero": "tigress", "faces": ["Move", "Move", "Move", "Punch"]})
    table.act({"type": "spend", "heroes": {"tigress": ["Move", "Move"]}, "for": "move", "to": "n"})
    table = _in_a_round(lambda d: d["costs"].update(extra_move_per_enemy_on_tile=2))
    table.act({"type": "roll", "hero": "tigress", "faces": ["Move", "Move", "Move", "Punch"]})
    with pytest.raises(Unprocessable, match="does not pay"):
        table.act({"type": "spend", "heroes": {"tigress": ["Move", "Move"]}, "for": "move", "to": "n"})
    table.act({"type": "spend", "heroes": {"tigress": ["Move", "Move", "Move"]}, "for": "move", "to": "n"})
    assert table.game["heroes"]["tigress"]["tile"] == "n"


def test_claws_come_first_because_the_round_s_data_says_so():
    # "If a player rolls any Claws results, the player must IMMEDIATELY stop and spend these dice results" (L86)
    spend = {"type": "spend", "heroes": {"tigress": ["Punch"]}, "for": "knock-out", "enemy": "wolf-spearman"}
    table = _in_a_round()
    table.act({"type": "roll", "hero": "tigress", "faces": ["Claws", "Punch", "Kick", "Kick"]})
    with pytest.raises(Unprocessable, match="resolve the Claws"):
        table.act(spend)
    table = _in_a_round(lambda d: d["round"].update(claws_first=False))
    table.act({"type": "roll", "hero": "tigress", "faces": ["Claws", "Punch", "Kick", "Kick"]})
    assert "enemy-knocked-out" in _kinds(table.act(spend))


def test_reviving_needs_the_same_tile_where_the_data_says_so():
    # "To revive a fellow hero from a KO, you must be on the same scene tile and spend 2x Chi results" (L142)
    apart = {**SETUP, "start_tile": None, "tiles": {"po": "t", "tigress": "n"}}
    revive = {"type": "spend", "heroes": {"po": ["Chi", "Chi"]}, "for": "revive", "hero": "tigress"}
    for edit, refused in ((lambda d: None, True), (lambda d: d["health"].update(revive_same_tile=False), False)):
        table = _table(edit, setup=apart)
        table.act({"type": "round-summary", "damage": {"tigress": 4}})
        table.act({"type": "start-round"})
        table.act({"type": "roll", "hero": "po", "faces": ["Chi", "Chi", "Kick", "Kick"]})
        if refused:
            with pytest.raises(Unprocessable, match="not KO'd on this tile"):
                table.act(revive)
        else:
            table.act(revive)
            assert table.game["heroes"]["tigress"]["ko"] is False


def test_po_regains_what_each_chi_gives():
    # Po: "spend one of the Chi results you have rolled to regain one health" (L172)
    table = _table(lambda d: _character(d, "po")["ability"].update(gives={"health": 2}))
    table.act({"type": "round-summary", "damage": {"po": 3}})
    table.act({"type": "start-round"})
    table.act({"type": "roll", "hero": "po", "faces": ["Chi", "Kick", "Kick", "Kick"]})
    table.act({"type": "spend", "heroes": {"po": ["Chi"]}, "for": "heal"})
    assert table.game["heroes"]["po"]["health"] == 3


def test_heroes_never_combine_dice_for_what_the_data_says():
    # "Special moves are the only exception to this" (L99); "You may not combine dice results with other players to use
    # special moves" (L176)
    special = {"type": "spend", "heroes": {"po": ["Chi"], "tigress": ["Chi"]}, "for": "special-move", "card": "Card A"}
    for edit, refused in ((lambda d: None, True), (lambda d: d["combining"].update(never_for=[]), False)):
        table = _in_a_round(edit)
        table.act({"type": "roll", "hero": "po", "faces": ["Chi", "Kick", "Kick", "Kick"]})
        table.act({"type": "roll", "hero": "tigress", "faces": ["Chi", "Kick", "Kick", "Kick"]})  # 2 Chi together
        if refused:
            with pytest.raises(Unprocessable, match="own dice only"):
                table.act(special)
        else:
            assert "special-move-used" in _kinds(table.act(special))


def test_the_mode_s_data_says_how_earned_cards_come():
    # earned cards: Young Masters "choose one card" (L205), Awesome "deal each player a Special Move card" (L209)
    adventure = {"length": "adventure"}
    assert [kfp_setup._how_received(DATA, adventure, mode) for mode in ("standard", "young-masters", "awesome")] == ["drawn", "chosen", "dealt"]
    assert kfp_setup._how_received(DATA, {"length": "single"}, "awesome") == "drawn"
    chosen = edited(kung_fu_panda.load, DATA, lambda d: d["modes"]["standard"].update(special_moves_earned="chosen"))
    assert kfp_setup._how_received(chosen.data, adventure, "standard") == "chosen"


def test_the_mode_s_data_says_when_pause_actions_may_be_taken():
    # Young Masters "may use 'Pause Actions' at any point during a mission" (L202)
    table = _in_a_round()
    assert "pause" not in [e["type"] for e in table.ruleset.rules.allowed("m1-1", table.game, 1, ["pause", "spend"])]
    with pytest.raises(Unprocessable, match="in the pause between rounds"):
        table.act({"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Chi"]}})
    table = _in_a_round(lambda d: d["modes"]["standard"].update(pause_actions_any_time=True))
    assert "pause" in [e["type"] for e in table.ruleset.rules.allowed("m1-1", table.game, 1, ["pause", "spend"])]


def test_a_mission_is_lost_only_in_the_ways_its_data_lists():
    # "If all players are KO'd and cannot be revived, the game is lost" (L194); time's up (L193); Young Masters
    # "cannot lose by running out of rounds" (L203)
    assert _table().act({"type": "round-summary", "damage": {"po": 4, "tigress": 4}})[-1]["kind"] == "quest-decided"
    without_ko = _table(lambda d: next(q for q in d["quests"] if q["id"] == "m1-1").update(loss_conditions=["times-up", "mission-failure"]))
    assert "mission-lost" not in _kinds(without_ko.act({"type": "round-summary", "damage": {"po": 4, "tigress": 4}}))

    def three_rounds(table):
        for _ in range(3):
            changes = table.act({"type": "round-summary"})
        return changes

    assert "mission-lost" in _kinds(three_rounds(_table()))
    untimed = _table(lambda d: next(q for q in d["quests"] if q["id"] == "m1-1").update(loss_conditions=["full-ko", "mission-failure"]))
    assert "mission-lost" not in _kinds(three_rounds(untimed))
    unlimited = _table(lambda d: d["modes"]["standard"].update(round_limit=False))
    assert "mission-lost" not in _kinds(three_rounds(unlimited))


class _Rickshaw:
    """What rickshaw.step reads of a plan: the game, the mission, and add (folded by the game's own fold)."""

    def __init__(self, mission, game):
        self.mission, self.game, self.changes = mission, game, []

    def add(self, change):
        self.changes.append(change)
        self.game = rulesets.get("kung-fu-panda").rules.fold(self.game, change)


def test_the_kitchen_lost_off_the_line_is_the_tile_the_mission_s_data_names():
    # 1.3: "If the Kitchen tile reaches the beginning of the line, it will be lost" (L291)
    def chase(kitchen):
        mission = {**next(q for q in DATA["quests"] if q["id"] == "m1-3")}
        mission["line"] = {**mission["line"], "kitchen": kitchen}
        game = {"line": ["a", "b", "c"], "figures": {"wolf-boss": "c"}, "enemies": {}, "heroes": {}, "dumplings": False}
        plan = _Rickshaw(mission, game)
        rickshaw.step(plan, "forward")
        return [c["kind"] for c in plan.changes]

    assert chase("b") == ["tile-cycled", "kitchen-lost"]
    assert chase("J") == ["tile-cycled"]


def _mission(mission):
    return next(q for q in DATA["quests"] if q["id"] == mission)


def test_tai_lung_is_wounded_with_combined_dice_where_his_data_says_so():
    # "the cost to have any effect on him" (L154-L156): 2 players, 5x Chi and 1x Punch, here paid by Po and Tigress together
    wound = {"type": "spend", "heroes": {"po": ["Chi"] * 3, "tigress": ["Chi", "Chi", "Punch"]}, "for": "wound-tai-lung", "to": "T"}

    def showdown(edit=lambda d: None):
        table = _in_a_round(edit, quest="m3-3", setup={"start_tile": "j", "figures": {"tai-lung": "N"}, "special_moves": SETUP["special_moves"]})
        table.act({"type": "roll", "hero": "po", "faces": ["Chi"] * 4})
        table.act({"type": "roll", "hero": "tigress", "faces": ["Chi", "Chi", "Punch", "Punch"]})
        table.act({"type": "spend", "heroes": {"po": ["Chi"] * 4, "tigress": ["Chi", "Chi"]}, "for": "token", "token": "dragon-scroll"})
        table.act({"type": "roll", "hero": "po", "faces": ["Claws", "Chi", "Chi", "Chi"]})
        table.act({"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "to": "j"}]})  # Tai Lung comes to the heroes
        table.act({"type": "roll", "hero": "tigress", "faces": ["Chi", "Chi"]})
        return table

    assert "tai-lung-wounded" in _kinds(showdown().act(wound))
    with pytest.raises(Unprocessable, match="one hero's own dice"):
        showdown(lambda d: _character(d, "tai-lung").update(affect_cost_combinable=False)).act(wound)


def test_a_gong_moves_its_figure_between_the_places_the_mission_s_data_names():
    # 2.2: "moves 1x Ox Grunt on the guard wall to the tile containing spawn point 6 OR moves 1x Ox Grunt from spawn point
    # 6 to the guard wall" (L334)
    setup = {"start_tile": "I", "end_tile": "t", "guard_wall": "c", "spawn_points": {"5": "p", "6": "O"}, "enemies": {"c": {"ox-grunt": 1}},
             "special_moves": SETUP["special_moves"]}

    def strike(to, edit=lambda d: None):
        table = _in_a_round(edit, quest="m2-2", setup=setup)
        table.act({"type": "roll", "hero": "po", "faces": ["Chi", "Punch", "Kick", "Move"]})
        return table.act({"type": "spend", "heroes": {"po": ["Chi", "Punch"]}, "for": "token", "token": "gong", "to": to})[-1]

    assert strike("O") == {"kind": "ox-grunt-moved", "from": "c", "to": "O", "count": 1, "cause": "gong"}  # spawn point 6
    to_five = lambda d: next(q for q in d["quests"] if q["id"] == "m2-2")["gongs"].update(between=["guard-wall", "spawn-point-5"])
    with pytest.raises(Unprocessable, match=r"not to Flagstones 2 \(O\)"):
        strike("O", to_five)
    assert strike("p", to_five)["to"] == "p"  # spawn point 5


def test_an_enemy_counts_toward_a_tile_s_limit_unless_its_data_says_it_does_not():
    # "Tai Lung, Wolf Boss and Ox Grunts do not count towards a tile's enemy limit" (L126); 1.1's limit is 3 (L256)
    def spawned(edit=lambda d: None):
        table = _in_a_round(edit, setup={**SETUP, "enemies": {"n": {"wolf-spearman": 3}}})
        table.act({"type": "roll", "hero": "po", "faces": ["Claws", "Punch", "Punch", "Punch"]})
        changes = table.act({"type": "resolve-claws", "hero": "po", "spaces": [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 1}]})
        return [c.get("reason", c["kind"]) for c in changes if c["kind"] in ("enemy-spawned", "spawn-skipped")]

    assert spawned() == ["tile-full"]
    assert spawned(lambda d: _character(d, "wolf-spearman").update(counts_toward_tile_limit=False)) == ["enemy-spawned"]


@pytest.mark.parametrize("edit, says", [
    (lambda d: d["combining"].update(same_tile=False), "combine dice on their one tile"),
    (lambda d: d["round"].update(spends_all_at_once=False), "whole cost at once"),
    (lambda d: d["round"].update(pool_cleared_at_round_end=False), "clears every dice pool"),
    (lambda d: next(q for q in d["quests"] if q["id"] == "m1-2")["pause"].update(totals="per hero"), "over the table"),
    (lambda d: _character(d, "crane")["ability"].update(replaces="move-results"), "whole cost"),
    (lambda d: next(q for q in d["quests"] if q["id"] == "m2-2")["gongs"].update(moves="wolf-spearman"), "an Ox Grunt's move"),
    (lambda d: next(q for q in d["quests"] if q["id"] == "m2-2")["gongs"].update(between=["guard-wall", "kitchen"]), "between two places"),
], ids=["same_tile", "spends_all_at_once", "pool_cleared_at_round_end", "totals", "replaces", "moves", "between"])
def test_rules_data_the_code_can_play_only_one_way_is_refused_at_load(edit, says):
    # L98 (same tile), L77 (all at once), L213 (pools cleared), L258/L346 (a pause's dice over the table), L163 (Crane's
    # Chi for all other results), L334 (a gong moves an Ox Grunt): the rules' modules play each only as the book says
    kung_fu_panda.load(dict(DATA))
    with pytest.raises(RulesDataError, match=says):
        edited(kung_fu_panda.load, DATA, edit)
