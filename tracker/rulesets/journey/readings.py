"""Readings the table states once for its campaign, where the rulebook leaves a rule's meaning open, and the rules
that wait for them.

Quest 10 Part 2's Villager bonus (L1077): "A Pilgrim gets +1 ATT against the Bull Demon King for each Villager Token
in their possession." ATT is the number of Attack Dice (L216), but the text does not say whether +1 ATT is one more die
or +1 to the total (the quest's ``att_bonus_meaning`` is unknown). The quest's ``villager_att_bonus_reading`` gives the
choices; the table states one with ``state-reading``, recorded as ``reading-stated`` and carried in the campaign's
progress to every later session, and the attack applies it. Until it is stated, an attack on the Bull Demon King by a
Pilgrim who holds a Villager Token is refused with the body that states it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey.resolution import Resolution


def _open(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """Every reading the rules data leaves to the table, by id (a quest's ``villager_att_bonus_reading``)."""
    return {quest["villager_att_bonus_reading"]["id"]: quest["villager_att_bonus_reading"]
            for quest in data["quests"] if quest.get("villager_att_bonus_reading")}


def state_reading(res: Resolution, params: Mapping[str, Any]) -> None:
    """The table states its reading of an open rule, once for the campaign."""
    readings = _open(res.ctx.ruleset.data)
    reading = readings.get(params["reading"])
    if reading is None:
        raise Unprocessable(
            "This campaign's rules leave no such reading to the table",
            detail="Readings the table states: " + ("; ".join(f"{key} ({r['name']}, {r['line']})" for key, r in sorted(readings.items())) or "none") + ".",
            errors={"reading": ["Not a reading of these rules."]},
        )
    choices = reading["choices"]
    if params["choice"] not in choices:
        raise Unprocessable(
            f"Choose one of the readings of {reading['name']}",
            detail=" or ".join(f"{key}: {means}" for key, means in choices.items()) + f" ({reading['line']}).",
            errors={"choice": [" or ".join(choices)]},
        )
    stated = (res.game.get("readings") or {}).get(reading["id"])
    if stated is not None:
        raise Unprocessable(
            f"The table already read {reading['name']} as {choices[stated]}",
            detail="A reading is stated once for the campaign, and every later quest plays by it.",
            errors={"reading": ["Already stated for this campaign."]},
        )
    res.add({"kind": "reading-stated", "reading": reading["id"], "name": reading["name"], "choice": params["choice"],
             "means": choices[params["choice"]], "line": reading["line"]})


def carried(progress: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, str]:
    """The readings the campaign has stated, after a quest (its progress keeps them for every later quest)."""
    return {**(progress.get("readings") or {}), **(game.get("readings") or {})}


def carry_in(res: Resolution, progress: Mapping[str, Any]) -> None:
    """A session's set-up holds the readings its campaign stated before it, so a later quest plays by them."""
    readings = _open(res.ctx.ruleset.data)
    for key, choice in sorted((progress.get("readings") or {}).items()):
        reading = readings[key]
        res.add({"kind": "reading-stated", "reading": key, "name": reading["name"], "choice": choice, "means": reading["choices"][choice],
                 "line": reading["line"], "carried": True})


@dataclass(frozen=True)
class Bonus:
    """What a reading adds to an attack: Attack Dice rolled, points on the total, and what the attack records of it."""

    dice: int = 0
    total: int = 0
    recorded: dict[str, Any] = field(default_factory=dict)


NO_BONUS = Bonus()


def villager_bonus(res: Resolution, hero: str, character: str) -> Bonus:
    """L1077: "A Pilgrim gets +1 ATT against the Bull Demon King for each Villager Token in their possession." The
    Villager Tokens a Pilgrim holds are those it rescued this quest (Part 1's are removed, L1080), read as the table
    stated (one more Attack Die, or +1 to the total, per token)."""
    quest = res.ctx.ruleset.quest(res.game["quest"])
    reading = quest.get("villager_att_bonus_reading")
    held = len(res.hero(hero)["villagers"])
    if not reading or character != quest.get("villager_att_bonus_vs") or not held:
        return NO_BONUS
    choice = (res.game.get("readings") or {}).get(reading["id"])
    if choice is None:
        example = {"type": "state-reading", "reading": reading["id"], "choice": next(iter(reading["choices"]))}
        raise Unprocessable(
            f"State how the table reads {reading['name']} first",
            detail=(f"{reading['line']}: \"{reading['text']}\" {res.character(hero)['name']} holds {held} Villager Token{'s' if held > 1 else ''}, "
                    "and the rulebook does not say what +1 ATT means: send the state-reading action once for the campaign with \"choice\" "
                    + " or ".join(f"\"{key}\" ({means})" for key, means in reading["choices"].items()) + ", then attack again."),
            errors={"reading": [f"State {reading['id']} first."]},
            example=example,
        )
    amount = held * quest["villager_att_bonus"]
    recorded = {"villager_bonus": {"villagers": held, "reading": choice, "amount": amount, "line": reading["line"]}}
    return Bonus(dice=amount, recorded=recorded) if choice == "attack-die" else Bonus(total=amount, recorded=recorded)
