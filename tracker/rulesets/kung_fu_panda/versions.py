"""Kung Fu Panda's rules versions as code: each version of the rules data maps to the rules that play it, a later
version overriding only what changed from the one before. The archive keeps each version's data and contract
(tracker/rulesets/versions/kung-fu-panda/); a campaign plays and verifies by the class of the version it pinned
(``KungFuPandaRules.version``), so today's resolvers ask it and hold no version checks of their own.

1.0.0's missions stated only the mission's win; 1.1.0 states each win condition its text gives; 1.2.0 (the code's own)
changes the data only: Mission 1.2 names where its heroes start, "each hero begins on a Monastery Bed tile of their
player's choosing" (L281), so a set-up starting a hero elsewhere is refused (setup.py), where 1.1.0 took it silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.kung_fu_panda import verdict


class V1_0_0:
    """Rules data 1.0.0."""

    number = "1.0.0"

    def win_stated(self, mission: Mapping[str, Any]) -> str:
        """The words of a won mission's verdict: what the mission says wins it."""
        return f"{mission['win']} ({mission['source']})"

    def time_runs_out(self, mission: Mapping[str, Any], game: Mapping[str, Any], number: int) -> dict[str, Any]:
        """The change the final round's end records for a mission not yet won: time's up (L193). Its missions stated
        no win conditions to check: a win was the table's declaration alone."""
        return {"kind": "mission-lost", "loss": "times-up", "round": number}


class V1_1_0(V1_0_0):
    """Rules data 1.1.0: each mission's win conditions, checked against the recorded board."""

    number = "1.1.0"

    def win_stated(self, mission):
        return "; ".join(f"{c['text']} ({c['source']})" for c in mission["win_conditions"])

    def time_runs_out(self, mission, game, number):
        # L193: "If players have not won the mission by the time the sand timer runs out on the final round, [...] the
        # game is lost." Read (win.declared leaves the moment of a win to the table while the rounds go on): when the
        # sand runs out on the final round with every win condition holding on the recorded board (Lesson 1: "if you
        # do not end on the Hot Springs scene tile within 1 round, you lose", L218), the heroes have won, and the log
        # decides it then, not the table.
        if mission.get("win_conditions") and not verdict.unmet_wins(mission, game):
            return {"kind": "mission-won", "round": number, "objective": mission["win"]}
        return super().time_runs_out(mission, game, number)


class V1_2_0(V1_1_0):
    """Rules data 1.2.0 (the code's own): Mission 1.2's start tiles, the four Monastery Beds (L281). The data alone
    differs; the set-up reads each mission's "start_tiles" (setup.py)."""

    number = "1.2.0"


CHAIN = (V1_0_0, V1_1_0, V1_2_0)
BY_VERSION = {version.number: version() for version in CHAIN}


def of(number: str) -> V1_0_0:
    """The rules of a version of the rules data (one of BY_VERSION: every archived version and the code's own)."""
    return BY_VERSION[number]
