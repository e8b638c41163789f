"""Every error as application/problem+json (RFC 9457) with a title a person can act on."""

from __future__ import annotations

from typing import Any

from flask import Response, g, has_request_context, json, request
from werkzeug.exceptions import HTTPException

from tracker.core.errors import TrackerError

PROBLEM = "application/problem+json"

_TITLES = {
    400: "The request could not be read",
    401: "Authentication is required",
    404: "Nothing is here",
    405: "This method is not allowed here",
    413: "The request body is too large",
    415: "Send the body as JSON",
    422: "The request is not valid",
    500: "The server failed; the request was not applied",
}


def problem(
    status: int,
    title: str,
    detail: str | None = None,
    errors: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    example: dict[str, Any] | None = None,
) -> Response:
    body: dict[str, Any] = {"type": "about:blank", "title": title, "status": status}
    if detail:
        body["detail"] = detail
    if errors:
        body["errors"] = errors
    if example:
        body["example"] = example
    correlation_id = g.get("correlation_id") if has_request_context() else None
    if correlation_id:
        body["correlation_id"] = correlation_id  # as in the request's log line and its X-Correlation-Id (api/request_log.py)
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def from_tracker_error(error: TrackerError) -> Response:
    return problem(error.status, error.title, error.detail, error.errors, headers=getattr(error, "headers", None), example=error.example)


def _flatten(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """webargs nests messages by location and field; flatten to dotted paths."""
    flat: dict[str, list[str]] = {}
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key == "value" and prefix:  # a dict field's value: name the entry itself
                path = prefix
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            flat.update(_flatten(value, path))
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        flat[prefix] = list(messages)
    else:
        flat[prefix] = [str(messages)]
    return flat


def from_http_exception(error: HTTPException) -> Response:
    if error.response is not None:
        return error.response  # made whole already (a write limit's 429, api/rate_limit.py): as werkzeug would send it
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    if status == 400 and messages == {"json": ["Invalid JSON body."]}:
        return problem(400, "The request body is not valid JSON", "Check the JSON syntax (quotes, commas, braces).")
    if messages:
        errors: dict[str, list[str]] = {}
        for location, fields in messages.items():
            errors.update(_flatten(fields, "" if location == "json" else location))
        field, texts = next(iter(errors.items()))
        title = f"Field '{field}': {texts[0]}" if field and field != "_schema" else texts[0]
        return problem(status, title, "See 'errors' for every field that needs fixing.", errors)
    if status == 413:
        limit = (request.max_content_length if request else None) or 1024 * 1024
        return problem(413, "The request body is too large", f"This request may send at most {limit / (1024 * 1024):g} MB; send less data per request.")
    title = _TITLES.get(status, error.name)
    detail = error.description if status != 500 else "An unexpected error; nothing was recorded for this request."
    # werkzeug's own headers say how to go on: Allow on a 405 lists the methods the path answers.
    kept = {name: value for name, value in error.get_headers() if name.lower() != "content-type"}
    return problem(status, title, detail, headers=kept)
