"""A scene from set-up to its end: the heroes' standing as the campaign left it, chiefs and
objectives on the board, the turn's end, and the scene's end with its rewards or penalty."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tracker import decks
from tracker.errors import Unprocessable
from tracker.rulesets.ruleset import ActionContext
from tracker.rulesets.yokai_quest.published_1_0 import energy, heroes, lookup, treasure
from tracker.rulesets.yokai_quest.published_1_0.plan import Plan
from tracker.rulesets.yokai_quest.published_1_0.state import ENERGY_MAX, new_standing

HEALTH_POLICIES = ("carry-over", "full-at-scene-start")


def set_up(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    data = ctx.ruleset.data
    scene = ctx.ruleset.quest(params["quest"])
    story = lookup.story_of(data, scene["id"])
    campaign = params["campaign"]
    options, progress = campaign.get("options", {}), campaign.get("progress") or {}
    party = campaign.get("party") or []
    if not party:
        raise Unprocessable("The campaign has no heroes", detail='Create the campaign with a "party" of heroes, e.g. ["ryo", "ami"].')
    _check_order(data, scene, options, progress)
    attempt = progress.get("attempt", 1) if progress.get("next_scene") == scene["id"] else 1
    policy = options.get("health_policy", "carry-over")
    standing = copy.deepcopy(progress.get("heroes", {}))
    for hero_id in party:
        if hero_id not in standing:
            standing[hero_id] = new_standing(lookup.max_health(data, campaign.get("components", {}), hero_id))
        if policy == "full-at-scene-start":
            standing[hero_id]["health"] = standing[hero_id]["max_health"]
        if progress.get("full_energy_next_story") and scene["number"] == 1:
            standing[hero_id]["energy"] = ENERGY_MAX
    standing = {hero_id: standing[hero_id] for hero_id in party}
    game = {
        "story": story["id"],
        "scene": scene["id"],
        "attempt": attempt,
        "health_policy": policy,
        "board_kept": bool(scene["keeps_board_from_previous"] and progress.get("board_kept")),
        "heroes": standing,
        "start_heroes": copy.deepcopy(standing),
        "foes": _foes_at_start(data, scene),
        "treasure_reserve": progress.get("treasure_reserve", 0),
        "treasure_owed": [],
        "defeated_yokai": [],
        "achievements": [],
        "energy_spent": 0,
        "swapped_this_turn": [],
        "consumable_used_this_turn": [],
        "scene_result": None,
    }
    plan = Plan(ctx)
    plan.add({"kind": "scene-set-up", "game": game})
    _appearance_deck(plan, scene)
    for hero_id, hero in standing.items():  # items the heroes carry in are out of this scene's treasure deck
        carried = hero["hand"] + [card for card in hero["equipped"].values() if card]
        if carried:
            plan.extend(decks.resolve_reported_draw(plan.decks[treasure.DECK], carried, holder=hero_id))
    return plan.changes


def _check_order(data: Mapping[str, Any], scene: Mapping[str, Any], options: Mapping[str, Any], progress: Mapping[str, Any]) -> None:
    expected = progress.get("next_scene")
    if expected and scene["id"] != expected:
        raise Unprocessable(
            f"The campaign plays {expected} next",
            detail=f"Scenes are played in order, a failed scene is reattempted once, and a lost story starts again from its first scene; {scene['id']} is not next.",
            errors={"quest": [f"Expected {expected}"]},
        )
    if not expected:
        story = options.get("story")
        firsts = [s["scenes"][0] for s in data["stories"] if not story or s["id"] == story]
        if scene["id"] not in firsts:
            raise Unprocessable(
                f"{scene['id']} is not the first scene of a story",
                detail=f"A story starts at its first scene: {firsts}.",
                errors={"quest": [f"Start with one of {firsts}"]},
            )


def _foes_at_start(data: Mapping[str, Any], scene: Mapping[str, Any]) -> dict[str, Any]:
    foes = {}
    for present in scene["present_from_start"]:
        foe = _foe_spec(data, scene, present["character"])
        if foe is not None and present["count"] is not None:
            for n in range(present["count"]):
                foes[present["character"] if present["count"] == 1 else f"{present['character']}-{n + 1}"] = foe
    return foes


def _foe_spec(data: Mapping[str, Any], scene: Mapping[str, Any], character_id: str) -> dict[str, Any] | None:
    chief = scene.get("chief")
    if chief and chief["character"] == character_id:
        return {"character": character_id, "health": chief["health"]}
    character = lookup.character(data, character_id)
    if character and character["role"] == "objective":
        return {"character": character_id, "health": character["stats"]["health"]}
    return None


def _appearance_deck(plan: Plan, scene: Mapping[str, Any]) -> None:
    """The scene's appearance cards (ranges like A1-A8) stay; the rest leave the deck for the scene."""
    wanted = set()
    for span in scene["appearance_cards"]:
        first, last = span.split("-")
        wanted |= {f"{first[0]}{n}" for n in range(int(first[1:]), int(last[1:]) + 1)}
    deck = plan.decks["appearance"]
    unused = [card for card in deck["draw"] if card not in wanted]
    if unused and deck["unknown"] == 0:
        plan.extend(decks.resolve_move(deck, "removed", unused, "draw"))


def foe_appeared(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A chief or objective arrives (e.g. the Undead Dark Champion on turn 5, each Pillar of Energy)."""
    plan = Plan(ctx)
    plan.require_scene()
    scene = ctx.ruleset.quest(plan.game["scene"])
    spec = _foe_spec(ctx.ruleset.data, scene, params["foe"])
    if spec is None:
        raise Unprocessable(
            f"'{params['foe']}' is not a chief or objective of this scene",
            detail="Only the scene's chief and objectives have tracked health; basic yōkai have Health 1 and are named by type when attacked.",
            errors={"foe": ["Not tracked in this scene."]},
        )
    instance = params["foe"]
    n = 1
    while instance in plan.game["foes"]:
        n += 1
        instance = f"{params['foe']}-{n}"
    plan.add({"kind": "foe-appeared", "foe": instance, **spec})
    return plan.changes


def end_turn(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The turn ends: empowerments expire, the once-a-turn swap and consumable resource renew,
    and energy cards kept beside the panels as reminders are discarded."""
    plan = Plan(ctx)
    plan.require_scene()
    plan.add({"kind": "turn-ended", "turn": ctx.state["turn"]})
    plan.add({"kind": "turn-effects-expired", "turn": ctx.state["turn"]})
    held = plan.decks[energy.DECK]["held"]
    for hero_id in sorted(held):
        if held[hero_id]:
            plan.extend(decks.resolve_move(plan.decks[energy.DECK], "discarded", list(held[hero_id]), "held", hero_id))
    return plan.changes


def end_scene(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_scene()
    scene = ctx.ruleset.quest(plan.game["scene"])
    if params["outcome"] == "failed":
        _fail(plan, scene, params)
    else:
        _win(plan, scene, params)
    return plan.changes


def _fail(plan: Plan, scene: Mapping[str, Any], params: Mapping[str, Any]) -> None:
    plan.add({"kind": "scene-ended", "outcome": "failed", "reason": params.get("reason", "a victory condition can no longer be met"), "treasure_owed": []})
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


def _win(plan: Plan, scene: Mapping[str, Any], params: Mapping[str, Any]) -> None:
    game = plan.game
    if all(hero["defeated"] for hero in game["heroes"].values()):
        raise Unprocessable("Every hero is defeated", detail="A scene whose heroes are all defeated fails: end it with outcome 'failed'.")
    condition = _victory_condition(plan, scene, params.get("victory_condition"))
    earned = []
    for achievement_id in params.get("achievements", []):
        achievement = next((a for a in scene["achievements"] if a["id"] == achievement_id), None)
        if achievement is None:
            raise Unprocessable(
                f"'{achievement_id}' is not an achievement of {scene['id']}",
                detail=f"Achievements: {[a['id'] for a in scene['achievements']] or 'none'}.",
                errors={"achievements": [f"Unknown: {achievement_id}"]},
            )
        _require_met(plan, achievement, "achievement")
        earned.append(achievement)
    rewards = [effect for a in earned for effect in a["reward"]] + list(scene["reward"] or [])
    owed = []
    for effect in rewards:
        if "draw_treasure" not in effect and "search_treasure" not in effect:
            continue
        who = sorted(game["heroes"]) if effect.get("who") == "all" else [_searcher(plan, params)]
        if "draw_treasure" in effect:
            owed += [treasure.owe(plan, h, f"{scene['id']} reward") for h in who for _ in range(effect["draw_treasure"])]
        if "search_treasure" in effect:
            owed += [treasure.owe(plan, h, f"{scene['id']} reward", effect["search_treasure"], effect.get("equip", False)) for h in who]
    for achievement in earned:
        plan.add({"kind": "achievement-earned", "achievement": achievement["id"], "scene": scene["id"], "reward": achievement["reward"]})
    plan.add(
        {
            "kind": "scene-ended",
            "outcome": "victory",
            "victory_condition": condition["id"],
            "completes_story": bool(condition.get("completes_story")),
            "full_energy_next_story": any(effect.get("full_energy_next_story") for effect in rewards),
            "treasure_owed": owed,
        }
    )
    for hero_id, hero in sorted(game["heroes"].items()):
        if plan.game["heroes"][hero_id]["defeated"]:
            plan.add({"kind": "hero-returned", "hero": hero_id, "health": 1})
    for effect in rewards:
        if "heal" in effect:
            for hero_id in sorted(plan.game["heroes"]):
                heroes.heal(plan, hero_id, effect["heal"], f"{scene['id']} reward")
        if "treasure_tokens" in effect:
            treasure.add_tokens(plan, effect["treasure_tokens"], f"{scene['id']} achievement")


def _searcher(plan: Plan, params: Mapping[str, Any]) -> str:
    searcher = params.get("searcher")
    if searcher not in plan.game["heroes"]:
        raise Unprocessable(
            "Say which hero takes the reward",
            detail=f'This reward goes to one hero: send "searcher", one of {sorted(plan.game["heroes"])}.',
            errors={"searcher": ["Missing or not a hero of the party."]},
        )
    return searcher


def _victory_condition(plan: Plan, scene: Mapping[str, Any], chosen: str | None) -> Mapping[str, Any]:
    conditions = scene["victory"]
    if chosen is None and len(conditions) == 1:
        chosen = conditions[0]["id"]
    condition = next((c for c in conditions if c["id"] == chosen), None)
    if condition is None:
        raise Unprocessable(
            "Say which victory condition was met",
            detail=f"Victory conditions of {scene['id']}: {[c['id'] for c in conditions]}.",
            errors={"victory_condition": ["Missing or unknown."]},
        )
    _require_met(plan, condition, "victory condition")
    return condition


def _require_met(plan: Plan, condition: Mapping[str, Any], what: str) -> None:
    """Conditions the log can check: defeats (by yōkai type, 'any') before a turn, and survival to a turn."""
    before = condition.get("before_turn")
    defeated = [d for d in plan.game["defeated_yokai"] if before is None or d["turn"] < before]
    for yokai, count in (condition.get("defeat") or {}).items():
        have = len(defeated) if yokai == "any" else sum(1 for d in defeated if d["yokai"] == yokai)
        if have < count:
            limit = f" before turn {before}" if before else ""
            raise Unprocessable(
                f"The {what} '{condition['id']}' is not met",
                detail=f"It needs {count} {yokai} defeated{limit}; the log records {have}.",
            )
    until = condition.get("survive_until_turn")
    if until and plan.turn < until:
        raise Unprocessable(f"The {what} '{condition['id']}' is not met", detail=f"Turn {until} has not begun (this is turn {plan.turn}).")
