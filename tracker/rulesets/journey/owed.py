"""What a Journey table owes the rules now: the starting Skill Cards still to draw.

L221: "Shuffle the Skill Cards and draw the top 2." Where the deck's cards were lost, the Pilgrim draws them at the
table and reports them (take-starting-skills); until then they are owed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any



def owed(game: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    out = []
    for hero, sheet in (game.get("heroes") or {}).items():
        count = int(sheet.get("skill_draws_owed") or 0)
        if count > 0:
            cards = "Card" if count == 1 else "Cards"
            out.append(f"{names.get(hero, hero)} draws {count} starting Skill {cards} at the table (L221) and reports them with Take starting skills")
    return out
