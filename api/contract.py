"""The published OpenAPI document as a contract: errors, security, headers and names, declared from code.

flask-smorest documents what the views parse and dump. This module adds what it cannot see:
- every error status an operation can answer, as application/problem+json (api/problems.py);
  most follow from what the operation is (public or not, a command, has a body, has a path id),
  and a view declares the rest with ``problems(...)``;
- the bearer scheme, with the public operations (api/access.py) marked as needing none;
- the headers a client sends (``Idempotency-Key``, ``If-Match``, ``Last-Event-ID``) and those
  it reads (``Retry-After``, ``Allow``, ``WWW-Authenticate``, ``Idempotent-Replayed``);
- response fields marked ``required`` unless a schema names them optional (``Answer``), and
  schema-level rules marshmallow cannot express (``OPENAPI`` on a schema class).
Every operation must name itself (``operationId``): the document is refused at start-up otherwise,
so a generated client's functions read as the actions (``rollDice``, ``endSession``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apispec import BasePlugin
from marshmallow import Schema, validate

from api import event_schemas, ruleset_schemas, schemas
from api.blueprint import Blueprint
from api.context import IF_MATCH, LAST_EVENT_ID
from api.problems import PROBLEM

BEARER = "bearer"

# Why each status can happen, in the words a generated client shows next to it.
_STATUS_TEXT = {
    400: "The request could not be read: malformed JSON, or a header that is not well formed.",
    401: "No token, or a token that is unknown or revoked.",
    403: "The token's role, heroes or side do not allow this.",
    404: "No such resource, or one outside this token's campaign.",
    409: "The state does not allow it now (the session ended, nothing to undo, already imported, busy).",
    412: "If-Match named a version the session is no longer at.",
    413: "The request body is too large.",
    415: "The body is not sent as JSON (Content-Type).",
    422: "The request is well formed but not valid: see the title and 'errors'.",
    429: "Too many writes with this token: retry after Retry-After seconds.",
    503: "The database or the service is unavailable for a moment: retry after Retry-After seconds.",
}

_RETRY_AFTER = {"description": "Seconds to wait before retrying.", "schema": {"type": "integer", "minimum": 0}}
_HEADERS_OF = {
    401: {"WWW-Authenticate": {"description": "The bearer challenge.", "schema": {"type": "string"}}},
    429: {"Retry-After": _RETRY_AFTER},
    503: {"Retry-After": _RETRY_AFTER},
}

PROBLEM_SCHEMA = {
    "type": "object",
    "description": "An error, as RFC 9457 problem details. The title says what to fix.",
    "properties": {
        "type": {"type": "string", "description": "about:blank: the status says what kind of problem it is."},
        "title": {"type": "string", "description": "What went wrong, in words a person can act on."},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string", "description": "More about the problem, and how to fix it."},
        "example": {
            "type": "object",
            "description": "A body that would be accepted instead: for an action, it names its type and fits the action's schema "
            "(e.g. the faces rolled at the table, reported in the action's own field).",
        },
        "correlation_id": {
            "type": "string",
            "description": "The request's X-Correlation-Id (the one sent, else one the server made): the same id is on the "
            "request's log line and on the metadata of any event it saved.",
        },
        "errors": {
            "type": "object",
            "description": "Per field (dotted path), what is wrong with it.",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
    "required": ["type", "title", "status"],
}

# Request headers, declared once and referenced by the operations that read them.
HEADER_PARAMETERS = {
    "IdempotencyKey": {
        "in": "header",
        "name": "Idempotency-Key",
        "required": False,
        "description": "A key per logical request (a UUID): a retry with the same key and body returns the first "
        "answer and changes nothing; the same key with another body is a 422.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 255},
    },
    "IfMatch": {
        "in": "header",
        "name": "If-Match",
        "required": False,
        "description": "The session's `version` as last read: the command applies only if the session is still "
        "at it, else 412. A bare number, optionally quoted or weak (`7`, `\"7\"`, `W/\"7\"`).",
        "schema": {"type": "string", "pattern": f"^{IF_MATCH.pattern}$"},
    },
    "LastEventId": {
        "in": "header",
        "name": "Last-Event-ID",
        "required": False,
        "description": "Resume the stream after this notification position (the last `id:` received).",
        "schema": {"type": "string", "pattern": f"^({LAST_EVENT_ID.pattern})?$"},  # empty: from the start
    },
}

CORRELATION_ID = "X-Correlation-Id"
HEADER_PARAMETERS["CorrelationId"] = {
    "in": "header",
    "name": CORRELATION_ID,
    "required": False,
    "description": "An id of the client's for this request (at most 100 characters are kept), else the server makes one: "
    "echoed in the answer's X-Correlation-Id, written on the request's log line (TRACKER_LOG_FORMAT=json), on the "
    "metadata of every event the request saves and in a problem answer's correlation_id.",
    "schema": {"type": "string"},
}
CORRELATION_HEADER = {
    CORRELATION_ID: {"description": "The request's correlation id: the one sent, else the one the server made.",
                     "schema": {"type": "string"}},
}

REPLAYED_HEADER = {
    "Idempotent-Replayed": {
        "description": "\"true\" when the answer is the one recorded for an earlier request with the same Idempotency-Key.",
        "schema": {"type": "string", "enum": ["true"]},
    }
}

# Reads served from memory: they answer while the database is down (api/__init__.py), so never 503.
FROM_MEMORY = {"rulesets.Rulesets", "rulesets.RulesetDocument", "api-docs.openapi_json"}
_COMMAND_METHODS = {"post", "put", "patch", "delete"}


def problems(*statuses: int):
    """Declare error statuses a view answers beyond those that follow from what the operation is."""
    return Blueprint.doc(**{"x-problems": list(statuses)})


def headers(*names: str):
    """Declare the request headers (keys of HEADER_PARAMETERS) a view reads."""
    return Blueprint.doc(**{"x-headers": list(names)})


def problem_response_name(status: int) -> str:
    return f"Problem{status}"


def is_public(operation: Mapping[str, Any]) -> bool:
    """Whether the view declared it takes no token (``@access.anyone``, api/access.py)."""
    return operation.get("x-access") in ("anyone", "signed-in")


def error_statuses(endpoint: str, method: str, operation: Mapping[str, Any], path_parameters: bool) -> set[int]:
    """The error statuses an operation can answer, from what it is; ``x-problems`` adds the rest."""
    statuses = set(operation.get("x-problems", ()))
    command = method in _COMMAND_METHODS
    has_body = "requestBody" in operation
    if not is_public(operation):
        statuses |= {401, 403}
        if command:
            statuses.add(429)  # per-token write limits (TRACKER_RATE_LIMIT)
    if path_parameters:
        statuses.add(404)
    if has_body:
        statuses |= {400, 413, 415, 422}  # malformed JSON, too large, not JSON, not valid
    statuses.add(422)  # every route refuses a query parameter it does not take (api/query.py), whether it takes any or none
    if command:
        statuses |= {400, 409, 422}  # a malformed header; the state of play; the rules
    declared = operation.get("x-headers", ())  # read before the plugin moves them to the parameters
    if declared:
        statuses.add(400)  # a header that is not well formed
    if "IfMatch" in declared:
        statuses.add(412)
    if endpoint not in FROM_MEMORY:
        statuses.add(503)
    return statuses


def _key_names(converter, field, ret, **kwargs):
    """A map's ``propertyNames`` from the length its keys are validated to (a Dict field's ``keys``): the document
    refuses the key the server refuses (``{"faces": {"": [1]}}``)."""
    keys = getattr(field, "key_field", None)
    if keys is None or "propertyNames" in ret:
        return {}
    names: dict = {"type": "string"}
    for validator in getattr(keys, "validators", []):
        if isinstance(validator, validate.Length):
            if validator.min is not None:
                names["minLength"] = validator.min
            if validator.max is not None:
                names["maxLength"] = validator.max
        elif isinstance(validator, validate.OneOf):
            names["enum"] = list(validator.choices)
    return {"propertyNames": names} if len(names) > 1 else {}


class ContractPlugin(BasePlugin):
    """Completes each operation and schema as flask-smorest hands them to apispec."""

    def init_spec(self, spec):
        self.spec = spec
        for plugin in spec.plugins:
            if hasattr(plugin, "converter") and plugin.converter is not None:
                plugin.converter.add_attribute_function(_key_names)
        spec.components.schema("Problem", PROBLEM_SCHEMA)
        spec.components.schema("EventMeta", schemas.EVENT_META)  # every event's meta, wherever events are answered
        for name, schema in ruleset_schemas.components().items():
            spec.components.schema(name, schema)
        for name in ("DigitalRoll", "ReportedRoll"):  # the two shapes of a roll's body (POST /sessions/{sid}/rolls)
            spec.components.schema(name, schema=getattr(schemas, name))
        spec.components.security_scheme(BEARER, {"type": "http", "scheme": "bearer", "description": "A campaign's token: "
                                                 "the owner token from POST /campaigns, or one the owner minted."})
        for name, parameter in HEADER_PARAMETERS.items():
            spec.components.parameter(name, "header", {key: value for key, value in parameter.items() if key != "in"})
        for status, text in _STATUS_TEXT.items():
            response = {"description": text, "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
            response["headers"] = {**_HEADERS_OF.get(status, {}), **CORRELATION_HEADER}
            spec.components.response(problem_response_name(status), response)

    def operation_helper(self, path=None, operations=None, **kwargs):
        rule = kwargs.get("rule")
        if rule is None or operations is None:
            return
        path_parameters = bool(rule.arguments)
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            if "operationId" not in operation:
                raise ValueError(f"{rule.endpoint} {method.upper()}: declare an operationId (@blp.doc(operationId=...))")
            responses = operation.setdefault("responses", {})
            responses.pop("default", None)
            for status in sorted(error_statuses(rule.endpoint, method, operation, path_parameters)):
                declared_here = responses.get(status, responses.get(str(status)))
                if isinstance(declared_here, dict):
                    # The view answers this status with a body of its own too (e.g. /health's 503 while the views are
                    # stalled): one response, both content types.
                    declared_here.setdefault("content", {})[PROBLEM] = {"schema": {"$ref": "#/components/schemas/Problem"}}
                    declared_here.setdefault("headers", {}).update(_HEADERS_OF.get(status, {}))
                    responses.pop(status, None)
                    responses[str(status)] = declared_here
                else:
                    responses[str(status)] = problem_response_name(status)
            declared = list(operation.pop("x-headers", ()))
            if method in _COMMAND_METHODS:  # every command reads an Idempotency-Key (api/context.py)
                declared.insert(0, "IdempotencyKey")
                for status, response in responses.items():
                    if str(status).startswith("2") and isinstance(response, dict):
                        response.setdefault("headers", {}).update(REPLAYED_HEADER)
            declared.append("CorrelationId")  # every request may send one, and every answer echoes it (api/context.py)
            for status, response in responses.items():
                if isinstance(response, dict):
                    response.setdefault("headers", {}).update(CORRELATION_HEADER)
            operation.setdefault("parameters", []).extend(declared)
            operation.pop("x-problems", None)
            operation["responses"] = dict(sorted(responses.items(), key=lambda item: str(item[0])))
            if is_public(operation):
                operation["security"] = []
            operation.pop("x-access", None)

    def schema_helper(self, name, definition, **kwargs):
        schema = kwargs.get("schema")
        cls = schema if isinstance(schema, type) else type(schema) if schema is not None else None
        if cls is None or not issubclass(cls, Schema):
            return None
        if issubclass(cls, schemas.Answer):
            optional = {field.data_key or key for key, field in cls._declared_fields.items() if key in cls.OPTIONAL}
            definition["required"] = [key for key in definition.get("properties", {}) if key not in optional]
            # Answers may gain fields (the API's rule: add freely, rename nothing): clients must accept more.
            definition.pop("additionalProperties", None)
        definition.update(getattr(cls, "OPENAPI", {}))
        if getattr(cls, "TYPED_BY_EVENT_TYPE", False):
            components = event_schemas.variants(name, definition)
            for component, schema in components.items():
                if component != name and component not in self.spec.components.schemas:
                    self.spec.components.schema(component, schema)
            definition.clear()
            definition.update(components[name])
        return None

