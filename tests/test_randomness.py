"""The session stream: legal faces, determinism, no bias, and the documented derivation."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tracker.core import randomness

from tracker.integrity import verify_export
from tracker.core.randomness import RandomStream, commitment

seeds = st.binary(min_size=32, max_size=32)
layouts = st.lists(st.one_of(st.integers(0, 20), st.sampled_from(["X", "1", "2", "3", "white", "black"])), min_size=1, max_size=20)


@given(seed=seeds, counter=st.integers(0, 2**40), layout=layouts)
def test_a_roll_is_always_a_face_of_the_die(seed, counter, layout):
    assert RandomStream(seed, counter).roll(layout) in layout


@given(seed=seeds, counter=st.integers(0, 2**40), layout=layouts)
def test_same_seed_and_counter_give_the_same_roll_and_advance_alike(seed, counter, layout):
    first, second = RandomStream(seed, counter), RandomStream(seed, counter)
    assert [first.roll(layout) for _ in range(5)] == [second.roll(layout) for _ in range(5)]
    assert first.counter == second.counter > counter


@given(seed=seeds, items=st.lists(st.text(max_size=5), max_size=30))
def test_a_shuffle_is_a_permutation_and_reproducible(seed, items):
    order = RandomStream(seed).shuffle(items)
    assert Counter(order) == Counter(items)
    assert RandomStream(seed).shuffle(items) == order


def test_derivation_matches_the_documented_recipe():
    """An independent re-implementation of the README's recipe agrees with the stream."""
    seed = bytes(range(32))

    def uniform(counter: int, n: int) -> tuple[int, int]:
        while True:
            x = int.from_bytes(hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()[:8], "big")
            counter += 1
            if x < 2**64 - (2**64 % n):
                return x % n, counter

    stream = RandomStream(seed)
    counter = 0
    for n in (6, 6, 20, 3, 7, 52):
        expected, counter = uniform(counter, n)
        assert stream.uniform(n) == expected
        assert stream.counter == counter
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()


def test_rejection_sampling_skips_values_past_the_last_full_cycle():
    """n = 3 * 2**62 leaves a tail of 2**62 values that must be rejected, not folded in."""
    n = 3 * 2**62
    limit = 2**64 - (2**64 % n)
    seed = b"\x01" * 32
    stream = RandomStream(seed)
    for _ in range(200):
        start = stream.counter
        value = stream.uniform(n)
        # every counter consumed before the accepted one was a rejected draw
        for skipped in range(start, stream.counter - 1):
            x = int.from_bytes(hmac.new(seed, skipped.to_bytes(8, "big"), hashlib.sha256).digest()[:8], "big")
            assert x >= limit
        assert 0 <= value < n
    assert stream.counter > 200  # about a quarter of draws land in the tail


def test_sixty_thousand_d6_rolls_show_no_bias_at_p_0_001():
    stream = RandomStream(hashlib.sha256(b"chi-square").digest())
    rolls = 60_000
    counts = Counter(stream.roll([1, 2, 3, 4, 5, 6]) for _ in range(rolls))
    expected = rolls / 6
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    # critical value of the chi-square distribution with 5 degrees of freedom at p = 0.001
    assert chi_square < 20.515, (chi_square, counts)


# -- known answers, for the stream and for the standalone verifier's copy of it ------------------
# Fixed outputs of the documented derivation: a change to Fisher-Yates (uniform(i) for uniform(i + 1),
# one swap too many) or to rejection sampling changes them, in either implementation.

KNOWN_SEED = bytes(range(32))
STREAMS = {"tracker.core.randomness": RandomStream, "tracker.integrity.verify_export": verify_export.Stream}


@pytest.mark.parametrize("stream", STREAMS.values(), ids=STREAMS.keys())
def test_a_shuffle_gives_the_known_order_and_uses_n_minus_one_draws(stream):
    ten = stream(KNOWN_SEED, 0)
    assert ten.shuffle(list("ABCDEFGHIJ")) == ["C", "B", "A", "H", "I", "J", "D", "E", "G", "F"]
    assert ten.counter == 9
    deck = stream(KNOWN_SEED, 100)
    assert deck.shuffle(list(range(52))) == [
        36, 35, 49, 37, 39, 33, 9, 44, 30, 20, 45, 51, 28, 2, 15, 8, 34, 6, 13, 11, 42, 26, 27, 10, 48, 47,
        0, 21, 1, 22, 32, 41, 3, 16, 25, 19, 40, 7, 5, 14, 17, 23, 12, 4, 43, 50, 29, 46, 18, 31, 24, 38,
    ]
    assert deck.counter == 151


@pytest.mark.parametrize("stream", STREAMS.values(), ids=STREAMS.keys())
def test_a_draw_in_the_rejected_tail_is_skipped_with_its_counter(stream):
    """Three draws of n = 3 * 2**62 from this seed take four counters: one value fell in the tail."""
    drawn = stream(b"\x01" * 32, 0)
    assert [drawn.uniform(3 * 2**62) for _ in range(3)] == [10753017905189555918, 1622625527895192745, 9193428322971604841]
    assert drawn.counter == 4


@pytest.mark.parametrize("accept", [randomness.accept, verify_export.accept], ids=STREAMS.keys())
def test_rejection_starts_exactly_at_the_limit(accept):
    for n in (6, 20, 52, 3 * 2**62, 2**63 + 1):
        limit = 2**64 - (2**64 % n)
        assert accept(limit - 1, n) == (limit - 1) % n  # the last value of the last full cycle is kept
        assert accept(limit, n) is None  # the first value past it is not
        assert accept(2**64 - 1, n) is None or 2**64 % n == 0
    assert accept(2**64 - 1, 2) == 1  # n dividing 2**64 rejects nothing


@pytest.mark.parametrize("length", [0, 1, 32, 63, 64, 65, 200])
def test_the_stream_s_blocks_are_hmac_sha256_of_its_seed_whatever_its_length(length):
    """The stream copies its keyed hashes for each block rather than calling hmac.new: the same bytes, for a seed
    shorter than SHA-256's block, as long, and longer (hashed first), as RFC 2104 says."""
    seed = hashlib.sha256(f"seed-{length}".encode()).digest() * 7
    seed = seed[:length]
    stream = RandomStream(seed)
    for counter in (0, 1, 255, 256, 2**32, 2**64 - 1):
        assert stream._block(counter) == hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()


@given(seed=seeds, counter=st.integers(0, 2**40), layout=layouts, count=st.integers(0, 12))
def test_a_dies_rolls_at_once_are_its_rolls_one_by_one(seed, counter, layout, count):
    at_once, one_by_one = RandomStream(seed, counter), RandomStream(seed, counter)
    assert at_once.rolls(layout, count) == [one_by_one.roll(layout) for _ in range(count)]
    assert at_once.counter == one_by_one.counter


def test_a_die_of_rare_acceptance_still_rolls_the_same_at_once():
    """A layout of 3 faces rejects some draws: the counter skips them alike."""
    seed = bytes(range(32))
    at_once, one_by_one = RandomStream(seed, 0), RandomStream(seed, 0)
    assert at_once.rolls(["a", "b", "c"], 200) == [one_by_one.roll(["a", "b", "c"]) for _ in range(200)]
    assert at_once.counter == one_by_one.counter
