"""Descent's rules data values the code can play one way only are checked when the data loads (issue 31, "Nothing in the
rules data is decoration"): the other value would need a rule the book never states, so data that holds one is refused
then, naming the field and what the tracker plays, never in the middle of a session. The published data and every
archived version load; each edited value is refused by the module of its rule, as the pinned version gathers the checks
of the parts it records (``check_rules_data`` in versions.py). Seed lines of ../shared/seeds/004_6da044077b02a6e4.txt."""

from __future__ import annotations

import pytest

from tests.kit.pure_table import edited
from tracker import rulesets
from tracker.rulesets import descent
from tracker.rulesets.engine.data import RulesDataError

DATA = rulesets.get("descent").data


def _quest(data, quest_id):
    return next(q for q in data["quests"] if q["id"] == quest_id)


def _glyph(data, glyph_id):
    return next(g for g in data["dark_glyphs"] if g["id"] == glyph_id)


EDITS = {
    # L105: "removing any one other card of his choice from the deck"
    "treachery.swap.removals_per_card_added": lambda d: d["treachery"]["swap"].update(removals_per_card_added=2),
    # L132: "At the end of the game, the overlord deck is restored to its original condition"
    "treachery.resets_at_quest_end": lambda d: d["treachery"].update(resets_at_quest_end=False),
    # L123, L125: "When this glyph is activated, as well as each time a hero uses it to move to or from town"
    "dark_glyphs/summoning.triggers": lambda d: _glyph(d, "summoning").update(triggers=["activated"]),
    "dark_glyphs/sundered.triggers": lambda d: _glyph(d, "sundered").update(triggers=["activated"]),
    # L125: "the overlord may draw two cards": one draw per trigger
    "dark_glyphs/power.draws_per_trigger": lambda d: _glyph(d, "power").update(draws_per_trigger=2),
    # L272: "does each hero draw 2 copper treasure cards? A: Yes."
    "chests.each_hero_draws_listed_treasure": lambda d: d["chests"].update(each_hero_draws_listed_treasure=False),
    # L165, stated twice in the data: the two must agree
    "dark_relics.discarded_on_death": lambda d: d["dark_relics"].update(discarded_on_death=False),
    # L153: "it immediately fails and you discard all progress markers you've accumulated for it so far"
    "prolonged_actions.disruption_discards_progress": lambda d: d["prolonged_actions"].update(disruption_discards_progress=False),
    # L704: the altars fall to the quest's prolonged action worked on each altar
    "quests/altar-of-despair.altars.destroyed_by": lambda d: _quest(d, "altar-of-despair")["altars"].update(destroyed_by="activate-altar"),
    # L186, L247: "Each hero may only drink one potion (of any type) each turn"
    "potions.per_hero_per_turn": lambda d: d["potions"].update(per_hero_per_turn=2),
    # L259: "sell it for half value in the town shop"
    "shop.chest_treasure_sold_at": lambda d: d["shop"].update(chest_treasure_sold_at="full"),
    # L192-L193: a hero brought to 0 wounds is killed
    "combat.hero_killed_at_zero_wounds": lambda d: d["combat"].update(hero_killed_at_zero_wounds=False),
    # L131-L132 (the data's reading): a hero starts each quest whole
    "combat.heroes_start_whole": lambda d: d["combat"].update(heroes_start_whole=False),
    # L301: "the attacker must spend X power surges or else the attack misses"
    "combat.abilities.fear.else": lambda d: d["combat"]["abilities"]["fear"].update({"else": "half damage"}),
    # L224: "A figure is limited to one Leap attack per turn"
    "combat.abilities.leap.once_per_turn": lambda d: d["combat"]["abilities"]["leap"].update(once_per_turn=False),
}


def test_the_published_data_and_every_archived_version_load():
    assert descent.load(DATA).data["version"] == DATA["version"]
    assert [r.data["version"] for r in rulesets.archived("descent")]  # each built by descent.load, its checks passed


@pytest.mark.parametrize("field", sorted(EDITS))
def test_data_the_tracker_cannot_play_is_refused_when_it_loads_naming_the_field(field):
    with pytest.raises(RulesDataError, match=f"Descent rules data {DATA['version']}: {field} is .*, but the tracker plays only"):
        edited(descent.load, DATA, EDITS[field])
