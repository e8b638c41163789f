"""Descent's rules data decides more of the rules it states (issue 31, "Nothing in the rules data is decoration"): what a
hero's death costs and clears, whether progress that cannot be disrupted survives it, what angers a spirit, Sharr's
cleansing, a named monster's Stun immunity, whether a Ready's two half actions differ, the shop's chest-colour rule and
the troll ambush's once-a-turn check were copies in the code; a ruleset built from data with another value plays by that
value. Pure functions over edited data; seed lines of ../shared/seeds/004_6da044077b02a6e4.txt."""

from __future__ import annotations

import pytest

from tests.kit.pure_table import edited
from tests.kit.descent_pure import apply as _apply, ctx as _ctx
from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream
from tracker.rulesets import descent
from tracker.rulesets.descent import combat, conquest, familiars, figures, prolonged, ready, shop, spirits, threat
from tracker.rulesets.descent.setup import set_up

DATA = rulesets.get("descent").data
SHEETS = {"tahlia": {"wounds": 12, "fatigue": 4, "armor": 2}, "runewitch-astarra": {"wounds": 8, "fatigue": 5, "armor": 1}}


def _rng() -> RandomStream:
    return RandomStream(b"d" * 32)


def _game(ruleset, quest, setup=None, party=("runewitch-astarra", "tahlia")) -> dict:
    changes = set_up(_ctx(ruleset), {"quest": quest, "campaign": {"party": list(party), "options": {}}, "setup": {"hero_sheets": SHEETS, **(setup or {})}}, _rng())
    return _apply(ruleset, {}, changes)


def _death(**values):
    return edited(descent.load, DATA, lambda d: d["hero_death"].update(values))


def _cursed_astarra(ruleset) -> dict:
    """Runewitch Astarra (conquest value 2, L193) with 2 curse tokens, a cursed item equipped (its curse the third) and a dark relic."""
    game = _game(ruleset, "mists-of-time")
    return _apply(ruleset, game, [{"kind": "curses-gained", "hero": "runewitch-astarra", "count": 2, "source": "other"},
                                  {"kind": "cursed-item-equipped", "hero": "runewitch-astarra", "item": "Cursed Blade"},
                                  {"kind": "dark-relic-equipped", "hero": "runewitch-astarra", "relic": "Black Ring", "replaces": "copper"}])


def _killed(ruleset, game, choice="re-equip") -> dict:
    return conquest.hero_killed(_ctx(ruleset, game), {"hero": "runewitch-astarra", "cursed_items": [{"item": "Cursed Blade", "choice": choice}]}, None)[0]


def test_a_death_costs_the_conquest_per_curse_the_data_says():
    # L192: "The hero's conquest value is increased by 1 for each curse token on him"
    assert _killed(_death(), _cursed_astarra(_death()))["conquest_value"] == 2 + 3
    doubled = _death(conquest_per_curse=2)
    assert _killed(doubled, _cursed_astarra(doubled))["conquest_value"] == 2 + 6


def test_a_death_clears_the_curses_and_gives_back_those_of_re_equipped_items_as_the_data_says():
    # L193: "once she is killed, all of the curse tokens on her are discarded"; L162: "He receives one curse token for each
    # cursed item that he re-equips"
    assert _killed(_death(), _cursed_astarra(_death()))["curses_after"] == 1
    two_each = _death(curses_per_reequipped_item=2)
    assert _killed(two_each, _cursed_astarra(two_each))["curses_after"] == 2
    kept = _death(curses_discarded=False)
    assert _killed(kept, _cursed_astarra(kept))["curses_after"] == 3 + 1


def test_a_death_discards_the_dark_relics_where_the_data_says():
    # L165: "the only way to get rid of a dark relic normally is to die, at which point any dark relics the hero is carrying are discarded"
    for discarded, left in ((True, []), (False, ["Black Ring"])):
        ruleset = edited(descent.load, DATA, lambda d: (d["hero_death"].update(dark_relics_discarded=discarded),
                                                        d["dark_relics"].update(discarded_on_death=discarded)))
        game = _cursed_astarra(ruleset)
        game = _apply(ruleset, game, conquest.hero_killed(_ctx(ruleset, game), {"hero": "runewitch-astarra", "cursed_items": [{"item": "Cursed Blade", "choice": "discard"}]}, None))
        assert game["heroes"]["runewitch-astarra"]["dark_relics"] == left


def test_a_dead_hero_s_cursed_items_are_decided_among_the_choices_the_data_lists():
    # L162: "if the hero is killed, he must immediately either discard or re-equip any cursed items he had equipped"
    only_discard = _death(cursed_items=["discard"])
    with pytest.raises(Unprocessable, match="A dead hero's cursed items are discard, not re-equip"):
        _killed(only_discard, _cursed_astarra(only_discard))
    assert _killed(only_discard, _cursed_astarra(only_discard), "discard")["cursed_items_discarded"] == ["Cursed Blade"]


def test_progress_that_cannot_be_disrupted_survives_a_death_where_the_data_says():
    # L154: "the prolonged (Melee) 4 action cannot be disrupted, so Tahlia keeps the progress markers ... she could even
    # die, and she would still keep her progress markers"
    roll = {"hero": "tahlia", "task": "break-the-door", "trait": "melee", "difficulty": 4, "disruptable": False,
            "half_action": "order", "faces": ["enhancement", "blank", "blank"]}
    for kept, lost in ((True, []), (False, ["break-the-door:tahlia"])):
        ruleset = edited(descent.load, DATA, lambda d: d["prolonged_actions"].update(kept_across_death_when_not_disruptable=kept))
        game = _game(ruleset, "mists-of-time")
        game = _apply(ruleset, game, prolonged.roll(_ctx(ruleset, game), roll, _rng()))
        [killed, *_] = conquest.hero_killed(_ctx(ruleset, game), {"hero": "tahlia", "conquest_value": 2}, None)
        assert killed["progress_lost"] == lost


def _heart_of_darkness(angered_by):
    ruleset = edited(descent.load, DATA, lambda d: next(q for q in d["quests"] if q["id"] == "into-the-heart-of-darkness")["spirits"].update(angered_by=angered_by))
    return ruleset, _game(ruleset, "into-the-heart-of-darkness", {"spirits_zone_4": 1})


def test_a_spirit_is_angered_by_what_the_data_lists():
    # L619: "Spirits do not attack heroes unless the heroes attacked them first"; L641: the rune key taken; L655: "Each
    # spirit will attack a hero who picks up a treasure from its zone"
    ruleset, game = _heart_of_darkness(["attacked", "rune-key-taken", "treasure-taken"])
    assert spirits.anger(_ctx(ruleset, game), {"spirit": "zone-5-spirit-1", "cause": "treasure-taken"}, None)[0]["kind"] == "spirit-angered"
    ruleset, game = _heart_of_darkness(["attacked", "rune-key-taken"])
    with pytest.raises(Unprocessable, match="A spirit is not angered when treasure taken"):
        spirits.anger(_ctx(ruleset, game), {"spirit": "zone-5-spirit-1", "cause": "treasure-taken"}, None)


def test_a_spirit_attacked_turns_on_the_heroes_where_the_data_lists_attacked():
    for angered_by, angered in ((["attacked", "rune-key-taken"], True), (["rune-key-taken"], False)):
        ruleset, game = _heart_of_darkness(angered_by)
        killed = spirits.kill(_ctx(ruleset, game), {"spirit": "zone-5-spirit-1", "face": "blank"}, _rng())
        assert any(c["kind"] == "spirit-angered" for c in killed) is angered


def test_sharr_cleanses_an_activated_dark_glyph_where_the_data_says():
    # L200: "If Sharr ends her movement in the same space as an activated dark glyph, that dark glyph is removed from the
    # board and replaced with an activated normal glyph."
    for cleanses in (True, False):
        ruleset = edited(descent.load, DATA, lambda d: d["familiars"]["sharr-the-brightwing"].update(cleanses_activated_dark_glyph=cleanses))
        game = _game(ruleset, "altar-of-despair")
        game["glyphs_activated"].append("power")
        if cleanses:
            assert familiars.cleanse(_ctx(ruleset, game), {"glyph": "power"}, None) == [{"kind": "dark-glyph-cleansed", "glyph": "power", "by": "sharr-the-brightwing"}]
        else:
            with pytest.raises(Unprocessable, match="Sharr cleanses no dark glyph"):
                familiars.cleanse(_ctx(ruleset, game), {"glyph": "power"}, None)


def test_a_named_monster_is_stunned_only_where_the_data_s_stun_lets_it_be():
    # L317: "Named monsters cannot be stunned."
    for immune, stunned in ((True, False), (False, True)):
        ruleset = edited(descent.load, DATA, lambda d: next(c for c in d["conditions"] if c["id"] == "stun").update(named_monsters_immune=immune))
        game = _game(ruleset, "mists-of-time")
        placed = figures.place_monsters(_ctx(ruleset, game), {"monsters": [{"monster": "troll", "named": "basalt", "wounds": 30}], "source": "zone 5 revealed"}, None)
        game = _apply(ruleset, game, placed)
        [basalt] = [f["id"] for f in placed[0]["figures"]]
        hit = combat.attack(_ctx(ruleset, game), {"attacker": "tahlia", "target": basalt, "attack_type": "melee", "faces": {"red": ["2D 1R"]},
                                                  "abilities": [{"ability": "Stun"}]}, _rng())
        assert any(c["kind"] == "monster-tokens-placed" and c["condition"] == "stun" for c in hit) is stunned


def test_a_ready_action_s_half_actions_differ_where_the_data_says():
    # L134: "when a hero readies, he receives two different half actions, one of which must be an order half action"
    twice = {"hero": "tahlia", "half_actions": ["order", "order"], "order": "aim"}
    ruleset = edited(descent.load, DATA, lambda d: None)
    with pytest.raises(Unprocessable, match="A Ready action is 2 different half actions"):
        ready.ready(_ctx(ruleset, _game(ruleset, "mists-of-time")), twice, None)
    same_allowed = edited(descent.load, DATA, lambda d: d["ready"].update(different=False))
    assert ready.ready(_ctx(same_allowed, _game(same_allowed, "mists-of-time")), twice, None)[0]["half_actions"] == ["order", "order"]


def test_treasure_of_a_colour_is_for_sale_after_its_chest_where_the_data_says():
    # L261: "Heroes can only buy treasure cards from the shop if they've previously opened at least one chest of that color this game."
    buy = {"hero": "tahlia", "card": "Bow of Bone", "colour": "silver", "price": 0}
    ruleset = edited(descent.load, DATA, lambda d: None)
    with pytest.raises(Unprocessable, match="No silver chest has been opened this quest"):
        shop.buy_treasure(_ctx(ruleset, _game(ruleset, "mists-of-time")), buy, None)
    open_shop = edited(descent.load, DATA, lambda d: d["shop"].update(buy_treasure_after_chest_of_colour=False))
    assert shop.buy_treasure(_ctx(open_shop, _game(open_shop, "mists-of-time")), buy, None)[0]["kind"] == "treasure-bought"


def test_a_troll_ambush_is_held_to_once_a_turn_where_the_data_says_the_tracker_keeps_it():
    # L577: "Twice during this quest (and no more than once per turn), you may pay 9 threat points"
    for recorded in (True, False):
        ruleset = edited(descent.load, DATA, lambda d: next(q for q in d["quests"] if q["id"] == "mists-of-time")["troll_ambush"].update(per_turn_recorded=recorded))
        game = _game(ruleset, "mists-of-time")
        game["threat"] = 18
        game = _apply(ruleset, game, threat.spend_threat(_ctx(ruleset, game), {"purpose": "troll-ambush"}, None))
        if recorded:
            with pytest.raises(Unprocessable, match="A troll ambush was already sprung on turn 1"):
                threat.spend_threat(_ctx(ruleset, game), {"purpose": "troll-ambush"}, None)
        else:
            assert threat.spend_threat(_ctx(ruleset, game), {"purpose": "troll-ambush"}, None)[0]["kind"] == "threat-spent"
