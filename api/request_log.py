"""TRACKER_LOG_FORMAT=json (the Procfile's): every log line one JSON object (python-json-logger), and one line per
request answered with its correlation id, route template, status, latency and the token's id (never the token).

The correlation id is the request's X-Correlation-Id (api/context.py: the client's, else a new one): the same id is
on the metadata of every event the request saved (tracker/domain/events.py), in its problem answer, if it was
refused (api/problems.py), and echoed in the X-Correlation-Id header, so one id finds a request in all four places.
With the text format (the default elsewhere) nothing changes: gunicorn's access log, when asked for, says the rest.
"""

from __future__ import annotations

import logging
import sys
import time

from flask import Flask, current_app, g, request

from api import metrics

REQUEST_LOGGER = "tracker.request"
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"

_configured: list[str] = []


def json_formatter() -> logging.Formatter:
    from pythonjsonlogger.json import JsonFormatter

    # "message" and the level as a log pipeline names them; the time as ISO 8601 in UTC.
    formatter = JsonFormatter(JSON_FIELDS, rename_fields={"levelname": "level", "asctime": "time"},
                              datefmt="%Y-%m-%dT%H:%M:%S%z")
    formatter.converter = time.gmtime
    return formatter


def configure(log_format: str) -> None:
    """Once per process: with ``json``, the root logger writes JSON lines to standard error at INFO."""
    if log_format != "json" or _configured:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(json_formatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    _configured.append(log_format)


def install(app: Flask, log_format: str) -> None:
    configure(log_format)
    if log_format == "json":
        app.before_request(_started)
        app.after_request(_logged)


def _started() -> None:
    g.log_started = time.perf_counter()


def _logged(response):
    if current_app.extensions.get("tracker_warming"):
        return response  # the worker's own warm-up (api/warming.py)
    started = g.pop("log_started", None)
    grant = g.get("grant")
    logging.getLogger(REQUEST_LOGGER).info("request", extra={
        "correlation_id": g.get("correlation_id"),
        "method": request.method,
        "route": metrics.route_template(),
        "status": response.status_code,
        "latency_ms": None if started is None else round((time.perf_counter() - started) * 1000, 3),
        "token_id": grant.token_id if grant is not None else None,
        "remote_addr": request.remote_addr,
    })
    return response
