"""Dice statistics per campaign: how often each face came up, digital and reported rolls apart."""

from __future__ import annotations

from typing import Any

from projections.timeline_words import of_event, words_of
from tracker.integrity.disclosure import undone_for
from tracker.domain import Session
from tracker.rulesets.engine.view import At, Table, View


_OF_THE_EVENT: Any = object()  # rows' rules unless given: looked up from the event's meta


def rows(event: Any, campaign_id: str, session_id: str = "", rules: Any = _OF_THE_EVENT) -> list[tuple[Any, ...]]:
    """One row per face rolled (+1, or -1 for a roll an undo took back); the batch sums its rows per face.

    A roll secret to one side (the Descent overlord's secret-room die) is kept sealed in its session: the statistics are
    read by every side, and one die more on a face would tell its result before the quest ends. Its rows go to the
    sealed table under its session, and ``read`` counts them once that session has ended, when the game reveals them.
    ``rules``: the rules of the event's game when it has more than one side (``TimelineWords.secret_rules``), or None."""
    name = type(event).__name__
    if rules is _OF_THE_EVENT:
        rules = of_event(event).secret_rules
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


PUBLIC = None  # the sealed_in of a roll every side may count at once


def _sealed_in(rules: Any, roll: dict[str, Any], session_id: str) -> str | None:
    return session_id if rules is not None and rules.secret_to({"kind": "rolled", "roll": roll}) is not None else PUBLIC


def _counted(roll: dict[str, Any], campaign_id: str, sealed_in: str | None, sign: int) -> list[tuple[Any, ...]]:
    source = roll["source"]
    if sealed_in is None:
        return [("dice", campaign_id, die, source, str(face), sign) for die, faces in roll["results"].items() for face in faces]
    return [("dice_sealed", campaign_id, sealed_in, die, source, str(face), sign) for die, faces in roll["results"].items() for face in faces]


class DiceStatistics(View):
    name = "dice-statistics"
    tables = {
        "view_dice_faces": Table(
            "campaign_id TEXT NOT NULL, die TEXT NOT NULL, source TEXT NOT NULL, face TEXT NOT NULL, "
            "count INTEGER NOT NULL, PRIMARY KEY (campaign_id, die, source, face)",
            ("campaign_id", "die", "source", "face"),
        ),
        # a secret roll's faces, by the session that keeps them until it ends
        "view_dice_sealed": Table(
            "campaign_id TEXT NOT NULL, session_id TEXT NOT NULL, die TEXT NOT NULL, source TEXT NOT NULL, face TEXT NOT NULL, "
            "count INTEGER NOT NULL, PRIMARY KEY (session_id, die, source, face)",
            ("campaign_id", "session_id", "die", "source", "face"),
        ),
    }
    writes = {
        "dice": "INSERT INTO {view_dice_faces} AS t (campaign_id, die, source, face, count) VALUES (%s, %s, %s, %s, %s) "
        "ON CONFLICT (campaign_id, die, source, face) DO UPDATE SET count = t.count + excluded.count",
        "dice_sealed": "INSERT INTO {view_dice_sealed} AS t (campaign_id, session_id, die, source, face, count) VALUES (%s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (session_id, die, source, face) DO UPDATE SET count = t.count + excluded.count",
    }
    summed = {"dice": 4, "dice_sealed": 5}  # (campaign, [session,] die, source, face): one upsert per face a batch rolled
    handles = (Session.DiceRolled, Session.ActionUndone)

    def rows(self, event: Any, at: At) -> list[tuple[Any, ...]]:
        return rows(event, at.campaign_id, at.session_id, words_of(at.ruleset_id).secret_rules)


def read(reader: Any, campaign_id: str) -> list[dict[str, Any]]:
    """The faces every side may count: the public rolls, and the sealed ones of sessions that have ended (their
    secrets are revealed then, as the session's state and events are)."""
    found = reader.query(
        "SELECT die, source, face, SUM(count) AS count FROM ("
        "SELECT die, source, face, count FROM {view_dice_faces} WHERE campaign_id = %s UNION ALL "
        "SELECT d.die, d.source, d.face, d.count FROM {view_dice_sealed} d JOIN {view_sessions} s ON s.session_id = d.session_id "
        "WHERE d.campaign_id = %s AND s.outcome IS NOT NULL"
        ") AS faces GROUP BY die, source, face ORDER BY die, source, face",
        (campaign_id, campaign_id),
    )
    return [{**row, "count": int(row["count"])} for row in found]


VIEW = DiceStatistics()
