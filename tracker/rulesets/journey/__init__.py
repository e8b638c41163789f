"""Journey: Wrath of Demons: its rules data and pure resolvers, in the one game skeleton (tracker/rulesets/engine/skeleton.py)."""

from __future__ import annotations

from typing import Any

from tracker.rulesets.engine import skeleton
from tracker.rulesets.engine.ruleset import Ruleset


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Journey's ruleset over its data (an archived version's when given): its game rules judge by that data."""
    return skeleton.load(__name__, data)
