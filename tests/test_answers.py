"""One source for each answer: a field the application builds is never lost by a schema that forgot it.

The application builds each body; api/schemas.py declares it for the document. Every response schema is an
``Answer``, which compares what it dumps with what it was given: under test a field built but not declared
fails the request (so every response of the API suite proves its schema complete), in service it is passed
through as built instead of silently dropped.
"""

from __future__ import annotations

import logging

import pytest
from flask import Flask
from flask.views import MethodView
from marshmallow import fields

from api import TrackerApi, contract, schemas
from api.blueprint import Blueprint


class Room(schemas.Answer):
    name = fields.String()


class Inn(schemas.Answer):
    id = fields.String()
    rooms = fields.List(fields.Nested(Room))


def _app(body: dict, testing: bool) -> Flask:
    """A blueprint of its own, served as create_app serves the real ones, answering ``body`` through Inn."""
    app = Flask("answers")
    app.config.update(
        API_TITLE="answers", API_VERSION="1", OPENAPI_VERSION="3.1.0", OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json", TESTING=testing
    )
    api = TrackerApi(app, spec_kwargs={"extra_plugins": [contract.ContractPlugin()]})
    blp = Blueprint("inns", __name__, url_prefix="/inns")

    class InnView(MethodView):
        @blp.doc(operationId="getInn")
        @blp.response(200, Inn)
        def get(self, inn_id):
            return body

    blp.route("/<inn_id>")(InnView)
    api.register_blueprint(blp)
    return app


DECLARED = {"id": "i1", "rooms": [{"name": "east"}]}


def test_an_answer_that_declares_every_field_built_is_served_as_built():
    answer = _app(DECLARED, testing=True).test_client().get("/inns/i1")
    assert answer.status_code == 200 and answer.json == DECLARED


@pytest.mark.parametrize(
    "body, undeclared",
    [
        ({**DECLARED, "setup_schema": {"type": "object"}}, "Inn does not declare ['setup_schema']"),
        ({"id": "i1", "rooms": [{"name": "east", "beds": 2}]}, "Room does not declare ['beds']"),  # nested, in a list
    ],
)
def test_a_field_built_but_not_declared_fails_the_request_under_test(body, undeclared):
    with pytest.raises(schemas.UndeclaredField, match=undeclared.replace("[", r"\[").replace("]", r"\]")):
        _app(body, testing=True).test_client().get("/inns/i1")


def test_in_service_a_field_built_but_not_declared_is_passed_through_not_lost(caplog):
    body = {"id": "i1", "rooms": [{"name": "east", "beds": 2}], "setup_schema": {"type": "object"}}
    with caplog.at_level(logging.WARNING, logger="api.schemas"):
        answer = _app(body, testing=False).test_client().get("/inns/i1")
    assert answer.status_code == 200 and answer.json == body
    assert {"Inn does not declare ['setup_schema']; passed through as built", "Room does not declare ['beds']; passed through as built"} <= {
        record.getMessage() for record in caplog.records
    }


def _response_schemas(app):
    """Every schema a route dumps its answers with: (endpoint, method, status, schema)."""
    for endpoint, view in app.view_functions.items():
        view_class = getattr(view, "view_class", None)
        for method in getattr(view_class, "methods", None) or ():
            handler = getattr(view_class, method.lower())
            for status, documented in getattr(handler, "_apidoc", {}).get("response", {}).get("responses", {}).items():
                for response in documented:
                    if response.get("schema") is not None:
                        yield endpoint, method, status, response["schema"]


def test_every_route_dumps_its_answers_with_an_answer_schema(app):
    """So the check above covers every answer the API gives, not only those whose schemas remember to opt in."""
    found = list(_response_schemas(app))
    assert len(found) >= 25 and "rulesets.RulesetDocument" in {f[0] for f in found}
    for endpoint, method, status, schema in found:
        cls = schema if isinstance(schema, type) else type(schema)
        assert issubclass(cls, schemas.Answer), f"{endpoint} {method} {status}: {cls.__name__} is not an Answer"
