"""Every response the API tests receive is checked against the served OpenAPI document.

The test client of the conftest's ``app`` fixture is a ContractClient, so the whole API suite,
2xx answers and errors alike, proves the document: a status the document does not declare for
the operation, a field it does not allow, a required field left out or a wrong content type
fails the test that received it, with what to declare.
"""

from __future__ import annotations

import json
import os
from functools import cache

import jsonschema_rs
from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound, ServerNotFound
from openapi_core.templating.paths.finders import APICallPathFinder

from api import ruleset_schemas

PROBLEM = "application/problem+json"
# TRACKER_CONTRACT_REPORT=file: append each mismatch to the file and go on, to see everything left to declare.
REPORT = os.environ.get("TRACKER_CONTRACT_REPORT")
# Answers no operation is documented for: an unexpected failure is the test's own failure to report.
UNDOCUMENTED = {500}


class _Sent(WerkzeugOpenAPIRequest):
    """The request a response answered, without its body: the test client has read it already, and checking a
    response needs only the method and the path."""

    @property
    def body(self) -> bytes | None:
        return None


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else value


# Bodies that are not application/json, read as a client would.
DESERIALIZERS = {
    PROBLEM: json.loads,
    "application/x-ndjson": _text,  # an export: one JSON document per line, read as its text
    "text/x-python": _text,
}


@cache
def _contract(document: str) -> tuple[OpenAPI, dict]:
    raw = json.loads(document)
    return OpenAPI.from_dict(raw, config=Config(extra_media_type_deserializers=DESERIALIZERS)), raw


# The documents this process has fetched, by the compact JSON of the spec each was served from (flask-smorest serves
# /openapi.json as that spec's to_dict(), indented): an app whose spec is the same serves the same document.
_SERVED: dict[str, tuple[OpenAPI, dict]] = {}


def _spec_of(app) -> str | None:
    """The compact JSON of the spec the app serves /openapi.json from, or None where it cannot be read so."""
    try:
        api = next(iter(app.extensions["flask-smorest"]["apis"].values()))["ext_obj"]
        return json.dumps(api.spec.to_dict(), sort_keys=True)
    except (KeyError, StopIteration, TypeError, ValueError):
        return None


def document_of(app) -> tuple[OpenAPI, dict]:
    """The document the app serves, fetched once per app: its spec is built when the app is, and serving it
    again for every checked response (half a megabyte) cost more than the tests themselves. An app whose spec is one
    an earlier app served (most are: the document depends on the code, not the database) is given that document
    without serving it again: /openapi.json dumps the spec indented, in pure Python, 40 ms an app."""
    known = app.extensions.get("contract_document")
    if known is None:
        spec = _spec_of(app)
        known = _SERVED.get(spec) if spec is not None else None
        if known is None:
            served = app.test_client(use_cookies=False).get("/openapi.json")
            known = _contract(served.get_data(as_text=True))
            if spec is not None and json.loads(served.get_data(as_text=True)) == json.loads(spec):
                _SERVED[spec] = known
        app.extensions["contract_document"] = known
    return known


def with_ruleset(app, ruleset) -> None:
    """Check the app's answers against its document with a test ruleset's game state among GameState's branches, as a
    game of the server's own is: a ruleset registered after the app was built is not in the document it serves."""
    document = json.loads(app.test_client(use_cookies=False).get("/openapi.json").get_data(as_text=True))
    name, schema = ruleset_schemas.game_state_branch(ruleset)
    document["components"]["schemas"][name] = schema
    union = document["components"]["schemas"][ruleset_schemas.GAME_STATE]
    union["oneOf"].append({"$ref": f"#/components/schemas/{name}"})
    union["discriminator"]["mapping"][ruleset.id] = f"#/components/schemas/{name}"
    app.extensions["contract_document"] = _contract(json.dumps(document))


def check(app, response) -> None:
    """Raise AssertionError when the response does not fit the document's schema for its operation and status."""
    request = response.request
    if request.path == "/openapi.json" or response.status_code in UNDOCUMENTED or request.method == "OPTIONS":
        return  # (OPTIONS: Flask answers it for every route, with the route's methods in Allow; the document lists operations)
    if response.status_code == 405 and not _served(app, request):
        return  # no route of the server takes this method at this URL (GET /campaigns/import): Flask's 405, as for any method
    if request.path.startswith("/pages/"):
        return  # the pages are for people, outside the document (and a page ending in /ready is not GET /ready)
    contract, raw = document_of(app)
    try:
        key = operation_key(contract, raw, request)
    except (PathNotFound, ServerNotFound):
        return  # the pages and static files are for people, outside the document
    except OperationNotFound:
        assert response.status_code == 405, f"{request.method} {request.path}: undocumented method answered {response.status_code}"
        assert response.headers.get("Allow"), f"{request.method} {request.path}: a 405 must say which methods are allowed (Allow)"
        assert response.mimetype == PROBLEM, f"{request.method} {request.path}: a 405 must be {PROBLEM}"
        return
    if response.mimetype == "text/event-stream":
        # A stream's body is read by the test itself (it may never end): check its status and type only.
        declared = raw["paths"][key[0]][key[1]]["responses"].get(str(response.status_code))
        assert declared is not None, f"{request.method} {request.path}: status {response.status_code} is not documented"
        assert "text/event-stream" in declared["content"], f"{request.method} {request.path}: text/event-stream is not documented"
        return
    causes = _mismatches(raw, key, response)
    if causes:
        mismatch = (
            f"{request.method} {request.full_path.rstrip('?')} answered {response.status_code} {response.mimetype}, "
            f"which the OpenAPI document does not allow:\n" + "\n".join(causes)
        )
        if REPORT:  # collect every mismatch of a run instead of stopping at the first
            with open(REPORT, "a", encoding="utf-8") as report:
                report.write(mismatch + "\n")
            return
        raise AssertionError(mismatch + f"\nbody: {response.get_data(as_text=True)[:500]}") from None


def _mismatches(raw: dict, key: tuple[str, str], response) -> list[str]:
    """What in the response the document does not allow for its operation (``key``: path pattern, method): an
    undeclared status or content type, a declared header's value of the wrong type, a body outside its schema.
    The checks openapi-core's validate_response makes, with the body checked by a compiled JSON Schema validator
    (jsonschema-rs) instead of its pure-Python one, which cost three quarters of a group-play test's time;
    tests/test_openapi.py holds the two to the same verdicts."""
    pattern, method = key
    responses = raw["paths"][pattern][method]["responses"]
    declared = _resolved(raw, responses.get(str(response.status_code)) or responses.get("default"))
    if declared is None:
        return [f"status {response.status_code} is not documented for this operation"]
    causes = []
    for name, header in (declared.get("headers") or {}).items():
        value, schema = response.headers.get(name), _resolved(raw, header).get("schema") or {}
        if value is not None and not _header_fits(schema, value):
            causes.append(f"header {name}: {value!r} is not a {schema.get('type')}")
    content = declared.get("content") or {}
    if not content:
        return causes
    media = content.get(response.mimetype)
    if media is None:
        return [*causes, f"content type {response.mimetype} is not documented (it declares {', '.join(content)})"]
    if "schema" not in media:
        return causes
    text = response.get_data(as_text=True)
    try:
        body = json.loads(text) if response.mimetype in JSON_TYPES else text
    except ValueError as error:
        return [*causes, f"the body is not JSON: {error}"]
    validator = _validator(id(raw), pattern, method, str(response.status_code), response.mimetype, raw)
    for error in validator.iter_errors(body):
        causes.append(f"  - at /{'/'.join(map(str, error.instance_path))}: {error.message[:300]}")
    return causes


JSON_TYPES = ("application/json", PROBLEM)


def _resolved(raw: dict, node: dict | None) -> dict | None:
    while node is not None and "$ref" in node:
        target = raw
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _header_fits(schema: dict, value: str) -> bool:
    kind = schema.get("type")
    if kind == "integer":
        return value.strip().lstrip("-").isdigit()
    if kind == "number":
        try:
            float(value)
        except ValueError:
            return False
    return True


_VALIDATORS: dict[tuple, object] = {}


def _validator(document: int, pattern: str, method: str, status: str, mimetype: str, raw: dict):
    """The compiled validator of one response's body schema, its references resolved within the document."""
    key = (document, pattern, method, status, mimetype)
    found = _VALIDATORS.get(key)
    if found is None:
        responses = raw["paths"][pattern][method]["responses"]
        media = _resolved(raw, responses.get(status) or responses.get("default"))["content"][mimetype]
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "components": raw["components"], **media["schema"]}
        found = _VALIDATORS[key] = jsonschema_rs.validator_for(schema, validate_formats=True)
    return found


def operation_key(contract: OpenAPI, raw: dict, request) -> tuple[str, str]:
    """The path pattern and method of the operation a request was answered by."""
    request = _Sent(request)
    found = APICallPathFinder(contract.spec).find(request.method, request.host_url.rstrip("/") + request.path)
    return found.path_result.pattern, request.method


def mismatches(app, response) -> list[str]:
    """What ``check`` finds wrong with a response of a documented operation (empty: it fits)."""
    contract, raw = document_of(app)
    return _mismatches(raw, operation_key(contract, raw, response.request), response)


def reference_mismatch(app, response) -> str | None:
    """openapi-core's own verdict on a response (its validate_response, pure Python): what ``check`` must agree
    with (tests/test_openapi.py). None when it allows the response."""
    contract, _ = document_of(app)
    try:
        contract.validate_response(_Sent(response.request), WerkzeugOpenAPIResponse(response))
    except Exception as error:  # noqa: BLE001 - any kind of refusal
        return f"{type(error).__name__}: {error}"
    return None


class ContractClient(FlaskClient):
    """A test client that checks every response it receives against the served OpenAPI document."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        check(self.application, response)
        return response


def _served(app, request) -> bool:
    """Whether one of the server's routes takes the request's method at its URL (else Flask answers 405 itself)."""
    from werkzeug.exceptions import MethodNotAllowed, NotFound

    try:
        app.url_map.bind("localhost").match(request.path, method=request.method)
    except (MethodNotAllowed, NotFound):
        return False
    return True
