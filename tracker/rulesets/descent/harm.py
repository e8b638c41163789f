"""Wounds a quest's own effects deal (Zorek's gaze, L685; a glyph restored at a wound's cost, L524): a hero they bring
to 0 wounds is killed with the consequences hero-killed records, reckoned after the effect's own changes (Zorek's curse
comes first and raises the conquest value, L685, L192)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import reduce
from typing import Any

from tracker.rulesets.descent import conquest
from tracker.rulesets.descent.events import CHANGES
from tracker.rulesets.descent.fold import fold
from tracker.rulesets.engine.ruleset import ActionContext


def deaths_after(ctx: ActionContext, changes: list[dict[str, Any]], heroes: list[str], deaths: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """hero-killed for each of ``heroes`` at 0 wounds once ``changes`` are folded in; ``deaths`` holds what each needs."""
    own = [c for c in changes if c["kind"] in CHANGES.events]  # a roll's change is the session's, not the game state's
    after = dataclasses.replace(ctx, state={**ctx.state, "game": reduce(fold, own, ctx.game)})
    killed: list[dict[str, Any]] = []
    for hero_id in heroes:
        if after.game["heroes"][hero_id].get("wounds") == 0:
            found = conquest.hero_killed(after, {"hero": hero_id, **(deaths.get(hero_id) or {})}, rng)
            killed += found
            after = dataclasses.replace(after, state={**after.state, "game": reduce(fold, [c for c in found if c["kind"] in CHANGES.events], after.game)})
    return killed
