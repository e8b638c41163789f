"""Descent's rules as pure functions: treachery set-up, threat, conquest, prolonged actions and the fold,
called directly with an ActionContext (no database, no API)."""

from __future__ import annotations

import pytest

from tracker.core import decks

from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream
from tracker.rulesets.descent import conquest, glyphs, prolonged, sides, summoning, threat, zorek
from tracker.rulesets.descent.setup import opening_hand, set_up
from tracker.rulesets.descent.fold import fold
from tracker.rulesets.engine.ruleset import ActionContext

DESCENT = rulesets.get("descent")
BASE_DECK = ["Aim", "Gust of Wind", "Hordes of the Things", "Dodge", "Dark Charm"] + [f"Base card {n}" for n in range(1, 16)]
EVANS_PURCHASES = [
    {"card": "Dance of the Monkey God", "remove": "Aim"},
    {"card": "Dark Power", "remove": "Gust of Wind"},
    {"card": "Time Slips Away", "remove": "Hordes of the Things"},
]


def _rng() -> RandomStream:
    return RandomStream(b"descent pure rules test seed")


def _ctx(game=None, turn=1, cards=BASE_DECK, options=None) -> ActionContext:
    components = {}
    overlord = decks.new_deck("overlord", cards, None, False)
    state = {"decks": {"overlord": overlord}, "turn": turn, "game": game or {}}
    return ActionContext(state, DESCENT, DESCENT.decks(components), DESCENT.dice(components), components)


def _set_up(quest, party=("runewitch-astarra", "aurim"), setup=None, options=None) -> list[dict]:
    params = {"quest": quest, "campaign": {"party": list(party), "options": options or {}}, "setup": setup or {}}
    return set_up(_ctx(), params, _rng())


def _game(quest, party=("runewitch-astarra", "aurim"), setup=None) -> dict:
    game: dict = {}
    for change in _set_up(quest, party, setup):
        if change["kind"] in DESCENT.rules.events:
            game = fold(game, change)
    return game


def _apply(game: dict, changes: list[dict]) -> dict:
    for change in changes:
        if change["kind"] in DESCENT.rules.events:
            game = fold(game, change)
    return game


# -- treachery ----------------------------------------------------------------------------------------------------


def test_evans_purchase_leaves_e0_t3_m2_and_an_opening_hand_of_five():
    changes = _set_up("the-trapped-ruins", setup={"starting_conquest": 8, "purchases": EVANS_PURCHASES})
    swaps = [c for c in changes if c["kind"] == "treachery-card-swapped"]
    assert [(s["added"], s["colour"], s["cost"], s["removed"]) for s in swaps] == [
        ("Dance of the Monkey God", "trap", 3, "Aim"), ("Dark Power", "event", 1, "Gust of Wind"), ("Time Slips Away", "event", 1, "Hordes of the Things")]
    assert swaps[-1]["remaining"] == {"event": 0, "trap": 3, "monster": 2}
    hand = next(c for c in changes if c["kind"] == "opening-hand-set")
    assert (hand["unspent"], hand["hand_size"], hand["wasted"]) == (5, 5, 1)
    drawn = [card for c in changes if c["kind"] == "drawn" for card in c["cards"]]
    assert len(drawn) == 5


@pytest.mark.parametrize("unspent, size", [(0, 3), (1, 3), (3, 4), (10, 8), (12, 8)])
def test_the_opening_hand_is_three_plus_one_per_two_unspent_at_most_eight(unspent, size):
    hand = opening_hand(_ctx(), unspent)
    assert hand["hand_size"] == size and hand["capped"] == (3 + unspent // 2 > 8)


@pytest.mark.parametrize("setup, title", [
    ({"purchases": [{"card": "Dance of the Monkey God", "remove": "Aim"}, {"card": "Dance of the Monkey God", "remove": "Dodge"}]}, "Not enough trap treachery"),
    ({"purchases": [{"card": "Dark Power", "colour": "trap", "remove": "Aim"}]}, "'Dark Power' is bought with event treachery, not trap"),
    ({"purchases": [{"card": "Dark Power"}]}, "Name the card that 'Dark Power' replaces"),
    ({"dark_glyphs": [{"glyph": "summoning", "paid": {"event": 2}}]}, "A summoning dark glyph is paid with monster (red) treachery"),
])
def test_a_set_up_the_rules_forbid_is_refused(setup, title):
    with pytest.raises(Unprocessable) as error:
        _set_up("thing-in-the-pit", setup=setup)
    assert error.value.title.startswith(title)


def test_dark_glyphs_cost_two_of_their_colour_and_join_the_pool():
    game = _game("altar-of-despair", setup={"dark_glyphs": [{"glyph": "summoning"}, {"glyph": "power"}]})
    assert game["treachery"]["remaining"] == {"event": 4, "trap": 2, "monster": 2}
    assert game["glyph_pool"] == ["summoning", "power"] and game["opening_hand"] == 3 + 8 // 2


# -- threat -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("params, amount", [
    ({"source": "corrupted-fatigue", "count": 3}, 3),
    ({"source": "corrupted-wound", "count": 3}, 6),
    ({"source": "corrupted-instant-death", "count": 5}, 10),
    ({"source": "monster-surges", "count": 5}, 2),
    ({"source": "monster-surges", "count": 5, "dark_prayer": True}, 5),
    ({"source": "other", "amount": 7}, 7),
])
def test_threat_gained_from_each_source(params, amount):
    assert threat.threat_from(_ctx(_game("thing-in-the-pit")), params) == amount


def test_destroyed_glyphs_pay_threat_only_in_hold_the_position():
    assert threat.threat_from(_ctx(_game("hold-the-position", setup={"glyphs": 4})), {"source": "destroyed-glyphs", "count": 2}) == 4
    with pytest.raises(Unprocessable, match="No threat for destroyed glyphs"):
        threat.threat_from(_ctx(_game("thing-in-the-pit")), {"source": "destroyed-glyphs", "count": 2})


@pytest.mark.parametrize("replaces, total", [("copper", 15), ("silver", 19), ("gold", 23)])
def test_the_black_ring_costs_its_printed_threat_plus_the_tiers_surcharge(replaces, total):
    assert threat.dark_relic_cost(_ctx(_game("thing-in-the-pit")), "Black Ring", None, replaces) == (11, total)


def test_spending_more_threat_than_the_overlord_has_is_refused_and_tricksters_discount_traps():
    game = _apply(_game("thing-in-the-pit"), [{"kind": "threat-gained", "amount": 2, "source": "other"}])
    ctx = _ctx(game)
    ctx.state["decks"]["overlord"] = decks.apply(ctx.state["decks"]["overlord"], {"kind": "drawn", "deck": "overlord", "cards": ["Aim", "Dodge"], "holder": "overlord"})
    played = threat.play_card(ctx, {"card": "Aim", "threat_cost": 4, "card_type": "trap", "tricksters": 2}, _rng())
    assert played[-1] == {"kind": "threat-spent", "amount": 2, "purpose": "card-played", "card": "Aim", "printed_cost": 4, "discount": 2}
    with pytest.raises(Unprocessable, match="The overlord has 2 threat, not 3"):
        threat.play_card(ctx, {"card": "Dodge", "threat_cost": 3}, _rng())


# -- conquest -----------------------------------------------------------------------------------------------------


def test_astarras_death_with_two_curses_costs_four_and_discards_her_curses():
    game = _apply(_game("thing-in-the-pit"), [{"kind": "curses-gained", "hero": "runewitch-astarra", "count": 2, "source": "chest"}])
    changes = conquest.hero_killed(_ctx(game), {"hero": "runewitch-astarra"}, _rng())
    assert changes[0]["conquest_value"] == 4 and changes[-1]["delta"] == -4 and changes[-1]["total"] == 4
    after = _apply(game, changes)
    assert after["conquest"] == 4 and after["heroes"]["runewitch-astarra"]["curses"] == 0 and after["heroes"]["runewitch-astarra"]["deaths"] == 1


@pytest.mark.parametrize("params, amount", [({"alive": 0}, 0), ({"alive": 1}, 3), ({"alive": 2}, 5), ({"alive": 4}, 9)])
def test_the_zone_2_cell_in_the_thing_in_the_pit(params, amount):
    award = next(a for a in DESCENT.quest("thing-in-the-pit")["awards"] if a["id"] == "zone-2-cell-opened")
    assert conquest.award_amount(award, params) == amount


def test_a_sundered_glyph_gives_one_conquest_and_running_out_loses_the_quest():
    game = _apply(_game("hall-of-the-monkey-kings", setup={"dark_glyphs": [{"glyph": "sundered"}]}), [{"kind": "glyph-placed", "glyph": "sundered"}])
    activated = conquest.activate_glyph(_ctx(game), {"glyph": "sundered"}, _rng())
    assert activated[-1]["delta"] == 1 and _apply(game, activated)["conquest"] == 9
    game = _apply(game, [{"kind": "conquest-changed", "delta": -6, "reason": "test", "total": 2}])
    killed = conquest.award_conquest(_ctx(game), {"award": "villager-killed", "villager": "zone-5-master-naga", "hero": "aurim"}, _rng())
    assert [c["kind"] for c in killed] == ["villager-spell-broken", "coins-changed", "conquest-changed", "quest-lost"]
    assert _apply(game, killed)["lost"] == "conquest-exhausted"


# -- prolonged actions --------------------------------------------------------------------------------------------


def test_progress_is_the_enhancements_rolled_and_completes_at_the_difficulty():
    game = _game("hall-of-the-monkey-kings", party=("tahlia",))
    free = {"hero": "tahlia", "task": "free-villager-zone-5", "trait": "melee", "half_action": "order"}
    first = prolonged.roll(_ctx(game), {**free, "faces": ["enhancement", "surge", "blank"]}, _rng())
    assert first[0]["roll"]["dice"] == {"power": 3} and first[-1]["progress"] == 1
    game = _apply(game, first)
    second = prolonged.roll(_ctx(game), {**free, "half_action": "concentrate", "faces": ["enhancement", "enhancement", "blank"]}, _rng())
    assert second[-1] == {"kind": "prolonged-action-completed", "key": "free-villager-zone-5:tahlia", "task": "free-villager-zone-5", "heroes": ["tahlia"], "progress": 3}
    with pytest.raises(Unprocessable, match="At most 5 power dice"):
        prolonged.roll(_ctx(game), {**free, "fatigue": 3}, _rng())


def test_a_continuous_action_left_for_a_turn_is_lost_and_a_non_disruptable_one_survives_death():
    game = _game("into-the-heart-of-darkness", party=("aurim", "tahlia"))
    convince = {"hero": "aurim", "task": "convince-spirit", "trait": "magic", "half_action": "order", "faces": ["enhancement"]}
    game = _apply(game, prolonged.roll(_ctx(game, turn=1), convince, _rng()))
    late = prolonged.roll(_ctx(game, turn=3), convince, _rng())
    assert late[0]["kind"] == "prolonged-action-disrupted" and late[0]["reason"] == "did-not-continue" and late[-1]["progress"] == 1
    q2 = _game("hall-of-the-monkey-kings", party=("tahlia",))
    q2 = _apply(q2, prolonged.roll(_ctx(q2), {"hero": "tahlia", "task": "free-villager-zone-5", "trait": "melee", "half_action": "order",
                                              "faces": ["enhancement", "blank", "blank"]}, _rng()))
    q2 = _apply(q2, conquest.hero_killed(_ctx(q2), {"hero": "tahlia", "conquest_value": 4}, _rng()))
    assert q2["prolonged"]["free-villager-zone-5:tahlia"]["progress"] == 1
    with pytest.raises(Unprocessable, match="cannot be disrupted"):
        prolonged.disrupt(_ctx(q2), {"hero": "tahlia", "task": "free-villager-zone-5", "reason": "moved"}, _rng())


def test_the_fold_refuses_an_unknown_change():
    with pytest.raises(ValueError):
        fold(_game("thing-in-the-pit"), {"kind": "dragon-awoke"})


# -- how quests are won and lost ----------------------------------------------------------------------------------


def test_the_thing_in_the_pit_is_lost_when_the_heroes_finish_below_twelve_conquest():
    game = _apply(_game("thing-in-the-pit"), [{"kind": "curses-gained", "hero": "runewitch-astarra", "count": 2, "source": "chest"}])
    game = _apply(game, conquest.hero_killed(_ctx(game), {"hero": "runewitch-astarra"}, _rng()))  # 8 - 4 = 4
    short = conquest.award_conquest(_ctx(game), {"award": "thing-defeated"}, _rng())
    assert short[-1] == {"kind": "quest-lost", "reason": "finished-below", "conquest": 8, "needed": 12}
    rich = _apply(_game("thing-in-the-pit"), [{"kind": "conquest-changed", "delta": 0, "reason": "test", "total": 8}])
    won = conquest.award_conquest(_ctx(rich), {"award": "thing-defeated"}, _rng())
    assert won[-1] == {"kind": "quest-won", "award": "thing-defeated", "conquest": 12, "needed": 12}
    decided = _apply(rich, won)
    assert decided["won"] == "thing-defeated"
    with pytest.raises(Unprocessable, match="already decided"):
        conquest.award_conquest(_ctx(decided), {"award": "thing-defeated"}, _rng())


def test_hold_the_position_pays_one_per_major_monster_and_is_won_from_turn_ten():
    game = _game("hold-the-position", setup={"glyphs": 3})
    killed = conquest.award_conquest(_ctx(game), {"award": "major-monster-killed"}, _rng())
    assert killed == [{"kind": "conquest-changed", "delta": 1, "reason": "major-monster-killed", "total": 16}]
    with pytest.raises(Unprocessable, match="Hold the Position is won on turn 10 or later"):
        conquest.award_conquest(_ctx(game, turn=9), {"award": "temple-defended"}, _rng())
    won = conquest.award_conquest(_ctx(game, turn=10), {"award": "temple-defended", "stated": {"all_major_monsters_defeated": True}}, _rng())
    assert won[-1] == {"kind": "quest-won", "award": "temple-defended", "conquest": 19}


def test_hold_the_position_needs_its_glyph_count_and_is_lost_with_its_last_glyph():
    with pytest.raises(Unprocessable, match="Say how many glyphs Hold the Position has"):
        _set_up("hold-the-position")
    with pytest.raises(Unprocessable, match="The Altar of Despair has 4 glyphs"):
        _set_up("altar-of-despair", setup={"glyphs": 3})
    game = _game("hold-the-position", setup={"glyphs": 2})
    with pytest.raises(Unprocessable, match="Say how many wounds"):
        glyphs.damage_glyph(_ctx(game), {"glyph": "north"}, _rng())
    game = _apply(game, glyphs.damage_glyph(_ctx(game), {"glyph": "north", "wounds": 5}, _rng()))
    restored = glyphs.restore_glyph(_ctx(game), {"glyph": "north", "hero": "aurim", "count": 2}, _rng())
    assert restored == [{"kind": "glyph-restored", "glyph": "north", "hero": "aurim", "healed": 2, "hero_wounds": 2, "movement_points": 2, "remaining": 22}]
    game = _apply(game, restored)
    with pytest.raises(Unprocessable, match="A glyph has at most 25 wounds"):
        glyphs.restore_glyph(_ctx(game), {"glyph": "north", "hero": "aurim", "count": 4}, _rng())
    first = glyphs.damage_glyph(_ctx(game), {"glyph": "north", "wounds": 30}, _rng())
    assert [c["kind"] for c in first] == ["glyph-damaged", "glyph-destroyed"] and first[0]["wounds"] == 22
    game = _apply(game, first)
    with pytest.raises(Unprocessable, match="already destroyed"):
        glyphs.damage_glyph(_ctx(game), {"glyph": "north", "wounds": 1}, _rng())
    with pytest.raises(Unprocessable, match="This quest has 2 glyphs"):
        glyphs.damage_glyph(_ctx(_apply(game, glyphs.damage_glyph(_ctx(game), {"glyph": "south", "wounds": 1}, _rng()))), {"glyph": "east", "wounds": 1}, _rng())
    last = glyphs.damage_glyph(_ctx(game), {"glyph": "south", "wounds": 25}, _rng())
    assert last[-1] == {"kind": "quest-lost", "reason": "last-glyph-destroyed", "conquest": 15}
    assert _apply(game, last)["lost"] == "last-glyph-destroyed"


def test_zorek_wounds_a_glyph_once_per_hit_and_the_fourth_glyph_falls_after_twenty_four_hits():
    game = _game("altar-of-despair")
    with pytest.raises(Unprocessable, match="cannot heal the glyphs of The Altar of Despair"):
        glyphs.restore_glyph(_ctx(game), {"glyph": "1", "hero": "aurim"}, _rng())
    hits = 0
    while not game["lost"]:
        glyph = str(hits // 6 + 1)
        game = _apply(game, glyphs.damage_glyph(_ctx(game), {"glyph": glyph}, _rng()))
        hits += 1
    assert hits == 24 and game["lost"] == "last-glyph-destroyed" and game["glyphs"]["destroyed"] == ["1", "2", "3", "4"]
    with pytest.raises(Unprocessable, match="cannot be attacked"):
        glyphs.damage_glyph(_ctx(_game("thing-in-the-pit")), {"glyph": "1", "wounds": 1}, _rng())


def test_each_action_is_taken_for_the_side_that_takes_it_at_the_table():
    assert DESCENT.rules.acting_side({"type": "play-overlord-card", "card": "Aim", "threat_cost": 2}) == "overlord"
    assert DESCENT.rules.acting_side({"type": "look", "deck": "overlord", "count": 1}) == "overlord"
    assert DESCENT.rules.acting_side({"type": "draw", "deck": "copper", "holder": "overlord"}) == "overlord"
    assert DESCENT.rules.acting_side({"type": "draw", "deck": "copper", "holder": "aurim"}) is None
    assert DESCENT.rules.acting_side({"type": "restore-glyph", "glyph": "1", "hero": "aurim"}) == "heroes"
    assert DESCENT.rules.acting_side({"type": "hero-killed", "hero": "aurim"}) is None
    assert (sides.OVERLORD_ACTIONS | sides.HERO_ACTIONS) <= set(DESCENT.actions)  # no misspelt action names


# -- the Summoning glyph, Zorek and the great stone doors ----------------------------------------------------------


def test_a_summoning_glyph_lets_the_overlord_spawn_two_listed_monsters_per_activation_or_town_travel():
    game = _apply(_game("thing-in-the-pit", setup={"dark_glyphs": [{"glyph": "summoning"}, {"glyph": "sundered"}]}),
                  [{"kind": "glyph-placed", "glyph": "summoning"}, {"kind": "glyph-placed", "glyph": "sundered"}])
    with pytest.raises(Unprocessable, match="has not been triggered"):
        summoning.summoning_spawn(_ctx(game), {"monsters": ["skeleton"]}, _rng())
    game = _apply(game, conquest.activate_glyph(_ctx(game), {"glyph": "summoning", "conquest": 3}, _rng()))
    with pytest.raises(Unprocessable, match="cannot spawn dragon"):
        summoning.summoning_spawn(_ctx(game), {"monsters": ["skeleton", "dragon"]}, _rng())
    spawned = summoning.summoning_spawn(_ctx(game), {"monsters": ["skeleton", "hellhound"]}, _rng())
    assert spawned[0] == {"kind": "monsters-spawned", "monsters": ["skeleton", "hellhound"], "source": "summoning-glyph"}
    assert [f["id"] for f in spawned[1]["figures"]] == ["skeleton-1", "hellhound-1"]  # rules 1.2.0: figures an attack can name
    game = _apply(game, spawned)
    with pytest.raises(Unprocessable, match="has not been triggered"):
        summoning.summoning_spawn(_ctx(game), {"monsters": ["skeleton"]}, _rng())
    game = _apply(game, summoning.town_travel(_ctx(game), {"hero": "aurim", "glyph": "summoning", "direction": "to-town"}, _rng()))
    assert game["glyph_triggers"]["summoning"] == 1
    game = _apply(game, conquest.activate_glyph(_ctx(game), {"glyph": "sundered"}, _rng()))
    with pytest.raises(Unprocessable, match="sundered dark glyph cannot be used to travel"):
        summoning.town_travel(_ctx(game), {"hero": "aurim", "glyph": "sundered", "direction": "to-town"}, _rng())


@pytest.mark.parametrize("face, facing", [("0D 3R", "west"), ("1D 1R", "east"), ("0D 2R 1S", "south"), ("X", "north")])
def test_zoreks_gaze_turns_him_right_a_quarter_per_point_of_range(face, facing):
    game = _game("altar-of-despair", party=("aurim", "tahlia"))
    changes = zorek.gaze(_ctx(game), {"face": face, "heroes_hit": ["aurim"], "monsters_killed": 1}, _rng())
    gazed = changes[1]
    assert (gazed["from"], gazed["facing"], gazed["wounds_each"], gazed["ignores_armour"]) == ("north", facing, 6, True)
    assert changes[2] == {"kind": "curses-gained", "hero": "aurim", "count": 1, "source": "zorek-gaze"}
    after = _apply(game, changes)
    assert after["zorek"]["facing"] == facing and after["heroes"]["aurim"]["curses"] == 1
    again = zorek.gaze(_ctx(after), {"face": "0D 3R"}, _rng())[1]
    assert again["from"] == facing and again["facing"] == zorek.turned(facing, 3)


def test_zoreks_gaze_needs_the_yellow_dies_faces_and_belongs_to_the_altar_of_despair():
    with pytest.raises(Unprocessable, match="cannot be rolled digitally"):
        zorek.gaze(_ctx(_game("altar-of-despair")), {}, _rng())
    with pytest.raises(Unprocessable, match="There is no Zorek in The Thing in the Pit"):
        zorek.gaze(_ctx(_game("thing-in-the-pit")), {"face": "0D 3R"}, _rng())


def test_a_stone_door_opened_by_a_blank_can_never_close_again():
    game = _game("altar-of-despair", party=("aurim", "tahlia"))
    with pytest.raises(Unprocessable, match="No stone door is closed"):
        zorek.roll_stone_doors(_ctx(game), {"faces": ["blank"]}, _rng())
    for door in ("east", "west"):
        game = _apply(game, zorek.close_stone_door(_ctx(game), {"hero": "tahlia", "door": door}, _rng()))
    with pytest.raises(Unprocessable, match="already closed"):
        zorek.close_stone_door(_ctx(game), {"hero": "aurim", "door": "east"}, _rng())
    rolled = zorek.roll_stone_doors(_ctx(game), {"faces": ["surge", "blank"]}, _rng())
    assert rolled[-1] == {"kind": "stone-doors-rolled", "doors": ["east", "west"], "results": ["surge", "blank"], "opened": ["west"]}
    game = _apply(game, rolled)
    assert game["zorek"]["doors_closed"] == ["east"] and game["zorek"]["doors_opened"] == ["west"]
    with pytest.raises(Unprocessable, match="can no longer close"):
        zorek.close_stone_door(_ctx(game), {"hero": "aurim", "door": "west"}, _rng())
