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

from flask.testing import FlaskClient
from openapi_core import Config, OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound, ServerNotFound
from openapi_core.templating.paths.finders import APICallPathFinder

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


def document_of(app) -> tuple[OpenAPI, dict]:
    """The document the app serves, fetched once per app: its spec is built when the app is, and serving it
    again for every checked response (half a megabyte) cost more than the tests themselves."""
    known = app.extensions.get("contract_document")
    if known is None:
        served = app.test_client(use_cookies=False).get("/openapi.json")
        known = app.extensions["contract_document"] = _contract(served.get_data(as_text=True))
    return known


def check(app, response) -> None:
    """Raise AssertionError when the response does not fit the document's schema for its operation and status."""
    request = response.request
    if request.path == "/openapi.json" or response.status_code in UNDOCUMENTED:
        return
    contract, raw = document_of(app)
    openapi_request = _Sent(request)
    try:
        _operation(contract, raw, request)
    except (PathNotFound, ServerNotFound):
        return  # the pages and static files are for people, outside the document
    except OperationNotFound:
        assert response.status_code == 405, f"{request.method} {request.path}: undocumented method answered {response.status_code}"
        assert response.headers.get("Allow"), f"{request.method} {request.path}: a 405 must say which methods are allowed (Allow)"
        assert response.mimetype == PROBLEM, f"{request.method} {request.path}: a 405 must be {PROBLEM}"
        return
    if response.mimetype == "text/event-stream":
        # A stream's body is read by the test itself (it may never end): check its status and type only.
        operation = _operation(contract, raw, request)
        declared = operation["responses"].get(str(response.status_code))
        assert declared is not None, f"{request.method} {request.path}: status {response.status_code} is not documented"
        assert "text/event-stream" in declared["content"], f"{request.method} {request.path}: text/event-stream is not documented"
        return
    try:
        contract.validate_response(openapi_request, WerkzeugOpenAPIResponse(response))
    except Exception as error:  # noqa: BLE001 - report every kind of mismatch the same way
        causes = []
        cause = error
        while cause is not None:
            causes.append(f"{type(cause).__name__}: {str(cause)[:200]}")
            for nested in getattr(cause, "schema_errors", ()) or ():
                causes.append(f"  - at /{'/'.join(map(str, nested.absolute_path))}: {nested.message[:300]}")
            cause = cause.__cause__
        mismatch = (
            f"{request.method} {request.full_path.rstrip('?')} answered {response.status_code} {response.mimetype}, "
            f"which the OpenAPI document does not allow:\n" + "\n".join(causes)
        )
        if REPORT:  # collect every mismatch of a run instead of stopping at the first
            with open(REPORT, "a", encoding="utf-8") as report:
                report.write(mismatch + "\n")
            return
        raise AssertionError(mismatch + f"\nbody: {response.get_data(as_text=True)[:500]}") from None


def _operation(contract: OpenAPI, raw: dict, request) -> dict:
    request = _Sent(request)
    found = APICallPathFinder(contract.spec).find(request.method, request.host_url.rstrip("/") + request.path)
    return raw["paths"][found.path_result.pattern][request.method]


class ContractClient(FlaskClient):
    """A test client that checks every response it receives against the served OpenAPI document."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        check(self.application, response)
        return response
