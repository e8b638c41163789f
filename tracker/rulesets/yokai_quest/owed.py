"""What a Yōkai Quest table owes the rules now: the treasure cards due to heroes.

L258: "When this reserve reaches 5 tokens, each hero receives a card from the treasure deck. The reserve is then
emptied and the cycle repeats." A scene's reward may owe a card too (a search of the deck). Each is owed until
drawn (draw-treasure).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any


def owed(game: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    due: Counter[tuple[str, str]] = Counter()
    for item in game.get("treasure_owed") or []:
        why = f"a search of the treasure deck ({item['search']})" if item.get("search") else str(item.get("reason") or "treasure")
        due[(str(item.get("hero")), why)] += 1
    out = []
    for (hero, why), count in due.items():
        cards = "a treasure card" if count == 1 else f"{count} treasure cards"
        out.append(f"{names.get(hero, hero)} is owed {cards}: {why} (L258); draw it with Draw treasure")
    return out
