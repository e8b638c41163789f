"""Standing per campaign: each session's game state folded from its game events by the ruleset,
and the campaign's progress as each quest's end recorded it (what the next quest starts from)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tracker import rulesets
from tracker.domain.session import GameEvent


def rows(
    event: Any,
    campaign_id: str,
    position: int,
    games: dict[str, dict[str, Any]],
    stored: Callable[[str], dict[str, Any]],
    session_id: str | None = None,
) -> list[tuple[Any, ...]]:
    """``games`` holds the states folded earlier in this batch (not yet written); ``stored`` reads the view;
    ``session_id`` is ``str(event.originator_id)``, when the caller has it already."""
    name = type(event).__name__
    if name != "SessionStarted" and not isinstance(event, GameEvent):
        return []
    session_id = session_id or str(event.originator_id)
    if name == "SessionStarted":
        games[session_id] = {}
        return [("game_state_start", session_id, campaign_id, event.quest, position, "{}")]
    if isinstance(event, GameEvent):

        ruleset = rulesets.registry().get(((getattr(event, "meta", None) or {}).get("ruleset_id")) or "")
        if ruleset is None:
            return []
        game = ruleset.rules.fold(games[session_id] if session_id in games else stored(session_id), event.change)
        games[session_id] = game
        return [("game_state", json.dumps(game, sort_keys=True, ensure_ascii=False), session_id)]
    return []


def progress_rows(event: Any) -> list[tuple[Any, ...]]:
    if type(event).__name__ != "QuestEnded" or event.progress is None:
        return []
    return [("progress", str(event.originator_id), json.dumps(event.progress, sort_keys=True, ensure_ascii=False))]
