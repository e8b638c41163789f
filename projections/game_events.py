"""The rulesets' own game events per campaign, in log order: what a ruleset folds into a campaign's standing."""

from __future__ import annotations

import json
from typing import Any

from tracker.domain.session import GameEvent


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
