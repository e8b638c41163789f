"""The rulesets' own game events per campaign, in log order: what a ruleset folds into a campaign's standing."""

from __future__ import annotations

import json
from typing import Any

from tracker.domain.events import GameEvent
from tracker.rulesets.engine.view import At, Table, View


def rows(event: Any, campaign_id: str, notification_id: int, session_id: str | None = None) -> list[tuple[Any, ...]]:
    if not isinstance(event, GameEvent):
        return []
    change = event.change
    return [
        (
            "game_event",
            notification_id,
            campaign_id,
            session_id or str(event.originator_id),
            event.originator_version,
            type(event).__name__,
            change["kind"],
            json.dumps(change, sort_keys=True, separators=(",", ":")),
        )
    ]


class GameEvents(View):
    name = "game-events"
    tables = {
        "view_game_events": Table(
            "notification_id INTEGER PRIMARY KEY, campaign_id TEXT NOT NULL, session_id TEXT NOT NULL, position INTEGER NOT NULL, "
            "event_type TEXT NOT NULL, kind TEXT NOT NULL, change TEXT NOT NULL",
            ("session_id", "position"),
        ),
    }
    writes = {
        "game_event": "INSERT INTO {view_game_events} (notification_id, campaign_id, session_id, position, event_type, kind, change) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (notification_id) DO NOTHING",
    }
    copied = {
        "game_event": "COPY {view_game_events} (notification_id, campaign_id, session_id, position, event_type, kind, change) FROM STDIN",
    }
    handles = (GameEvent,)

    def rows(self, event: Any, at: At) -> list[tuple[Any, ...]]:
        return rows(event, at.campaign_id, at.notification_id, at.session_id)


def read(reader: Any, campaign_id: str) -> list[dict[str, Any]]:
    """A campaign's game events in log order, with their session's quest and outcome, less those an undo
    reverted (the log keeps them; standings and ledgers must not count them)."""
    found = reader.query(
        "SELECT g.session_id, g.position, g.event_type, g.kind, g.change, s.quest, s.outcome FROM {view_game_events} g "
        "JOIN {view_sessions} s ON s.session_id = g.session_id "
        "LEFT JOIN {view_undone} u ON u.session_id = g.session_id AND u.position = g.position "
        "WHERE g.campaign_id = %s AND u.position IS NULL ORDER BY g.notification_id",
        (campaign_id,),
    )
    return [{**row, "change": json.loads(row["change"])} for row in found]


VIEW = GameEvents()
