"""Karma: gains and losses, and the mandatory trades the moment a wheel reaches 10 (L535-L555).

- 10 Good Karma: a permanent Skill Card, drawn until a retained card comes up (L548, L551).
- 10 Bad Karma: the weapon one level up (max 3) and a Corruption Card; at level 3 a Corruption
  Card only (L549, L553).
- The wheel keeps the remainder (12 -> 2). While a wheel is still 10 or more it trades again;
  reaching 10 is itself recorded, because quests test it (Q2's heroic victory).
"""

from __future__ import annotations

from typing import Any

from tracker.rulesets.journey.resolution import Resolution, skill_deck

THRESHOLD = 10
MAX_WEAPON_LEVEL = 3
WHEELS = ("good", "bad")


def gain(res: Resolution, hero: str, wheel: str, amount: int, source: str) -> None:
    before = res.hero(hero)[wheel]
    res.add({"kind": "karma-gained", "hero": hero, "wheel": wheel, "amount": amount, "source": source, "before": before, "after": before + amount})
    if before + amount >= THRESHOLD:
        res.add({"kind": "karma-threshold-reached", "hero": hero, "wheel": wheel, "value": before + amount})
    trade_while_due(res, hero)


def lose(res: Resolution, hero: str, wheel: str, amount: int, source: str) -> None:
    before = res.hero(hero)[wheel]
    after = max(0, before - amount)  # no stat falls below 0 (L310, L327)
    res.add({"kind": "karma-lost", "hero": hero, "wheel": wheel, "amount": amount, "applied": before - after, "source": source, "before": before, "after": after})


def trade_while_due(res: Resolution, hero: str) -> None:
    """Both wheels trade independently (L555); each repeats while still at 10 or more: a mandatory trade is made
    whenever the level is met or exceeded (L550), "each time" the wheel reaches 10 (L553). The rules data says so
    (karma.repeated_trades_at_20_or_more); only an explicit false would make one trade per wheel, and data from
    before the reading (null) keeps the repeating it was played with."""
    repeat = res.ctx.ruleset.data["karma"].get("repeated_trades_at_20_or_more") is not False
    for wheel in WHEELS:
        traded = False
        while res.hero(hero)[wheel] >= THRESHOLD and (repeat or not traded):
            traded = True
            if wheel == "good":
                _permanent_skill(res, hero)
            else:
                _weapon_and_corruption(res, hero)


def _traded(res: Resolution, hero: str, wheel: str, trade: str, cost: int, mandatory: bool = True, ap: int = 0) -> None:
    before = res.hero(hero)[wheel]
    change: dict[str, Any] = {
        "kind": "karma-traded",
        "hero": hero,
        "trade": trade,
        "wheel": wheel,
        "cost": cost,
        "mandatory": mandatory,
        "before": before,
        "after": before - cost,
    }
    if ap:
        change["ap"] = ap
    res.add(change)


def take_skill(res: Resolution, hero: str, kind: str, reason: str) -> str:
    card = res.draw_until_kind(skill_deck(hero), kind, hero)
    res.add({"kind": "card-taken", "hero": hero, "deck": skill_deck(hero), "card": card, "card_kind": kind, "reason": reason})
    return card


def _permanent_skill(res: Resolution, hero: str) -> None:
    _traded(res, hero, "good", "permanent-skill", THRESHOLD)
    take_skill(res, hero, "permanent", "permanent-skill")


def _weapon_and_corruption(res: Resolution, hero: str) -> None:
    level = res.hero(hero)["weapon_level"]
    trade = "weapon-upgrade" if level < MAX_WEAPON_LEVEL else "corruption-only"
    _traded(res, hero, "bad", trade, THRESHOLD)
    if level < MAX_WEAPON_LEVEL:
        res.add({"kind": "weapon-upgraded", "hero": hero, "from_level": level, "to_level": level + 1, "reason": "bad-karma-trade"})
    draw_corruption(res, hero, trade)


def draw_corruption(res: Resolution, hero: str, reason: str) -> None:
    (card,) = res.draw("corruption", 1, hero)
    res.add({"kind": "corruption-drawn", "hero": hero, "card": card, "reason": reason})


def master_skill(res: Resolution, hero: str) -> None:
    """The optional trade: 4 Good Karma and 1 AP for a one-time Skill Card, once per activation (L547, L550)."""
    _traded(res, hero, "good", "master-skill", 4, mandatory=False, ap=1)
    take_skill(res, hero, "one-time", "master-skill")
