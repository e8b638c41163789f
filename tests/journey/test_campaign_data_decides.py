"""The rules data decides Journey's campaign rules (issue 31, "Nothing in the rules data is decoration"): what a linked
Pilgrim keeps between quests, what Q10's two parts change, the standard attack the resolver plays, and whether a quest
out of the chain's order is said. Each test plays the rule on the live data, then on data with the one value changed.
Pure functions (tests/kit/journey_pure.py); the seed lines are those of ../shared/seeds/000_c58113b742c12a1f.txt."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest

from tests.kit.journey import ORDER
from tests.kit.journey_pure import Table, data
from tracker.application.commands import _start_warnings
from tracker.rulesets import journey
from tracker.rulesets.engine.data import RulesDataError

UPGRADES = {"karma_upgrades": {hero: ["good", "good"] for hero in ORDER}}  # Quest 10 gives each Pilgrim 2 (L672-L673)


def _back_to_back(change):
    return data(lambda d: change(d["campaign"]["modes"]["back-to-back"]))


def _carried(rules_data):
    table = Table(rules_data=rules_data)
    table.state["game"]["heroes"]["monkey-king"].update(good=7, bad=3)
    progress = table.ruleset.rules.carry_over({}, table.game, "q1-meeting", "victory", {"mode": "linked"})
    return progress, Table("q1-meeting", rules_data=rules_data, options={"mode": "linked"}, progress=progress)  # played again


def test_a_linked_pilgrim_keeps_what_the_data_s_back_to_back_keep_names():
    # L682: "Keep the same Good and Bad Karma Points."
    progress, next_quest = _carried(data())
    assert (progress["heroes"]["monkey-king"]["good"], next_quest.hero("monkey-king")["good"]) == (7, 7)
    progress, next_quest = _carried(_back_to_back(lambda b: b["keep"].remove("Good Karma")))
    assert "good" not in progress["heroes"]["monkey-king"]
    sheet = next_quest.hero("monkey-king")
    assert (sheet["good"], sheet["bad"]) == (0, 3)  # a fresh wheel (L224) where the data keeps no Good Karma


def test_a_keep_the_set_up_cannot_play_is_refused_at_load():
    with pytest.raises(RulesDataError, match="carries no"):
        journey.load(_back_to_back(lambda b: b["keep"].append("Turn Tokens")))
    with pytest.raises(RulesDataError, match="draws no Skill Cards"):
        journey.load(_back_to_back(lambda b: b["keep"].remove("Skill Cards in hand")))


def _part_2(rules_data):
    part_1 = Table("q10-part-1-the-lair", rules_data=rules_data, setup=UPGRADES)
    heroes = copy.deepcopy(part_1.game["heroes"])
    heroes["monk-sha"]["villagers"] = ["villager-1"]
    heroes["tripitaka"]["sutras"] = ["sutra-1", "sutra-2", "sutra-3", "sutra-4"]
    progress = {"q10_part_1": {"heroes": heroes, "initiative": list(ORDER)}}
    return Table("q10-part-2-seal-the-gate", rules_data=rules_data, progress=progress, initiative=None)


def _transition(change):
    return data(lambda d: change(d["campaign"]["q10_part_transition"]))


def test_part_2_removes_part_1_s_villager_tokens_where_the_data_says_so():
    # L1082: "Give all 4 Sutra Tokens to Tripitaka and remove any Villager Tokens collected in Part 1."
    assert _part_2(data()).hero("monk-sha")["villagers"] == []
    assert _part_2(_transition(lambda t: t.update(part1_villager_tokens_removed=False))).hero("monk-sha")["villagers"] == ["villager-1"]


def test_a_part_2_that_changes_the_pilgrims_is_refused_at_load():
    # L1041: "Make no changes to the Pilgrims' Statistics, Cards or Initiative Markers when they start Part 2"
    journey.load(data())
    with pytest.raises(RulesDataError, match="Part 2 continues Part 1"):
        journey.load(_transition(lambda t: t.update(pilgrim_stats_cards_initiative_unchanged=False)))


def test_a_standard_attack_the_resolver_cannot_play_is_refused_at_load():
    # L193: "Pilgrims attack by rolling 2 red Attack Dice and 1 white Pilgrim Die"; L492: no weapon, no Pilgrim Die
    def standard(**changed):
        return data(lambda d: d["pilgrim_rules"]["standard_attack"].update(changed))
    with pytest.raises(RulesDataError, match="1 Pilgrim Die"):
        journey.load(standard(pilgrim_die=2))
    with pytest.raises(RulesDataError, match="1 Pilgrim Die"):
        journey.load(standard(pilgrim_die_needs_weapon=False))


def test_a_quest_out_of_order_is_said_where_the_data_plays_the_quests_in_order():
    # L670: "The Quests are written as parts of a longer story, to be played one at a time, in order."
    campaign = SimpleNamespace(next_quest="q2-rescue", in_play=lambda: [])
    assert _start_warnings(campaign, "q3-village-fields", data()) == [
        "The campaign's next quest is 'q2-rescue', not 'q3-village-fields'; this session is played out of order."
    ]
    assert _start_warnings(campaign, "q3-village-fields", data(lambda d: d["campaign"].update(played_in_order=False))) == []
    assert _start_warnings(campaign, "q2-rescue", data()) == []
