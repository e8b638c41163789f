"""Yōkai Quest: its rules data and pure resolvers.

A quest of the tracker is one scene; a story is a chain of scenes (the data's "stories"), and the
campaign's chain is the stories' scenes in the narrated order, or one story on its own. In the one game skeleton (tracker/rulesets/engine/skeleton.py).
"""

from __future__ import annotations

from typing import Any

from tracker.rulesets.engine import skeleton
from tracker.rulesets.engine.ruleset import Ruleset


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Yōkai Quest's ruleset over its data (an archived version's when given): carry-over and end refusals read it."""
    return skeleton.load(__name__, data)
