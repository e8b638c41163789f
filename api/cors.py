"""TRACKER_CORS_ORIGINS: the browser origins (scheme://host[:port], comma-separated) whose pages may call the API
(an openapi-fetch client on another site), with flask-cors. Off by default: no origin is answered.

A browser asks first (a preflight: OPTIONS with Access-Control-Request-Method), and sends no token with that
question; without this module the access check answered it 401, so every cross-origin call failed before it was
made. Here a preflight is answered before any check (it reads and changes nothing) and flask-cors adds the
allowances only for a listed origin; any other origin's page gets none, and its browser refuses to send the call.
"""

from __future__ import annotations

from flask import Flask, current_app
from flask.globals import _cv_request  # Flask's own context variable: one look-up where a proxy makes a dozen
from flask_cors import CORS

# What a client sends beside the body (api/contract.py) and what it may read of an answer.
REQUEST_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "Last-Event-ID", "X-Correlation-Id"]
EXPOSED_HEADERS = ["X-Correlation-Id", "Retry-After", "Idempotent-Replayed", "X-Views-From", "WWW-Authenticate", "Allow", "Location"]
PREFLIGHT_MAX_AGE = 600  # seconds a browser may keep a preflight's answer


def origins(setting: str) -> list[str]:
    """'https://a.example, https://b.example' as its origins, without a trailing slash (browsers send none)."""
    return [origin.strip().rstrip("/") for origin in setting.split(",") if origin.strip()]


def install(app: Flask, setting: str) -> None:
    allowed = origins(setting)
    if not allowed:
        return
    CORS(app, origins=allowed, allow_headers=REQUEST_HEADERS, expose_headers=EXPOSED_HEADERS, max_age=PREFLIGHT_MAX_AGE,
         supports_credentials=False, vary_header=True)
    app.before_request(_answer_preflight)


def _answer_preflight():
    """A browser's question before a cross-origin call: answered at once (flask-cors adds what the origin may do). Before
    every request: the request is read from Flask's context variable, not through its proxy (~8,000 instructions a read)."""
    req = _cv_request.get().request
    if req.method == "OPTIONS" and "Access-Control-Request-Method" in req.headers:
        return current_app.make_default_options_response()
    return None
