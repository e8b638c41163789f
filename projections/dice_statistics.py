"""Dice statistics per campaign: how often each face came up, digital and reported rolls apart."""

from __future__ import annotations

from typing import Any

from tracker import rulesets
from tracker.disclosure import undone_for


def rows(event: Any, campaign_id: str) -> list[tuple[Any, ...]]:
    """One row per face rolled (+1, or -1 for a roll an undo took back); the store sums a batch's rows per face.

    A roll secret to one side (the Descent overlord's secret-room die) is never counted: the statistics are read by
    every side, and one die more on a face would tell its result."""
    name = type(event).__name__
    rules = _rules(event)
    if name == "DiceRolled":
        if rules is not None and rules.secret_to({"kind": "rolled", "roll": event.roll}) is not None:
            return []
        return _counted(event.roll, campaign_id, 1)
    if name == "ActionUndone":  # an undone roll no longer counts (nor does a secret one, which never did)
        undone = event.reverses["events"] if rules is None else undone_for(event.reverses["events"], rules, NO_SIDE)
        return [row for entry in undone if "roll" in entry for row in _counted(entry["roll"], campaign_id, -1)]
    return []


NO_SIDE = ""  # a reader of no side: every side's secret is hidden from it


def _rules(event: Any) -> Any:
    ruleset = rulesets.registry().get((getattr(event, "meta", None) or {}).get("ruleset_id") or "")
    return ruleset.rules if ruleset is not None and len(ruleset.rules.sides) > 1 else None


def _counted(roll: dict[str, Any], campaign_id: str, sign: int) -> list[tuple[Any, ...]]:
    source = roll["source"]
    return [("dice", campaign_id, die, source, str(face), sign) for die, faces in roll["results"].items() for face in faces]
