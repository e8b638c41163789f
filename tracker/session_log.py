"""How a stored event is shown: its position, type, time, metadata and payload as plain JSON."""

from __future__ import annotations

from typing import Any

_HIDDEN = {"originator_id", "originator_version", "timestamp", "meta", "originator_topic"}


def event_view(event: Any, reveal_seed: bool = False) -> dict[str, Any]:
    payload = {k: v for k, v in event.__dict__.items() if k not in _HIDDEN}
    if "seed" in payload and type(event).__name__ == "SessionStarted" and not reveal_seed:
        payload["seed"] = None  # committed to by seed_commitment; revealed when the session ends
    return {
        "position": event.originator_version,
        "type": type(event).__name__,
        "timestamp": event.timestamp.isoformat(),
        "meta": dict(getattr(event, "meta", {}) or {}),
        "payload": payload,
    }

