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

WHEELS = ("good", "bad")
# The trade each wheel makes when it reaches its cost (karma.trade_table, L547-L549).
MANDATORY = {"good": "permanent-skill", "bad": "weapon-upgrade"}


def trade(res: Resolution, trade_id: str) -> dict[str, Any]:
    """A row of the Karma trade table (L547-L549) as the rules data gives it: its cost decides the trade."""
    return next(row for row in res.rule("karma", "trade_table") if row["id"] == trade_id)


def threshold(res: Resolution, wheel: str) -> int:
    """The Karma at which ``wheel``'s mandatory trade is made: "when the Karma level is met or exceeded" (L550), its cost
    in the trade table (10 Good, 10 Bad: L548-L549)."""
    return trade(res, MANDATORY[wheel])["cost"][f"{wheel}_karma"]


def master_skill_cost(res: Resolution) -> int:
    """"4 Good Karma + 1 Action Point" (L547): the trade table's master-skill cost."""
    return trade(res, "master-skill")["cost"]["good_karma"]


def upgrade_block(res: Resolution) -> int:
    """A Karma Upgrade at set-up is a block of 10 points of one wheel (L672-L673): karma.upgrade.block_size."""
    return res.rule("karma", "upgrade", "block_size")


def rescue_gain(res: Resolution) -> int:
    """"Pilgrims gain 3 Good Karma Points for this heroic act" (L433): karma.gains.rescue_villager."""
    return res.rule("karma", "gains", "rescue_villager")


def max_weapon_level(res: Resolution) -> int:
    """"can be upgraded twice, to Level 2 and then Level 3" (L553): pilgrim_rules.weapon_max_level."""
    return res.rule("pilgrim_rules", "weapon_max_level")


def gain(res: Resolution, hero: str, wheel: str, amount: int, source: str) -> None:
    before = res.hero(hero)[wheel]
    res.add({"kind": "karma-gained", "hero": hero, "wheel": wheel, "amount": amount, "source": source, "before": before, "after": before + amount})
    if before + amount >= threshold(res, wheel):
        res.add({"kind": "karma-threshold-reached", "hero": hero, "wheel": wheel, "value": before + amount})
    trade_while_due(res, hero)


def lose(res: Resolution, hero: str, wheel: str, amount: int, source: str) -> None:
    before = res.hero(hero)[wheel]
    after = max(res.rule("karma", "floor"), before - amount)  # no stat falls below 0 (L310, L327): karma.floor
    res.add({"kind": "karma-lost", "hero": hero, "wheel": wheel, "amount": amount, "applied": before - after, "source": source, "before": before, "after": after})


def trade_while_due(res: Resolution, hero: str) -> None:
    """Both wheels trade independently (L555); each repeats while still at 10 or more: a mandatory trade is made
    whenever the level is met or exceeded (L550), "each time" the wheel reaches 10 (L553). The rules data says so
    (karma.repeated_trades_at_20_or_more); only an explicit false would make one trade per wheel, and data from
    before the reading (null) keeps the repeating it was played with."""
    repeat = res.ctx.ruleset.data["karma"].get("repeated_trades_at_20_or_more") is not False
    for wheel in WHEELS:
        traded = False
        while res.hero(hero)[wheel] >= threshold(res, wheel) and (repeat or not traded):
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
    _traded(res, hero, "good", "permanent-skill", threshold(res, "good"))
    take_skill(res, hero, trade(res, "permanent-skill")["reward"]["skill_card"], "permanent-skill")  # "A Permanent Skill Card" (L548)


def _weapon_and_corruption(res: Resolution, hero: str) -> None:
    level = res.hero(hero)["weapon_level"]
    top = max_weapon_level(res)
    row = trade(res, "weapon-upgrade")
    # "An upgraded Weapon Card & a Corruption Card" (L549); at Level 3 a Corruption Card only (L553): the trade row's reward
    trade_id, reward = ("weapon-upgrade", row["reward"]) if level < top else ("corruption-only", row["at_max_weapon"])
    _traded(res, hero, "bad", trade_id, threshold(res, "bad"))
    if level < top:
        res.add({"kind": "weapon-upgraded", "hero": hero, "from_level": level, "to_level": min(top, level + reward["weapon_levels"]), "reason": "bad-karma-trade"})
    for _ in range(reward["corruption_cards"]):
        draw_corruption(res, hero, trade_id)


def draw_corruption(res: Resolution, hero: str, reason: str) -> None:
    (card,) = res.draw("corruption", 1, hero)
    res.add({"kind": "corruption-drawn", "hero": hero, "card": card, "reason": reason})


def master_skill(res: Resolution, hero: str) -> None:
    """The optional trade: 4 Good Karma and 1 AP for a one-time Skill Card, once per activation (L547, L550)."""
    row = trade(res, "master-skill")
    _traded(res, hero, "good", "master-skill", row["cost"]["good_karma"], mandatory=False, ap=row["cost"]["action_points"])
    take_skill(res, hero, row["reward"]["skill_card"], "master-skill")  # "A One-time-use Skill Card" (L547)
