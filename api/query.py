"""Every route's query parameters, held to what it declares: an unknown one is a 422 problem naming it, on every
route, API and pages alike (a misspelt ?limt= or ?min_postion= must not be silently ignored; issue 29 found 12 of 23
routes ignoring whatever they were sent).

One check, before every view (api/__init__.py): the parameters a route takes are read from its declaration, the
query schema its flask-smorest ``arguments`` publish in the OpenAPI document, or, for a view the document does not
describe (a page), the names its ``@query.takes(...)`` lists. A route that declares neither takes none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.globals import _cv_app, _cv_request  # Flask's own context variables: one look-up where a proxy makes four

from api import problems

ATTRIBUTE = "__query__"  # where a page's view keeps the names it takes


def takes(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the query parameters a view outside the OpenAPI document reads (``@query.takes("at")``)."""

    def declare(view: Callable[..., Any]) -> Callable[..., Any]:
        setattr(view, ATTRIBUTE, frozenset(names))
        return view

    return declare


def _handler(view: Any, method: str) -> Any:
    view_class = getattr(view, "view_class", None)
    if view_class is None:
        return view
    return getattr(view_class, "get" if method.lower() == "head" else method.lower(), None)


def declared(view: Any, method: str) -> frozenset[str]:
    """The query parameters ``view`` takes for ``method``: its query schema's fields as they are named on the wire
    (a field's data_key), or what it declared with ``takes``."""
    handler = _handler(view, method)
    if handler is None:
        return frozenset()
    names = set(getattr(handler, ATTRIBUTE, ()))
    for argument in (getattr(handler, "_apidoc", {}).get("arguments") or {}).get("parameters", []):
        if argument.get("in") == "query":
            schema = argument["schema"]
            schema = schema() if isinstance(schema, type) else schema
            names.update(field.data_key or name for name, field in schema.fields.items() if not field.dump_only)
    return frozenset(names)


_KNOWN: dict[tuple[str, str], frozenset[str]] = {}  # (endpoint, method) -> names: routes do not change once served


def refuse_unknown(request: Any = None):
    """Before every view (api/__init__.py): 422 when the request sends a query parameter its route does not take."""
    request = _cv_request.get().request if request is None else request
    if not request.query_string or not request.args or request.endpoint is None:  # (no query string: no args to parse)
        return None  # no route: its 404 or 405 follows
    key = (request.endpoint, request.method)
    allowed = _KNOWN.get(key)
    if allowed is None:
        allowed = _KNOWN[key] = declared(_cv_app.get().app.view_functions.get(request.endpoint), request.method)
    unknown = [name for name in request.args if name not in allowed]
    if not unknown:
        return None
    takes_said = ", ".join(sorted(allowed)) if allowed else "no query parameters"
    return problems.problem(
        422,
        f"Unknown query parameter '{unknown[0]}'; remove it or correct its name",
        f"{request.method} {request.url_rule.rule if request.url_rule else request.path} takes {takes_said}. Nothing was done.",
        {f"query.{name}": ["Unknown query parameter."] for name in unknown},
    )
