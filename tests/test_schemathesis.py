"""A bounded schemathesis run against /openapi.json: no 5xx, and no response that breaks its documented schema.

Driven through schemathesis's Python API with hypothesis directly: its pytest plugin
does not load under this project's pytest version.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from tests.conftest import JOURNEY_TEST_COMPONENTS

EXAMPLES_PER_OPERATION = 3


@schemathesis.serializer("application/x-ndjson")
def _export_lines(ctx, value):
    """Campaign imports are JSON Lines: send whatever text was generated, as is."""
    return value.encode() if isinstance(value, str) else str(value).encode()


@pytest.fixture
def app(tmp_path):
    from api import create_app

    flask_app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/schemathesis.sqlite3", "PROJECTIONS_IN_PROCESS": False})
    yield flask_app
    flask_app.extensions["tracker"].close()


def test_no_server_errors_and_every_response_fits_the_schema(app):
    client = app.test_client()
    campaign = client.post("/campaigns", json={"ruleset": "journey", "name": "Fuzzed", "components": JOURNEY_TEST_COMPONENTS}).json
    auth = {"Authorization": f"Bearer {campaign['owner_token']}"}
    assert client.post(f"/campaigns/{campaign['id']}/sessions", json={"quest": "q1-meeting"}, headers=auth).status_code == 201
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def fuzz(case):
            case.call_and_validate(headers=auth, checks=[not_a_server_error, response_schema_conformance])

        fuzz()
