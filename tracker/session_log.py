"""How a stored event is shown: its position, type, time, metadata and payload as plain JSON."""

from __future__ import annotations

from typing import Any

_HIDDEN = {"originator_id", "originator_version", "timestamp", "meta", "originator_topic"}


def event_view(event: Any, reveal_seed: bool = False, rules: Any = None, viewer: str | None = None) -> dict[str, Any]:
    """``viewer``: the side reading, while secrets are still kept (None: show everything)."""
    payload = {k: v for k, v in event.__dict__.items() if k not in _HIDDEN}
    change = payload.get("change")
    if viewer is not None and rules is not None and isinstance(change, dict):
        secret_to = rules.secret_to(change)
        if secret_to is not None and secret_to != viewer:
            payload["change"] = _redacted(change, secret_to)
    if "seed" in payload and type(event).__name__ == "SessionStarted" and not reveal_seed:
        payload["seed"] = None  # committed to by seed_commitment; revealed when the session ends
    return {
        "position": event.originator_version,
        "type": type(event).__name__,
        "timestamp": event.timestamp.isoformat(),
        "meta": dict(getattr(event, "meta", {}) or {}),
        "payload": payload,
    }


def _redacted(change: dict[str, Any], side: str) -> dict[str, Any]:
    """What the other side may know of a secret change: that it happened, and how many cards."""
    shown: dict[str, Any] = {"kind": change.get("kind"), "hidden": True, "secret_to": side}
    if "deck" in change:
        shown["deck"] = change["deck"]
    if isinstance(change.get("cards"), list):
        shown["count"] = len(change["cards"])
    return shown
