"""Into the Heart of Darkness's crushing-wall trap (L648-L652, with the crushing-wall rules of L174-L175): a hero who
tries the blue rune-locked door without disarming the trap springs it; a crushing wall replaces the door and another
stands 7 spaces south; at the start of each overlord turn the south wall moves 1 space north. A hero's completed
prolonged Ranged or Magic (6) search disables it; a hero's continuous prolonged Melee (X) pushes the south wall back
a space per 3 progress, and pushed beyond the corrupted terrain (on the map: the table says) disarms it. Who is pushed
or crushed is on the map: the table records it (hero-killed, with the corrupted terrain's threat)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import NAME, quest, refuse, require_hero, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType


def rules(ctx: ActionContext) -> Mapping[str, Any]:
    q = quest(ctx)
    if "crushing_trap" not in q:
        raise refuse(f"{q['name']} has no crushing-wall trap", "Only Into the Heart of Darkness's Zone 5 has one (L648).", "type")
    return q["crushing_trap"]


def _armed(ctx: ActionContext) -> Mapping[str, Any]:
    trap = ctx.game.get("crushing_trap")
    if trap is None:
        raise refuse("The crushing-wall trap is not sprung", "It springs when a hero tries the blue rune-locked door without disarming it (L648).", "type")
    if trap["disarmed"]:
        raise refuse("The crushing-wall trap is disarmed", "The walls are gone and the blue door is back (L651).", "type")
    return trap


def _unused(ctx: ActionContext, task: str) -> list[Mapping[str, Any]]:
    """This hero's completions of ``task`` the trap has not used yet."""
    done = [c for c in ctx.game.get("completed_progress", []) if c["task"] == task]
    used = (ctx.game.get("crushing_trap") or {}).get("used", {}).get(task, 0)
    return done[used:]


def spring(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rule = rules(ctx)
    require_hero(ctx, params["hero"])
    trap = ctx.game.get("crushing_trap")
    if trap is not None:
        raise refuse("The crushing-wall trap was already sprung" if not trap["disarmed"] else "The crushing-wall trap is disarmed",
                     "It springs once; disarmed, the blue door opens as a door (L651).", "type")
    return [{"kind": "crushing-trap-sprung", "hero": params["hero"], "apart": rule["starts_apart"]}]


def move(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rule, trap, turn = rules(ctx), _armed(ctx), ctx.state["turn"]
    if trap["moved_turn"] == turn:
        raise refuse(f"The crushing walls already moved on turn {turn}", "They move once, at the start of the overlord's turn (L174).", "type")
    if trap["apart"] <= 1:
        raise refuse("The south wall has reached the north wall", "What follows is not stated (L175 removes a wall that meets a wall or a closed door): end it by the table's ruling.", "type")
    return [{"kind": "crushing-walls-moved", "turn": turn, "apart": trap["apart"] - rule["moves_per_overlord_turn"]}]


def push(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The hero completed push-wall (Difficulty X: when he chose, L150): a space back per 3 progress (L652)."""
    rule, trap = rules(ctx), _armed(ctx)
    require_hero(ctx, params["hero"])
    mine = [c for c in _unused(ctx, rule["pushed_by"]) if params["hero"] in c["heroes"]]
    if not mine:
        raise refuse(f"{params['hero']} has no completed '{rule['pushed_by']}' to push with", "Complete the prolonged Melee (X) action first (complete-prolonged).", "hero")
    spaces = mine[0]["progress"] // rule["push_progress_per_space"]
    changes: list[dict[str, Any]] = [{"kind": "crushing-wall-pushed", "hero": params["hero"], "progress": mine[0]["progress"], "spaces": spaces,
                                       "apart": trap["apart"] + spaces, "beyond_corrupted_terrain": bool(params.get("beyond_corrupted_terrain"))}]
    if params.get("beyond_corrupted_terrain"):
        changes.append({"kind": "crushing-trap-disarmed", "hero": params["hero"], "by": rule["pushed_by"]})
    return changes


def disarm(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The hero completed the search for the secret lever: the trap is disabled (L651)."""
    rule = rules(ctx)
    _armed(ctx)
    require_hero(ctx, params["hero"])
    if not [c for c in _unused(ctx, rule["disarmed_by"]) if params["hero"] in c["heroes"]]:
        raise refuse(f"{params['hero']} has not completed '{rule['disarmed_by']}'", "Each hero searches alone: a prolonged Ranged (6) or Magic (6) action (L651).", "hero")
    return [{"kind": "crushing-trap-disarmed", "hero": params["hero"], "by": rule["disarmed_by"]}]


ACTIONS = [
    ActionType("spring-crushing-trap", "Into the Heart of Darkness: a hero tries the blue rune-locked door without disarming the trap; crushing walls rise 7 spaces apart (L648-L650).",
               schema({"hero": NAME}, ["hero"]), spring, random=False),
    ActionType("move-crushing-walls", "Into the Heart of Darkness, start of the overlord's turn: the south crushing wall moves 1 space north (L650, L174).",
               schema({}, []), move, random=False),
    ActionType("push-crushing-wall", "Into the Heart of Darkness: a hero who completed push-wall pushes the south wall back a space per 3 progress; beyond the corrupted terrain it is disarmed (L652).",
               schema({"hero": NAME, "beyond_corrupted_terrain": {"type": "boolean"}}, ["hero"]), push, random=False),
    ActionType("disarm-crushing-trap", "Into the Heart of Darkness: a hero who completed disarm-trap-search disables the trap; the walls go and the blue door returns (L651).",
               schema({"hero": NAME}, ["hero"]), disarm, random=False),
]
