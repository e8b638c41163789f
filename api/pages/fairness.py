"""Do the dice look fair? Pearson's chi-square goodness of fit against a die's known faces, in pure Python.

The statistic is sum((observed - expected)^2 / expected) over the faces; under a fair die it follows
a chi-square distribution with (faces - 1) degrees of freedom, and the p-value is the upper tail
Q(k/2, x/2) of the regularized incomplete gamma function (Numerical Recipes' series and continued
fraction, which need nothing beyond math.lgamma). The usual rule of thumb for the test to be worth
reading: every expected count at least 5. Below that the page says the sample is too small to say.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

MIN_EXPECTED = 5.0  # Cochran's rule: below it the chi-square approximation is not to be trusted
SUSPICIOUS = 0.01  # a fair die gives a spread this uneven (or worse) once in a hundred samples


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


def p_value(statistic: float, degrees: int) -> float:
    """P(X >= statistic) for X chi-square with ``degrees`` degrees of freedom."""
    if degrees <= 0:
        return 1.0
    if statistic <= 0:
        return 1.0
    return _upper_gamma(degrees / 2.0, statistic / 2.0)


def _upper_gamma(a: float, x: float) -> float:
    """Q(a, x) = 1 - P(a, x), the regularized upper incomplete gamma function."""
    if x < a + 1.0:
        return 1.0 - _lower_series(a, x)
    return _upper_fraction(a, x)


def _lower_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    n = a
    for _ in range(1000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def verdict(faces: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The goodness-of-fit verdict for one die's rows (face, observed, expected), in plain words;
    None when the die's face layout is not known (nothing to compare against)."""
    rows = [row for row in faces if row.get("expected") is not None]
    if not rows or len(rows) != len(faces):
        return None
    # Faces a layout cannot show (expected 0) and that never came up say nothing; one that came up anyway is impossible.
    impossible = [row["face"] for row in rows if row["expected"] == 0 and row["observed"] > 0]
    shown = [row for row in rows if row["expected"] > 0]
    rolls = sum(row["observed"] for row in rows)
    if impossible:
        return {"kind": "impossible", "said": f"Faces this die does not have came up: {', '.join(map(str, impossible))}. Check what was entered."}
    smallest = min(row["expected"] for row in shown)
    statistic = chi_square([row["observed"] for row in shown], [row["expected"] for row in shown])
    degrees = len(shown) - 1
    p = p_value(statistic, degrees)
    found = {"statistic": round(statistic, 2), "degrees": degrees, "p_value": round(p, 3), "rolls": rolls}
    if smallest < MIN_EXPECTED:
        needed = math.ceil(round(MIN_EXPECTED * rolls / smallest, 6)) if smallest > 0 else None
        return {
            **found,
            "kind": "too-few",
            "said": f"Too few rolls to say whether this die is fair: {rolls} so far"
            + (f"; about {needed} would give every face at least {MIN_EXPECTED:g} expected." if needed else "."),
        }
    if p < SUSPICIOUS:
        return {
            **found,
            "kind": "uneven",
            "said": f"These rolls are more uneven than a fair die gives: a fair die would spread this unevenly in about "
            f"{_one_in(p)} samples of {rolls} rolls. Worth a look at the die (or at what was entered).",
        }
    return {
        **found,
        "kind": "fair",
        "said": f"Consistent with a fair die: a fair die spreads at least this unevenly in {round(p * 100)} of 100 samples of {rolls} rolls.",
    }


def _one_in(p: float) -> str:
    if p <= 0:
        return "none of a million"
    n = round(1 / p)
    return f"1 of {n:,}" if n < 1_000_000 else "fewer than 1 of a million"
