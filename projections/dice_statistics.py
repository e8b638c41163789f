"""Dice statistics per campaign: how often each face came up, digital and reported rolls apart."""

from __future__ import annotations

from collections import Counter
from typing import Any


def rows(event: Any, campaign_id: str) -> list[tuple[Any, ...]]:
    name = type(event).__name__
    if name == "DiceRolled":
        return _counted(event.roll, campaign_id, 1)
    if name == "ActionUndone":  # an undone roll no longer counts
        return [row for undone in event.reverses["events"] if "roll" in undone for row in _counted(undone["roll"], campaign_id, -1)]
    return []


def _counted(roll: dict[str, Any], campaign_id: str, sign: int) -> list[tuple[Any, ...]]:
    counts: Counter[tuple[str, str]] = Counter()
    for die, faces in roll["results"].items():
        for face in faces:
            counts[(die, str(face))] += 1
    return [("dice", campaign_id, die, roll["source"], face, sign * n) for (die, face), n in sorted(counts.items())]
