"""Reading the request's headers into the application's Request: who, which correlation, which retry."""

from __future__ import annotations

import os
import re

from flask import current_app, g, request
from flask.globals import _cv_app, _cv_request  # Flask's own context variables: one look-up where a proxy makes four

from collections.abc import Callable
from typing import Any

from api.sharding import token_shard
from projections import replica as replica_views
from tracker.integrity import disclosure
from tracker.application.service import Request, Result, Tracker
from tracker.core.errors import NotFound, TrackerError


class BadHeader(TrackerError):
    status = 400


# The header values the server reads, in the form the OpenAPI document declares (api/contract.py):
# If-Match is the session's version, bare, quoted or weak; Last-Event-ID a notification position.
# ASCII digits only: int() also reads "²" and "٣", which isdigit() lets through.
IF_MATCH = re.compile(r'\s*(?:W/)?"?([0-9]{1,18})"?\s*')
LAST_EVENT_ID = re.compile(r"[0-9]{1,19}")


def viewer_side() -> str | None:
    """Whose eyes a read is for: None (everything) for the owner, else the token's side."""
    return g.get("viewer_side")


class WrongSide(TrackerError):
    status = 403


def viewer_for(requested: str | None, context: Any = None) -> str | None:
    """The side a read is for. The owner sees everything, or asks for one side with ?view=;
    any other token reads as its own side and may not ask for another. (``context``: the request's ``g``, when
    the caller holds it already.)"""
    context = _cv_app.get().g if context is None else context
    grant = context.get("grant")
    if grant is None or grant.role == "owner":
        return requested
    side = context.get("viewer_side")
    if requested is not None and requested != side:
        raise WrongSide(f"This token reads as the {side} side, not the {requested}", detail="Leave out ?view= or ask for your own side.")
    return side


def tracker() -> Tracker:
    """The application of the shard this request's campaign lives on (api/sharding.py), else the one database's."""
    app_context = _cv_app.get()
    shard = vars(app_context.g).get("shard")  # (g's own get is a Python call for this dict look-up; asked 4 times a write)
    return app_context.app.extensions["tracker"] if shard is None else shard.tracker


def views():
    """The views beside that shard's events: from its streaming replica when it has one, unless the request's
    ``min_position`` is ahead of the replica for longer than REPLICA_WAIT_SECONDS (projections/replica.py).
    Chosen once per request, so the rows and ``projected_to`` of one answer come from the same database."""
    chosen = g.get("views")
    if chosen is None:
        shard = g.get("shard")
        primary = current_app.extensions["tracker_views"] if shard is None else shard.views
        replica = current_app.extensions.get("tracker_views_replica") if shard is None else shard.replica
        if replica is None:
            chosen = primary
        else:
            chosen, g.views_from = replica_views.choose(primary, replica, request.args.get("min_position", type=int),
                                                        current_app.config["REPLICA_WAIT_SECONDS"])
        g.views = chosen
    return chosen


def name_views_source(response):
    """Which database a view answer was read from, when the views have a replica (X-Views-From: replica or primary)."""
    source = vars(_cv_app.get().g).get("views_from")
    if source is not None:
        response.headers["X-Views-From"] = source
    return response


def authenticate(token: str):
    """The live grant a token carries, asked of the shard that holds its campaign (with shards, a token used on
    another campaign's path must still be found, to answer 404 as for any campaign outside its reach)."""
    shard = token_shard(token)
    return (tracker() if shard is None else shard.tracker).authenticate(token)


class ViewsBehind(TrackerError):
    status = 503

    def __init__(self, position: int, reached: int, retry_after: int) -> None:
        super().__init__(
            f"The views have not reached position {position} yet",
            detail=f"They hold the log up to position {reached}. Retry shortly with the same min_position.",
        )
        self.headers = {"Retry-After": str(retry_after)}


def projected(min_position: int | None) -> int:
    """The views' position for a read; with ``min_position`` (a command's log_position), once the views hold the
    log up to there: waited for at most VIEWS_WAIT_SECONDS, else 503 with Retry-After."""
    runner = views()
    if min_position is None:
        return runner.position
    seconds = current_app.config["VIEWS_WAIT_SECONDS"]
    reached = runner.wait_for(min_position, seconds)
    if reached is None:
        raise ViewsBehind(min_position, runner.position_or_none() or 0, max(1, round(seconds)))
    return reached


def command_request() -> Request:
    # The headers read from the WSGI environ, as ``request.headers.get`` reads them, without its key spelling.
    headers = _cv_request.get().request.environ
    key = headers.get("HTTP_IDEMPOTENCY_KEY")
    if key is not None and not (1 <= len(key) <= 255):
        raise BadHeader("Idempotency-Key must be 1 to 255 characters", detail="Use a UUID per request.")
    if_match = headers.get("HTTP_IF_MATCH")
    expected = None
    if if_match is not None:
        version = IF_MATCH.fullmatch(if_match)
        if version is None:
            raise BadHeader(
                "If-Match must be the session version you last saw",
                detail='Send the "version" of the session as a number, e.g. If-Match: 7.',
            )
        expected = int(version.group(1))
    context = vars(_cv_app.get().g)
    grant = context.get("grant")
    return Request(
        issued_by=grant.token_id if grant is not None else None,
        correlation_id=context["correlation_id"],
        idempotency_key=key,
        if_match=expected,
        role=grant.role if grant is not None else None,
        heroes=tuple(grant.heroes) if grant is not None else (),
        side=grant.side if grant is not None else None,
    )


def respond(result: Result) -> tuple[dict, int, dict[str, str]]:
    """A command's answer; a replayed Idempotency-Key says so in a header."""
    headers = {"Idempotent-Replayed": "true"} if result.replayed else {}
    return {**result.body, "log_position": result.log_position}, result.status, headers


def echo_correlation_id(response):
    response.headers["X-Correlation-Id"] = vars(_cv_app.get().g).get("correlation_id", "")
    return response


def assign_correlation_id(req: Any = None) -> None:
    """The client's X-Correlation-Id (its first 100 characters), else a new one. (``req``: the request, when the caller
    holds it; its header read from the WSGI environ, as ``headers.get`` reads it, without the headers' key spelling.)"""
    supplied = (_cv_request.get().request if req is None else req).environ.get("HTTP_X_CORRELATION_ID", "")
    vars(_cv_app.get().g)["correlation_id"] = supplied[:100] if supplied else new_correlation_id()  # (g's __setattr__ is a call)


def new_correlation_id() -> str:
    """A random (version 4) UUID in its canonical text, as ``str(uuid.uuid4())`` writes it, without the UUID object
    (its constructor's checks and its formatting are a dozen Python calls, for the one string a request needs)."""
    raw = bytearray(os.urandom(16))
    raw[6] = raw[6] & 0x0F | 0x40  # version 4
    raw[8] = raw[8] & 0x3F | 0x80  # the RFC 4122 variant
    digits = raw.hex()
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def _as_it_is(value: Any) -> Any:
    return value


def door() -> Callable[[Any], Any]:
    """The one redaction on the way out, bound to this request's token: what its side may see of any answer
    (tracker/integrity/disclosure.py). Built while the request is current, so a stream can use it after."""
    context = _cv_app.get().g
    grant = context.get("grant")
    if grant is None:
        return _as_it_is  # public routes answer nothing of a campaign's play
    req = _cv_request.get().request
    side = viewer_for(req.args.get("view") if req.query_string else None, context)  # (no query string: no args to parse)
    if side is None:
        return _as_it_is  # every side's eyes (the owner's): nothing is redacted, so no rules are needed to say what
    app = tracker()
    rules = app.rules_of_campaign(grant.campaign_id)
    disclosure.check_side(rules, side)
    current = (req.view_args or {}).get("session_id")
    ended: dict[str | None, bool] = {}
    played: dict[str, Any] = {}

    def revealed(session_id: str | None) -> bool:
        session_id = session_id or current
        if session_id not in ended and session_id is not None:
            # The campaign records each quest's end in the same transaction as its session's end (end_session saves
            # both): its small aggregate answers for its sessions, where loading a session may read a long history.
            if not played:
                played.update({s["id"]: s.get("outcome") for s in app.get_campaign(grant.campaign_id)["sessions"]})
            if session_id in played:
                ended[session_id] = played[session_id] is not None
        if session_id not in ended:
            try:
                ended[session_id] = session_id is None or app.get_session(session_id)["status"] in ("ended", "abandoned")
            except NotFound:
                ended[session_id] = True  # not a session (a campaign's own stream): nothing sealed in it
        return ended[session_id]

    return lambda value: disclosure.disclose(value, rules, side, revealed)
