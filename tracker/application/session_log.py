"""How a stored event is shown: its position, type, time, metadata and payload as plain JSON."""

from __future__ import annotations

from typing import Any

from tracker.core import sealing

_HIDDEN = {"originator_id", "originator_version", "timestamp", "meta", "originator_topic"}


def event_view(event: Any, revealed: bool = False) -> dict[str, Any]:
    """The event as readers see it. Until its session ends (``revealed``), the fields it seals are left out
    (tracker/core/sealing.py): by its ``meta.sealed``, or by its type for events stored before sealing existed."""
    name = type(event).__name__
    payload = {k: v for k, v in event.__dict__.items() if k not in _HIDDEN}
    meta = dict(getattr(event, "meta", {}) or {})
    if not revealed:
        payload = sealing.public(payload, [path for path in sealing.LEGACY.get(name, ())])
        meta.pop("salts", None)  # with its commitment, a salt would let a reader test a guess (tracker/integrity/hiding.py)
    return {
        "position": event.originator_version,
        "type": name,
        "timestamp": event.timestamp.isoformat(),
        "meta": meta,
        "payload": payload,
    }
