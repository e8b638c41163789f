"""What may be done now in a Kung Fu Panda mission, and by whom: before the first round, a round under
way (L71-L72, L184), the pause between rounds, or the mission over (L188-L192).

Each resolver still checks its own conditions (a payment, a tile); an entry here is "legal at this
point of the mission", not a promise that every body will be accepted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.engine import allowed

IN_A_ROUND = ("roll", "resolve-claws", "spend")  # each hero for themselves, while not KO'd
DECIDING = ("mission-won", "mission-failed")


def pauses_any_time(modes: Mapping[str, Any], mode: Any) -> bool:
    """Young Masters "may use 'Pause Actions' at any point during a mission" (L202), as the mode's data says."""
    return bool((modes.get(mode) or {}).get("pause_actions_any_time"))


def allowed_now(game: Mapping[str, Any], actions: Sequence[str], modes: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``modes``: the rules data's modes (what a mode lets the table do when)."""
    phase = game.get("phase")
    able = [hero for hero, sheet in sorted((game.get("heroes") or {}).items()) if not sheet.get("ko")]
    entries: list[dict[str, Any]] = []
    if phase == "round":
        entries.extend(allowed.entry(name, able) for name in IN_A_ROUND)
        entries.append(allowed.entry("end-round"))
        if pauses_any_time(modes, game.get("mode")):
            entries.append(allowed.entry("pause"))
        entries.extend(allowed.entry(name) for name in (*DECIDING, "round-summary"))
    elif phase in ("ready", "pause"):
        if phase == "pause" and game.get("paused_after") != game.get("round"):
            entries.append(allowed.entry("pause"))
        entries.extend(allowed.entry(name) for name in ("start-round", "round-summary", *DECIDING))
    entries.append(allowed.entry("correct"))  # honest judgement about the table (L127), at any time
    return [e for e in entries if e["type"] in actions]
