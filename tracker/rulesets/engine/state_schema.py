"""The JSON Schema of a session's game state, the parts every game writes its own with.

Each game publishes the shape of the ``game`` object a session answer carries (``<game>/state_schema.py``, served as
``state_schema`` by GET /rulesets/{id} and as ``{Game}GameState`` in the OpenAPI document). The answer names the
game's ruleset in it (``ruleset``), which the document's ``oneOf`` over the four games is discriminated by.

Every key a game's fold writes is declared, with its type (``null`` where it can be null); the objects a game keeps
by name (heroes, figures, tokens by kind) are maps whose values are typed in turn. An object the schema declares is
closed (``additionalProperties: false``): a key a fold starts writing without its schema is refused by the API tests'
contract check (tests/kit/contract.py) and by tests/test_game_state_schemas.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

STRING: dict[str, Any] = {"type": "string"}
INTEGER: dict[str, Any] = {"type": "integer"}
BOOLEAN: dict[str, Any] = {"type": "boolean"}
STRINGS: dict[str, Any] = {"type": "array", "items": STRING}
INTEGERS: dict[str, Any] = {"type": "array", "items": INTEGER}
COUNTS: dict[str, Any] = {"type": "object", "additionalProperties": INTEGER}  # a count by name (tokens by kind, ...)


def nullable(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema``, or null (a value not known or not yet set)."""
    kind = schema["type"]
    shown = {**schema, "type": [*(kind if isinstance(kind, list) else [kind]), "null"]}
    if "enum" in schema:
        shown["enum"] = [*schema["enum"], None]
    return shown


def closed(properties: Mapping[str, Any], required: Iterable[str] = (), description: str | None = None) -> dict[str, Any]:
    """An object of these keys only; ``required`` the ones it always has."""
    schema: dict[str, Any] = {"type": "object", "properties": dict(properties), "additionalProperties": False}
    if required:
        schema["required"] = sorted(required)
    if description:
        schema["description"] = description
    return schema


def map_of(value: Mapping[str, Any], description: str | None = None) -> dict[str, Any]:
    """An object keyed by a name the game gives (a hero, a figure, a tile), each value ``value``."""
    schema: dict[str, Any] = {"type": "object", "propertyNames": {"minLength": 1}, "additionalProperties": dict(value)}
    if description:
        schema["description"] = description
    return schema


def list_of(item: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": dict(item)}


# What tracker/rulesets/engine/correction.py lists on a sheet it corrects: the games whose sheets hold plain values share it.
CORRECTED_VALUE: dict[str, Any] = {"type": ["string", "integer", "number", "boolean", "null"]}
CORRECTIONS: dict[str, Any] = {
    "type": "array",
    "description": "The corrections the table made to this sheet (tracker/rulesets/engine/correction.py), oldest first.",
    "items": closed(
        {"field": STRING, "was": CORRECTED_VALUE, "to": CORRECTED_VALUE, "reason": STRING, "refers_to": nullable(INTEGER)},
        required=("field", "was", "to", "reason", "refers_to"),
    ),
}

RULESET = "ruleset"  # the key of the answered game state that names its ruleset (the document's discriminator)


def game_state(ruleset_id: str, name: str, properties: Mapping[str, Any], set_up: Sequence[str], description: str) -> dict[str, Any]:
    """A game's state schema: its own keys, and ``ruleset`` (its id), which the session answer adds to the game state.

    A session's state is empty until its quest is set up (time travel to its first event answers ``{}``), and holds
    every key of ``set_up`` from then on: the first of them brings the others (``dependentRequired``)."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{name} game state",
        "description": description,
        **closed(
            {RULESET: {"type": "string", "enum": [ruleset_id], "description": "The session's ruleset (the answer names it here)."}, **properties},
            required=(RULESET,),
        ),
    }
    if set_up:
        schema["dependentRequired"] = {set_up[0]: sorted(set_up[1:])}
    return schema
