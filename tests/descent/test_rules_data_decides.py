"""Descent's rules data decides the rules it states (issue 31, "Nothing in the rules data is decoration"): Sharr's heal,
the progress a power enhancement gives a prolonged action and the great stone doors' dice were copies in the code; a
ruleset built from data with another value plays by that value. Pure functions over edited data; seed lines of
../shared/seeds/004_6da044077b02a6e4.txt."""

from __future__ import annotations

import pytest

from tests.kit import descent_pure
from tests.kit.pure_table import edited
from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream
from tracker.rulesets import descent
from tracker.rulesets.descent import conditions, prolonged, wounds, zorek

DATA = rulesets.get("descent").data


_ctx, _game, _apply = descent_pure.ctx, descent_pure.game, descent_pure.apply


def test_sharr_heals_the_wounds_the_data_says():
    # L200: "If Sharr ends her movement in the same space as a friendly figure, that figure recovers 2 wounds"
    for heals in (2, 3):
        ruleset = edited(descent.load, DATA, lambda d: d["familiars"]["sharr-the-brightwing"].update(heals=heals))
        game = _game(ruleset, "altar-of-despair")
        game["heroes"]["aurim"].update(wounds=1, max_wounds=10)
        ctx = _ctx(ruleset, game)
        [recovered] = wounds.recover(ctx, {"hero": "aurim", "source": "sharr"}, RandomStream(b"d" * 32))
        assert recovered["wounds"] == heals
        with pytest.raises(Unprocessable, match=f"Sharr heals {heals} wounds"):
            wounds.recover(ctx, {"hero": "aurim", "source": "sharr", "wounds": heals + 1}, RandomStream(b"d" * 32))


def test_each_power_enhancement_gives_the_progress_the_data_says():
    # "For every power enhancement you roll on your prolonged action roll, you gain 1 progress marker" (L149)
    roll = {"hero": "tahlia", "task": "search-the-pit", "trait": "magic", "trait_value": 2, "difficulty": 5, "disruptable": False,
            "half_action": "order", "faces": ["enhancement", "blank"]}
    for per, progress in ((1, 1), (2, 2)):
        ruleset = edited(descent.load, DATA, lambda d: d["prolonged_actions"].update(progress_per_enhancement=per))
        changes = prolonged.roll(_ctx(ruleset, _game(ruleset, "altar-of-despair")), roll, RandomStream(b"d" * 32))
        assert next(c for c in changes if c["kind"] == "prolonged-progress-made")["progress"] == progress


def test_the_stone_doors_roll_the_dice_and_close_again_as_the_data_says():
    # "at the end of each turn, roll a power die for each closed stone door. On a blank result, the door opens again and
    # can no longer be closed for the rest of the game" (L691)
    def stone_doors(**values):
        return edited(descent.load, DATA, lambda d: next(q for q in d["quests"] if q["id"] == "altar-of-despair")["zorek"]["stone_doors"].update(values))

    ruleset = stone_doors(per_closed_door=2)
    game = _game(ruleset, "altar-of-despair")
    for door in ("east", "west"):
        game = _apply(ruleset, game, zorek.close_stone_door(_ctx(ruleset, game), {"hero": "tahlia", "door": door}, None))
    rolled = zorek.roll_stone_doors(_ctx(ruleset, game), {"faces": ["surge", "surge", "surge", "blank"]}, RandomStream(b"d" * 32))
    assert len(rolled[0]["roll"]["results"]["power"]) == 4 and rolled[-1]["opened"] == ["west"]
    game = _apply(ruleset, game, rolled)
    with pytest.raises(Unprocessable, match="can no longer close"):
        zorek.close_stone_door(_ctx(ruleset, game), {"hero": "aurim", "door": "west"}, None)
    reclosing = stone_doors(closes_again=True)
    game = _apply(reclosing, game, [])
    assert zorek.close_stone_door(_ctx(reclosing, game), {"hero": "aurim", "door": "west"}, None)[0]["kind"] == "stone-door-closed"


def test_frost_rolls_the_dice_and_sheds_the_tokens_the_data_says():
    # "he must roll a power die for each frost token on the hero. For each power surge rolled, one frost token is
    # discarded" (L195)
    def frosted(**values):
        ruleset = edited(descent.load, DATA, lambda d: d["frost"].update(values))
        game = _game(ruleset, "altar-of-despair")
        game = _apply(ruleset, game, conditions.gain_frost(_ctx(ruleset, game), {"hero": "aurim", "count": 2}, None))
        return ruleset, game

    ruleset, game = frosted()
    with pytest.raises(Unprocessable, match=r"Roll one power die per frost token \(2\)"):
        conditions.frost_turn_start(_ctx(ruleset, game), {"hero": "aurim", "faces": ["surge"]}, RandomStream(b"d" * 32))
    assert conditions.frost_turn_start(_ctx(ruleset, game), {"hero": "aurim", "faces": ["surge", "blank"]}, RandomStream(b"d" * 32))[-1]["count"] == 1
    ruleset, game = frosted(start_of_turn_dice_per_token=2, surge_removes=2)
    shaken = conditions.frost_turn_start(_ctx(ruleset, game), {"hero": "aurim", "faces": ["surge", "blank", "blank", "blank"]}, RandomStream(b"d" * 32))
    assert len(shaken[0]["roll"]["results"]["power"]) == 4 and shaken[-1]["count"] == 2


def test_frost_is_checked_only_after_what_the_data_lists():
    # after a weapon attack (L195), a shield exhausted or 5+ wounds before armour (L220)
    check = {"hero": "aurim", "item": "sword", "trigger": "shield-exhausted", "faces": ["blank"]}
    for checks, refused in ((["weapon-attack", "shield-exhausted", "armour-hit"], False), (["weapon-attack"], True)):
        ruleset = edited(descent.load, DATA, lambda d: d["frost"].update(checks=checks))
        game = _game(ruleset, "altar-of-despair")
        game = _apply(ruleset, game, conditions.gain_frost(_ctx(ruleset, game), {"hero": "aurim", "count": 1}, None))
        if refused:
            with pytest.raises(Unprocessable, match="Frost is not checked after shield-exhausted"):
                conditions.frost_check(_ctx(ruleset, game), check, RandomStream(b"d" * 32))
        else:
            assert conditions.frost_check(_ctx(ruleset, game), check, RandomStream(b"d" * 32))[-1]["kind"] == "item-shattered"
