"""A bounded schemathesis run against /openapi.json, with every response check and negative data.

Positive cases (fitting the document) and negative ones (breaking it) for every operation, on SQLite and on
PostgreSQL, against a campaign and a session that exist, so requests reach past the 404s. Every answer must be no 5xx, a
status, content type, headers and body the document declares for the operation, every negative
case must be refused with a 4xx, and every positive one accepted or refused only for a reason named in
BY_THE_RULES (the rules refuse many schema-valid requests: an unknown quest of another game, a roll in an
ended session). Not checked: the stateful checks.

Driven through schemathesis's Python API with hypothesis directly: its pytest plugin
does not load under this project's pytest version.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation import GenerationMode

from tests.kit.journey import JOURNEY_TEST_COMPONENTS

EXAMPLES_PER_OPERATION = 15


@schemathesis.check
def response_schema_conformance_but_streams(ctx, response, case):
    """schemathesis's response_schema_conformance, except on an event stream's body. The document declares that body a
    string (OpenAPI 3.1: a media type's schema describes the whole body, and so a generated client returns the text),
    while schemathesis reads a 3.1 schema of text/event-stream as each event's (as 3.2's itemSchema is) and finds every
    parsed event, an object, not a string: not a defect of the server or the document. The stream's status, content
    type and headers are still checked here, its problem answers' bodies too; its events' format is
    tests/test_operating_event_stream.py's."""
    if response.headers.get("content-type", [""])[0].startswith("text/event-stream"):
        return None
    return response_schema_conformance(ctx, response, case)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance_but_streams,
    negative_data_rejection,
]


# A refusal may also be 412 (If-Match is checked before the rules read the body) or 413 (too large).
REFUSALS = [400, 401, 403, 404, 405, 406, 409, 412, 413, 415, 422, 428, 429]
# "Valid request rejected": a request the document allows may still be refused, and only so, for these reasons, none
# of them a defect of the document (each is what the state or the campaign's own ruleset decides, which one document
# for every campaign cannot say); anything else (a 400 for a body the document allows, a 403 to the owner, a 413 or
# 415) is a finding.
BY_THE_RULES = {
    404: "an id the document cannot know (a token, a hero of this campaign, a Descent ledger of a Journey campaign)",
    409: "the session's state: it has ended, or no condition of the outcome stated holds",
    412: "an If-Match that is not the session's version (a generated one rarely is)",
    422: "what the campaign's own ruleset refuses (a quest, hero, deck, die or action type of another game; a rule), "
         "a NUL character no store keeps (tracker/core/safe_json.py), or state the log does not have (?at= past its end)",
}
ACCEPTED = [200, 201, 202, 204, 304]
CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS},
                                                  "positive_data_acceptance": {"expected-statuses": ACCEPTED + sorted(BY_THE_RULES)}}})


@schemathesis.serializer("application/x-ndjson")
def _export_lines(ctx, value):
    """Campaign imports are JSON Lines: send whatever text was generated, as is."""
    return value.encode() if isinstance(value, str) else str(value).encode()


@pytest.fixture
def app(database_url):
    """On both backends (tests/conftest.py's database_url: SQLite, and PostgreSQL, which CI requires)."""
    from api import create_app

    flask_app = create_app({"TESTING": True, "DATABASE_URL": database_url, "PROJECTIONS_IN_PROCESS": False,
                           "VIEWS_WAIT_SECONDS": 0.05,  # a generated min_position past the log: its 503, quickly
                           # No runner follows the log here, so the views fall behind with every write fuzzed: GET /ready's
                           # 503 "views-behind" (its purpose, tests/test_operating_readiness.py) would come after a random count of
                           # writes, as a "server error" on some seeds only (CI once). Ready whatever the views' lag.
                           "READY_MAX_LAG": 10**9})
    yield flask_app
    flask_app.extensions["tracker"].close()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["positive", "negative"])
def test_every_answer_fits_the_document_and_every_invalid_request_is_refused(app, mode):
    client = app.test_client()
    campaign = client.post("/campaigns", json={"ruleset": "journey", "name": "Fuzzed", "components": JOURNEY_TEST_COMPONENTS}).json
    auth = {"Authorization": f"Bearer {campaign['owner_token']}"}
    session = client.post(f"/campaigns/{campaign['id']}/sessions", json={"quest": "q1-meeting"}, headers=auth).json
    ids = {"campaign_id": campaign["id"], "session_id": session["id"], "ruleset_id": "journey"}
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=CONFIG)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 30
    for operation in operations:
        known = {p.name: ids[p.name] for p in operation.path_parameters if p.name in ids}
        # A stream without ?wait= or ?limit= runs until the client goes: close it when idle.
        query = {"wait": 0} if operation.path == "/events/stream" else None
        if any(p.name == "min_position" for p in operation.query):
            # A min_position past the log is a 503 by design (tests/test_views.py): here, one every read has reached.
            query = {"min_position": 0}

        @given(case=operation.as_strategy(generation_mode=mode, path_parameters=known or None, query=query))
        @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def fuzz(case):
            # A negative case may leave the token out on purpose (the document says one is needed): send none then.
            headers = case.meta.components.get(ParameterLocation.HEADER) if case.meta else None
            breaks_headers = headers is not None and headers.mode is GenerationMode.NEGATIVE
            checks = CHECKS + [positive_data_acceptance] if mode is GenerationMode.POSITIVE else CHECKS
            case.call_and_validate(headers=None if breaks_headers else auth, checks=checks)

        try:
            fuzz()
        except Unsatisfiable:
            # Nothing of this operation can be made invalid (no body, no query, its path ids fixed).
            assert mode is GenerationMode.NEGATIVE, operation.label
