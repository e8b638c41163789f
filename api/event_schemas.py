"""Events in the document, typed by their type: each event class's payload, read from its annotations.

An event's ``type`` fixes its payload: ``DiceRolled`` carries ``roll``, ``SessionEnded`` an ``outcome``
and a ``seed``. The schemas are built from the campaign's and the session's event classes, so a new
field or event appears in the document as it appears in the code. A ruleset's own events (KarmaGained,
TreacherySpent, ...) all carry a ``change`` the ruleset defines: one schema covers them. A payload
another side may not see yet is ``{"secret_to", "revealed_when"}`` with ``secret: true``.
"""

from __future__ import annotations

import copy
import types
import typing
from functools import cache
from typing import Any

from tracker.domain.campaign import Campaign
from tracker.domain.session import DECK_EVENTS, Session
from tracker.core.sealing import SEALED

REF = "#/components/schemas/"
_NOT_PAYLOAD = {"originator_id", "originator_version", "timestamp", "meta", "originator_topic"}  # tracker/application/session_log.py
# Payloads that may be withheld from another side until the quest ends (tracker/hidden_information.py).
_MAY_BE_SECRET = {"change", "action", "roll"}

# Payload fields whose shape the service (not a ruleset) fixes, as the README's export format describes them.
_FIELDS = {
    ("DiceRolled", "roll"): {
        "type": "object",
        "description": "dice (die id to count, in the order rolled), results per die, and for a digital roll the "
        "layouts rolled and the stream's counter_start and counter_end.",
        "properties": {
            "source": {"type": "string", "enum": ["digital", "reported"]},
            "dice": {"type": "object", "additionalProperties": {"type": "integer"}},
            "results": {"type": "object", "additionalProperties": {"type": "array", "items": {}}},
            "layouts": {"type": "object", "additionalProperties": {"type": "array", "items": {}}},
            "counter_start": {"type": "integer"},
            "counter_end": {"type": "integer"},
            "purpose": {"type": ["string", "null"]},
        },
        "required": ["source", "dice", "results"],
    },
}
_DECK_CHANGE = {
    "type": "object",
    "description": "A change to one deck: kind, deck, and the cards it moved.",
    "properties": {"kind": {"type": "string"}, "deck": {"type": "string"}, "cards": {"type": "array", "items": {"type": "string"}}},
    "required": ["kind", "deck"],
}

SECRET_PAYLOAD = {
    "type": "object",
    "description": "What another side keeps secret until the quest ends.",
    "properties": {"secret_to": {"type": "string"}, "revealed_when": {"type": "string"}},
    "required": ["secret_to", "revealed_when"],
}


def _schema_of(hint: Any) -> dict[str, Any]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        inner = _schema_of(options[0]) if len(options) == 1 else {}
        if "type" in inner and type(None) in typing.get_args(hint):
            return {**inner, "type": [inner["type"], "null"]}
        return inner
    if hint is str:
        return {"type": "string"}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is dict or origin is dict:
        return {"type": "object"}
    if origin is list:
        (item,) = typing.get_args(hint) or (Any,)
        return {"type": "array", "items": _schema_of(item)}
    return {}


def payload_schema(event_class: type) -> dict[str, Any]:
    hints = typing.get_type_hints(event_class)
    properties = {}
    for name, hint in hints.items():
        if name in _NOT_PAYLOAD or name.startswith("_") or typing.get_origin(hint) is typing.ClassVar:
            continue
        schema = _FIELDS.get((event_class.__name__, name)) or _schema_of(hint)
        if name == "change" and event_class in DECK_EVENTS.values():
            schema = _DECK_CHANGE
        properties[name] = schema
    # A sealed field is left out of the event's public form until its session ends (tracker/core/sealing.py).
    sealed = {path for path in SEALED.get(event_class.__name__, ()) if "." not in path}
    return {"type": "object", "properties": properties, "required": sorted(set(properties) - sealed)}


@cache
def domain_events() -> dict[str, type]:
    """The campaign's and the session's own event classes, by the type name the API shows."""
    found = {}
    for aggregate in (Campaign, Session):
        for value in vars(aggregate).values():
            if isinstance(value, type) and hasattr(value, "class_version") and issubclass(value, (Campaign.Event, Session.Event)):
                found[value.__name__] = value
    return found


def variants(name: str, base: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Component name -> schema: ``base`` (an event's shape as the marshmallow schema dumps it) once per event
    type with its payload typed, one for the rulesets' own events, and ``name`` as the oneOf over them all."""
    components: dict[str, dict[str, Any]] = {"SecretPayload": SECRET_PAYLOAD}
    mapping = {}
    for event_type, event_class in sorted(domain_events().items()):
        payload = payload_schema(event_class)
        if _MAY_BE_SECRET & set(payload["properties"]):
            payload = {"anyOf": [payload, {"$ref": REF + "SecretPayload"}]}
        variant = f"{event_type}{name}"
        components[variant] = _with(base, {"type": "string", "enum": [event_type]}, payload)
        mapping[event_type] = REF + variant
    game = {"type": "object", "properties": {"change": {"type": "object"}}, "required": ["change"]}
    components[f"Game{name}"] = _with(
        base,
        {"type": "string", "not": {"enum": sorted(mapping)}, "description": "A ruleset's own event (GET /rulesets/{id})."},
        {"anyOf": [game, {"$ref": REF + "SecretPayload"}]},
    )
    components[name] = {
        "description": "An event; its type fixes its payload.",
        "oneOf": [{"$ref": ref} for ref in [*mapping.values(), REF + f"Game{name}"]],
    }
    return components


def _with(base: dict[str, Any], event_type: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
    schema = copy.deepcopy(base)
    schema["properties"]["type"] = event_type
    schema["properties"]["payload"] = payload
    return schema
