"""Who may do what: bearer tokens, roles, hero and side bindings (the per-token write limits: api/rate_limit.py).

Each route declares who may call it, on the view itself (flaskr's ``@login_required``, here one of
``@access.anyone``, ``@access.owner``, ``@access.player``, ``@access.reader``, ``@access.signed_in``);
``authorize`` reads that declaration before every view, and a route without one is refused
(tests/test_access.py proves every route declares one). Rulesets, health, the OpenAPI document and
creating a campaign are public; everything about a campaign needs a token of that campaign. A
campaign outside a token's reach answers 404, exactly as a missing one does, so tokens cannot probe
for other groups' campaigns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.globals import _cv_app, _cv_request  # Flask's own context variables: one look-up where a proxy makes four

from api import json_body, problems
from api.blueprint import Blueprint
from api.context import authenticate, tracker
from tracker.application import authorization
from tracker.core.errors import NotFound
from tracker.core.safe_json import MAX_DEPTH

MAX_ARRAY = 1000
ATTRIBUTE = "__access__"  # where a view keeps its declaration


@dataclass(frozen=True)
class Access:
    """Who may call a view. ``who``: anyone (no token); signed-in (a page, which checks the visitor's
    cookie grants itself, api/pages/signin.py); owner (the campaign's owner token only); reader (any
    token of the campaign, integration tokens included, reads only: the event log); player (the owner
    and player tokens; viewers read only; a player bound to heroes or a side acts only for them, which the
    command refuses: tracker/application/authorization.py)."""

    who: str

    def __call__(self, view: Callable[..., Any]) -> Callable[..., Any]:
        documented = Blueprint.doc(**{"x-access": self.who})(view)  # the OpenAPI document's security follows it
        setattr(documented, ATTRIBUTE, self)
        return documented

    @property
    def public(self) -> bool:
        return self.who in ("anyone", "signed-in")


anyone = Access("anyone")
signed_in = Access("signed-in")
owner = Access("owner")
reader = Access("reader")
player = Access("player")
UNDECLARED = owner  # a view that forgot to declare is the owner's alone (and the test of every route fails)


def declared(view: Callable[..., Any] | None, method: str) -> Access | None:
    """A view's declaration for ``method``: on the method of a MethodView class, or on a plain view function."""
    if view is None:
        return None
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        handler = getattr(view_class, "get" if method.lower() == "head" else method.lower(), None)
        return getattr(handler, ATTRIBUTE, None)
    return getattr(view, ATTRIBUTE, None)


def declare_framework_routes(app: Flask) -> None:
    """Routes the framework adds (static files, the pages' too, and the OpenAPI document) are anyone's: each
    is wrapped in that declaration here, as a view of ours is where it is written."""
    for endpoint, view in list(app.view_functions.items()):
        if endpoint in ("static", "api-docs.openapi_json") or endpoint.endswith(".static"):
            app.view_functions[endpoint] = anyone(view)


def authorize(req: Any = None):
    """Before every view (api/__init__.py, which hands it the request): the route's declaration, held to the token."""
    req = _cv_request.get().request if req is None else req
    endpoint = req.endpoint
    if endpoint is None:
        return _check_shape(req)  # no route: the 404 or 405 follows
    app_context = _cv_app.get()
    needed = _declared_for(app_context.app, endpoint, req.method)
    if needed is signed_in:
        return None  # pages sign in with a cookie and check the same grants themselves (api/pages/signin.py)
    if needed.public:
        return _check_shape(req)
    token = _bearer(req)
    if token is None:
        return problems.problem(
            401, "Send a token: Authorization: Bearer <token>", "Creating a campaign returns its owner token; the owner mints tokens for players.",
            headers={"WWW-Authenticate": 'Bearer realm="campaign-tracker"'},
        )
    grant = authenticate(token)
    if grant is None:
        return problems.problem(
            401, "This token is not valid", "It is unknown or was revoked; ask the campaign's owner for a new one.",
            headers={"WWW-Authenticate": 'Bearer realm="campaign-tracker", error="invalid_token"'},
        )
    args = req.view_args or {}
    if "session_id" in args:
        campaign_id = tracker().campaign_of_session(args["session_id"])  # NotFound -> 404
        what = ("session", args["session_id"])
    else:
        campaign_id = args.get("campaign_id", grant.campaign_id)
        what = ("campaign", campaign_id)
    if campaign_id != grant.campaign_id:
        raise NotFound(f"No {what[0]} with id '{what[1]}'", detail=f"Check the {what[0]} id.")
    context = vars(app_context.g)  # g's own __setattr__ is a Python call for each of these dict stores
    context["grant"] = grant
    context["viewer_side"] = None if grant.role == "owner" else (grant.side or "heroes")
    refusal = _role_refusal(grant, needed, req)
    if refusal:
        return problems.problem(403, refusal, f"This token's role is {grant.role}.")
    return _check_shape(req)


def _declared_for(app: Flask, endpoint: str, method: str) -> Access:
    """The declaration of the view that answers (endpoint, method), looked up once per app: routes do not change once
    the app serves (Flask refuses new ones), and the look-up walks the view's class."""
    known = app.extensions.get("tracker_access_declared")
    if known is None:
        known = app.extensions["tracker_access_declared"] = {}
    needed = known.get((endpoint, method))
    if needed is None:
        needed = known[(endpoint, method)] = declared(app.view_functions.get(endpoint), method) or UNDECLARED
    return needed


def _bearer(req: Any) -> str | None:
    header = req.environ.get("HTTP_AUTHORIZATION", "")  # as req.headers.get("Authorization", "") reads it
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def _role_refusal(grant: Any, needed: Access, req: Any) -> str | None:
    """What the token's role may not do by the route's declaration (tracker/application/authorization.py decides); which heroes
    and side a player's write is for, the command itself refuses (403, api/problems.py)."""
    return authorization.route_refusal(grant.role, needed.who, reads=req.method == "GET")


def _check_shape(req: Any):
    """Deeply nested documents and huge arrays are refused before any view parses them."""
    if req.method in ("GET", "HEAD") or not req.is_json:
        return None
    # What json_body decoded nests at most MAX_DEPTH levels (tracker/core/safe_json.py refuses deeper), so no value in it
    # lies deeper than MAX_DEPTH; an array of more than MAX_ARRAY items has at least MAX_ARRAY commas between them. With
    # fewer commas in the whole body (the bytes the decoding read, kept), the walk below finds nothing: asked first.
    if req.get_data(cache=True).count(b",") < MAX_ARRAY:
        return None
    value = json_body.decoded_or_none()
    if value is None:
        return None
    problem = _shape_problem(value, 0)
    if problem:
        return problems.problem(422, problem, f"Documents may nest at most {MAX_DEPTH} levels and arrays hold at most {MAX_ARRAY} items.")
    return None


def _shape_problem(value: Any, depth: int) -> str | None:
    if depth > MAX_DEPTH:
        return f"The JSON is nested more than {MAX_DEPTH} levels deep"
    if isinstance(value, list):
        if len(value) > MAX_ARRAY:
            return f"An array holds {len(value)} items; at most {MAX_ARRAY} are accepted"
        children = value
    elif isinstance(value, dict):
        children = list(value.values())
    else:
        return None
    for child in children:
        problem = _shape_problem(child, depth + 1)
        if problem:
            return problem
    return None
