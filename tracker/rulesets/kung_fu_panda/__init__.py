"""Kung Fu Panda: The Board Game: real-time rounds, Dials of Destiny, pooled dice spends,
missions, adventures and the nine-mission story. In the one game skeleton (tracker/rulesets/engine/skeleton.py)."""

from __future__ import annotations

from typing import Any

from tracker.rulesets.engine import skeleton
from tracker.rulesets.engine.ruleset import Ruleset


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Kung Fu Panda's ruleset over its data (an archived version's when given): its missions are that data's."""
    return skeleton.load(__name__, data)
