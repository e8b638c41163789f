"""Dice statistics per campaign: how often each face came up, digital and reported rolls apart."""

from __future__ import annotations

from typing import Any

from tracker import rulesets
from tracker.disclosure import undone_for
from tracker.domain import Session
from tracker.rulesets.view import At, Table, View


def rows(event: Any, campaign_id: str, session_id: str = "") -> list[tuple[Any, ...]]:
    """One row per face rolled (+1, or -1 for a roll an undo took back); the batch sums its rows per face.

    A roll secret to one side (the Descent overlord's secret-room die) is kept sealed in its session: the statistics are
    read by every side, and one die more on a face would tell its result before the quest ends. Its rows name the
    session (``sealed_in``), and ``read`` counts them once that session has ended, when the game reveals them."""
    name = type(event).__name__
    rules = _rules(event)
    if name == "DiceRolled":
        return _counted(event.roll, campaign_id, _sealed_in(rules, event.roll, session_id), 1)
    if name == "ActionUndone":  # an undone roll no longer counts, from the rows it was counted in
        entries = event.reverses["events"]
        # an undo names a roll by its faces alone: the disclosure says which were secret (a secret action's rolls are)
        shown = entries if rules is None else undone_for(entries, rules, NO_SIDE)
        return [row for entry, seen in zip(entries, shown) if "roll" in entry
                for row in _counted(entry["roll"], campaign_id, PUBLIC if "roll" in seen else session_id, -1)]
    return []


NO_SIDE = ""  # a reader of no side: every side's secret is hidden from it


PUBLIC = ""  # the sealed_in of a roll every side may count at once


def _sealed_in(rules: Any, roll: dict[str, Any], session_id: str) -> str:
    return session_id if rules is not None and rules.secret_to({"kind": "rolled", "roll": roll}) is not None else PUBLIC


def _rules(event: Any) -> Any:
    ruleset = rulesets.registry().get((getattr(event, "meta", None) or {}).get("ruleset_id") or "")
    return ruleset.rules if ruleset is not None and len(ruleset.rules.sides) > 1 else None


def _counted(roll: dict[str, Any], campaign_id: str, sealed_in: str, sign: int) -> list[tuple[Any, ...]]:
    source = roll["source"]
    return [("dice", campaign_id, die, source, str(face), sealed_in, sign) for die, faces in roll["results"].items() for face in faces]


class DiceStatistics(View):
    name = "dice-statistics"
    tables = {
        "view_dice_faces": Table(
            "campaign_id TEXT NOT NULL, die TEXT NOT NULL, source TEXT NOT NULL, face TEXT NOT NULL, sealed_in TEXT NOT NULL, "
            "count INTEGER NOT NULL, PRIMARY KEY (campaign_id, die, source, face, sealed_in)",
            ("campaign_id", "die", "source", "face", "sealed_in"),
        ),
    }
    writes = {
        "dice": "INSERT INTO {view_dice_faces} AS t (campaign_id, die, source, face, sealed_in, count) VALUES (%s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (campaign_id, die, source, face, sealed_in) DO UPDATE SET count = t.count + excluded.count",
    }
    summed = {"dice": 5}  # (campaign, die, source, face, sealed_in): one upsert per face a batch rolled
    handles = (Session.DiceRolled, Session.ActionUndone)

    def rows(self, event: Any, at: At) -> list[tuple[Any, ...]]:
        return rows(event, at.campaign_id, at.session_id)


def read(reader: Any, campaign_id: str) -> list[dict[str, Any]]:
    """The faces every side may count: the public rolls, and the sealed ones of sessions that have ended (their
    secrets are revealed then, as the session's state and events are)."""
    found = reader.query(
        "SELECT f.die, f.source, f.face, SUM(f.count) AS count FROM {view_dice_faces} f "
        "LEFT JOIN {view_sessions} s ON s.session_id = f.sealed_in "
        "WHERE f.campaign_id = %s AND (f.sealed_in = '' OR s.outcome IS NOT NULL) "
        "GROUP BY f.die, f.source, f.face ORDER BY f.die, f.source, f.face",
        (campaign_id,),
    )
    return [{**row, "count": int(row["count"])} for row in found]


VIEW = DiceStatistics()
