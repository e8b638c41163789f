"""api/json_lines.py (issue 35): the one-pass JSON line is python-json-logger's own line, character for character,
over many records (a request's, each field missing or odd, unicode, an exception, a dict message), and a request's
line still goes through the logger's level and handlers."""

from __future__ import annotations

import io
import logging
import sys
import time

import pytest
from pythonjsonlogger.json import JsonFormatter

from api import request_log
from api.json_lines import OnePassJsonFormatter


def _library() -> JsonFormatter:
    formatter = JsonFormatter(request_log.JSON_FIELDS, rename_fields={"levelname": "level", "asctime": "time"},
                              datefmt="%Y-%m-%dT%H:%M:%S%z")
    formatter.converter = time.gmtime
    return formatter


REQUEST = {"correlation_id": "table-7", "method": "POST", "route": "/sessions/<session_id>/rolls", "status": 201,
           "latency_ms": 12.345, "token_id": "tok_1", "remote_addr": "127.0.0.1"}

SHAPES = [
    ("request", (), REQUEST),
    ("request", (), {**REQUEST, "correlation_id": None, "token_id": None, "latency_ms": None, "route": "unmatched"}),
    ("request", (), {**REQUEST, "correlation_id": "é-\u2603-\"quoted\"\n", "remote_addr": None}),
    ("request", (), {key: value for key, value in REQUEST.items() if key != "status"}),
    ("request", (), {}),
    ("%s answered %d", ("roll", 201), {"status": 201}),
    ("request", (), {"_private": 1}),
    ("request", (), {"nested": {"a": [1, 2.5, None, True]}, "big": 10**30, "nan": float("nan")}),
    ({"dict": "message", "n": 1}, (), {}),
]


def _record(msg, args, extra, created: float, exc_info=None) -> logging.LogRecord:
    record = logging.getLogger(request_log.REQUEST_LOGGER).makeRecord(
        request_log.REQUEST_LOGGER, logging.INFO, __file__, 1, msg, args, exc_info, "f", extra)
    record.created = created
    return record


@pytest.mark.parametrize("msg, args, extra", SHAPES)
def test_the_one_pass_line_is_the_library_s_line(msg, args, extra):
    fast, library = request_log.json_formatter(), _library()
    assert isinstance(fast, OnePassJsonFormatter)
    for created in (1765000000.0, 1765000000.999, 1765000001.25, 1765000000.5, 0.0):  # the kept second, then others
        assert fast.format(_record(msg, args, extra, created)) == library.format(_record(msg, args, extra, created))


def test_a_line_with_an_exception_or_a_stack_is_the_library_s_line():
    fast, library = request_log.json_formatter(), _library()
    try:
        raise ValueError("refused")
    except ValueError:
        exc_info = sys.exc_info()
    for make in (lambda: _record("failed", (), REQUEST, 1765000000.0, exc_info),):
        assert fast.format(make()) == library.format(make())
    stacked, stacked_too = _record("s", (), {}, 1.0), _record("s", (), {}, 1.0)
    stacked.stack_info = stacked_too.stack_info = "Stack (most recent call last):\n  here"
    assert fast.format(stacked) == library.format(stacked_too)


def test_every_field_of_a_request_s_line_is_in_it_in_order():
    line = request_log.json_formatter().format(_record("request", (), REQUEST, 1765000000.0))
    import json

    parsed = json.loads(line)
    assert list(parsed) == ["time", "level", "name", "message", *REQUEST]
    assert parsed["time"] == "2025-12-06T05:46:40+0000" and parsed["level"] == "INFO" and parsed["message"] == "request"
    assert {key: parsed[key] for key in REQUEST} == REQUEST


@pytest.fixture
def logged_app(app, monkeypatch):
    monkeypatch.setattr(request_log, "configure", lambda log_format: None)  # the root logger stays the suite's
    request_log.install(app, "json")
    logger = logging.getLogger(request_log.REQUEST_LOGGER)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(request_log.json_formatter())
    logger.addHandler(handler)
    level = logger.level
    yield app, logger, stream
    logger.removeHandler(handler)
    logger.setLevel(level)


def test_a_request_s_line_goes_through_the_logger_s_level_and_handlers(logged_app):
    app, logger, stream = logged_app
    from flask.testing import FlaskClient

    client = FlaskClient(app, app.response_class)
    logger.setLevel(logging.INFO)
    client.get("/nowhere", headers={"X-Correlation-Id": "heard"})
    logger.setLevel(logging.WARNING)  # an operator turning the line off
    client.get("/nowhere", headers={"X-Correlation-Id": "silenced"})
    import json

    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["correlation_id"] for line in lines] == ["heard"]
    assert list(lines[0]) == ["time", "level", "name", "message", "correlation_id", "method", "route", "status",
                              "latency_ms", "token_id", "remote_addr"]
    assert (lines[0]["route"], lines[0]["status"], lines[0]["method"]) == ("unmatched", 404, "GET")


def test_a_request_s_record_is_the_one_logger_info_made(logged_app):
    """The record handed to the handlers carries what logger.info's would: its caller found in this module."""
    app, logger, _ = logged_app
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    keep = Keep()
    logger.addHandler(keep)
    logger.setLevel(logging.INFO)
    try:
        from flask.testing import FlaskClient

        FlaskClient(app, app.response_class).get("/nowhere")
    finally:
        logger.removeHandler(keep)
    [record] = records
    assert (record.pathname, record.funcName, record.module) == (request_log.__file__, "_logged", "request_log")
    assert (record.levelno, record.levelname, record.msg, record.args, record.exc_info) == (logging.INFO, "INFO", "request", (), None)
