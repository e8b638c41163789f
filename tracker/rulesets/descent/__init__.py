"""Descent: Journeys in the Dark (1st ed.) with The Altar of Despair: rules data and pure resolvers.

Two sides in one session: the heroes and the overlord. The overlord's hand, deck customisation and chosen
glyphs are recorded like everything else and marked secret to him until the quest ends (hidden.py).
In the one game skeleton (tracker/rulesets/engine/skeleton.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tracker.rulesets.engine import skeleton
from tracker.rulesets.engine.ruleset import Ruleset

HERE = Path(__file__).parent


def community_components() -> dict[str, Any]:
    """The community's component data (die faces and the like), labelled with its sources: the ruleset's one pack."""
    return skeleton.component_packs(HERE)[0]


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Descent's ruleset over its data (an archived version's when given, tracker/rulesets/__init__.py archived())."""
    return skeleton.load(__name__, data)
