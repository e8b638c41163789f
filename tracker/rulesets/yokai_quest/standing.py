"""A Yōkai Quest campaign's standing, folded from its scenes' game events in log order: each scene played (its
story, attempt, the rules' result and the session's outcome), scenes played and won per story with the reattempts
used, the achievements earned, and each hero's abilities, treasure cards and defeats as the scenes recorded them.

Each session's changes are folded by the rules' own ``state.fold``, so every figure is what the session's game state
says; records come without the changes an undo reverted and without abandoned sessions (tracker/rulesets/engine/view.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tracker.rulesets.yokai_quest import state

WINS = ("victory", "heroic-victory")


def standing(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    games: dict[str, dict[str, Any]] = {}
    ends: dict[str, str | None] = {}
    positions: dict[str, list[tuple[str, int]]] = {}
    counted: dict[str, dict[str, int]] = {}  # per hero: what the scenes played recorded, in all
    for record in records:
        session, change = record["session_id"], record["change"]
        if session not in games and change["kind"] != "scene-set-up":
            continue  # a scene's changes follow its set-up
        games[session] = state.fold(games.get(session, {}), change)
        ends[session] = record["outcome"]
        if change["kind"] == "achievement-earned":
            positions.setdefault(session, []).append((change["achievement"], record["position"]))
        elif change["kind"] in COUNTED:
            hero = counted.setdefault(change["hero"], dict.fromkeys(COUNTED.values(), 0))
            hero[COUNTED[change["kind"]]] += 1
    scenes = [_scene(session, game, ends[session], positions.get(session, [])) for session, game in games.items()]
    return {"scenes": scenes, "stories": _stories(scenes), "heroes": _heroes(scenes, games, counted), "achievements": _achievements(scenes)}


# Counted from the changes themselves: the game state's own counters carry over with the hero and go back with a
# reattempt's restored standing, so a sum over scenes would count a draw more than once.
COUNTED = {"treasure-card-drawn": "treasures_drawn", "hero-defeated": "defeats", "hero-revived": "revivals"}


def _scene(session: str, game: Mapping[str, Any], outcome: str | None, earned: list[tuple[str, int]]) -> dict[str, Any]:
    result = game.get("scene_result") or {}
    return {
        "session_id": session,
        "story": game["story"],
        "scene": game["scene"],
        "attempt": game["attempt"],
        # L774: "The reattempt can only be tried once per scene": a second attempt is the scene's reattempt.
        "reattempt": game["attempt"] > 1,
        "result": result.get("outcome"),  # what the rules recorded at the scene's end (victory, failed), None before it
        "outcome": outcome,  # the session's end, table rulings included (None while in play)
        "won": outcome in WINS,
        "victory_conditions": result.get("victory_conditions", []),
        "achievements": [{"achievement": a, "position": p} for a, p in earned],
    }


def _stories(scenes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    stories: dict[str, dict[str, Any]] = {}
    for scene in scenes:
        story = stories.setdefault(scene["story"], {"scenes_played": 0, "scenes_won": 0, "reattempts": 0, "scenes": {}})
        played = story["scenes"].setdefault(scene["scene"], {"played": 0, "won": 0, "reattempts": 0})
        if scene["outcome"] is None:
            continue  # in play: not yet a scene played
        for counts in (story, played):
            counts["scenes_played" if counts is story else "played"] += 1
            counts["scenes_won" if counts is story else "won"] += scene["won"]
            counts["reattempts"] += scene["reattempt"]
    return stories


def _heroes(scenes: list[dict[str, Any]], games: Mapping[str, Mapping[str, Any]], counted: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, Any]]:
    """Per hero: the four abilities chosen (L145) as the latest scene set them, treasure cards drawn, defeats and
    revivals in all the scenes played (failed ones too), and the hand and items equipped as the latest scene left them."""
    heroes: dict[str, dict[str, Any]] = {}
    for scene in scenes:
        for hero_id, hero in games[scene["session_id"]]["heroes"].items():
            sheet = heroes.setdefault(hero_id, {**dict.fromkeys(COUNTED.values(), 0), **counted.get(hero_id, {}), "scenes": 0})
            sheet["scenes"] += 1
            sheet.update(
                abilities=list(hero.get("abilities", [])),
                latest={"session_id": scene["session_id"], "scene": scene["scene"], "health": hero["health"], "max_health": hero["max_health"],
                        "energy": hero["energy"], "hand": list(hero["hand"]), "equipped": dict(hero["equipped"]), "defeated": hero["defeated"]},
            )
    return heroes


def _achievements(scenes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The achievements the campaign keeps: those of scenes won. L771: on a reattempt "any achievements obtained are
    discarded", so a failed scene's achievements are not kept."""
    return [{"session_id": s["session_id"], "scene": s["scene"], **a} for s in scenes if s["won"] for a in s["achievements"]]
