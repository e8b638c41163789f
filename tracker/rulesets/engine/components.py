"""Component data: the facts a ruleset marks unknown, supplied by a campaign's owner.

The ruleset publishes a JSON Schema that accepts exactly the missing facts
(die face layouts, card lists, profile stats); a campaign's document is
validated against it, stored in the log and pinned by its content hash.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jsonschema

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.core.supplements import supplement

__all__ = ["card_entries", "card_names", "schema", "supplement", "table", "validate"]

SCALAR = {"type": ["integer", "string"]}


def schema(data: Mapping[str, Any]) -> dict[str, Any]:
    dice = {die["id"]: _die_schema(die) for die in data.get("dice", []) if die.get("faces") is None}
    decks = {deck["id"]: _deck_schema(deck) for deck in data.get("decks", []) if deck.get("cards") is None}
    characters = {}
    for character in data.get("characters", []):
        missing = sorted(k for k, v in (character.get("stats") or {}).items() if v is None)
        if missing:
            characters[character["id"]] = _object({"stats": _object({k: SCALAR for k in missing})})
    # Tables a ruleset declares lost (weapon tables, a promotion tree ...), each with its own schema.
    tables = {
        table_id: {**table["schema"], "description": table.get("description", "")}
        for table_id, table in (data.get("component_tables") or {}).items()
    }
    sections = {"dice": _object(dice), "decks": _object(decks), "characters": _object(characters)}
    if tables:
        sections["tables"] = _object(tables)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Component data for {data['name']}",
        "description": "Facts the rulebook transcription lost. Only unknown facts may be supplied.",
        **_object(sections),
    }


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _die_schema(die: Mapping[str, Any]) -> dict[str, Any]:
    faces: dict[str, Any] = {"type": "array", "items": {"enum": die["results"]}, "minItems": 1, "maxItems": 100}
    if die.get("sides"):
        faces["minItems"] = faces["maxItems"] = die["sides"]
    return {**_object({"faces": faces}), "required": ["faces"]}


def _deck_schema(deck: Mapping[str, Any]) -> dict[str, Any]:
    card: dict[str, Any] = {
        "oneOf": [
            {"type": "string", "minLength": 1, "maxLength": 200},
            {
                **_object({"name": {"type": "string", "minLength": 1, "maxLength": 200}}),
                "required": ["name"],
            },
        ]
    }
    if deck.get("card_kinds"):
        card["oneOf"][1]["properties"]["kind"] = {"enum": deck["card_kinds"]}
    card["oneOf"][1]["properties"].update(deck.get("card_fields") or {})  # what else a card says (e.g. the Demons it spawns)
    cards: dict[str, Any] = {"type": "array", "items": card, "minItems": 1, "maxItems": 500}
    if deck.get("size"):
        cards["minItems"] = cards["maxItems"] = deck["size"]
    return {**_object({"cards": cards}), "required": ["cards"]}


def validate(data: Mapping[str, Any], components: Mapping[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(schema(data))
    errors = sorted(validator.iter_errors(components), key=lambda e: list(e.absolute_path))
    if errors:
        fields = {"components." + ".".join(str(p) for p in e.absolute_path) if e.absolute_path else "components": [wording.schema_problem(e)] for e in errors}
        raise Unprocessable(
            "The component data does not fit this ruleset",
            detail="Supply only facts the ruleset marks unknown, in the shape of its component_schema "
            f"(GET /rulesets/{data['id']}). First problem: {wording.schema_problem(errors[0])}",
            errors=fields,
        )


def table(components: Mapping[str, Any], table_id: str) -> Mapping[str, Any]:
    """A supplied component table (empty when the campaign supplied none)."""
    return (components.get("tables") or {}).get(table_id) or {}


def card_entries(components: Mapping[str, Any], deck_id: str) -> dict[str, Mapping[str, Any]]:
    """The supplied cards of a deck by name, in their object form (what each card says)."""
    listed = ((components.get("decks") or {}).get(deck_id) or {}).get("cards") or []
    return {(card if isinstance(card, str) else card["name"]): ({"name": card} if isinstance(card, str) else card) for card in listed}


def card_names(cards: list[Any]) -> tuple[list[str], dict[str, str | None]]:
    names: list[str] = []
    kinds: dict[str, str | None] = {}
    for card in cards:
        name = card if isinstance(card, str) else card["name"]
        names.append(name)
        if not isinstance(card, str) and card.get("kind"):
            kinds[name] = card["kind"]
        else:
            kinds.setdefault(name, None)
    return names, kinds
