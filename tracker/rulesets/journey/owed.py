"""What a Journey table owes the rules now, and the facts the quest's end will ask it to state.

- Starting Skill Cards: L221: "Shuffle the Skill Cards and draw the top 2." Where the deck's cards were lost, the
  Pilgrim draws them at the table and reports them (take-starting-skills); until then they are owed.
- The end's facts: the quest's end, victory and defeat conditions (ruleset.json "outcomes") that only the table
  can see (verdict.REPORTED), stated with the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.journey.verdict import REPORTED


def owed(game: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    out = []
    for hero, sheet in (game.get("heroes") or {}).items():
        count = int(sheet.get("skill_draws_owed") or 0)
        if count > 0:
            cards = "Card" if count == 1 else "Cards"
            out.append(f"{names.get(hero, hero)} draws {count} starting Skill {cards} at the table (L221) and reports them with Take starting skills")
    return out


def end_facts(outcomes: Mapping[str, Any] | None) -> list[dict[str, str]]:
    """The facts only the table sees that this quest's conditions name, each with its key in the end's "reported",
    the words that say it and the rulebook line of the condition."""
    found: dict[str, dict[str, str]] = {}
    for conditions in _conditions(outcomes or {}):
        name = conditions.get("fact")
        if name in REPORTED and name not in found:
            key, said = REPORTED[name]
            found[name] = {"key": key, "said": said[0].upper() + said[1:], "line": str(conditions.get("line") or "")}
    return list(found.values())


def _conditions(outcomes: Mapping[str, Any]):
    for value in outcomes.values():
        if isinstance(value, list):
            for item in value:
                if isinstance(item, list):
                    yield from (c for c in item if isinstance(c, Mapping))
                elif isinstance(item, Mapping):
                    yield item
