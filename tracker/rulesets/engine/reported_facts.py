"""The contract of a quest's ``reported`` facts: what only the table sees and a quest's end may state.

A game names, per quest, the facts its conditions rest on that the log cannot know (a figure stepped onto a square,
a Demon walked into the house), each with its JSON type and the rulebook's words. ``schema`` makes the JSON Schema a
ruleset publishes for it (``reported_schema`` on each quest of GET /rulesets/{id}); ``check`` holds a ``reported``
object to it, in the command, before anything is recorded: a misspelt key would otherwise be kept in the log for
ever, read by no rule. The state's ``end`` says what the end takes now (``decided_end``, ``awaited_end``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jsonschema

from tracker.core.errors import Unprocessable


def schema(facts: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The JSON Schema of a ``reported`` object holding only ``facts`` (key -> a JSON Schema with its description)."""
    return {
        "type": "object",
        "properties": {key: dict(fact) for key, fact in facts.items()},
        "additionalProperties": False,
        "description": ("Facts only the table sees that this quest's end may state: " + "; ".join(
            f"{key}: {fact.get('description', '')}".rstrip(": ") for key, fact in facts.items())) if facts
        else "This quest's end takes no facts from the table: its conditions are all in the log.",
    }


def keys_said(keys: Sequence[str]) -> str:
    """Keys as a plain English list: "house_cleared", "a and b", "a, b and c"; "none"."""
    quoted = [f'"{key}"' for key in keys]
    if not quoted:
        return "none"
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def check(published: Mapping[str, Any], reported: Mapping[str, Any] | None, quest_name: str) -> None:
    """Refuse (422) a ``reported`` object that does not fit the quest's published schema: an unknown key, named with
    the keys the quest knows, or a value of the wrong type."""
    reported = reported or {}
    known = list((published.get("properties") or {}))
    unknown = [key for key in reported if key not in known]
    if unknown:
        raise Unprocessable(
            f"{keys_said(unknown)} {'is not a fact' if len(unknown) == 1 else 'are not facts'} the end of {quest_name} takes; "
            f"its facts: {keys_said(known)}",
            detail="GET /rulesets/{id} publishes each quest's reported_schema: the facts only the table sees that its end may "
            "state. Nothing was recorded.",
            errors={f"reported.{key}": [f"Unknown fact; known: {', '.join(known) or 'none'}."] for key in unknown},
        )
    for key, value in reported.items():
        errors = list(jsonschema.Draft202012Validator(published["properties"][key]).iter_errors(value))
        if errors:
            wanted = published["properties"][key].get("description", "")
            raise Unprocessable(
                f'"{key}" does not fit the end of {quest_name}: {errors[0].message}',
                detail=f'"{key}": {wanted}. GET /rulesets/{{id}} publishes the quest\'s reported_schema. Nothing was recorded.',
                errors={f"reported.{key}": [errors[0].message]},
            )


def _facts(keys: Sequence[str], published: Mapping[str, Any]) -> list[dict[str, str]]:
    properties = published.get("properties") or {}
    return [{"fact": key, "description": str(properties.get(key, {}).get("description", ""))} for key in keys]


def decided_end(verdict: Mapping[str, Any], published: Mapping[str, Any]) -> dict[str, Any]:
    """The end once the rules decided: its outcome and reason, and the facts it may still state (none needed)."""
    return {"decided": True, "outcome": verdict.get("outcome"), "reason": verdict.get("reason"), "awaits": [],
            "facts": _facts(list(published.get("properties") or {}), published)}


def awaited_end(awaited: Sequence[str], published: Mapping[str, Any]) -> dict[str, Any]:
    """The end while undecided: the facts only the table sees that the verdict waits on (state them with the end)."""
    return {"decided": False, "outcome": None, "reason": None, "awaits": _facts(awaited, published),
            "facts": _facts(list(published.get("properties") or {}), published)}
