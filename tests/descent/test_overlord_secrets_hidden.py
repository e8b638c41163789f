"""The overlord's secrets are hidden the same way however many times a state passes the door: the pages' replay
redacts a state the application may already have redacted, and a second pass once crashed on the counts."""

from tracker.rulesets.descent import hidden
from tracker.rulesets.descent.common import OVERLORD

HEROES = "heroes"  # the heroes' side, as tokens name it

GAME = {
    "treachery": {"granted": {"trap": 2}, "swaps": [{"out": "a", "in": "b"}], "glyphs": ["dark-1", "dark-2"]},
    "glyph_pool": ["g1", "g2", "g3"],
    "glyphs_placed": ["g4"],
    "opening_hand": ["crushing-block"],
    "secret_room": {"real": "marker-2", "face": "blank", "searched": ["marker-1"]},
}
DECKS = {OVERLORD: {"draw_pile": 20, "discard_pile": ["x"], "held": {OVERLORD: ["c1", "c2"]}, "looking_at": ["c3"],
                    "removed_from_game": []}}


def test_a_redacted_state_redacted_again_is_unchanged():
    once = hidden.redact(GAME, HEROES)
    assert once["treachery"] == {"granted": {"trap": 2}, "cards_swapped": 1, "dark_glyphs_bought": 2}
    assert (once["glyph_pool"], once["glyphs_placed"]) == (3, 1)
    assert "opening_hand" not in once and once["secret_room"] == {"searched": ["marker-1"]}
    assert hidden.redact(once, HEROES) == once


def test_redacted_decks_redacted_again_are_unchanged():
    once = hidden.redact_decks(DECKS, HEROES)
    assert once[OVERLORD]["held"] == {} and once[OVERLORD]["hidden"]["held"] == {OVERLORD: 2}
    assert hidden.redact_decks(once, HEROES) == once


def test_the_overlord_sees_his_own_secrets():
    assert hidden.redact(GAME, OVERLORD) == GAME
