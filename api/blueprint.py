"""The API's blueprints: flask-smorest's, with each argument schema built once instead of per request.

Given a schema class, webargs builds an instance on every request it parses (field
binding and deep copies, about a tenth of a roll request's CPU in the worker). An
instance given once is used as it is; loading keeps no state on it, so the threads
of a worker share it, as they already share the response schemas.
"""

from __future__ import annotations

from typing import Any

import flask_smorest


class Blueprint(flask_smorest.Blueprint):
    def arguments(self, schema: Any, *args: Any, **kwargs: Any):
        return super().arguments(schema() if isinstance(schema, type) else schema, *args, **kwargs)
