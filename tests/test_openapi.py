"""The OpenAPI document states what the server enforces: errors, security, headers, required fields, enums, bodies.

tests/kit/contract.py checks every response of the API suite against the document; the tests here check the
document's promises that no single response shows (which operations are public, which headers exist,
that a body the document refuses the server refuses too, and the reverse).
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from api import schemas
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit.contract import check, mismatches, reference_mismatch
from tracker import rulesets

PUBLIC = {"listRulesets", "getRuleset", "getHealth", "getVerifier", "getSigningKeys", "createCampaign", "importCampaign",
          "getMetrics", "getReadiness"}  # getMetrics: public unless TRACKER_METRICS_TOKEN is set (api/routes/metrics.py)
SESSION_COMMANDS = {"rollDice", "drawCards", "takeAction", "endSession", "abandonSession", "undoAction"}
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture
def document(client) -> dict:
    return client.get("/openapi.json").json


def _operations(document):
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def _validator(document, component: str) -> Draft202012Validator:
    """A JSON Schema validator for one of the document's schemas, its $refs resolved within the document."""
    registry = Registry().with_resource("urn:openapi", Resource.from_contents(document, default_specification=DRAFT202012))
    return Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{component}"}, registry=registry)


def _parameter_names(document, operation) -> set[str]:
    names = set()
    for parameter in operation.get("parameters", []):
        if "$ref" in parameter:
            parameter = document["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
        names.add(parameter["name"])
    return names


def test_every_operation_is_named_as_its_action_and_answers_errors_as_problems(document):
    names = [operation["operationId"] for _, _, operation in _operations(document)]
    assert len(names) == len(set(names)) >= 31
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]*)+", name) for name in names), names
    assert {"rollDice", "endSession", "exportCampaign", "importCampaign", "takeAction", "streamEvents"} <= set(names)
    problem_responses = document["components"]["responses"]
    for path, method, operation in _operations(document):
        assert "default" not in operation["responses"]
        for status, response in operation["responses"].items():
            if status.startswith("2"):
                continue
            if "$ref" in response:
                declared = problem_responses[response["$ref"].rsplit("/", 1)[1]]
                assert declared["content"] == {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}, (path, method)
            else:  # a status the view also answers with a body of its own (GET /health's 503 while the views are stalled)
                assert response["content"]["application/problem+json"] == {"schema": {"$ref": "#/components/schemas/Problem"}}, (path, method)
    problem = document["components"]["schemas"]["Problem"]
    assert problem["properties"]["status"]["type"] == "integer" and set(problem["required"]) == {"type", "title", "status"}


def test_public_operations_need_no_token_and_every_other_a_bearer_one(document):
    bearer = document["components"]["securitySchemes"]["bearer"]
    assert (bearer["type"], bearer["scheme"]) == ("http", "bearer")
    assert document["security"] == [{"bearer": []}]
    public = {operation["operationId"] for _, _, operation in _operations(document) if operation.get("security") == []}
    assert public == PUBLIC
    for _, _, operation in _operations(document):
        if operation["operationId"] not in PUBLIC:
            assert {"401", "403"} <= set(operation["responses"]), operation["operationId"]


def test_the_headers_a_client_sends_and_reads_are_declared(document):
    parameters = document["components"]["parameters"]
    assert "version" in parameters["IfMatch"]["description"]
    for path, method, operation in _operations(document):
        names = _parameter_names(document, operation)
        if method != "get":
            assert "Idempotency-Key" in names, operation["operationId"]
            assert any("Idempotent-Replayed" in r.get("headers", {}) for s, r in operation["responses"].items() if s.startswith("2"))
        assert ("If-Match" in names) == (operation["operationId"] in SESSION_COMMANDS), operation["operationId"]
        assert ("412" in operation["responses"]) == (operation["operationId"] in SESSION_COMMANDS), operation["operationId"]
        assert ("Last-Event-ID" in names) == (operation["operationId"] == "streamEvents")
    for status in ("429", "503"):
        assert "Retry-After" in document["components"]["responses"][f"Problem{status}"]["headers"]


def test_the_header_values_the_document_allows_are_the_ones_the_server_reads(client, session_id):
    if_match = re.compile(document_pattern(client, "IfMatch"))
    last_event_id = re.compile(document_pattern(client, "LastEventId"))
    for value, readable in (("2", True), ('"2"', True), ('W/"2"', True), ("+2", False), ("²", False), ("2.0", False)):
        assert bool(if_match.search(value)) is readable, value
        answer = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}, headers={"If-Match": value})
        assert answer.status_code == (412 if readable else 400), (value, answer.json)
    for value, readable in (("0", True), ("", True), ("²", False), ("-1", False)):
        assert bool(last_event_id.search(value)) is readable, value
        answer = client.get("/events/stream?limit=1&wait=0", headers={"Last-Event-ID": value})
        assert answer.status_code == (200 if readable else 422), value
        answer.close()


def document_pattern(client, parameter: str) -> str:
    return client.get("/openapi.json").json["components"]["parameters"][parameter]["schema"]["pattern"]


def test_fields_always_present_are_required_and_nullable_answers_are_typed(document):
    components = document["components"]["schemas"]
    for name in ("Campaign", "CampaignCreated", "SessionState", "RollResult", "Ended", "Verification", "Standing", "Feed", "Imported"):
        schema = components[name]
        optional = {getattr(schemas, name)._declared_fields[f].data_key or f for f in getattr(schemas, name).OPTIONAL}
        assert set(schema["required"]) == set(schema["properties"]) - optional, name
        assert schema.get("additionalProperties") is not False, f"{name}: answers may gain fields"
    assert components["Standing"]["properties"]["latest_session"] == {"anyOf": [{"$ref": "#/components/schemas/LatestSession"}, {"type": "null"}]}
    assert components["Verification"]["properties"]["first_mismatch"] == {"anyOf": [{"$ref": "#/components/schemas/Mismatch"}, {"type": "null"}]}
    assert components["TimelineEntry"]["properties"]["occurred_at"]["format"] == "date-time"
    assert components["DiceRolledEvent"]["properties"]["timestamp"]["format"] == "date-time"


def test_closed_sets_are_enums_built_from_the_rulesets(document):
    components = document["components"]["schemas"]
    assert components["CampaignCreate"]["properties"]["ruleset"]["enum"] == sorted(rulesets.registry())
    quests = {q["id"] for r in rulesets.registry().values() for q in r.data["quests"]}
    assert set(components["SessionCreate"]["properties"]["quest"]["enum"]) == quests
    assert components["TokenMint"]["properties"]["role"]["enum"] == ["player", "viewer", "integration"]
    assert components["RollResult"]["properties"]["source"]["enum"] == ["digital", "reported"]
    assert set(components["Verification"]["properties"]["status"]["enum"]) == {"verified", "pending", "mismatch", "ruleset-changed"}
    assert set(components["SessionState"]["properties"]["status"]["enum"]) == {"in-progress", "ended", "abandoned"}
    assert {"victory", "heroic-victory", "defeat"} <= set(components["SessionSummary"]["properties"]["outcome"]["enum"])


def test_action_bodies_are_a_oneof_discriminated_by_type_from_the_rulesets_own_schemas(document):
    body = document["components"]["schemas"]["ActionBody"]
    mapping = body["discriminator"]["mapping"]
    assert body["discriminator"]["propertyName"] == "type"
    posted = {a["type"] for r in rulesets.registry().values() for a in r.describe()["actions"]}
    assert set(mapping) == posted and "set-up-quest" not in mapping
    assert [branch["$ref"] for branch in body["oneOf"]] == list(mapping.values())
    validator = _validator(document, "ActionBody")
    assert validator.is_valid({"type": "end-turn"})
    assert validator.is_valid({"type": "look", "deck": "fortune", "count": 2})
    assert not validator.is_valid({"type": "look", "deck": "fortune"})  # count is required
    assert not validator.is_valid({"type": "set-up-quest"})
    # Options, set-up and component data: each ruleset's own schema.
    create = document["components"]["schemas"]["CampaignCreate"]["properties"]
    named = {"".join(part.capitalize() for part in ruleset_id.split("-")) + "Options" for ruleset_id in rulesets.registry()}  # each game's, by its id
    assert {"JourneyOptions", "DescentOptions", "KungFuPandaOptions", "YokaiQuestOptions"} <= named
    assert {b["$ref"].rsplit("/", 1)[1] for b in create["options"]["anyOf"]} == named
    assert _validator(document, "JourneyOptions").is_valid({"mode": "linked"})
    assert not _validator(document, "JourneyOptions").is_valid({"mode": "sideways"})
    assert _validator(document, "JourneyComponents").is_valid(JOURNEY_TEST_COMPONENTS)


def test_event_payloads_are_typed_by_the_event_type(document):
    events = document["components"]["schemas"]
    assert events["DiceRolledEvent"]["properties"]["type"]["enum"] == ["DiceRolled"]
    ended = events["SessionEndedEvent"]["properties"]["payload"]
    assert {"outcome", "seed"} <= set(ended["required"]) and ended["properties"]["seed"] == {"type": "string"}
    started = events["SessionStartedEvent"]["properties"]["payload"]
    assert started["properties"]["seed"] == {"type": "string"} and "seed" not in started["required"]  # sealed until the end
    assert "seed_commitment" in started["required"]
    assert "DiceRolled" in events["GameEvent"]["properties"]["type"]["not"]["enum"]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"dice": {}},
        {"faces": {}},
        {"dice": {"d6": 1}, "faces": {"attack": ["2"]}},
        {"dice": {"d6": 0}},
        {"purpose": "initiative"},
        {"dice": {"d6": 2}, "purpose": "initiative"},
        {"faces": {"attack": ["2", "X"]}},
    ],
)
def test_a_roll_body_the_document_accepts_the_server_accepts_and_the_reverse(client, document, session_id, body):
    schema = document["paths"]["/sessions/{session_id}/rolls"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    registry = Registry().with_resource("urn:openapi", Resource.from_contents(document, default_specification=DRAFT202012))
    refs = [{"$ref": "urn:openapi" + branch["$ref"]} for branch in schema["oneOf"]]
    accepted = Draft202012Validator({"oneOf": refs}, registry=registry).is_valid(body)
    answer = client.post(f"/sessions/{session_id}/rolls", json=body)
    assert answer.status_code == (201 if accepted else 422), (body, answer.json)


def test_the_export_import_stream_and_verifier_declare_their_content(document):
    paths = document["paths"]
    assert paths["/campaigns/{campaign_id}/export"]["get"]["responses"]["200"]["content"]["application/x-ndjson"]["schema"]["format"] == "binary"
    assert "application/x-ndjson" in paths["/campaigns/import"]["post"]["requestBody"]["content"]
    assert "Server-Sent Events" in paths["/events/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"]["schema"]["description"]
    assert paths["/verifier.py"]["get"]["responses"]["200"]["content"]["text/x-python"]["schema"] == {"type": "string"}
    for path in ("/campaigns/{campaign_id}/heroes", "/campaigns/{campaign_id}/heroes/{hero}"):
        assert "schema" in paths[path]["get"]["responses"]["200"]["content"]["application/json"]


def test_a_method_a_path_does_not_have_is_405_with_allow(client, document, journey_campaign, session_id):
    ids = {"campaign_id": journey_campaign["id"], "session_id": session_id, "ruleset_id": "journey", "token_id": "tok_0", "hero": "x"}
    for path, item in document["paths"].items():
        allowed = {method.upper() for method in METHODS if method in item}
        refused = next(method for method in ("PUT", "PATCH", "DELETE", "POST") if method not in allowed)
        answer = client.open(path.format(**ids), method=refused)
        assert answer.status_code == 405 and answer.mimetype == "application/problem+json", (path, refused)
        assert allowed <= set(answer.headers["Allow"].replace(" ", "").split(",")), (path, answer.headers["Allow"])


def test_the_contract_check_refuses_an_answer_the_document_does_not_allow(app, client, session_id, monkeypatch):
    monkeypatch.setattr("tests.kit.contract.REPORT", None)  # raise, even in a run that collects mismatches
    answer = client.get(f"/sessions/{session_id}")
    check(app, answer)  # as served: fits
    answer.set_data(answer.get_data().replace(b'"seed_commitment"', b'"seed_commitmentX"'))
    with pytest.raises(AssertionError, match="seed_commitment"):
        check(app, answer)
    teapot = client.get(f"/sessions/{session_id}")
    teapot.status_code = 418
    with pytest.raises(AssertionError, match="418"):
        check(app, teapot)


def _broken_copies(response):
    """The response as served, then with each top-level field left out, given a value of the wrong type, a field
    added, its status changed and its content type changed: answers a check must tell apart."""
    def copy_with(body=None, status=None, mimetype=None):
        broken = copy.copy(response)
        broken.headers = response.headers.copy()
        if body is not None:
            broken.set_data(json.dumps(body))
        if status is not None:
            broken.status_code = status
        if mimetype is not None:
            broken.mimetype = mimetype
        return broken

    yield "as served", copy_with()
    body = response.get_json()
    if isinstance(body, dict):
        for field, value in body.items():
            yield f"without {field}", copy_with({k: v for k, v in body.items() if k != field})
            wrong = {} if isinstance(value, list) else [value]
            yield f"{field} of the wrong type", copy_with({**body, field: wrong})
        yield "with a field added", copy_with({**body, "added_field": 1})
    yield "as a 418", copy_with(status=418)
    yield "as text/plain", copy_with(mimetype="text/plain")


def test_the_contract_check_gives_openapi_cores_verdicts(app, client, journey_campaign, session_id):
    """tests/kit/contract.py checks every answer's body with a compiled validator instead of openapi-core's pure-Python
    one (three quarters of a long test's time): for answers as served and broken in every way, the two agree."""
    cid = journey_campaign["id"]
    answers = [
        client.get(f"/sessions/{session_id}"),
        client.post(f"/sessions/{session_id}/rolls", json={"dice": {"attack": 2}}),
        client.get(f"/campaigns/{cid}"),
        client.get(f"/campaigns/{cid}/heroes"),
        client.get(f"/sessions/{session_id}/events"),
        client.get(f"/sessions/{session_id}/verification"),
        client.get("/rulesets/journey"),
        client.get("/sessions/not-a-session"),  # a problem
        client.post(f"/sessions/{session_id}/rolls", json={"dice": {"nonsense": 2}}),  # a 4xx problem
    ]
    compared = 0
    for answer in answers:
        for how, response in _broken_copies(answer):
            expected = reference_mismatch(app, response)
            found = mismatches(app, response)
            assert (expected is None) == (not found), f"{answer.request.path} {how}: openapi-core says {str(expected)[-300:]}, the check says {found}"
            compared += 1
            if how == "as served":
                assert expected is None, f"{answer.request.path} as served: {expected}"
    assert compared > 60


def _declared(view_method) -> dict:
    """The responses the document gives one GET view of a blueprint of its own, built as create_app builds it."""
    from flask import Flask
    from flask.views import MethodView

    from api import TrackerApi, contract
    from api.blueprint import Blueprint

    app = Flask("declared")
    app.config.update(API_TITLE="declared", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    api = TrackerApi(app, spec_kwargs={"extra_plugins": [contract.ContractPlugin()]})
    blp = Blueprint("demo", __name__, url_prefix="/demo")
    blp.route("/<thing_id>")(type("Demo", (MethodView,), {"get": view_method(blp, contract)}))
    api.register_blueprint(blp)
    return api.spec.to_dict()["paths"]["/demo/{thing_id}"]["get"]["responses"]


def test_a_view_declares_the_errors_that_do_not_follow_from_what_it_is():
    def view(blp, contract):
        @blp.doc(operationId="getThing")
        @contract.problems(409)
        @blp.response(200, schemas.Health)
        def get(self, thing_id):
            return {}

        return get

    # 401/403: not public; 404: a path id; 422: an unknown query parameter (api/query.py); 503: reads the database; 409: declared.
    assert set(_declared(view)) == {"200", "401", "403", "404", "409", "422", "503"}


def test_an_operation_without_a_name_is_refused_when_the_document_is_built():
    def view(blp, contract):
        @blp.response(200, schemas.Health)
        def get(self, thing_id):
            return {}

        return get

    with pytest.raises(ValueError, match="operationId"):
        _declared(view)


def test_an_unknown_query_parameter_is_refused_as_an_unknown_body_field_is(client, session_id):
    answer = client.get(f"/sessions/{session_id}/events?limt=5")
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert "limt" in answer.json["title"]
