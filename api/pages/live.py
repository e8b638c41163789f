"""A session's pages, live at the table: the stream a page's script follows, and where that script may run.

The play page, the timeline and the replay of a session load /pages/static/live.js (templates/live.html, from
base.html), which follows GET /pages/sessions/<id>/live: the session's own events as the API's feed gives them
(api/routes/feed.py), for the visitor's cookie grant (api/pages/signin.py) and through the one redaction for its
side (api.context.door), so the page's stream shows exactly what GET /events shows that token. Each event is sent
once the views hold it, so a reading page fetched again on it shows it. Only these pages may run a script, and only
this server's (script-src 'self'), which may connect only here (connect-src 'self'); every other page keeps the
policy with no script at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import current_app, request

from api import access, schemas
from api.context import LAST_EVENT_ID, BadHeader, door, tracker, views
from api.pages import signin
from api.pages.blueprint import bp
from api.routes import feed

SCRIPTS = "script-src 'self'; connect-src 'self'"
PAGE_HEARTBEAT_SECONDS = 2.0  # how soon the server finds a page gone (two beats at most), and gives its stream slot back


def stream_url() -> str | None:
    """The live stream of the session this page shows, or None (a page of no one session, or the stream itself)."""
    session_id = (request.view_args or {}).get("session_id")
    if request.blueprint != "pages" or session_id is None or request.endpoint == "pages.live_stream":
        return None
    return f"/pages/sessions/{session_id}/live"


def policy(strict: str) -> str:
    """The pages' Content-Security-Policy: ``strict`` (no script), with this server's script where the page is live."""
    return f"{strict}; {SCRIPTS}" if stream_url() is not None else strict


@bp.context_processor
def _live() -> dict[str, Any]:
    return {"live_stream": stream_url()}


@bp.get("/pages/sessions/<session_id>/live")
@access.signed_in
def live_stream(session_id: str):
    """Server-Sent Events, one per event of this session saved after the log's end when the page opened (or after
    Last-Event-ID, which the browser sends when it reconnects); the data is the event as GET /events shows it."""
    campaign_id, _grant = signin.grant_for_session(session_id)  # as the page itself: the cookie's grant, 404 elsewhere
    after = _resume()
    shown = _this_session(session_id, door(), views(), current_app.config["VIEWS_WAIT_SECONDS"])
    # A page's stream beats at least every PAGE_HEARTBEAT_SECONDS: a phone that posts a form leaves the page, and its
    # stream holds a slot until a beat cannot be delivered; at the feed's 15 s, the page it lands on found every slot
    # taken by its own past pages and said "Reconnecting…" for half a minute.
    heartbeat = min(current_app.config["STREAM_HEARTBEAT_SECONDS"], PAGE_HEARTBEAT_SECONDS)
    app = tracker()
    return feed.served(lambda: feed.stream(app, after, None, None, campaign_id, shown, heartbeat, named=False),
                       "The page still shows the session as it was loaded: reload it to see what changed.")


def _resume() -> int:
    resume = request.headers.get("Last-Event-ID")
    if resume is None or resume == "":
        return tracker().recorder.max_notification_id() or 0  # what happened before, the page loaded already
    if not LAST_EVENT_ID.fullmatch(resume) or int(resume) > schemas.MAX_POSITION:
        raise BadHeader("Last-Event-ID must be a notification position", detail="Send the id of the last event you received.")
    return int(resume)


def _this_session(session_id: str, shown: Callable[[Any], Any], runner: Any, wait: float) -> Callable[[list[dict[str, Any]]], Any]:
    """The events of one session among its campaign's, redacted by ``shown``, each batch sent once the views
    (``runner``) hold it (waited for at most ``wait`` seconds; after that, sent anyway: the page asks again)."""

    def page_events(events: list[dict[str, Any]]) -> Any:
        mine = [event for event in events if event["stream"] == session_id]
        if mine:
            runner.wait_for(mine[-1]["id"], wait)
        return shown(mine)

    return page_events
