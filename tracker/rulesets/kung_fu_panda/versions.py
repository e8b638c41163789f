"""Kung Fu Panda's rules versions as code: each version of the rules data maps to the rules that play it, a later
version overriding only what changed from the one before. The archive keeps each version's data and contract
(tracker/rulesets/versions/kung-fu-panda/); a campaign plays and verifies by the class of the version it pinned
(``KungFuPandaRules.version``), so today's resolvers ask it and hold no version checks of their own.

1.0.0's missions stated only the mission's win; 1.1.0 (the code's own) states each win condition its text gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class V1_0_0:
    """Rules data 1.0.0."""

    number = "1.0.0"

    def win_stated(self, mission: Mapping[str, Any]) -> str:
        """The words of a won mission's verdict: what the mission says wins it."""
        return f"{mission['win']} ({mission['source']})"


class V1_1_0(V1_0_0):
    """Rules data 1.1.0 (the code's own): each mission's win conditions, checked against the recorded board."""

    number = "1.1.0"

    def win_stated(self, mission):
        return "; ".join(f"{c['text']} ({c['source']})" for c in mission["win_conditions"])


CHAIN = (V1_0_0, V1_1_0)
BY_VERSION = {version.number: version() for version in CHAIN}


def of(number: str) -> V1_0_0:
    """The rules of a version of the rules data (one of BY_VERSION: every archived version and the code's own)."""
    return BY_VERSION[number]
