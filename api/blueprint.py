"""The API's blueprints: flask-smorest's, with each argument schema built once instead of per request.

Given a schema class, webargs builds an instance on every request it parses (field
binding and deep copies, about a tenth of a roll request's CPU in the worker). An
instance given once is used as it is; loading keeps no state on it, so the threads
of a worker share it, as they already share the response schemas.
"""

from __future__ import annotations

from typing import Any

import flask_smorest
from marshmallow import RAISE


class Blueprint(flask_smorest.Blueprint):
    def arguments(self, schema: Any, *args: Any, **kwargs: Any):
        if kwargs.get("location") == "query":
            # An unknown query parameter is a 422, as an unknown body field is: a misspelt ?limt= must not be ignored.
            kwargs.setdefault("unknown", RAISE)
        return super().arguments(schema() if isinstance(schema, type) else schema, *args, **kwargs)
