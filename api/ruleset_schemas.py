"""What the rulesets accept, as OpenAPI schemas: built from their own JSON Schemas, never written twice.

- every action type as a schema of its own, and ``ActionBody``: a ``oneOf`` discriminated by ``type``;
- each ruleset's campaign options, session set-up and component data, offered as an ``anyOf``
  (the ruleset of the campaign decides which applies; the server checks it against that one);
- the closed sets the server accepts (ruleset ids, quest ids) for enums.
A body that breaks every ruleset's schema is refused by the server for its own ruleset too, so the
document is never looser in what it refuses than the server.
"""

from __future__ import annotations

import copy
import re
from functools import cache
from typing import Any

from tracker import rulesets
from tracker.rulesets.engine.state_schema import RULESET  # the key of the answered game state that names its ruleset

REF = "#/components/schemas/"


def ruleset_ids() -> list[str]:
    return sorted(rulesets.registry())


def quest_ids() -> list[str]:
    """Every quest of every ruleset (a session's quest must also be one of its campaign's ruleset)."""
    return sorted({quest["id"] for ruleset in rulesets.registry().values() for quest in ruleset.data.get("quests", [])})


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("_", "-").split("-") if part)


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """A ruleset's JSON Schema as a schema inside the document: the document's dialect applies, not its own."""
    schema = copy.deepcopy(schema)
    schema.pop("$schema", None)
    schema.pop("title", None)  # generators name models by title; the component's name reads better
    return schema


def _merge(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """One schema for an action type two rulesets define differently: either's properties, what both require."""
    properties = dict(first.get("properties", {}))
    for name, schema in second.get("properties", {}).items():
        if name in properties and properties[name] != schema:
            properties[name] = {"anyOf": [properties[name], schema]}
        else:
            properties[name] = schema
    required = [name for name in first.get("required", []) if name in second.get("required", [])]
    return {**first, "properties": properties, "required": required}


@cache
def action_schemas() -> dict[str, dict[str, Any]]:
    """Component name -> schema, for every action type a client may post, and ActionBody over them all."""
    by_type: dict[str, dict[str, Any]] = {}
    for ruleset in rulesets.registry().values():
        for action in ruleset.describe()["actions"]:
            schema = _plain(action["schema"])
            by_type[action["type"]] = _merge(by_type[action["type"]], schema) if action["type"] in by_type else schema
    components = {}
    mapping = {}
    for action_type, schema in sorted(by_type.items()):
        name = f"{_camel(action_type)}Action"
        schema["properties"] = {**schema.get("properties", {}), "type": {"type": "string", "enum": [action_type]}}
        components[name] = schema
        mapping[action_type] = REF + name
    components["ActionBody"] = {
        "description": "An action of the session's ruleset; GET /rulesets/{id} lists each ruleset's action types. Each ruleset's "
                       "own union is published beside this one (JourneyActionBody, ...), for clients of one game.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    components.update(_per_ruleset_unions(components, mapping))
    return components


def _per_ruleset_unions(shared: dict[str, dict[str, Any]], mapping: dict[str, str]) -> dict[str, dict[str, Any]]:
    """``{Ruleset}ActionBody`` for each ruleset: a oneOf over its own action types only, each as that ruleset accepts it
    (the shared component where the ruleset's schema is the one shared, else ``{Ruleset}{Type}Action`` of its own)."""
    components: dict[str, dict[str, Any]] = {}
    for ruleset in sorted(rulesets.registry().values(), key=lambda r: r.id):
        own: dict[str, str] = {}
        for action in ruleset.describe()["actions"]:
            schema = _plain(action["schema"])
            schema["properties"] = {**schema.get("properties", {}), "type": {"type": "string", "enum": [action["type"]]}}
            name = mapping[action["type"]].removeprefix(REF)
            if schema != shared[name]:
                name = f"{_camel(ruleset.id)}{name}"
                components[name] = schema
            own[action["type"]] = REF + name
        components[f"{_camel(ruleset.id)}ActionBody"] = {
            "description": f"An action of a {ruleset.name} session: its action types only, as GET /rulesets/{ruleset.id} lists them.",
            "oneOf": [{"$ref": ref} for _, ref in sorted(own.items())],
            "discriminator": {"propertyName": "type", "mapping": dict(sorted(own.items()))},
        }
    return components


def side_ids() -> list[str]:
    """Every side of every ruleset, for ?view= (a campaign's own ruleset decides which of them it has)."""
    return sorted({side for ruleset in rulesets.registry().values() for side in ruleset.rules.sides})


@cache
def per_ruleset_schemas() -> dict[str, dict[str, Any]]:
    """Component name -> schema: each ruleset's options, set-up and component data."""
    components = {}
    for ruleset in rulesets.registry().values():
        described = ruleset.describe()
        for what, key in (("Options", "options_schema"), ("Setup", "setup_schema"), ("Components", "component_schema")):
            schema = _plain(described[key])
            schema["description"] = f"{ruleset.name}: {what.lower()}. " + schema.get("description", "")
            components[f"{_camel(ruleset.id)}{what}"] = schema
        # The facts each quest's end may take as "reported" (each quest's reported_schema in GET /rulesets/{id}).
        by_quest = [_reported_of(ruleset, quest) for quest in described["quests"]]
        components[f"{_camel(ruleset.id)}Reported"] = {
            "description": f"{ruleset.name}: the facts a quest's end may take from the table, one schema per quest (titled by its name); "
            "the session's quest decides which applies, and the server checks it against that one.",
            "anyOf": by_quest or [{"type": "object", "additionalProperties": False}],
        }
    return _titles_once(components)


def reported_title(ruleset, quest: dict[str, Any]) -> str:
    """The title of a quest's reported schema, which generators name its model by: the game and the quest's own name
    (``JourneyMeetingReported``), not its id (``Q1Meeting``). Names, not numbers: Descent numbers each expansion's
    quests from 1, Kung Fu Panda's are "Lesson 1" and "1.1"; every game names each of its quests once."""
    return _camel(ruleset.id) + "".join(_camel(word) for word in re.findall(r"[A-Za-z0-9]+", quest["name"].replace("'", ""))) + "Reported"


def _reported_of(ruleset, quest: dict[str, Any]) -> dict[str, Any]:
    schema = _plain(quest["reported_schema"])
    description = f"{ruleset.name}, {quest['name']} (quest {quest['id']}): the facts its end may take from the table."
    return {**schema, "title": reported_title(ruleset, quest), "description": " ".join(filter(None, (description, schema.get("description"))))}


def _titles_once(components: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Two quests' reported schemas with one title would give a generated client one class for both: refused."""
    titles = [schema["title"] for name, c in components.items() if name.endswith("Reported") for schema in c["anyOf"] if "title" in schema]
    twice = sorted({title for title in titles if titles.count(title) > 1})
    if twice:
        raise ValueError(f"Quests' reported schemas share a title: {', '.join(twice)}; name the quests apart")
    return components


def _open(schema: Any) -> Any:
    """A published state schema as the document offers it: every object open to more keys (an answer may gain fields,
    api/contract.py), its keys and their types as published. GET /rulesets/{id} serves it closed, as the tests hold it."""
    if isinstance(schema, dict):
        return {key: _open(value) for key, value in schema.items() if not (key == "additionalProperties" and value is False)}
    if isinstance(schema, list):
        return [_open(value) for value in schema]
    return schema


GAME_STATE = "GameState"


def ref(name: str) -> dict[str, Any]:
    """A field's metadata that makes it the component ``name`` in the document."""
    return {"allOf": [{"$ref": REF + name}]}


def game_state_branch(ruleset) -> tuple[str, dict[str, Any]]:
    """``{Ruleset}GameState``: the ruleset's published state_schema as GameState's branch, naming its ruleset whatever
    the schema declares (a game that publishes no state schema is still told apart from the others by it)."""
    schema = _open(_plain(ruleset.rules.state_schema))
    schema["description"] = f"{ruleset.name}: the session's game state. " + schema.get("description", "")
    properties = schema.get("properties", {})
    schema["properties"] = {**properties, RULESET: {**properties.get(RULESET, {}), "type": "string", "enum": [ruleset.id]}}
    schema["required"] = sorted({*schema.get("required", []), RULESET})
    return f"{_camel(ruleset.id)}{GAME_STATE}", schema


@cache
def game_state_schemas() -> dict[str, dict[str, Any]]:
    """``{Ruleset}GameState`` for each ruleset (its published state_schema), and ``GameState``: the oneOf over them,
    discriminated by the ``ruleset`` the session answer names in its game state."""
    components: dict[str, dict[str, Any]] = {}
    mapping: dict[str, str] = {}
    for ruleset_id in ruleset_ids():
        name, schema = game_state_branch(rulesets.registry()[ruleset_id])
        components[name] = schema
        mapping[ruleset_id] = REF + name
    components[GAME_STATE] = {
        "description": "The session's game state, in its ruleset's shape (GET /rulesets/{id}: state_schema); ruleset names which.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": RULESET, "mapping": mapping},
    }
    return components


def any_of(what: str) -> dict[str, Any]:
    """An anyOf over every ruleset's schema of ``what`` (Options, Setup, Components or Reported), for a field's metadata."""
    return {"anyOf": [{"$ref": f"{REF}{_camel(ruleset_id)}{what}"} for ruleset_id in ruleset_ids()]}


def components() -> dict[str, dict[str, Any]]:
    return {**action_schemas(), **per_ruleset_schemas(), **game_state_schemas()}
