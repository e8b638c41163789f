"""Whether a scene's conditions are met or can no longer be met, and what the rules decide.

"To progress from one scene to the next, it's necessary to achieve the victory conditions established for
the scene" (L753); "If one or more of the victory conditions cannot be achieved any longer, the scene ends
and the reattempt mechanic comes into play" (L755); "If all the heroes in the scene are defeated, the
Reattempt mechanic is engaged" (L763). A scene is decided when it ends: in victory by ``end-scene`` once its
conditions are met, or failed, by the table's ``end-scene`` or at once when the log shows the failure
(a turn limit passed, every hero defeated).

What a condition asks, as data (each checked against the log, or stated by the table where the log cannot know):
``defeat`` {yōkai type or "any": count} with ``before_turn``; ``same_turn``; ``destroy_all`` (every objective of a
type, their number stated at set-up); ``survive_until_turn``; ``no_energy_spent``; ``no_health_lost_to`` (a blow
conversion); ``reported`` (a fact at the table: a figure reached a square).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from tracker.rulesets.yokai_quest.plan import Plan

NO_HEROIC = "Yōkai Quest has no heroic victory: a scene is won or failed (L753-L755)"
ALL_DEFEATED = "every hero is defeated: \"If all the heroes in the scene are defeated, the Reattempt mechanic is engaged\" (L763)"
TABLE_FAILED = "a victory condition can no longer be met (L755), as the table stated"


def _source(condition: Mapping[str, Any]) -> str:
    return f" ({condition['source']})" if condition.get("source") else ""


def quoted(condition: Mapping[str, Any]) -> str:
    return f"'{condition['text']}'{_source(condition)}"


def unmet(game: Mapping[str, Any], condition: Mapping[str, Any], turn: int, reported: Mapping[str, Any]) -> str | None:
    """Why ``condition`` is not met by the recorded state and the facts the table states; None when it is."""
    before = condition.get("before_turn")
    defeated = [d for d in game["defeated_yokai"] if before is None or d["turn"] < before]
    limit = f" before turn {before}" if before else ""
    wanted = condition.get("defeat") or {}
    if condition.get("same_turn"):
        by_turn: dict[int, Counter] = {}
        for d in defeated:
            by_turn.setdefault(d["turn"], Counter())[d["yokai"]] += 1
        if not any(all(counts[y] >= n for y, n in wanted.items()) for counts in by_turn.values()):
            found = {t: dict(c) for t, c in sorted(by_turn.items())}
            return f"it needs {wanted} defeated on one turn; the log records defeats by turn: {found or 'none'}"
    for yokai, count in wanted.items():
        have = len(defeated) if yokai == "any" else sum(1 for d in defeated if d["yokai"] == yokai)
        if have < count:
            return f"it needs {count} {yokai} defeated{limit}; the log records {have}"
    objective = condition.get("destroy_all")
    if objective:
        stated = game.get("objective_counts", {}).get(objective)
        have = sum(1 for d in defeated if d["yokai"] == objective)
        if stated is None:
            return f"the number of {objective} was not stated when the scene was set up"
        if have < stated:
            return f"it needs all {stated} {objective} destroyed{limit}; the log records {have}"
    until = condition.get("survive_until_turn")
    if until and turn < until:
        return f"turn {until} has not begun (this is turn {turn})"
    if condition.get("no_energy_spent") and game.get("energy_spent"):
        return f"the heroes spent {game['energy_spent']} energy in this scene"
    conversion = condition.get("no_health_lost_to")
    if conversion and game.get("health_lost_by_conversion", {}).get(conversion):
        return f"{game['health_lost_by_conversion'][conversion]} health was lost to attacks whose blows remove {conversion}"
    if condition.get("reported") and not reported.get(condition["id"]):
        return f"the table must state it: send \"reported\": {{\"{condition['id']}\": \"{condition['reported']}\"}}"
    return None


def out_of_reach(game: Mapping[str, Any], condition: Mapping[str, Any], turn: int) -> bool:
    """A condition limited to 'before turn N' can no longer be achieved once turn N has begun without it (L755)."""
    before = condition.get("before_turn")
    if before is None or turn < before:
        return False
    checkable = {k: v for k, v in condition.items() if k not in ("reported", "survive_until_turn")}
    return unmet(game, checkable, turn, {}) is not None


def victory_needs_all(scene: Mapping[str, Any]) -> bool:
    """Every listed victory condition is needed unless the data reads the bullets as alternatives ("either");
    an unstated reading takes the text's (L753, L755), never the lenient one."""
    return scene.get("victory_bullets") != "either"


def lost_by_turn(scene: Mapping[str, Any], game: Mapping[str, Any], turn: int) -> str | None:
    """Why the scene fails as ``turn`` begins, or None: a victory condition out of reach (all of them, where the
    bullets are alternatives), or the scene's own defeat condition."""
    for condition in scene.get("defeat_unless") or []:
        if out_of_reach(game, condition, turn):
            return f"{quoted(condition)}: turn {turn} has begun"
    conditions = scene["victory"]
    gone = [c for c in conditions if out_of_reach(game, c, turn)]
    if gone and (victory_needs_all(scene) or len(gone) == len(conditions)):
        said = "; ".join(quoted(c) for c in gone)
        return f"turn {turn} has begun, so {said} can no longer be achieved (L755)"
    return None


def fail(plan: Plan, scene: Mapping[str, Any], reason: str) -> None:
    """The scene fails: it ends, and its defeat penalty applies to the standing a reattempt restores."""
    plan.add({"kind": "scene-ended", "outcome": "failed", "reason": reason, "treasure_owed": []})
    penalty = scene.get("defeat_penalty")
    if penalty and penalty["effect"] in ("discard-hand", "discard-equipped"):
        start = plan.game["start_heroes"]
        discarded = {
            hero_id: list(hero["hand"]) if penalty["effect"] == "discard-hand" else [c for c in hero["equipped"].values() if c]
            for hero_id, hero in start.items()
        }
        plan.add({"kind": "defeat-penalty-applied", "penalty": penalty["effect"], "text": penalty["text"], "discarded": discarded})
    elif penalty:
        plan.add({"kind": "defeat-penalty-applied", "penalty": penalty["effect"], "text": penalty["text"], "discarded": {}})


def settle(plan: Plan) -> None:
    """After blows or losses: a scene whose heroes are all defeated fails at once (L763)."""
    plan.ctx.ruleset.rules.version.settle(plan)  # it came with 1.1.0: 1.0.0 left it to the table (versions.py)


def fail_when_all_defeated(plan: Plan) -> None:
    """L763: a scene whose heroes are all defeated fails at once (rules 1.1.0 on: versions.py)."""
    game = plan.game
    if game.get("scene_result") is None and game["heroes"] and all(hero["defeated"] for hero in game["heroes"].values()):
        fail(plan, plan.ctx.ruleset.quest(game["scene"]), ALL_DEFEATED)


def verdict(game: Mapping[str, Any]) -> dict[str, str] | None:
    result = game.get("scene_result")
    if not result:
        return None
    if result["outcome"] == "victory":
        return {"outcome": "victory", "reason": f"the scene ended in victory: {result.get('reason') or result.get('victory_condition')}"}
    return {"outcome": "defeat", "reason": f"the scene failed: {result.get('reason') or TABLE_FAILED}"}


def end_refusal(scene: Mapping[str, Any], game: Mapping[str, Any], outcome: str) -> str | None:
    """Why an undecided scene cannot end in ``outcome``: it is decided only by its end (end-scene, or a failure the
    log shows)."""
    if outcome == "heroic-victory":
        return NO_HEROIC
    if outcome == "victory":
        joined = " and " if victory_needs_all(scene) else " or "
        return (
            f"the scene has not ended in victory: it needs {joined.join(quoted(c) for c in scene['victory'])} (L753), "
            "recorded with the 'end-scene' action"
        )
    return (
        "the scene has not failed: it fails when a victory condition can no longer be achieved (L755) or every hero is "
        "defeated (L763); record it with the 'end-scene' action, outcome 'failed', saying why"
    )
