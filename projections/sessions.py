"""The sessions the views know: each session's campaign, quest and outcome (what the other views join on)."""

from __future__ import annotations

from typing import Any

from tracker.domain import Session
from tracker.rulesets.engine.view import At, Table, View


class Sessions(View):
    name = "sessions"
    tables = {
        "view_sessions": Table("session_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, quest TEXT NOT NULL, outcome TEXT", ("session_id",)),
    }
    writes = {
        "session": "INSERT INTO {view_sessions} (session_id, campaign_id, quest, outcome) VALUES (%s, %s, %s, NULL) "
        "ON CONFLICT (session_id) DO NOTHING",
        "session_end": "UPDATE {view_sessions} SET outcome = %s WHERE session_id = %s",
    }
    creating = ("session",)
    handles = (Session.SessionStarted, Session.SessionEnded)

    def rows(self, event: Any, at: At) -> list[tuple[Any, ...]]:
        if type(event) is Session.SessionStarted:
            return [("session", at.session_id, at.campaign_id, at.quest)]
        return [("session_end", event.outcome, at.session_id)]


def session_of(reader: Any, session_id: str) -> tuple[str, str] | None:
    """The session's campaign and quest, once its start is projected."""
    rows = reader.query("SELECT campaign_id, quest FROM {view_sessions} WHERE session_id = %s", (session_id,))
    return (rows[0]["campaign_id"], rows[0]["quest"]) if rows else None


VIEW = Sessions()
