"""Whether the rules have decided a Descent quest, from what its game state records.

The quest's own events say it: ``quest-lost`` when the conquest runs out (each quest's introduction: "If you
fall to 0 conquest points, the dark priests have won", L333; "If you run short of conquest tokens ...", L413,
L575, L616, L670), when the last glyph is destroyed (L505, L567, L687), or when the heroes finish below the
conquest the quest asks (L333, L402-L406); ``quest-won`` when the quest's final award is taken.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REASONS = {
    "conquest-exhausted": "the heroes ran out of conquest tokens (L333, L413: the overlord's side has won)",
    "last-glyph-destroyed": "the last glyph was destroyed (L505, L567, L687)",
    "finished-below": "the heroes finished with less conquest than the quest asks (L333, L402-L406)",
}


def verdict(game: Mapping[str, Any]) -> dict[str, str] | None:
    if game.get("lost"):
        return {"outcome": "defeat", "reason": REASONS.get(game["lost"], game["lost"])}
    if game.get("won"):
        return {"outcome": "victory", "reason": f"the heroes took the quest's final award '{game['won']}' (award-conquest)"}
    return None


def end_refusal(game: Mapping[str, Any], outcome: str) -> str | None:
    """Undecided quests end only as the text allows: a win is recorded by the quest's final award, a loss by
    the conquest running out or the quest's own defeat; a heroic victory is not a Descent outcome."""
    if outcome == "heroic-victory":
        return "Descent has no heroic victory; its quests are won or lost"
    if outcome == "victory":
        return f"the quest's final award is not recorded (the heroes have {game.get('conquest')} conquest): record it with award-conquest"
    return f"no defeat is recorded: the heroes still have {game.get('conquest')} conquest and no glyph loss ended the quest"
