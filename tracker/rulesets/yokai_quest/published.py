"""An action as the rules a campaign pinned published it (Yōkai Quest 1.0.0's actions under its data)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tracker.errors import Unprocessable
from tracker.rulesets.ruleset import SET_UP_QUEST, ActionContext, ActionType
from tracker.rulesets.yokai_quest import yokai_phase


def as_published(action: ActionType) -> ActionType:
    """The action as the pinned rules published it. Only 1.0.0's data lacks yokai_rules.coins (1.1.0 brought the Yōkai
    phase, with actions it did not have): under it an action is the 1.0.0 contract's or none, and reads only the
    parameters that contract's schema gave it, as 1.0.0's resolvers did (tracker/rulesets/versions/yokai-quest/)."""

    def resolve(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        if yokai_phase.kept(ctx.ruleset.data):
            return action.resolve(ctx, params, rng)
        schemas = {a["type"]: a["schema"] for a in ctx.ruleset.published["actions"]}
        if action.name not in schemas:
            raise Unprocessable(
                f"Yōkai Quest {ctx.ruleset.data['version']} has no '{action.name}' action",
                detail=f"This campaign plays the rules it was created with; their actions: {sorted(n for n in schemas if n != SET_UP_QUEST)}.",
            )
        read = schemas[action.name].get("properties")
        return action.resolve(ctx, params if read is None else {k: v for k, v in params.items() if k in read}, rng)

    return replace(action, resolve=resolve)
