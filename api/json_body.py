"""A request's JSON body, decoded once per request.

A write has three readers of its body: the check that refuses unsafe JSON before anything reads it
(api/__init__.py), the access check (the heroes and side a player's body names, and its shape: api/access.py)
and the view's argument parser (webargs). Each decoded the raw body again, about 5% of a roll request's CPU. The
first decoding is kept beside the raw bytes it came from, and the later readers are handed it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.globals import _cv_app, _cv_request  # Flask's own context variables: one look-up where a proxy makes four
from marshmallow import Schema
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from api import body_shape
from tracker.core import safe_json


def decoded() -> Any:
    """The body, decoded by tracker/core/safe_json.py's rules: json.JSONDecodeError (a ValueError) for what is not JSON,
    UnsafeJson (a ValueError too) for a document no store can keep."""
    raw = _cv_request.get().request.get_data(cache=True)
    context = vars(_cv_app.get().g)  # (g's own get and __setattr__ are Python calls for these dict look-ups)
    kept = context.get("json_body")
    if kept is not None and kept[0] is raw:
        return kept[1]
    value = safe_json.loads(raw, integral_floats=True)  # 2.0 is the integer 2, as the document's JSON Schema reads it
    context["json_body"] = (raw, value)
    return value


def decoded_or_none() -> Any:
    """The body, or None where it is not JSON a store can keep (the readers that refuse it are elsewhere)."""
    try:
        return decoded()
    except (ValueError, UnicodeDecodeError):
        return None


# What flask-smorest's ``arguments`` reads for the OpenAPI document alone, never handing it to webargs.
ARGUMENT_DOCUMENTATION = frozenset({"content_type", "required", "description", "example", "examples"})


class DecodedOnceParser(FlaskParser):
    """webargs' parser for Flask, reading a JSON body through ``decoded`` (the same errors reach webargs: an empty
    body's JSONDecodeError is "no body", any other a 400)."""

    def get_default_request(self) -> Any:
        """The request itself, not Flask's proxy to it: webargs reads it a dozen times a parse, each through the proxy."""
        return _cv_request.get().request

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        return decoded()

    def _process_location_data(self, location_data: Any, schema: Any, req: Any, location: str, unknown: Any, validators: Any) -> Any:
        """A JSON body its schema would load as it was sent is taken as it is (api/body_shape.py checks it, every
        validator included); any other goes through marshmallow's load as before, which refuses it with its messages."""
        if location == "json" and location_data.__class__ is dict and type(self).pre_load is core.Parser.pre_load:
            loaded = self._as_sent(schema, location_data, self._unknown(unknown, location))
            if loaded is not None:
                self._validate_arguments(loaded, validators)
                return loaded
        return super()._process_location_data(location_data, schema, req, location, unknown, validators)

    def _unknown(self, unknown: Any, location: str) -> Any:
        """webargs' own precedence for ``unknown``: explicit, the parser's, the location's."""
        if unknown == core._UNKNOWN_DEFAULT_PARAM:
            return self.unknown if self.unknown != core._UNKNOWN_DEFAULT_PARAM else self.DEFAULT_UNKNOWN_BY_LOCATION.get(location)
        return unknown

    @staticmethod
    def _as_sent(schema: Any, body: dict, unknown: Any) -> dict | None:
        as_sent = schema.__dict__.get("_as_sent")
        if as_sent is None:  # once per schema instance: the views' instances live as long as the app
            as_sent = schema.__dict__["_as_sent"] = body_shape.plan(schema)
        return as_sent(body, unknown or schema.unknown) if as_sent else None

    def body_as_sent(self, schema: Any, options: dict[str, Any]) -> Callable[[], dict | None] | None:
        """For a view's JSON body argument (``options``: those flask-smorest's ``arguments`` was given), a function
        answering what ``parse`` would answer for this request's body when it is JSON its schema loads as sent, and
        None whenever parse would take any other step (then parse runs, and refuses what it refused). None for an
        argument given anything but the documentation's options (``unknown``, ``validate``...): parse reads those."""
        if options.get("location", "json") != "json" or set(options) - ARGUMENT_DOCUMENTATION - {"location"}:
            return None
        if not isinstance(schema, Schema) or type(self).pre_load is not core.Parser.pre_load or not self.USE_ARGS_POSITIONAL:
            return None
        unknown = self._unknown(core._UNKNOWN_DEFAULT_PARAM, "json")

        def read() -> dict | None:
            if not is_json_request(_cv_request.get().request):  # as _raw_load_json asks
                return None
            body = decoded_or_none()
            return self._as_sent(schema, body, unknown) if body.__class__ is dict else None

        return read
