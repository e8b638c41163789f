"""Campaign progress across scenes and stories: what carries over, reattempts, lost stories.

Policies where the text is silent or contradicts itself (each documented in the ruleset data):
- health carries over between scenes (option health_policy, default "carry-over"), or every
  scene starts at full health ("full-at-scene-start", L280);
- energy, items and the treasure reserve carry over; altered states, reload tokens and
  empowerments do not (a scene starts fresh);
- a reattempt restores the standing the heroes began the scene with (less any defeat penalty),
  empties the treasure reserve and discards the scene's achievements (L765-L774);
- a second failure loses the story, which is then played again from its first scene with the
  standing the heroes began the story with; "Start over the game from scene 1" does the same at once.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.yokai_quest import lookup
from tracker.rulesets.yokai_quest.state import ALTERED_STATES

WINS = ("victory", "heroic-victory")


# The health policies scenes.set_up plays (campaign.health_policies names those a campaign may choose): the text
# contradicts itself (L280 "the number of health tokens a hero starts with at the beginning of a scene" against the
# rewards and revival rules), so the campaign chooses; "carry-over" is the default the data states.
PLAYED_HEALTH_POLICIES = ("carry-over", "full-at-scene-start")
DEFAULT_HEALTH_POLICY = "carry-over"


def require_playable(data: Mapping[str, Any]) -> None:
    """Refuse, at load, rules data naming a health policy scenes.set_up does not play, or without the default one; and a
    campaign chain (the scenes played one after another, rules.chain) that is not the stories' scenes in the order
    campaign.stories_in_order gives them, which carry_over follows from one story to the next."""
    stories = {story["id"]: story["scenes"] for story in data["stories"]}
    order = data["campaign"]["stories_in_order"]
    if sorted(order) != sorted(stories) or data["campaign"]["chain"] != [scene for story in order for scene in stories[story]]:
        raise RulesDataError(f"campaign.chain is not the scenes of campaign.stories_in_order, story by story ({', '.join(order)})")
    policies = data["campaign"]["health_policies"]
    unplayed = sorted(set(policies) - set(PLAYED_HEALTH_POLICIES))
    if unplayed or DEFAULT_HEALTH_POLICY not in policies:
        raise RulesDataError(
            f"campaign.health_policies: the service plays {', '.join(PLAYED_HEALTH_POLICIES)} (scenes.set_up), the default "
            f"{DEFAULT_HEALTH_POLICY} among them; the data names {sorted(policies)}"
        )


def options_schema(data: Mapping[str, Any]) -> dict[str, Any]:
    """A campaign's options, from the rules data: the health policies it names (campaign.health_policies), and one story
    on its own where the data allows it (campaign.story_alone)."""
    policies = data["campaign"]["health_policies"]
    properties: dict[str, Any] = {
        "health_policy": {
            "enum": list(policies),
            "description": "Health at the start of a scene: carried over (default: the rewards and revival rules imply it) or full (L280).",
        },
    }
    if data["campaign"]["story_alone"]:
        stories = [story["id"] for story in data["stories"]]
        properties["story"] = {"enum": stories, "description": "Play this story on its own instead of the stories in the narrated order."}
    return {"type": "object", "properties": properties, "additionalProperties": False}


def chain(data: Mapping[str, Any], default: list[str], options: Mapping[str, Any]) -> list[str]:
    story = options.get("story")
    if story:
        return list(next(s for s in data["stories"] if s["id"] == story)["scenes"])
    return list(default)


def _fresh(standing: Mapping[str, Any]) -> dict[str, Any]:
    """A hero's standing as it carries into the next scene."""
    hero = copy.deepcopy(dict(standing))
    hero.update(altered_states={name: 0 for name in ALTERED_STATES}, reload={}, empowerments=[])
    return hero


def require_scene_end(game: Mapping[str, Any], outcome: str) -> None:
    """How 1.0.0 ended a session, having no end refusal nor rulings: the outcome must be the scene's end."""
    result = game.get("scene_result")
    if not result:
        raise Unprocessable("End the scene before the session", detail="Send the 'end-scene' action with outcome 'victory' or 'failed' first; the campaign's progress follows from it.")
    won = result["outcome"] == "victory"
    if won != (outcome in WINS):
        raise Unprocessable(
            f"The scene ended in {result['outcome']}", detail=f"End the session with outcome {'victory' if won else 'defeat'}.", errors={"outcome": ["Does not match the scene's end."]}
        )


def carry_over(
    data: Mapping[str, Any], progress: Mapping[str, Any], game: Mapping[str, Any], quest: str, outcome: str, options: Mapping[str, Any]
) -> dict[str, Any]:
    won = outcome in WINS
    result = game.get("scene_result")
    if not result or (result["outcome"] == "victory") != won:
        # Only a table ruling ends a session against (or before) the scene's end: the end is otherwise refused.
        # The campaign follows the ruling; the scene's rewards and defeat penalty, which only end-scene records, do not apply.
        game = {**game, "scene_result": {"outcome": "victory" if won else "failed", "completes_story": False, "full_energy_next_story": False}}
        if not won:
            game["treasure_owed"] = []
    result = game["scene_result"]
    if won and game["treasure_owed"]:
        owed = sorted({o["hero"] for o in game["treasure_owed"]})
        names = {hero: (lookup.character(data, hero) or {}).get("name", hero) for hero in owed}
        raise Unprocessable(
            f"Treasure cards are still owed to {wording.listed(owed, names)}",
            detail="Draw them first with 'draw-treasure'; a card may be refused by discarding it.",
        )
    story = next(s for s in data["stories"] if s["id"] == game["story"])
    scene_id = game["scene"]
    new = copy.deepcopy(dict(progress))
    new["health_policy"] = options.get("health_policy", DEFAULT_HEALTH_POLICY)
    stories = new.setdefault("stories", {})
    record = stories.setdefault(story["id"], {"status": "in-progress", "losses": 0, "scenes": {}})
    record["status"] = "in-progress"
    scene = record["scenes"].setdefault(scene_id, {"attempts": 0, "reattempts_used": 0, "result": None})
    scene["attempts"] += 1
    scene["result"] = result["outcome"]
    if "story_start" not in new or new.get("story_start", {}).get("story") != story["id"]:
        new["story_start"] = {"story": story["id"], "heroes": copy.deepcopy(game["start_heroes"]), "treasure_reserve": 0}
    new["full_energy_next_story"] = False  # set again only when a story ends with that reward
    if won:
        _won(data, new, record, story, game, options)
    else:
        _failed(data, new, record, scene, story, game)
    new["next_quest"] = new["next_scene"]
    return new


def _won(data, new, record, story, game, options) -> None:
    scenes = story["scenes"]
    scene_id = game["scene"]
    new["heroes"] = {hero_id: _fresh(hero) for hero_id, hero in game["heroes"].items()}
    new["treasure_reserve"] = game["treasure_reserve"]
    new.setdefault("achievements", []).extend({"scene": scene_id, "achievement": a} for a in game["achievements"])
    position = scenes.index(scene_id)
    if game["scene_result"]["completes_story"] or position + 1 == len(scenes):
        record["status"] = "completed"
        for skipped in scenes[position + 1 :]:
            record["scenes"].setdefault(skipped, {"attempts": 0, "reattempts_used": 0, "result": None})["result"] = "completed by an earlier scene"
        # the stories in the narrated order (campaign.stories_in_order: "the narration chains the stories", digest §9)
        order = list(data["campaign"]["stories_in_order"])
        following = order.index(story["id"]) + 1
        next_story = None if options.get("story") or following == len(order) else lookup.story(data, order[following])
        new["next_scene"] = next_story["scenes"][0] if next_story else None
        new["attempt"] = 1
        new["board_kept"] = False
        new.pop("in_play", None)
        new["full_energy_next_story"] = game["scene_result"]["full_energy_next_story"]
        new.pop("story_start", None)
        if next_story:
            new["story_start"] = {"story": next_story["id"], "heroes": copy.deepcopy(new["heroes"]), "treasure_reserve": new["treasure_reserve"]}
    else:
        new["next_scene"] = scenes[position + 1]
        new["attempt"] = 1
        new["board_kept"] = True
        new["in_play"] = dict(game.get("in_play", {}))  # used only where the next scene keeps the board


def _failed(data, new, record, scene, story, game) -> None:
    # L774 "The reattempt can only be tried once per scene. If the heroes fail twice, they lose the scenario."
    reattempts = data["scene_rules"]["reattempts_per_scene"]
    lost = game["attempt"] > reattempts
    if lost or game.get("restart_story"):
        if lost:
            record["losses"] += 1
            record["status"] = "lost"
        for played in record["scenes"].values():
            played["reattempts_used"] = 0
        start = new["story_start"]
        new["heroes"] = {hero_id: _fresh(hero) for hero_id, hero in start["heroes"].items()}
        new["treasure_reserve"] = start["treasure_reserve"]
        new["next_scene"] = story["scenes"][0]
        new["attempt"] = 1
        new["board_kept"] = False
        new.pop("in_play", None)
    else:
        scene["reattempts_used"] = game["attempt"]
        new["heroes"] = {hero_id: _fresh(hero) for hero_id, hero in game["start_heroes"].items()}
        new["treasure_reserve"] = 0
        new["next_scene"] = game["scene"]
        new["attempt"] = game["attempt"] + 1
        new["board_kept"] = game["board_kept"]
        new["in_play"] = dict(game.get("start_in_play", {}))  # "All elements are restored to the starting points" (L772)
