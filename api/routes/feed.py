"""The event feed for integrations: the notification log paged, and pushed as Server-Sent Events."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, current_app, g, request
from flask.views import MethodView

from api import access, contract, metrics, problems, schemas
from api.blueprint import Blueprint
from api.sharding import shard_name
from api.context import LAST_EVENT_ID, door, tracker
from api.stream_slots import MAX_STREAM_SECONDS, RETRY_AFTER_SECONDS, StreamSlots
from tracker.application.service import Tracker
from tracker.core.errors import TrackerError

blp = Blueprint("events", __name__, url_prefix="/events", description="Every event, in the order saved, for integrations")

# The stream's body, as a generated client can hold it: a string of Server-Sent Events, their format in prose
# (an object schema made openapi-python-client's streamEvents raise on every 200).
SSE_BODY = {
    # The whole body, as OpenAPI 3.1 reads a media type's schema: a generated client hands it over as the text it is.
    # (schemathesis reads a 3.1 schema of text/event-stream as each event's: tests/test_schemathesis.py says why it
    # checks this body's status, type and headers only.)
    "type": "string",
    "description": "Server-Sent Events (text/event-stream, as the HTML standard defines it), UTF-8, each event lines "
    "ended by a blank line: `id: <n>` the notification position (resume with Last-Event-ID: <n>), `event: <type>` the "
    "event's type (e.g. DiceRolled), `data: <json>` the event on one line as GET /events pages it (a FeedEvent). The "
    "stream opens with `retry: 2000` (milliseconds before a client reconnects) and sends `: keep-alive` comments while "
    "idle. It ends after ?limit= events, ?wait= idle seconds or 300 seconds in all: reconnect with Last-Event-ID.",
}
POLL_SECONDS = 0.2


class Moved(TrackerError):
    status = 409


class UnreadableLastEventId(TrackerError):
    status = 422


@blp.route("")
class Feed(MethodView):
    @access.reader
    @blp.doc(operationId="listEvents")
    @contract.problems(409)
    @blp.arguments(schemas.FeedQuery, location="query")
    @blp.response(200, schemas.Feed)
    def get(self, query):
        """Events after notification position `after`; follow by passing `next_after` back. Seeds show only in SessionEnded."""
        here = shard_name()
        if query["shard"] is not None and here is not None and query["shard"] != here:
            raise Moved(
                f"The campaign moved from shard {query['shard']} to {here}; positions count again there",
                detail=f"Page from after=0 with shard={here}: events keep their stream and position, so those seen already can be skipped.",
            )
        return {**tracker().feed(query["after"], query["limit"], feed_scope()), "shard": shard_name()}


@blp.route("/stream")
class FeedStream(MethodView):
    @access.reader
    @blp.doc(operationId="streamEvents")
    @contract.headers("LastEventId")
    @blp.arguments(schemas.StreamQuery, location="query")
    @blp.doc(responses={"200": {
        "description": "Server-Sent Events: `id:` is the notification position, `event:` the type, `data:` the event as "
        "GET /events pages it (FeedEvent); a `retry:` line first and `: keep-alive` comments while idle.",
        "content": {"text/event-stream": {"schema": SSE_BODY}},
    }})
    def get(self, query):
        """Server-Sent Events: each event as it is saved; reconnect with Last-Event-ID to resume."""
        after = query["after"]
        if after is None:
            resume = request.headers.get("Last-Event-ID", "0") or "0"
            if not LAST_EVENT_ID.fullmatch(resume) or int(resume) > schemas.MAX_POSITION:
                # 422, not ignored: a stream started at the end instead would skip what the client missed.
                raise UnreadableLastEventId("Last-Event-ID must be a notification position",
                                            detail="Send the id: of the last event you received, a whole number, or leave the header out.")
            after = int(resume)
        scope = feed_scope()
        return served(lambda: stream(tracker(), after, query["limit"], query["wait"], scope, door(), current_app.config["STREAM_HEARTBEAT_SECONDS"]),
                      "GET /events?after=N pages the same events.")


def served(events: Callable[[], Iterator[str]], meanwhile: str):
    """A stream of Server-Sent Events in one of the worker's stream slots (api/stream_slots.py), given back when it
    closes; none free: 503 with Retry-After, and ``meanwhile`` says what to read instead (the feed's streams and the
    pages' live stream, api/pages/live.py, share the slots)."""
    slots: StreamSlots = current_app.extensions["tracker_stream_slots"]
    if not slots.take():
        return problems.problem(
            503, "Too many event streams are open on this server; retry shortly",
            f"Each worker serves at most {slots.cap} streams at once. {meanwhile}",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    counted_closed = metrics.stream_opened()  # GET /metrics' open streams, summed across the workers
    try:
        response = Response(events(), mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    except BaseException:
        slots.give_back()
        counted_closed()
        raise
    response.call_on_close(slots.give_back)  # the server closes the response when the stream ends or the client goes
    response.call_on_close(counted_closed)
    return response


def feed_scope() -> str | None:
    """The token's campaign."""
    grant = g.get("grant")
    return grant.campaign_id if grant is not None else None


def stream(
    app: Tracker, after: int, limit: int | None, wait: float | None, campaign_id: str | None = None, shown: Callable[[Any], Any] = lambda v: v,
    heartbeat: float = 15.0, named: bool = True,
) -> Iterator[str]:
    """Poll the notification log; stop after ``limit`` events, ``wait`` idle seconds or MAX_STREAM_SECONDS
    in all (the client reconnects with Last-Event-ID), or when the client goes: the server finds out when a
    comment sent every ``heartbeat`` idle seconds cannot be delivered. ``named``: each event's ``event:`` line is
    its type (a page's script, which follows every type, reads them unnamed, as ``message`` events)."""
    sent = 0
    idle_since = last_beat = opened = time.monotonic()
    yield "retry: 2000\n\n"
    while True:
        page = app.feed(after, 100 if limit is None else min(100, limit - sent), campaign_id)
        for event in shown(page["events"]):
            name = f"event: {event['type']}\n" if named else ""
            yield f"id: {event['id']}\n{name}data: {json.dumps(event, separators=(',', ':'))}\n\n"
            sent += 1
            if limit is not None and sent >= limit:
                return
        now = time.monotonic()
        if page["next_after"] != after:
            after, idle_since = page["next_after"], now
            continue
        if (wait is not None and now - idle_since >= wait) or now - opened >= MAX_STREAM_SECONDS:
            return
        if now - last_beat >= heartbeat:
            yield ": keep-alive\n\n"
            last_beat = now
        time.sleep(POLL_SECONDS)
