"""Does a spend pay a cost exactly? Spends are all at once, and Monkey, Tigress and Viper may
count their own rolled Chi as Kick, Punch or Move."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError


def refuse_unplayable(data: Mapping[str, Any]) -> None:
    """L77: "Spends must be all at once – players cannot incrementally spend dice to achieve a single goal": a spend pays
    its whole cost exactly (pays) and the service keeps no part-paid goal, so it plays no other (refused at load)."""
    if data["round"]["spends_all_at_once"] is not True:
        raise RulesDataError("round.spends_all_at_once: each spend pays its whole cost at once; the service keeps no part-paid goal to spend towards")


def chi_counts_as(data: Mapping[str, Any], hero: str) -> str | None:
    for character in data["characters"]:
        if character["id"] == hero and character["ability"]["kind"] == "chi-counts-as":
            return character["ability"]["counts_as"]
    return None


def pays(data: Mapping[str, Any], spent: Mapping[str, list[str]], cost: Mapping[str, int]) -> bool:
    """True if the results spent (hero -> faces) pay ``cost`` exactly, using the heroes' conversions."""
    have = Counter(result for results in spent.values() for result in results)
    convertible: Counter[str] = Counter()
    for hero, results in spent.items():
        target = chi_counts_as(data, hero)
        if target:
            convertible[target] += results.count("Chi")
    if set(have) - set(cost) - {"Chi"}:
        return False
    chi_used_as_other = 0
    for result, wanted in cost.items():
        if result == "Chi":
            continue
        short = wanted - have[result]
        if short < 0 or short > convertible[result]:
            return False
        chi_used_as_other += short
    return have["Chi"] - chi_used_as_other == cost.get("Chi", 0)


def require_payment(data: Mapping[str, Any], spent: Mapping[str, list[str]], cost: Mapping[str, int], what: str) -> None:
    if not pays(data, spent, cost):
        shown = ", ".join(f"{n}x {r}" for r, n in cost.items())
        paid = {hero: results for hero, results in spent.items()}
        raise Unprocessable(
            f"That spend does not pay for {what}",
            detail=f"{what} costs exactly {shown}; spends are all at once. Spent: {paid}.",
            errors={"heroes": [f"Does not pay {shown}."]},
        )
