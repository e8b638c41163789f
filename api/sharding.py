"""Each request to its campaign's shard (tracker/sharding/shards.py), and a write held against a move while it runs.

Runs before the access check, so the token is checked on the shard that holds its campaign. It
decides nothing about access: an id no shard knows, or a token none holds, leaves the request on
the home shard, where the access check answers 401 or 404 exactly as without shards.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any
from uuid import UUID

from flask import g, request
from flask.globals import _cv_app  # Flask's own context variables: one look-up where a proxy makes four

from api import problems
from tracker.portability import stored_answers
from tracker.domain.access import token_hash
from tracker.core.errors import NotFound
from tracker.sharding.placement import Moving
from tracker.sharding.shards import Router, Shard

WRITES = ("POST", "PUT", "PATCH", "DELETE")
NEW_CAMPAIGNS = {"campaigns.Campaigns", "campaigns.CampaignImport"}
MOVE_RETRY_SECONDS = 5


def router() -> Router | None:
    return _cv_app.get().app.extensions.get("tracker_router")


def route_to_shard(_req: Any = None):
    """Before every view (api/__init__.py hands each check the request; without shards, nothing here reads it)."""
    found = router()
    if found is None or request.endpoint is None:
        return None
    if request.method == "POST" and request.endpoint in NEW_CAMPAIGNS:
        g.shard = found.for_new_campaign(_creation_answers())
        return None
    campaign_id = _campaign_of_request(found)
    if campaign_id is None:
        return None
    if request.method not in WRITES:
        g.shard = found.of_campaign(campaign_id)
        return None
    fence = ExitStack()
    try:
        g.shard = fence.enter_context(found.writing(campaign_id))
    except Moving:
        fence.close()
        return problems.problem(
            503, "This campaign is being moved to another server; retry shortly",
            "Nothing was recorded for this request. Reads still answer; writes resume when the move ends (or, should its mover die, "
            "when its lease runs out).",
            headers={"Retry-After": str(MOVE_RETRY_SECONDS)},
        )
    except NotFound:
        fence.close()
        return None  # the access check answers, as for any unknown id
    g.placement_fence = fence
    return None


def release_fence(_error: BaseException | None = None) -> None:
    """The write is answered: its move lock goes (a move waiting for it may begin)."""
    fence = vars(_cv_app.get().g).pop("placement_fence", None)  # (run twice a request: g's own pop is a Python call)
    if fence is not None:
        fence.close()


def _campaign_of_request(found: Router) -> str | None:
    args = request.view_args or {}
    if "campaign_id" in args:
        return args["campaign_id"]
    if "session_id" in args:
        try:
            return found.campaign_of_session(args["session_id"])
        except NotFound:
            return None
    token = _bearer()
    return found.campaign_of_token(token) if token else None


def _creation_answers() -> list[UUID]:
    """Where a keyed POST /campaigns may have been answered before: its scope with no token, or with the bearer's
    token id ("tok_" + the first 16 hex digits of its SHA-256, as tracker/application/commands.py mints it)."""
    key = request.headers.get("Idempotency-Key")
    if not key or request.endpoint != "campaigns.Campaigns":
        return []
    token = _bearer()
    issuers = [None] + ([f"tok_{token_hash(token)[:16]}"] if token else [])
    return [stored_answers.answer_id("campaigns", issuer, key) for issuer in issuers]


def _bearer() -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def token_shard(token: str) -> Shard | None:
    """The shard that holds a token's campaign, or None without shards (or for a token no shard knows)."""
    found = router()
    if found is None:
        return None
    campaign_id = found.campaign_of_token(token)
    return None if campaign_id is None else found.of_campaign(campaign_id)


def import_placing():
    """With shards, what an import writes in: its campaign placed on this request's shard first, or refused when
    another shard holds it (tracker/sharding/placement.py ``Placement.placing``); None without shards."""
    found, shard = router(), g.get("shard")
    if found is None or shard is None:
        return None
    return lambda campaign_id: found.placement.placing(campaign_id, shard.name)


def place_new_campaign(campaign_id: str) -> None:
    """A campaign just created or imported on the shard this request went to is placed there."""
    found, shard = router(), g.get("shard")
    if found is not None and shard is not None:
        found.placement.place(campaign_id, shard.name)


def shard_name() -> str | None:
    shard = g.get("shard")
    return None if shard is None else shard.name
