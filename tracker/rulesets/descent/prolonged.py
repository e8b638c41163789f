"""Prolonged actions (L142–L160): power dice = trait value (+ fatigue), at most 5; each enhancement is one progress
marker; the action succeeds when progress reaches the difficulty (X: when the hero decides); disruption discards the
progress; continuous actions must be worked on every turn; group efforts pool progress."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import dice
from tracker.rulesets.descent import secret_room
from tracker.rulesets.descent.common import (
    NAME,
    conquest_changes,
    plays_only,
    quest,
    refuse,
    require_hero,
    schema,
    stat,
)
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

TRAITS = ("melee", "ranged", "magic")


def check_rules_data(data: Mapping[str, Any]) -> None:
    """The prolonged actions' rules the code plays one way only, refused at load otherwise (issue 31)."""
    # L153: "If a prolonged action is disrupted, it immediately fails and you discard all progress markers you've
    # accumulated for it so far" (state.py drops the progress with prolonged-action-disrupted)
    plays_only(data, "prolonged_actions.disruption_discards_progress", data["prolonged_actions"].get("disruption_discards_progress"), True,
               "a disrupted prolonged action 'immediately fails and you discard all progress markers' (L153)")
    for q in data.get("quests", []):
        altars = q.get("altars") or {}
        if "destroyed_by" in altars:
            # L704: "The heroes may make a prolonged Magic (8), Melee (8), or Ranged (8) action while standing on an altar
            # to destroy it": the task named is one of the quest's, worked on each altar apart (per_altar, _altar below)
            worked = [t["id"] for t in q.get("prolonged", []) if t.get("per_altar")]
            plays_only(data, f"quests/{q['id']}.altars.destroyed_by", altars["destroyed_by"], worked[0] if len(worked) == 1 else worked,
                       "an altar is destroyed by the quest's one prolonged action worked on each altar (L704)")


def task_definition(ctx: ActionContext, params: Mapping[str, Any]) -> dict[str, Any]:
    listed = next((t for t in quest(ctx).get("prolonged", []) if t["id"] == params["task"]), None)
    if listed is not None:
        if params["trait"] not in listed["trait"]:
            raise refuse(f"'{params['task']}' is a prolonged {' or '.join(listed['trait'])} action", f"Not {params['trait']}.", "trait")
        return listed
    missing = [k for k in ("difficulty", "disruptable") if k not in params]
    if missing:
        raise refuse(
            f"Describe the prolonged action '{params['task']}'",
            f"It is not one of this quest's ({wording.listed([t['id'] for t in quest(ctx).get('prolonged', [])])}); send {missing} as the Quest Guide states.",
            missing[0],
        )
    return {"id": params["task"], "trait": [params["trait"]], "difficulty": params["difficulty"], "disruptable": params["disruptable"],
            "continuous": params.get("continuous", False), "group": params.get("group", False)}


def _key(task: Mapping[str, Any], hero: str, target: str | None = None, marker: str | None = None) -> str:
    if target is not None:  # one pool per altar: two heroes may team up on it (L704)
        return f"{task['id']}:{target}"
    if marker is not None:  # each hero searches each encounter marker on his own (L355)
        return f"{task['id']}:{hero}:{marker}"
    return task["id"] if task["group"] else f"{task['id']}:{hero}"


def _altar(ctx: ActionContext, task: Mapping[str, Any], params: Mapping[str, Any]) -> str | None:
    """The Altar of Despair: each of the four altars (L670) is destroyed by its own prolonged action (L704)."""
    if not task.get("per_altar"):
        if params.get("altar") is not None:
            raise refuse(f"'{task['id']}' is not worked on an altar", "Leave \"altar\" out.", "altar")
        return None
    altars = quest(ctx)["altars"]["ids"]
    if params.get("altar") not in altars:
        raise refuse(f"Say which altar: {params['altar']!r} is not one" if params.get("altar") else "Say which altar the heroes work on",
                     f"Altars of this quest: {altars}.", "altar")
    if params["altar"] in ctx.game.get("altars_destroyed", []):
        raise refuse(f"{params['altar']} is already destroyed", f"Destroyed: {ctx.game['altars_destroyed']}.", "altar")
    if ctx.game.get("lost") or ctx.game.get("won"):
        raise refuse("This quest is already decided", f"Lost: {ctx.game.get('lost')}; won: {ctx.game.get('won')}. End the session.", "altar")
    return params["altar"]


def _altar_destroyed(ctx: ActionContext, altar: str, heroes: list[str]) -> list[dict[str, Any]]:
    """An altar falls; the last one banishes Zorek: +8 conquest and the quest is completed (L693-L695)."""
    q = quest(ctx)
    destroyed = len(ctx.game.get("altars_destroyed", [])) + 1
    of = len(q["altars"]["ids"])
    changes: list[dict[str, Any]] = [{"kind": "altar-destroyed", "altar": altar, "heroes": heroes, "destroyed": destroyed, "of": of}]
    if destroyed == of:
        award = next(a for a in q["awards"] if a.get("follows") == "every-altar-destroyed")
        changes += conquest_changes(ctx, award["conquest"], award["id"], altar=altar)
        changes.append({"kind": "quest-won", "award": award["id"], "conquest": ctx.game["conquest"] + award["conquest"]})
    return changes


def roll(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    hero = params["hero"]
    require_hero(ctx, hero)
    task = task_definition(ctx, params)
    trait_value = stat(ctx, hero, params["trait"], params.get("trait_value"), "trait_value")
    fatigue = params.get("fatigue", 0)
    cap = ctx.ruleset.data["prolonged_actions"]["max_power_dice"]
    count = trait_value + fatigue
    if count > cap:
        raise refuse(f"At most {cap} power dice", f"{hero} would roll {trait_value} for {params['trait']} + {fatigue} for fatigue.", "fatigue")
    if count == 0:
        raise refuse(f"{hero} has no power dice to roll", f"{params['trait']} is 0: spend fatigue to add dice.", "fatigue")
    altar = _altar(ctx, task, params)
    marker = secret_room.marker(ctx, task, params)
    key = _key(task, hero, altar, marker)
    turn = ctx.state["turn"]
    current = ctx.game["prolonged"].get(key)
    changes: list[dict[str, Any]] = []
    if current and task["continuous"] and current["last_turn"] < turn - 1:
        changes.append({"kind": "prolonged-action-disrupted", "key": key, "task": task["id"], "reason": "did-not-continue", "progress_discarded": current["progress"]})
        current = None
    heroes = list(current["heroes"]) if current else []
    if hero not in heroes:
        heroes.append(hero)
    if len(heroes) > task.get("max_heroes", len(heroes)) or (len(heroes) > 1 and not task["group"]):
        raise refuse(f"'{task['id']}' is not open to another hero", f"Working on it: {current['heroes'] if current else []}.", "hero")
    faces = {"power": params["faces"]} if params.get("faces") is not None else None
    rolled = dice.roll_change(ctx.dice, {"power": count}, faces, rng, f"prolonged {task['id']}")
    enhancements = rolled["roll"]["results"]["power"].count("enhancement")
    # "For every power enhancement you roll on your prolonged action roll, you gain 1 progress marker" (L149)
    progress = (current["progress"] if current else 0) + enhancements * ctx.ruleset.data["prolonged_actions"]["progress_per_enhancement"]
    changes += [
        rolled,
        {"kind": "prolonged-progress-made", "key": key, "task": task["id"], "hero": hero, "half_action": params["half_action"],
         "trait": params["trait"], "trait_value": trait_value, "fatigue": fatigue, "dice": count, "enhancements": enhancements,
         "progress": progress, "difficulty": task["difficulty"], "disruptable": task["disruptable"], "continuous": task["continuous"],
         "group": task["group"], "heroes": heroes, "last_turn": turn},
    ]
    if task["difficulty"] != "X" and progress >= task["difficulty"]:
        changes.append({"kind": "prolonged-action-completed", "key": key, "task": task["id"], "heroes": heroes, "progress": progress})
        if altar:
            changes += _altar_destroyed(ctx, altar, heroes)
        if marker:
            changes.append(secret_room.searched(ctx, marker, hero))
    return changes


def _current(ctx: ActionContext, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    for key in (params["task"], f"{params['task']}:{params['hero']}"):
        current = ctx.game["prolonged"].get(key)
        if current and params["hero"] in current["heroes"]:
            return key, current
    raise refuse(f"{params['hero']} has no progress on '{params['task']}'", "Roll for it first (prolonged-roll).", "task")


def complete(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    key, current = _current(ctx, params)
    if current["difficulty"] != "X":
        raise refuse(f"'{params['task']}' completes at {current['difficulty']} progress", "Only a Difficulty X action completes when the hero decides (L150).", "task")
    return [{"kind": "prolonged-action-completed", "key": key, "task": params["task"], "heroes": current["heroes"], "progress": current["progress"]}]


def disrupt(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    key, current = _current(ctx, params)
    if not current["disruptable"]:
        raise refuse(f"'{params['task']}' cannot be disrupted", "Its progress is kept even if the hero moves away or dies (L154).", "task")
    return [{"kind": "prolonged-action-disrupted", "key": key, "task": params["task"], "reason": params["reason"], "progress_discarded": current["progress"]}]


_TASK = {"hero": NAME, "task": NAME}
ACTIONS = [
    ActionType("prolonged-roll", "Roll power dice for a prolonged action (Order or Concentrate half action): trait value plus fatigue, at most 5; each enhancement is 1 progress.",
               schema({**_TASK, "trait": {"enum": list(TRAITS)}, "half_action": {"enum": ["order", "concentrate"]},
                       "trait_value": {"type": "integer", "minimum": 0, "maximum": 5}, "fatigue": {"type": "integer", "minimum": 0, "maximum": 5},
                       "faces": {"type": "array", "items": {"enum": ["blank", "surge", "enhancement"]}, "minItems": 1, "maxItems": 5},
                       "difficulty": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 30}, {"const": "X"}]}, "disruptable": {"type": "boolean"},
                       "continuous": {"type": "boolean"}, "group": {"type": "boolean"},
                       "altar": {**NAME, "description": "The Altar of Despair: the altar the heroes work on (the quest's altars.ids)."},
                       "marker": {**NAME, "description": "The Thing in the Pit: the encounter marker searched for the secret room (the quest's secret_room.markers)."}},
                      ["hero", "task", "trait", "half_action"]), roll, random=True),
    ActionType("complete-prolonged", "Complete a Difficulty X prolonged action with the progress so far.", schema(_TASK, ["hero", "task"]), complete, random=False),
    ActionType("disrupt-prolonged", "A disruptable prolonged action is disrupted: its progress is discarded.",
               schema({**_TASK, "reason": NAME}, ["hero", "task", "reason"]), disrupt, random=False),
]
