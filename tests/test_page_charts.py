"""The pages' charts and the dice verdict as pure functions: the chi-square p-value against published
critical values, the verdict in words, whole-number ticks, and Karma per quest with resets as resets."""

from __future__ import annotations

import re

import pytest

from api.pages import charts, fairness
from api.pages.reads import karma_by_quest


@pytest.mark.parametrize(("statistic", "degrees", "p"), [(3.841, 1, 0.05), (5.991, 2, 0.05), (11.070, 5, 0.05), (15.086, 5, 0.01),
                                                          (23.209, 10, 0.01), (0.0, 5, 1.0), (1.145, 5, 0.95), (40.0, 19, 0.0031)])
def test_the_chi_square_tail_matches_the_tables(statistic, degrees, p):
    assert fairness.p_value(statistic, degrees) == pytest.approx(p, abs=2e-4)


def _faces(observed, expected):
    return [{"face": str(n), "observed": o, "expected": e} for n, (o, e) in enumerate(zip(observed, expected), start=1)]


def test_the_verdict_says_fair_uneven_or_too_few_in_words():
    fair = fairness.verdict(_faces([10, 11, 9, 10, 12, 8], [10] * 6))
    assert fair["kind"] == "fair" and fair["said"].startswith("Consistent with a fair die") and fair["degrees"] == 5
    loaded = fairness.verdict(_faces([30, 6, 6, 6, 6, 6], [10] * 6))
    assert loaded["kind"] == "uneven" and "more uneven than a fair die" in loaded["said"] and loaded["p_value"] < 0.01
    few = fairness.verdict(_faces([2, 0, 1, 0, 0, 0], [0.5] * 6))
    assert few["kind"] == "too-few" and few["said"].startswith("Too few rolls to say") and "30" in few["said"]
    assert fairness.verdict([{"face": "X", "observed": 3, "expected": None}]) is None  # faces not known: nothing to compare
    impossible = fairness.verdict(_faces([5, 5, 1], [5, 5, 0]))
    assert impossible["kind"] == "impossible"


def test_ticks_are_whole_numbers_fitted_to_the_data():
    assert charts.integer_ticks(3) == [0, 1, 2, 3]
    assert charts.integer_ticks(0.5) == [0, 1]
    ticks = charts.integer_ticks(37)
    assert all(isinstance(t, int) for t in ticks) and ticks[-1] >= 37 and len(ticks) <= 9


def _point(session, quest, good, bad, said="", trade=None):
    return {"session_id": session, "quest": quest, "good": good, "bad": bad, "said": said, "trade": trade, "link": f"/x#{session}"}


def test_karma_per_quest_marks_trades_and_draws_a_fresh_start_as_a_reset():
    points = [
        _point("s1", "Meeting", 0, 0, "set up (fresh)"), _point("s1", "Meeting", 0, 12), _point("s1", "Meeting", 0, 2, trade="Traded 10 Bad Karma for weapon upgrade"),
        _point("s2", "Rescue", 0, 2, "set up (carried)"), _point("s2", "Rescue", 3, 2),
        _point("s3", "Meeting", 0, 0, "set up (fresh)"), _point("s3", "Meeting", 1, 0),
    ]
    slots = karma_by_quest(points)
    assert [s["label"] for s in slots] == ["Meeting", "Rescue", "↺ reset", "Meeting (2)"]
    assert [(s["good"], s["bad"]) for s in slots] == [(0, 2), (3, 2), (None, None), (1, 0)]
    assert slots[0]["trades"] == ["Traded 10 Bad Karma for weapon upgrade"]
    chart = charts.karma_chart("Monkey King", points)
    svg = str(chart["svg"])
    assert "Meeting (2)" in svg and "↺ reset" in svg and "<script" not in svg
    assert "1 fresh start(s)" in chart["description"] and "Traded 10 Bad Karma for weapon upgrade in Meeting" in chart["description"]
    # The y-axis fits the data (0 to 3 here), not a fixed 0-12, and its ticks are whole numbers.
    labels = re.findall(r'class="axis y always_show".*?</g></g>', svg, re.DOTALL)
    assert labels and ">12<" not in labels[0]
