"""May this hero spend movement points now? Not while a web token remains on him (L323: "victim may not spend
movement points if any web tokens remain").

The rules data names the actions that spend movement points (conditions[web].spends_movement_points, with the lines
that say so); a move half action is taken only to spend them (L136), so a webbed hero may not take one either. Data
from before 1.3.0 names none, and its sessions re-derive as played."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tracker.rulesets.descent.common import refuse
from tracker.rulesets.engine.ruleset import ActionContext, ActionType


def _web(ctx: ActionContext) -> Mapping[str, Any]:
    return next((c for c in ctx.ruleset.data.get("conditions", []) if c["id"] == "web"), {})


def spends_movement(ctx: ActionContext, action: str, params: Mapping[str, Any]) -> bool:
    listed = _web(ctx).get("spends_movement_points")
    if not listed:
        return False
    halves = params.get("half_actions") or [params.get("half_action")]
    return action in listed or (action in ("ready", "stunned-half-action") and "move" in halves)


def require_unwebbed(ctx: ActionContext, action: str, params: Mapping[str, Any]) -> None:
    if not spends_movement(ctx, action, params):
        return
    hero = (ctx.game.get("heroes") or {}).get(params.get("hero"))
    webs = ((hero or {}).get("tokens") or {}).get("web", 0)
    if webs:
        raise refuse(f"{params['hero']} is caught in a web: no movement points while a web token remains",
                     f"L323: he may not spend movement points if any web tokens remain ({webs} on him); {action} spends them. "
                     "A surge on his start-of-turn roll discards one (condition-turn-start).", "hero")


def guarded(action: ActionType) -> ActionType:
    """``action``, its resolver refused first for a webbed hero where the action spends movement points."""
    resolve = action.resolve

    def checked(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        require_unwebbed(ctx, action.name, params)
        return resolve(ctx, params, rng)

    checked.__doc__ = resolve.__doc__
    return replace(action, resolve=checked)
