"""Standing per campaign: each session's game state folded from its game events by the ruleset,
and the campaign's progress as each quest's end recorded it (what the next quest starts from)."""

from __future__ import annotations

import json
from typing import Any

from tracker import rulesets
from tracker.domain import Campaign, Session
from tracker.domain.events import GameEvent
from tracker.rulesets.engine.view import At, Table, View


class Standing(View):
    name = "standing"
    tables = {
        "view_game_states": Table(
            "session_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, quest TEXT NOT NULL, started INTEGER NOT NULL, state TEXT NOT NULL",
            ("session_id",),
        ),
        "view_campaign_progress": Table("campaign_id TEXT PRIMARY KEY, progress TEXT NOT NULL", ("campaign_id",)),
    }
    writes = {
        "game_state_start": "INSERT INTO {view_game_states} (session_id, campaign_id, quest, started, state) VALUES (%s, %s, %s, %s, %s) "
        "ON CONFLICT (session_id) DO NOTHING",
        "game_state": "UPDATE {view_game_states} SET state = %s WHERE session_id = %s",
        "progress": "INSERT INTO {view_campaign_progress} AS t (campaign_id, progress) VALUES (%s, %s) "
        "ON CONFLICT (campaign_id) DO UPDATE SET progress = excluded.progress",
    }
    creating = ("game_state_start",)
    latest = {"game_state": 2}  # a session's state is set once per batch, to the last one folded
    version = 2  # 2: an undo puts back the game state from before the action it reverts
    handles = (Session.SessionStarted, GameEvent, Campaign.QuestEnded, Session.ActionUndone)

    def rows(self, event: Any, at: At) -> list[tuple[Any, ...]]:
        if isinstance(event, Campaign.QuestEnded):
            if event.progress is None:
                return []
            return [("progress", at.campaign_id, json.dumps(event.progress, sort_keys=True, ensure_ascii=False))]
        if type(event) is Session.SessionStarted:
            at.put(self.name, at.session_id, {})
            return [("game_state_start", at.session_id, at.campaign_id, at.quest, at.notification_id, "{}")]
        if isinstance(event, Session.ActionUndone):
            # The undo names the state from before the action it reverts: folding on from the undone changes would
            # count them (and a fold that reads them, as a treasure card owed, would fail on what follows).
            game = event.restored["game"]
            at.put(self.name, at.session_id, game)
            return [("game_state", json.dumps(game, sort_keys=True, ensure_ascii=False), at.session_id)]
        ruleset = rulesets.registry().get(at.ruleset_id or "")
        if ruleset is None:
            return []
        game = ruleset.rules.fold(at.state(self.name, at.session_id) or {}, event.change)
        at.put(self.name, at.session_id, game)
        return [("game_state", json.dumps(game, sort_keys=True, ensure_ascii=False), at.session_id)]

    def stored_state(self, reader: Any, session_id: str) -> dict[str, Any] | None:
        found = reader.query("SELECT state FROM {view_game_states} WHERE session_id = %s", (session_id,))
        return json.loads(found[0]["state"]) if found else None


def read(reader: Any, campaign_id: str, ruleset: dict[str, Any] | None = None) -> dict[str, Any]:
    """The campaign's progress at its last quest's end, and the game state of its latest session (``ruleset``: the
    campaign's pin, which the latest session answers beside its state, as a session's own answer does)."""
    progress = reader.query("SELECT progress FROM {view_campaign_progress} WHERE campaign_id = %s", (campaign_id,))
    latest = reader.query(
        "SELECT session_id, quest, state FROM {view_game_states} WHERE campaign_id = %s ORDER BY started DESC LIMIT 1",
        (campaign_id,),
    )
    return {
        "progress": json.loads(progress[0]["progress"]) if progress else {},
        "latest_session": {"session_id": latest[0]["session_id"], "quest": latest[0]["quest"], "game": json.loads(latest[0]["state"]),
                           **({"ruleset": ruleset} if ruleset else {})}
        if latest
        else None,
    }


def latest_campaigns(reader: Any, limit: int) -> list[str]:
    """The campaigns whose sessions started last, at most ``limit``: those a worker primes at boot (api/warming.py)."""
    rows = reader.query(
        "SELECT campaign_id, MAX(started) AS latest FROM {view_game_states} GROUP BY campaign_id ORDER BY latest DESC LIMIT %s",
        (limit,),
    )
    return [row["campaign_id"] for row in rows]


VIEW = Standing()
