"""Whether the recorded state decides a scene before the table ends it, and whether a scene's end the table states
contradicts the log (rules 1.4.0 on: versions.py).

"To progress from one scene to the next, it's necessary to achieve the victory conditions established for the scene.
When the conditions are fulfilled, the appearance points stop working [...] When there are no more yōkai left to
fight, the scene ends" (L753). So once the log shows every victory condition the scene needs met (each one it can
check: a condition that asks the table, ``reported``, waits for the table's word) and no yōkai left to fight (none
need be where the next scene keeps the board, L807, L1069), the scene is won at that event. ``end-scene`` then
records its rewards. A failure the table states while the log shows the victory conditions met is refused: the
scene fails only when a condition "cannot be achieved any longer" (L755) or every hero is defeated (L763), and the
rules record the latter themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Conflict
from tracker.rulesets.yokai_quest import scenes
from tracker.rulesets.yokai_quest import verdict as decided


def met_by_log(scene: Mapping[str, Any], game: Mapping[str, Any], turn: int) -> list[Mapping[str, Any]] | None:
    """The victory conditions the log shows met that win the scene (all of them, or one where the bullets are
    alternatives), or None while the log does not show them (a condition the table states is never the log's)."""
    def met(condition: Mapping[str, Any]) -> bool:
        return not condition.get("reported") and decided.unmet(game, condition, turn, {}) is None

    conditions = scene["victory"]
    if decided.victory_needs_all(scene):
        return list(conditions) if all(met(c) for c in conditions) else None
    first = next((c for c in conditions if met(c)), None)
    return None if first is None else [first]


def awaited(scene: Mapping[str, Any], game: Mapping[str, Any]) -> list[str]:
    """The facts only the table sees that the scene's victory waits on: the conditions it states (by their ids)."""
    if game.get("scene_result") is not None:
        return []
    return [c["id"] for c in scene["victory"] if c.get("reported")]


def won(data: Mapping[str, Any], scene: Mapping[str, Any], game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
    """The scene's victory when the log decides it now (L753), else None."""
    if game.get("scene_result") is not None or not game.get("heroes"):
        return None
    if all(hero["defeated"] for hero in game["heroes"].values()):
        return None  # L763: the rules fail it (verdict.fail_when_all_defeated)
    met = met_by_log(scene, game, turn)
    if met is None or scenes.yokai_left(data, scene, game):
        return None
    return {"outcome": "victory", "reason": "the victory conditions are met and no yōkai is left to fight (L753): "
            + "; ".join(decided.quoted(c) for c in met)}


def refuse_contradicted_end(plan: Any, scene: Mapping[str, Any], outcome: str) -> None:
    """Refuse (409) an end-scene whose outcome the log contradicts: a failure while the victory conditions hold, or
    either outcome against the verdict the rules recorded."""
    recorded = plan.ctx.state.get("verdict")
    if recorded is not None and (recorded["outcome"] == "victory") != (outcome == "victory"):
        raise Conflict(
            f"The scene cannot end {'in victory' if outcome == 'victory' else 'failed'}: the rules decided it at event "
            f"{recorded['position']}, {recorded['outcome']}: {recorded['reason']}",
            detail="End the scene with the outcome the rules decided, or undo the actions that decided it. Nothing was recorded.",
            errors={"outcome": [f"The rules decided {recorded['outcome']}."]},
        )
    if outcome == "failed" and recorded is None:
        met = met_by_log(scene, plan.game, plan.turn)
        if met is not None:
            held = "; ".join(decided.quoted(c) for c in met)
            raise Conflict(
                f"The scene cannot fail: its victory condition holds, {held}",
                detail="A scene fails when a victory condition can no longer be achieved (L755) or every hero is defeated "
                "(L763); the log shows the conditions met. Clear the yōkai left and end it in victory. Nothing was recorded.",
                errors={"outcome": [f"Met: {held}."]},
            )


def end_pending(game: Mapping[str, Any], verdict: Mapping[str, Any]) -> str | None:
    """A scene the log won ends with end-scene first: it records the rewards and achievements the campaign carries
    ("at the end of it they will receive the specified reward", L757), which the session's end alone would lose."""
    if verdict["outcome"] == "victory" and game.get("scene") and game.get("scene_result") is None:
        return ("the scene's end is not recorded yet: send the 'end-scene' action with outcome 'victory' first, which records "
                "its rewards and achievements (L757)")
    return None
