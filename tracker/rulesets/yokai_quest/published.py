"""An action as the rules a campaign pinned published it: each version says (tracker/rulesets/yokai_quest/versions.py,
``action``); Yōkai Quest 1.0.0's actions read only what its contract's schemas gave them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tracker.rulesets.engine.ruleset import ActionContext, ActionType


def as_published(action: ActionType) -> ActionType:
    """The action as the pinned rules' version published it (``Rules.version.action``)."""

    def resolve(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        return ctx.ruleset.rules.version.action(action).resolve(ctx, params, rng)

    return replace(action, resolve=resolve)
