"""Dice statistics per campaign: how often each face came up, digital and reported rolls apart."""

from __future__ import annotations

from typing import Any

from tracker import rulesets
from tracker.disclosure import undone_for
from tracker.domain import Session
from tracker.rulesets.view import At, Table, View


def rows(event: Any, campaign_id: str) -> list[tuple[Any, ...]]:
    """One row per face rolled (+1, or -1 for a roll an undo took back); the batch sums its rows per face.

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


class DiceStatistics(View):
    name = "dice-statistics"
    tables = {
        "view_dice_faces": Table(
            "campaign_id TEXT NOT NULL, die TEXT NOT NULL, source TEXT NOT NULL, face TEXT NOT NULL, "
            "count INTEGER NOT NULL, PRIMARY KEY (campaign_id, die, source, face)",
            ("campaign_id", "die", "source", "face"),
        ),
    }
    writes = {
        "dice": "INSERT INTO {view_dice_faces} AS t (campaign_id, die, source, face, count) VALUES (%s, %s, %s, %s, %s) "
        "ON CONFLICT (campaign_id, die, source, face) DO UPDATE SET count = t.count + excluded.count",
    }
    summed = {"dice": 4}  # (campaign, die, source, face): one upsert per face a batch rolled
    handles = (Session.DiceRolled, Session.ActionUndone)

    def rows(self, event: Any, at: At) -> list[tuple[Any, ...]]:
        return rows(event, at.campaign_id)


def read(reader: Any, campaign_id: str) -> list[dict[str, Any]]:
    return reader.query(
        "SELECT die, source, face, count FROM {view_dice_faces} WHERE campaign_id = %s ORDER BY die, source, face",
        (campaign_id,),
    )


VIEW = DiceStatistics()
