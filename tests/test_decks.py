"""The deck engine: no card is ever lost or duplicated, whatever the sequence of operations."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream

CARDS = ["Heal", "Heal", "Heal", "Nimbus", "Flame", "Flame", "Seal", "Chant"]
KINDS = {"Heal": "one-time", "Nimbus": "one-time", "Flame": "permanent", "Seal": "permanent", "Chant": "one-time"}

operation = st.one_of(
    st.tuples(st.just("draw"), st.integers(1, 4)),
    st.tuples(st.just("draw-until-kind"), st.sampled_from(["one-time", "permanent"])),
    st.tuples(st.just("look"), st.integers(1, 3)),
    st.tuples(st.just("keep"), st.sampled_from(["discard", "top", "bottom"])),
    st.tuples(st.just("discard"), st.integers(0, 5)),
    st.tuples(st.just("remove"), st.integers(0, 5)),
    st.tuples(st.just("return"), st.sampled_from(["top", "bottom"])),
    st.tuples(st.just("report"), st.sampled_from(CARDS)),
    st.tuples(st.just("shuffle"), st.booleans()),
)


def _apply_all(state, payloads):
    for payload in payloads:
        state = decks.apply(state, payload)
    return state


def _step(state, op, rng):
    name, arg = op
    held = state["held"].get(decks.TABLE, [])
    if name == "draw":
        return decks.resolve_draw(state, "Test", arg, rng)
    if name == "draw-until-kind":
        return decks.resolve_draw_until_kind(state, "Test", arg, KINDS, rng)
    if name == "look":
        return decks.resolve_look(state, "Test", arg, rng)
    if name == "keep":
        return decks.resolve_keep(state, state["peeked"][:1], arg)
    if name == "discard":
        return decks.resolve_move(state, "discarded", held[: arg or 1], "held")
    if name == "remove":
        return decks.resolve_move(state, "removed", held[: arg or 1], "held")
    if name == "return":
        return decks.resolve_move(state, "returned", state["discard"][:1] or held[:1], "discard" if state["discard"] else "held", position=arg)
    if name == "report":
        return decks.resolve_reported_draw(state, [arg])
    return decks.resolve_shuffle(state, "Test", rng, with_discard=arg)


@settings(max_examples=300)
@given(seed=st.binary(min_size=32, max_size=32), ops=st.lists(operation, max_size=40))
def test_no_card_is_lost_or_duplicated(seed, ops):
    rng = RandomStream(seed)
    state = decks.new_deck("test", CARDS, len(CARDS), shuffled=True)
    for op in ops:
        before = state
        try:
            payloads = _step(state, op, rng)
        except Unprocessable:
            assert state == before
            continue
        state = _apply_all(state, payloads)
        assert decks.all_cards(state) == Counter(CARDS)
        for payload in payloads:
            if payload["kind"] == "shuffled":
                assert Counter(payload["order"]) == Counter(payload["before"])


@given(seed=st.binary(min_size=32, max_size=32), draws=st.lists(st.sampled_from(["A", "B", "C"]), max_size=12))
def test_reported_draws_from_an_unknown_deck_respect_its_size(seed, draws):
    state = decks.new_deck("fortune", None, 5, shuffled=True)
    taken = 0
    for card in draws:
        try:
            state = _apply_all(state, decks.resolve_reported_draw(state, [card]))
            taken += 1
        except Unprocessable as error:
            assert taken == 5 and "cannot hold" in error.title
    assert state["unknown"] == 5 - taken


def test_a_digital_draw_takes_the_top_after_the_first_shuffle():
    rng = RandomStream(b"\x07" * 32)
    state = decks.new_deck("fortune", CARDS, len(CARDS), shuffled=True)
    payloads = decks.resolve_draw(state, "Fortune", 2, rng)
    assert [p["kind"] for p in payloads] == ["shuffled", "drawn"]
    assert payloads[1]["cards"] == payloads[0]["order"][:2]
    assert payloads[0]["counter_start"] == 0 and payloads[0]["counter_end"] == rng.counter


def test_an_unshuffled_stack_draws_in_printed_order():
    state = decks.new_deck("weapons", ["Level 1", "Level 2", "Level 3"], 3, shuffled=False)
    payloads = decks.resolve_draw(state, "Weapons", 1, RandomStream(b"\0" * 32))
    assert payloads == [{"kind": "drawn", "deck": "weapons", "cards": ["Level 1"], "source": "digital", "holder": None}]


def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out():
    rng = RandomStream(b"\x01" * 32)
    state = decks.new_deck("d", ["a", "b", "c"], 3, shuffled=True)
    state = _apply_all(state, decks.resolve_draw(state, "D", 3, rng))
    state = _apply_all(state, decks.resolve_move(state, "discarded", ["a", "b"], "held"))
    payloads = decks.resolve_draw(state, "D", 1, rng)
    assert payloads[0]["kind"] == "shuffled" and payloads[0]["with_discard"] is True
    assert sorted(payloads[0]["before"]) == ["a", "b"]
    state = _apply_all(state, payloads)
    assert state["discard"] == [] and len(state["draw"]) == 1


def test_draw_until_kind_discards_the_wrong_kinds():
    rng = RandomStream(b"\x02" * 32)
    state = decks.new_deck("skills", CARDS, len(CARDS), shuffled=True)
    payloads = decks.resolve_draw_until_kind(state, "Skills", "permanent", KINDS, rng)
    state = _apply_all(state, payloads)
    held = state["held"][decks.TABLE]
    assert [KINDS[c] for c in held].count("permanent") == 1
    assert KINDS[held[-1]] == "permanent"
    assert all(KINDS[c] == "one-time" for c in state["discard"])


def test_a_digital_draw_from_a_deck_whose_cards_were_lost_says_how_to_supply_them():
    state = decks.new_deck("fortune", None, 20, shuffled=True)
    with pytest.raises(Unprocessable) as error:
        decks.resolve_draw(state, "Fortune Cards", 1, RandomStream(b"\0" * 32))
    assert "components" in error.value.detail and '"cards"' in error.value.detail


def test_an_empty_deck_cannot_be_drawn():
    state = decks.new_deck("d", ["a"], 1, shuffled=False)
    state = _apply_all(state, decks.resolve_draw(state, "D", 1, RandomStream(b"\0" * 32)))
    with pytest.raises(Unprocessable, match="only 0 card"):
        decks.resolve_draw(state, "D", 1, RandomStream(b"\0" * 32))


def test_look_then_keep_one_and_discard_the_rest():
    rng = RandomStream(b"\x03" * 32)
    state = decks.new_deck("fortune", ["f1", "f2", "f3", "f4"], 4, shuffled=True)
    state = _apply_all(state, decks.resolve_look(state, "Fortune", 3, rng))
    looked = list(state["peeked"])
    assert len(looked) == 3
    state = _apply_all(state, decks.resolve_keep(state, [looked[1]], "discard", holder="monkey-king"))
    assert state["held"]["monkey-king"] == [looked[1]]
    assert sorted(state["discard"]) == sorted([looked[0], looked[2]])
    assert state["peeked"] == []
