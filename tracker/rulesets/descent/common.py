"""Small helpers the Descent resolvers share: the quest being played, heroes, refusals, conquest."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.engine.ruleset import ActionContext, action_schema

COLOURS = ("event", "trap", "monster")  # green, purple, red treachery
OVERLORD = "overlord"


def refuse(title: str, detail: str, field: str) -> Unprocessable:
    return Unprocessable(title, detail=detail, errors={field: [title]})


def plays_only(data: Mapping[str, Any], field: str, value: Any, playable: Any, rule: str) -> None:
    """Refuse, when the rules data loads, a value of ``field`` the code cannot play: the other value would need a rule
    the book never states (issue 31). An older version's data without the field played the one rule the code has."""
    if value is not None and value != playable:
        raise RulesDataError(f"Descent rules data {data.get('version')}: {field} is {json.dumps(value)}, but the tracker plays only {json.dumps(playable)}: {rule}")


def quest(ctx: ActionContext) -> dict[str, Any]:
    return ctx.ruleset.quest(ctx.game["quest"])


def require_hero(ctx: ActionContext, hero_id: str) -> dict[str, Any]:
    heroes = ctx.game.get("heroes", {})
    if hero_id not in heroes:
        raise refuse(f"'{hero_id}' is not a hero in this quest", f"Heroes: {wording.listed(sorted(heroes))}.", "hero")
    return heroes[hero_id]


def character(ctx: ActionContext, hero_id: str) -> dict[str, Any] | None:
    return next((c for c in ctx.ruleset.data["characters"] if c["id"] == hero_id), None)


def stat(ctx: ActionContext, hero_id: str, name: str, reported: int | None, field: str) -> int:
    """A hero's printed stat: from the rules data when stated, else as reported; a report that contradicts the data is refused."""
    known = ((character(ctx, hero_id) or {}).get("stats") or {}).get(name)
    if known is not None:
        if reported is not None and reported != known:
            raise refuse(f"{hero_id}'s {name.replace('_', ' ')} is {known}, not {reported}", "Leave it out to use the printed value.", field)
        return known
    if reported is None:
        raise refuse(
            f"Say {hero_id}'s {name.replace('_', ' ')}",
            f"The rulebook transcription does not give it; send \"{field}\" as printed on the hero sheet.",
            field,
        )
    return reported


def conquest_changes(ctx: ActionContext, delta: int, reason: str, total: int | None = None, **details: Any) -> list[dict[str, Any]]:
    """The heroes' conquest pool moves by ``delta``; running out of conquest loses the quest (L402, 'run short')."""
    before = ctx.game["conquest"] if total is None else total
    after = before + delta
    changes = [{"kind": "conquest-changed", "delta": delta, "reason": reason, "total": after, **details}]
    if after <= 0 and delta < 0 and not ctx.game.get("lost"):
        changes.append({"kind": "quest-lost", "reason": "conquest-exhausted", "conquest": after})
    return changes


schema = action_schema


NAME = {"type": "string", "minLength": 1, "maxLength": 200}
COUNT = {"type": "integer", "minimum": 1, "maximum": 100}
AMOUNT = {"type": "integer", "minimum": 0, "maximum": 1000}
