"""Yōkai Quest's rules data decides the rules it states (issue 31, "Nothing in the rules data is decoration"): the energy
cap, the hand limit, the treasure reserve, the once-a-turn swap and consumable resource, the revival item and the actions
of an activation were copies in the code; a ruleset built from data with another value plays by that value. Pure
functions over edited data (tests/kit/pure_table.py); seed lines of ../shared/seeds/001_ad3071ee2c47775f.txt."""

from __future__ import annotations

import pytest

from tests.kit.pure_table import PureTable, edited
from tests.kit.yokai_quest import LOADOUTS, S1, YOKAI_TEST_COMPONENTS
from tests.kit.pure_table import kinds as _kinds
from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.rulesets import yokai_quest
from tracker.rulesets.engine.context import ActionContext
from tracker.rulesets.yokai_quest import combat
from tracker.rulesets.yokai_quest.plan import Plan

DATA = rulesets.get("yokai-quest").data


def _table(edit=lambda data: None) -> PureTable:
    table = PureTable(edited(yokai_quest.load, DATA, edit), S1, ["ryo", "ami"], {"abilities": LOADOUTS}, components=YOKAI_TEST_COMPONENTS)
    table.state["game"]["at_entrance"] = []  # the heroes have entered the board (L214)
    return table


def _hero_rules(**values):
    return lambda data: data["hero_rules"].update(values)


def _ryo(table, **values):
    table.state["game"]["heroes"]["ryo"].update(values)


def test_the_energy_reserve_maxes_out_where_the_data_says():
    # "Energy reserves max out at seven: once this number is reached, the extra energy is lost" (L232)
    for edit, kept in ((lambda d: None, 7), (_hero_rules(energy_max=9), 9)):
        table = _table(edit)
        _ryo(table, energy=6)
        table.act({"type": "draw-energy", "hero": "ryo", "spheres": 3})
        assert table.game["heroes"]["ryo"]["energy"] == kept


def test_the_treasure_reserve_is_shared_out_when_it_reaches_what_the_data_says():
    # "Each time the treasure reserve reaches 5 tokens, each hero takes a card from the Treasure deck" (L431)
    for edit, found in ((lambda d: None, True), (lambda d: d["treasure_rules"].update(reserve_draw_at=6), False)):
        table = _table(edit)
        table.state["game"]["treasure_reserve"] = 4
        _ryo(table, hand=["Mochi"])
        changes = table.act({"type": "use-item", "hero": "ryo", "actions": 0, "item": "Mochi", "treasure_tokens": 1})
        assert ("treasure-found" in _kinds(changes)) is found


def test_the_hand_holds_as_many_treasure_cards_as_the_data_says():
    # "Each hero may possess no more than four treasure cards in hand" (L433)
    four = ["Tenpura", "Gyoza", "Nigiri", "Onigiri"]
    for edit, refused in ((lambda d: None, True), (_hero_rules(hand_limit=5), False)):
        table = _table(edit)
        _ryo(table, hand=list(four), equipped={"charm": "Omamori", "enchantment": None})
        unequip = {"type": "unequip", "hero": "ryo", "card": "Omamori"}
        if refused:
            with pytest.raises(Unprocessable, match="hand is full"):
                table.act(unequip)
        else:
            assert _kinds(table.act(unequip)) == ["item-unequipped"]


def test_equipment_is_swapped_as_often_a_turn_as_the_data_says():
    # "An equipped item may be swapped for one in hand only once per turn" (L435)
    for edit, refused in ((lambda d: None, True), (_hero_rules(equipment_swaps_per_turn=2), False)):
        table = _table(edit)
        _ryo(table, hand=["Tsuru Kanzashi"], equipped={"charm": "Omamori", "enchantment": None})
        table.state["game"]["swapped_this_turn"] = ["ryo"]
        swap = {"type": "equip", "hero": "ryo", "card": "Tsuru Kanzashi"}
        if refused:
            with pytest.raises(Unprocessable, match="already swapped"):
                table.act(swap)
        else:
            assert "item-equipped" in _kinds(table.act(swap))


def test_the_revival_item_is_the_one_the_data_names():
    # the Ikikaeru Rōsoku brings a defeated hero back "with half the maximum health points" (L473)
    def mochi_revives(data):
        data["hero_rules"]["defeat"].update(revival_item="Mochi")
        for card in next(d for d in data["decks"] if d["id"] == "treasure")["known_cards"]:
            card["revives"] = card["name"] == "Mochi"  # the card the data marks as the revival item (heroes.require_revival_item)

    for edit, item in ((lambda d: None, "Ikikaeru Rōsoku"), (mochi_revives, "Mochi")):
        table = _table(edit)
        _ryo(table, hand=["Ikikaeru Rōsoku", "Mochi"])
        table.state["game"]["heroes"]["ami"].update(defeated=True, health=0)
        with pytest.raises(Unprocessable, match="does not bring heroes back"):
            table.act({"type": "use-item", "hero": "ryo", "actions": 0, "item": "Mochi" if item != "Mochi" else "Ikikaeru Rōsoku", "revive": "ami"})
        assert "hero-revived" in _kinds(table.act({"type": "use-item", "hero": "ryo", "actions": 0, "item": item, "revive": "ami"}))


def test_a_hero_takes_as_many_actions_an_activation_as_their_record_says():
    # "the hero may take up to two actions" (L398)
    run = {"type": "move", "hero": "ryo", "movement": "run"}
    for edit, runs in ((lambda d: None, 2), (lambda d: next(c for c in d["characters"] if c["id"] == "ryo").update(actions_per_activation=3), 3)):
        table = _table(edit)
        for _ in range(runs):
            table.act(run)
        with pytest.raises(Unprocessable, match=f"0 of {runs} actions left"):
            table.act(run)


def test_a_defeated_yokai_adds_as_many_treasure_tokens_as_the_data_says():
    # "Each time a yōkai is defeated [...] a treasure token is added to the treasure reserve" (L258)
    for edit, tokens in ((lambda d: None, 1), (lambda d: d["treasure_rules"].update(token_per_defeated_yokai=2), 2)):
        table = _table(edit)
        table.state["game"].setdefault("in_play", {})["hone-bushi"] = 1
        ctx = ActionContext(table.state, table.ruleset, table.ruleset.decks({}), table.ruleset.dice({}), {})
        plan = Plan(ctx)
        combat.defeat_yokai(plan, "hone-bushi", None)
        assert plan.game["treasure_reserve"] == tokens


def test_each_hero_chooses_as_many_abilities_as_the_data_says():
    # "Choose four abilities among those suitable for the hero" (L145): the command checks it, not the schema alone
    _table()
    with pytest.raises(Unprocessable, match="Choose 3 different abilities for ryo"):
        _table(_hero_rules(abilities_chosen=3))
    three = {"ryo": LOADOUTS["ryo"][:3], "ami": LOADOUTS["ami"][:3]}
    ruleset = edited(yokai_quest.load, DATA, _hero_rules(abilities_chosen=3))
    assert PureTable(ruleset, S1, ["ryo", "ami"], {"abilities": three}, components=YOKAI_TEST_COMPONENTS).game["heroes"]["ryo"]["abilities"] == three["ryo"]
