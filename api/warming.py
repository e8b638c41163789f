"""A worker warmed at boot, so its first request costs what a later one does (issue 19's bench target).

A fresh worker's first request would pay, beyond its own work, what the process builds once: the database
connections (the event store's and the view store's) and their first statements, Flask's first dispatch
(routing, the hooks, JSON and the response schemas), and a full garbage collection over everything the
imports made. The worker pays them here instead, before it accepts a connection: each read through the
stores, run until its statements are prepared, internal requests through the whole stack (one answered, one
refused at the access check, as a bad token is), one read answered inside the worker as an owner's would be,
and the collector told that what the worker built stays for its life.

Per campaign, the first request would also load the campaign and the grant of the token it came with, in full
(the snapshot, then the events after it); the campaigns played lately are loaded here, with their grants, so that
request only reads what is newer, as later ones do. Nothing here writes.
"""

from __future__ import annotations

import gc
from typing import Any
from uuid import UUID

from flask import Flask, g

from api import sharding
from projections import standing
from projections import views as registered_views
from tracker.errors import NotFound, TrackerError
from tracker.rulesets.view import CampaignFold

NOBODY = str(UUID(int=0))  # no campaign has the nil id: campaign ids are uuid4
PRIMED_CAMPAIGNS = 100  # each with its few grants: a few hundred aggregates of the cache's 1,000
PREPARED_AFTER = 5  # psycopg's prepare_threshold: a statement run this many times on a connection is prepared
SPECIALISED_AFTER = 8  # CPython 3.11's warm-up: a code object's calls before its bytecode is quickened


def warm(app: Flask) -> None:
    service = app.extensions["tracker_service"]
    # The campaigns played lately and their grants, as their first request would load them (bounded well within
    # the aggregate cache, tracker/config.py): that request then reads only what is newer, as every later one does.
    latest = standing.latest_campaigns(service.store, PRIMED_CAMPAIGNS)
    owners = [grant for grant in service.tracker.prime(latest) if grant.role == "owner"]
    # Each read a request makes, a few times over: on PostgreSQL psycopg prepares a statement on its fifth run
    # (one more round trip), and CPython 3.11 specialises a function's bytecode after its eighth call; either
    # would otherwise fall on the first requests.
    for _ in range(max(PREPARED_AFTER, SPECIALISED_AFTER) + 1):
        service.tracker.prime(latest[:1])  # the cached campaign and grants brought up to date: one query each
        service.tracker.authenticate("warm-up")  # the grant query every request makes (no grant: None)
        try:
            service.tracker.get_campaign(NOBODY)
        except NotFound:
            pass
        service.store.max_tracking_id(service.tracker.name)
        for view in registered_views.registered():
            if isinstance(view, CampaignFold):
                view.read(service.store, NOBODY)  # each view's read statement
        with app.test_client() as client:
            client.get("/health")
            client.get(f"/campaigns/{NOBODY}/heroes", headers={"Authorization": "Bearer warm-up"})  # 401: the access check's path
        for grant in owners[:1]:
            _answer_inside(app, f"/campaigns/{grant.campaign_id}/standing", grant)
    # What the worker built to start (modules, rulesets, schemas) stays for its life: frozen, the collector
    # no longer walks it, and no request pays the first full collection over it. A request makes a few thousand
    # short-lived objects, so the youngest generation is collected every 20,000 allocations rather than 700.
    # Together about 7% of a worker's CPU per request in bench/ (HTTP section), at a few MB of memory.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)


def _answer_inside(app: Flask, path: str, grant: Any) -> None:
    """One read answered inside the worker as its campaign's owner would have it (the route, its arguments and
    response schema, the redaction on the way out), so the path every answered request takes has run before the
    first one. Not a request: no hook runs, no token is involved (the grant is the one the log holds), nothing is
    written and the answer is dropped. A read that fails here is the first real reader's to report, not the boot's."""
    with app.test_request_context(path):
        sharding.route_to_shard()  # the campaign's shard, as a request's first hook finds it (a read: no fence)
        g.grant, g.viewer_side = grant, None  # what the access check sets for an owner's token
        try:
            app.make_response(app.dispatch_request())
        except TrackerError:
            pass
