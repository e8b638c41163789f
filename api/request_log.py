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

from flask import Flask
from flask.globals import _cv_app, _cv_request  # Flask's own context variables: one look-up where a proxy makes a dozen

from api import metrics
from api.json_lines import OnePassJsonFormatter

REQUEST_LOGGER = "tracker.request"
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"

_configured: list[str] = []
_logger = logging.getLogger(REQUEST_LOGGER)  # the logging module's one logger of that name, found once


def json_formatter() -> logging.Formatter:
    # "message" and the level as a log pipeline names them; the time as ISO 8601 in UTC.
    formatter = OnePassJsonFormatter(JSON_FIELDS, rename_fields={"levelname": "level", "asctime": "time"},
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
    vars(_cv_app.get().g)["log_started"] = time.perf_counter()  # (g's __setattr__ is a Python call for this)


def _logged(response):
    app_context = _cv_app.get()  # one context look-up, not a proxy's per use (each proxy read is ~8,000 instructions)
    if app_context.app.extensions.get("tracker_warming"):
        return response  # the worker's own warm-up (api/warming.py)
    context = vars(app_context.g)  # what g.pop and g.get read
    started = context.pop("log_started", None)
    grant = context.get("grant")
    if not _logger.isEnabledFor(logging.INFO):
        return response  # the level an operator set (or logging.disable) turns the line off, as logger.info would
    req = _cv_request.get().request
    here = sys._getframe()  # what logger.info's findCaller walks the stack for: this function, this line
    record = _logger.makeRecord(REQUEST_LOGGER, logging.INFO, here.f_code.co_filename, here.f_lineno, "request", (), None,
                                here.f_code.co_name, {
        "correlation_id": context.get("correlation_id"),
        "method": req.method,
        "route": metrics.route_template(req.url_rule),  # as the metrics label it
        "status": response.status_code,
        "latency_ms": None if started is None else round((time.perf_counter() - started) * 1000, 3),
        "token_id": grant.token_id if grant is not None else None,
        "remote_addr": req.remote_addr,
    })
    _logger.handle(record)  # logger.info's own last step: the logger's filters, then every handler up the tree
    return response
