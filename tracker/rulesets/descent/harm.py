"""Wounds a quest's own effects deal (Zorek's gaze, L685; a glyph restored at a wound's cost, L524): a hero they bring
to 0 wounds is killed with the consequences hero-killed records, reckoned after the effect's own changes (Zorek's curse
comes first and raises the conquest value, L685, L192)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent import conquest
from tracker.rulesets.engine.ruleset import ActionContext, Resolved
from tracker.rulesets.engine.working_copy import WorkingCopy


def deaths_after(ctx: ActionContext, changes: list[dict[str, Any]], heroes: list[str], deaths: Mapping[str, Any], rng: Any) -> Resolved:
    """``changes``, then hero-killed for each of ``heroes`` at 0 wounds once they are folded in (``deaths`` holds what
    each needs): the resolver's whole answer, each change folded once on one copy of the state."""
    working = WorkingCopy(ctx)  # the state after them: one copy, each change folded on it in place
    working.extend(changes)
    for hero_id in heroes:
        if working.game["heroes"][hero_id].get("wounds") == 0:
            working.extend(conquest.hero_killed(working.reading(), {"hero": hero_id, **(deaths.get(hero_id) or {})}, rng))
    return working.changes
