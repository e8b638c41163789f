"""Dice statistics per campaign: how often each face came up, digital and reported rolls apart."""

from __future__ import annotations

from collections import Counter
from typing import Any


def rows(event: Any, campaign_id: str) -> list[tuple[Any, ...]]:
    if type(event).__name__ != "DiceRolled":
        return []
    roll = event.roll
    counts: Counter[tuple[str, str]] = Counter()
    for die, faces in roll["results"].items():
        for face in faces:
            counts[(die, str(face))] += 1
    return [("dice", campaign_id, die, roll["source"], face, n) for (die, face), n in sorted(counts.items())]
