"""Dice statistics per campaign: how often each face came up, digital and reported rolls apart."""

from __future__ import annotations

from typing import Any


def rows(event: Any, campaign_id: str) -> list[tuple[Any, ...]]:
    """One row per face rolled (+1, or -1 for a roll an undo took back); the store sums a batch's rows per face."""
    name = type(event).__name__
    if name == "DiceRolled":
        return _counted(event.roll, campaign_id, 1)
    if name == "ActionUndone":  # an undone roll no longer counts
        return [row for undone in event.reverses["events"] if "roll" in undone for row in _counted(undone["roll"], campaign_id, -1)]
    return []


def _counted(roll: dict[str, Any], campaign_id: str, sign: int) -> list[tuple[Any, ...]]:
    source = roll["source"]
    return [("dice", campaign_id, die, source, str(face), sign) for die, faces in roll["results"].items() for face in faces]
