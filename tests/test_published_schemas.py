"""Every JSON Schema the application checks a request against is published, where a client can reach it.

The application validates a campaign's options, its component data, a session's set-up and each action's
body against the ruleset's own JSON Schemas (tracker/application/service.py). Each of them must be found, as it is,
in GET /rulesets/{id}, and in the OpenAPI document from the operation that takes it: createCampaign's
options and components, supplyComponents' components, startSession's set-up and takeAction's body (a oneOf
discriminated by ``type``).
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker import rulesets

REF = "#/components/schemas/"
METHODS = ("get", "post", "put", "patch", "delete")


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema as the document carries it: in the document's dialect, named by its component, described there."""
    return {key: value for key, value in schema.items() if key not in ("$schema", "title", "description")}


def _checked_by_the_application(ruleset) -> dict[str, dict[str, Any]]:
    """Every schema the application validates a client's request against, for one ruleset."""
    checked = {
        "options": ruleset.rules.options_schema,
        "setup": ruleset.rules.setup_schema,
        "components": ruleset.component_schema,
    }
    for action in ruleset.actions.values():
        if action.internal:
            # Run by the service itself at a session's start, on a body it builds: the client's part of it is
            # the set-up, checked above. A stricter schema here would be one clients cannot read.
            assert action.schema == {"type": "object"}, f"{ruleset.id}: {action.name} checks more than the published set-up"
        else:
            checked[f"action {action.name}"] = action.schema
    return checked


class Document:
    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.schemas = raw["components"]["schemas"]

    def operation(self, operation_id: str) -> dict[str, Any]:
        return next(op for item in self.raw["paths"].values() for m, op in item.items() if m in METHODS and op["operationId"] == operation_id)

    def body(self, operation_id: str) -> dict[str, Any]:
        return self.resolve(self.operation(operation_id)["requestBody"]["content"]["application/json"]["schema"])

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.schemas[schema["$ref"].removeprefix(REF)]
        return schema

    def branches(self, schema: dict[str, Any]) -> list[dict[str, Any]]:
        return [self.resolve(branch) for branch in schema.get("anyOf", schema.get("oneOf", []))]


def _offers(published: dict[str, Any] | None, schema: dict[str, Any]) -> bool:
    """Whether ``published`` is ``schema``, or offers it as a branch of an anyOf (at any depth: a third ruleset's
    schema joins the first two's anyOf as a branch of its own)."""
    if published is None:
        return False
    return published == schema or any(_offers(branch, schema) for branch in published.get("anyOf", []))


def _accepts_what(published: dict[str, Any], checked: dict[str, Any]) -> None:
    """An action type several rulesets share is published once: every property any of them names, required only
    where all require it. The ruleset's own properties must be there as they are, or as a branch of the shared one."""
    for name, schema in checked.get("properties", {}).items():
        if name == "type":
            continue
        assert _offers(published["properties"].get(name), schema), name
    assert set(published.get("required", [])) <= set(checked.get("required", []))
    assert published.get("additionalProperties") == checked.get("additionalProperties")


@pytest.mark.parametrize("ruleset_id", sorted(rulesets.registry()))
def test_every_schema_the_application_checks_is_in_the_ruleset_document_and_the_openapi_document(client, ruleset_id):
    ruleset = rulesets.get(ruleset_id)
    checked = _checked_by_the_application(ruleset)
    published = client.get(f"/rulesets/{ruleset_id}").json
    document = Document(client.get("/openapi.json").json)

    # GET /rulesets/{id}: each, as the application holds it.
    assert published["options_schema"] == checked["options"]
    assert published["setup_schema"] == checked["setup"]
    assert published["component_schema"] == checked["components"]
    actions = {action["type"]: action["schema"] for action in published["actions"]}
    assert {f"action {name}": schema for name, schema in actions.items()} == {k: v for k, v in checked.items() if k.startswith("action ")}

    # The OpenAPI document: reached from the operation that takes it.
    created = document.body("createCampaign")["properties"]
    started = document.body("startSession")["properties"]
    supplied = document.body("supplyComponents")["properties"]
    for what, branches in (
        ("options", document.branches(created["options"])),
        ("components", document.branches(created["components"])),
        ("components", document.branches(supplied["components"])),
        ("setup", document.branches(started["setup"])),
    ):
        assert _plain(checked[what]) in [_plain(branch) for branch in branches], f"{ruleset_id}'s {what} schema"
    action_body = document.resolve(document.operation("takeAction")["requestBody"]["content"]["application/json"]["schema"])
    mapping = action_body["discriminator"]["mapping"]
    assert action_body["discriminator"]["propertyName"] == "type"
    assert sorted(branch["$ref"] for branch in action_body["oneOf"]) == sorted(mapping.values())
    for name, schema in actions.items():
        component = document.resolve({"$ref": mapping[name]})
        assert component["properties"]["type"] == {"type": "string", "enum": [name]}
        _accepts_what(component, _plain(schema))
