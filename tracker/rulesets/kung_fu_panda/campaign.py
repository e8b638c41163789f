"""Game lengths and what carries over: a single mission, a three-mission adventure or the
nine-mission story; Special Move cards earned by collecting the dumplings and winning the mission.
Health, dials and the board are set up afresh for every mission."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable

OUTCOME_OF = {"victory": "won", "defeat": "lost"}


def chain(data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
    length = options.get("length", "story")
    if length == "single":
        return [options["mission"]]
    if length == "adventure":
        return list(data["campaign"]["adventures"][str(options["adventure"])])
    return list(data["campaign"]["chain"])


def carry_over(progress: Mapping[str, Any], game: Mapping[str, Any], quest: str, outcome: str, options: Mapping[str, Any]) -> dict[str, Any]:
    if outcome not in OUTCOME_OF:
        raise Unprocessable(f"A mission is won or lost, not '{outcome}'", detail='End the session with "victory" or "defeat".')
    # The outcome is the rules' verdict, or the owner's table ruling over it (checked before this is called).
    won = outcome == "victory"
    return {
        # earned: a hero collected the dumplings AND the mission was completed
        "earned_special_moves": bool(won and game.get("dumplings")),
        # cards held are for the mission they were drawn before, and its retries
        "special_moves": {} if won else dict(game.get("special_moves", {})),
    }
