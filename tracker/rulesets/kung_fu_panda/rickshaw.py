"""Mission 1.3's line of tiles: where the Wolf Boss's rickshaw goes, and how the board shifts under the chase.

"Wolf Boss moves one tile forward" on a Play space (L289) and a pause moves him back or on (L303). "If Wolf Boss is
on the last tile and needs to move, remove the leftmost tile and put it in front of Wolf Boss at the right of the
board (all enemies on that tile will be discarded). If one of the heroes is on the leftmost tile when this
happens, they will be automatically moved forward one tile" (L290). "If the Kitchen tile reaches the beginning of
the line, it will be lost (and the dumpling with it ...). If a hero is in the Kitchen when it would be removed,
move them to the closest tile" (L291). The line is what the table lays out at set-up (the map is lost).
"""

from __future__ import annotations

from typing import Any

from tracker.rulesets.kung_fu_panda import state as game_state

def step(plan: Any, direction: str) -> str:
    """Plan the shifts a move of the Wolf Boss causes, and return the tile he moves to."""
    line = list(plan.game["line"])
    at = plan.game["figures"]["wolf-boss"]
    i = line.index(at)
    if direction == "backward":
        return line[i - 1] if i > 0 else at  # the reading rickshaw.backward_at_start: nowhere further back to go
    if i < len(line) - 1:
        return line[i + 1]
    leftmost = line[0]
    plan.add({"kind": "tile-cycled", "tile": leftmost, **_cleared(plan, leftmost, line[1]), "line": line[1:] + [leftmost]})
    kitchen = plan.mission["line"]["kitchen"]  # the Kitchen's tile in the mission's line (L304)
    if plan.game["line"][0] == kitchen and not plan.game.get("kitchen_lost"):
        line = plan.game["line"]
        plan.add({"kind": "kitchen-lost", "tile": kitchen, **_cleared(plan, kitchen, line[1]), "line": line[1:], "dumplings_lost": not plan.game["dumplings"]})
    return leftmost


def _cleared(plan: Any, tile: str, onward: str) -> dict[str, Any]:
    """The enemies discarded from a tile leaving the line (back to the reserve, the reading rickshaw.discarded)
    and the heroes moved forward off it."""
    discarded = {enemy: n for enemy, n in game_state.enemies_on(plan.game, tile).items() if enemy != "wolf-boss"}
    moved = {hero: onward for hero, h in plan.game["heroes"].items() if h["tile"] == tile}
    return {"discarded": discarded, "heroes_moved": moved}
