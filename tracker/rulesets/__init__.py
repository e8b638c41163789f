"""The registry of rulesets: one package per game, each validated data plus pure resolvers."""

from __future__ import annotations

from functools import cache

from tracker.errors import Unprocessable
from tracker.rulesets.ruleset import Ruleset


@cache
def registry() -> dict[str, Ruleset]:
    from tracker.rulesets import descent, journey, kung_fu_panda, yokai_quest

    rulesets = [journey.load(), descent.load(), kung_fu_panda.load(), yokai_quest.load()]
    return {ruleset.id: ruleset for ruleset in rulesets}


def get(ruleset_id: str) -> Ruleset:
    try:
        return registry()[ruleset_id]
    except KeyError:
        raise Unprocessable(
            f"Unknown ruleset '{ruleset_id}'",
            detail=f"Rulesets: {sorted(registry())}. GET /rulesets lists them.",
            errors={"ruleset": [f"Unknown ruleset: {ruleset_id}"]},
        ) from None


def get_or_404(ruleset_id: str) -> Ruleset:
    """For reads of /rulesets/{id}: an unknown id there is a missing resource, not a bad request."""
    from tracker.errors import NotFound

    try:
        return registry()[ruleset_id]
    except KeyError:
        raise NotFound(f"Unknown ruleset '{ruleset_id}'", detail=f"Rulesets: {sorted(registry())}.") from None


def describe_change(ruleset_id: str | None, change: dict) -> str | None:
    ruleset = registry().get(ruleset_id or "")
    return ruleset.rules.describe(change) if ruleset else None
