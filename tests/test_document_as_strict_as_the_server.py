"""The OpenAPI document as strict as the server (issue 34): what the document allows the server takes, and what the
server refuses the document says; each finding of the integrator's review, held here."""

from __future__ import annotations

import jsonschema
import pytest

from api import ruleset_schemas
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker import rulesets


@pytest.fixture
def document(client) -> dict:
    return client.get("/openapi.json").get_json()


def _owner(client) -> tuple[dict, dict[str, str]]:
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Strict", "components": JOURNEY_TEST_COMPONENTS}).get_json()
    return made, {"Authorization": f"Bearer {made['owner_token']}"}


def test_view_is_one_of_the_rulesets_sides_in_the_document_and_others_are_refused(client, document):
    sides = sorted({side for ruleset in rulesets.registry().values() for side in ruleset.rules.sides})
    assert sides == ["heroes", "overlord"]
    views = [p["schema"] for ops in document["paths"].values() for op in ops.values() if isinstance(op, dict)
             for p in op.get("parameters", []) if p.get("name") == "view"]
    assert views and all(set(v["enum"]) == {*sides, None} for v in views)
    made, owner = _owner(client)
    session = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting"}, headers=owner).get_json()
    assert client.get(f"/sessions/{session['id']}?view=heroes", headers=owner).status_code == 200
    refused = client.get(f"/sessions/{session['id']}?view=pilgrims", headers=owner)
    assert refused.status_code == 422 and refused.content_type == "application/problem+json"
    # Journey has no overlord: a side of another ruleset, in the document's enum, refused by this campaign's own rules.
    assert client.get(f"/sessions/{session['id']}?view=overlord", headers=owner).status_code == 422


def test_a_number_with_an_integer_value_is_the_integer_as_json_schema_reads_it(client, document):
    """JSON Schema 2020-12: 2.0 is an integer. A client whose serializer writes 2.0 gets what 2 gets, and the log keeps 2."""
    draft = jsonschema.Draft202012Validator
    assert draft({"type": "integer"}).is_valid(2.0) and not draft({"type": "integer"}).is_valid(2.5)
    made, owner = _owner(client)
    session = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting"}, headers=owner).get_json()
    rolled = client.post(f"/sessions/{session['id']}/rolls", data='{"dice": {"d6": 2.0, "d20": 1e0}}', content_type="application/json", headers=owner)
    assert rolled.status_code == 201, rolled.get_json()
    results = rolled.get_json()["results"]
    assert len(results["d6"]) == 2 and len(results["d20"]) == 1
    stored = client.get(f"/sessions/{session['id']}/events", headers=owner).get_json()["events"]
    asked = next(e for e in stored if e["type"] == "DiceRolled")["payload"]["roll"]
    assert asked["dice"] == {"d6": 2, "d20": 1} and all(type(n) is int for n in asked["dice"].values())
    # A fraction is still no integer: refused, nothing appended.
    before = len(stored)
    refused = client.post(f"/sessions/{session['id']}/rolls", data='{"dice": {"d6": 2.5}}', content_type="application/json", headers=owner)
    assert refused.status_code == 422 and "d6" in refused.get_json()["title"]
    assert len(client.get(f"/sessions/{session['id']}/events", headers=owner).get_json()["events"]) == before


def test_options_on_the_import_route_names_only_its_own_methods(client):
    made, owner = _owner(client)
    allowed = client.open("/campaigns/import", method="OPTIONS", headers=owner).headers["Allow"]
    assert {method.strip() for method in allowed.split(",")} == {"POST", "OPTIONS"}  # not the GET of /campaigns/<id>
    assert client.get("/campaigns/import", headers=owner).status_code == 405  # no campaign called "import"
    assert client.get(f"/campaigns/{made['id']}", headers=owner).status_code == 200


def test_each_ruleset_publishes_its_own_action_union(document):
    schemas = document["components"]["schemas"]

    def resolved(ref: str) -> dict:
        return schemas[ref.rsplit("/", 1)[-1]]

    combined = {ref.rsplit("/", 1)[-1] for ref in (r["$ref"] for r in schemas["ActionBody"]["oneOf"])}
    for ruleset in rulesets.registry().values():
        name = "".join(part.capitalize() for part in ruleset.id.split("-")) + "ActionBody"
        union = schemas[name]
        published = {a["type"]: a["schema"] for a in ruleset.describe()["actions"]}
        assert set(union["discriminator"]["mapping"]) == set(published), ruleset.id
        for action_type, ref in union["discriminator"]["mapping"].items():
            member = resolved(ref)
            assert member["properties"]["type"] == {"type": "string", "enum": [action_type]}
            own = ruleset_schemas._plain(published[action_type])  # noqa: SLF001 - the ruleset's schema as the document words it
            assert {k: v for k, v in member.items() if k != "properties"} == {k: v for k, v in own.items() if k != "properties"}
            assert {k: v for k, v in member["properties"].items() if k != "type"} == {k: v for k, v in own.get("properties", {}).items() if k != "type"}
        assert {ref["$ref"] for ref in union["oneOf"]} == set(union["discriminator"]["mapping"].values())
    assert len(combined) == len({a["type"] for r in rulesets.registry().values() for a in r.describe()["actions"]})


def test_event_metadata_is_declared_key_by_key(client, document):
    schemas = document["components"]["schemas"]
    events_answered = [name for name, schema in schemas.items() if name.endswith("Event") and "meta" in schema.get("properties", {})]
    assert "DiceRolledEvent" in events_answered and "GameEvent" in events_answered
    for name in events_answered:  # one component for every event's meta, wherever events are answered
        assert schemas[name]["properties"]["meta"]["allOf"] == [{"$ref": "#/components/schemas/EventMeta"}], name
    meta = schemas["EventMeta"]
    assert meta["additionalProperties"] is False
    assert {"issued_by", "correlation_id", "ruleset_id", "ruleset_version", "command", "prev_hash", "sealed", "commitments", "salts"} <= set(meta["properties"])
    made, owner = _owner(client)
    session = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting"}, headers=owner).get_json()
    client.post(f"/sessions/{session['id']}/rolls", json={"dice": {"d6": 1}}, headers={**owner, "X-Correlation-Id": "strict-1"})
    events = client.get(f"/sessions/{session['id']}/events", headers=owner).get_json()["events"]
    validator = jsonschema.Draft202012Validator(meta)
    for event in events:
        validator.validate(event["meta"])
    assert next(e for e in events if e["type"] == "DiceRolled")["meta"]["correlation_id"] == "strict-1"
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**events[0]["meta"], "surprise": 1})


def test_a_maps_keys_are_named_in_the_document_as_the_server_refuses_them(client, document):
    """``{"faces": {"": ["1"]}}``: the server refuses an empty die name; the document says so (propertyNames, from the
    length the request's schema validates a map's keys to). A ruleset's own maps are published as the ruleset checks
    them (tests/test_published_schemas.py), their keys judged by its rules (an unknown die, deck or hero)."""
    schemas = document["components"]["schemas"]
    faces = schemas["ReportedRoll"]["properties"]["faces"]
    assert faces["propertyNames"] == {"type": "string", "minLength": 1, "maxLength": 100}
    assert not jsonschema.Draft202012Validator(faces).is_valid({"": [1]})
    made, owner = _owner(client)
    session = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting"}, headers=owner).get_json()
    before = len(client.get(f"/sessions/{session['id']}/events", headers=owner).get_json()["events"])
    assert client.post(f"/sessions/{session['id']}/rolls", json={"faces": {"": [1]}}, headers=owner).status_code == 422
    assert client.post(f"/sessions/{session['id']}/draws", json={"deck": "fortune", "count": 1, "holder": ""}, headers=owner).status_code == 422
    assert len(client.get(f"/sessions/{session['id']}/events", headers=owner).get_json()["events"]) == before
