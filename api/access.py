"""Who may do what: bearer tokens, roles, hero and side bindings, and per-token write limits.

Checked before every view. Rulesets, health, the OpenAPI document and creating
a campaign are public; everything about a campaign needs a token of that
campaign. A campaign outside a token's reach answers 404, exactly as a missing
one does, so tokens cannot probe for other groups' campaigns.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any

from flask import current_app, g, request

from api import problems
from api.context import authenticate, tracker
from tracker import actors
from tracker.safe_json import MAX_DEPTH
from tracker.errors import NotFound

PUBLIC = {"rulesets.Rulesets", "rulesets.RulesetDocument", "health.Health", "api-docs.openapi_json", "static", "verifier.Verifier"}
PAGES = "pages."  # the HTML pages' endpoints
PUBLIC_POSTS = {"campaigns.Campaigns", "campaigns.CampaignImport"}
OWNER_ONLY = {"campaigns.CampaignTokens", "campaigns.CampaignToken", "campaigns.CampaignComponents"}
INTEGRATION_READS = {"sessions.Events", "events.Feed", "events.FeedStream"}
MAX_ARRAY = 1000


def authorize():
    endpoint = request.endpoint
    if endpoint is not None and endpoint.startswith(PAGES):
        return None  # pages sign in with a cookie and check the same grants themselves (api/pages/signin.py)
    if endpoint is None or endpoint in PUBLIC or (request.method == "POST" and endpoint in PUBLIC_POSTS):
        return _check_shape()
    token = _bearer()
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
    args = request.view_args or {}
    if "session_id" in args:
        campaign_id = tracker().campaign_of_session(args["session_id"])  # NotFound -> 404
        what = ("session", args["session_id"])
    else:
        campaign_id = args.get("campaign_id", grant.campaign_id)
        what = ("campaign", campaign_id)
    if campaign_id != grant.campaign_id:
        raise NotFound(f"No {what[0]} with id '{what[1]}'", detail=f"Check the {what[0]} id.")
    g.grant = grant
    g.viewer_side = None if grant.role == "owner" else (grant.side or "heroes")
    refusal = _role_refusal(grant, endpoint)
    if refusal:
        return problems.problem(403, refusal, f"This token's role is {grant.role}.")
    if request.method != "GET":
        limited = _rate_limited(grant.token_id)
        if limited:
            return limited
    return _check_shape()


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def _role_refusal(grant: Any, endpoint: str) -> str | None:
    if grant.role == "owner":
        return None
    if endpoint in OWNER_ONLY:
        return "Only the campaign's owner manages tokens and component data"
    if grant.role == "integration":
        if request.method == "GET" and endpoint in INTEGRATION_READS:
            return None
        return "Integration tokens may only read the event log"
    if request.method == "GET":
        return None
    if grant.role == "viewer":
        return "Viewer tokens are read-only"
    body = request.get_json(silent=True)
    if grant.heroes:
        named = sorted(set(actors.named(body)) - set(grant.heroes))
        if named:
            return f"This token plays {', '.join(grant.heroes)}, not {', '.join(named)}"
    side = _acting_side(body)
    if side is not None and side != (grant.side or "heroes"):
        return f"This token plays the {grant.side or 'heroes'} side, not the {side}"
    return None


def _acting_side(body: Any) -> str | None:
    """The side an action is taken for, as its ruleset says (e.g. Descent's overlord actions); a draw asks as a "draw" action."""
    if not isinstance(body, dict) or request.endpoint not in ("sessions.Actions", "sessions.Draws"):
        return None
    from tracker import rulesets

    session = tracker().get_session(request.view_args["session_id"])
    rules = rulesets.get(session["ruleset"]["id"]).rules
    return rules.acting_side(body if request.endpoint == "sessions.Actions" else {**body, "type": "draw"})


def _check_shape():
    """Deeply nested documents and huge arrays are refused before any view parses them."""
    if request.method in ("GET", "HEAD") or not request.is_json:
        return None
    body = request.get_json(silent=True)
    problem = _shape_problem(body, 0)
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


# -- rate limiting -------------------------------------------------------------------


class TokenBuckets:
    """Per-token write allowance: ``rate`` writes per ``per`` seconds, refilled continuously."""

    def __init__(self, rate: int, per: float) -> None:
        self.rate, self.per = rate, per
        self.buckets: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def take(self, key: str, now: float | None = None) -> float:
        """Take one write; returns 0 if allowed, else the seconds until one is available."""
        now = time.monotonic() if now is None else now
        with self.lock:
            tokens, last = self.buckets.get(key, (float(self.rate), now))
            tokens = min(float(self.rate), tokens + (now - last) * self.rate / self.per)
            if tokens >= 1:
                self.buckets[key] = (tokens - 1, now)
                return 0.0
            self.buckets[key] = (tokens, now)
            return (1 - tokens) * self.per / self.rate


def _rate_limited(token_id: str):
    buckets: TokenBuckets | None = current_app.extensions.get("tracker_rate_limit")
    if buckets is None:
        return None
    wait = buckets.take(token_id)
    if wait <= 0:
        return None
    seconds = max(1, math.ceil(wait))
    return problems.problem(
        429,
        "Too many writes with this token; wait and retry",
        f"This service accepts {buckets.rate} writes per {buckets.per:g} seconds per token.",
        headers={"Retry-After": str(seconds)},
    )


def parse_rate_limit(setting: str | None) -> TokenBuckets | None:
    """'30/10' means 30 writes per 10 seconds per token; empty or 'off' disables limiting."""
    if not setting or setting.strip().lower() == "off":
        return None
    rate, _, per = setting.partition("/")
    return TokenBuckets(int(rate), float(per or 1))
