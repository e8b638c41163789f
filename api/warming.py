"""A worker warmed at boot, so its first request costs what a later one does (issue 19's bench target).

A fresh worker's first request would pay, beyond its own work, what the process builds once: the database
connections (the event store's and the view store's) and their first statements, Flask's first dispatch
(routing, the hooks, JSON and the response schemas), and a full garbage collection over everything the
imports made. The worker pays them here instead, before it accepts a connection: each statement a read makes,
on each pooled connection in turn, until it is prepared; internal requests through the whole stack (one answered,
one refused at the access check, as a bad token is); every read of a campaign answered inside the worker once
per game played lately, as its owner's would be; and the collector told that what the worker built stays for
its life.

Per campaign, the first request would also load the campaign and the grant of the token it came with, in full
(the snapshot, then the events after it), and its rules and party; the campaigns played lately are loaded here,
with their grants (kept as a token check keeps them), so that request only reads what is newer, as later ones
do. Nothing here writes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from typing import Any
from uuid import UUID

from flask import Flask, g
from psycopg_pool import ConnectionPool
from werkzeug.exceptions import HTTPException

from api import sharding
from projections import standing
from projections import views as registered_views
from tracker.core.errors import NotFound, TrackerError
from tracker.rulesets.engine.view import CampaignFold

NOBODY = str(UUID(int=0))  # no campaign has the nil id: campaign ids are uuid4
PRIMED_CAMPAIGNS = 100  # each with its few grants: a few hundred aggregates of the cache's 1,000
PREPARED_AFTER = 5  # psycopg's prepare_threshold: a statement run this many times on a connection is prepared
SPECIALISED_AFTER = 8  # CPython 3.11's warm-up: a code object's calls before its bytecode is quickened


def warm(app: Flask) -> None:
    app.extensions["tracker_warming"] = True  # its requests are not the service's: GET /metrics does not count them
    try:
        _warm(app)
        app.extensions["tracker_warmed"] = True  # GET /ready may say ready (api/routes/ready.py)
    finally:
        app.extensions["tracker_warming"] = False


def _warm(app: Flask) -> None:
    service = app.extensions["tracker_service"]
    # The campaigns played lately and their grants, as their first request would load them (bounded well within
    # the aggregate cache, tracker/adapters/config.py): that request then reads only what is newer, as every later one does.
    latest = standing.latest_campaigns(service.store, PRIMED_CAMPAIGNS)
    owners = _one_owner_per_game(service.tracker, service.tracker.prime(latest))
    # Each statement a request makes, a few times over on each pooled connection: on PostgreSQL psycopg prepares a
    # statement on its fifth run on a connection (one more round trip), and a connection's server process reads a
    # table's catalog entries the first time it touches the table; CPython 3.11 specialises a function's bytecode
    # after its eighth call. Any of them would otherwise fall on the first requests.
    statements = [
        lambda: service.tracker.prime(latest[:1]),  # a cached campaign brought up to date: the query every read makes
        lambda: service.tracker.authenticate("warm-up"),  # the grant query of a token not yet seen (no grant: None)
        lambda: _absent(service.tracker.get_campaign, NOBODY),  # an aggregate not in the cache: snapshot, then events
        lambda: service.store.max_tracking_id(service.tracker.name),  # how far the views are projected
        *(partial(view.read, service.store, NOBODY) for view in registered_views.registered() if isinstance(view, CampaignFold)),
        partial(standing.read, service.store, NOBODY),  # the campaign standing's own views
    ]
    pools = [datastore.pool for datastore in (service.tracker.recorder.datastore, service.store.datastore)
             if isinstance(getattr(datastore, "pool", None), ConnectionPool)]
    for _ in _each_connection_in_turn(pools):
        for statement in statements:
            for _ in range(max(PREPARED_AFTER, SPECIALISED_AFTER) + 1):
                statement()
    for _ in range(SPECIALISED_AFTER + 1):
        with app.test_client() as client:
            client.get("/health")
            client.get(f"/campaigns/{NOBODY}/heroes", headers={"Authorization": "Bearer warm-up"})  # 401: the access check's path
        for grant in owners[:1]:
            _answer_inside(app, f"/campaigns/{grant.campaign_id}/standing", grant)
    # Each read of a campaign, once per game played lately, as its owner: a route's first answer in a worker pays
    # for its own first dispatch (its view's hooks, argument and response schemas, its game's view and wording).
    _answer_every_read(app, owners)
    # What the worker built to start (modules, rulesets, schemas) stays for its life: frozen, the collector
    # no longer walks it, and no request pays the first full collection over it. A request makes a few thousand
    # short-lived objects, so the youngest generation is collected every 20,000 allocations rather than 700.
    # Together about 7% of a worker's CPU per request in bench/ (HTTP section), at a few MB of memory.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)
    # The full collection walked every object the worker holds and left the processor's caches full of them: one
    # last pass of the reads brings what a request touches back into them, as after any request.
    _answer_every_read(app, owners)


def _absent(read: Any, campaign_id: str) -> None:
    try:
        read(campaign_id)
    except NotFound:
        pass


@contextmanager
def _only(pool: ConnectionPool, free: Any, held: list[Any]) -> Iterator[None]:
    pool.putconn(free)  # the one connection the pool can hand out
    try:
        yield
    finally:
        held[held.index(free)] = pool.getconn()


def _each_connection_in_turn(pools: list[ConnectionPool]) -> Iterator[int]:
    """Yields once per idle connection of the largest pool, with every pool able to hand out exactly one of its
    idle connections, a different one each time (psycopg_pool hands its connections out in turn, so a statement
    run n times in a row would reach them by the stride of the checkouts around it, not each of them). Connections
    in use elsewhere (the projection runner's LISTEN, in a process that runs it) are left to their users. Without
    pools (SQLite), yields once."""
    held: list[list[Any]] = []
    try:
        for pool in pools:
            idle = pool.get_stats().get("pool_available", 0)
            held.append([pool.getconn() for _ in range(idle)])
        for turn in range(max([len(connections) for connections in held] or [1])):
            with ExitStack() as stack:
                for pool, connections in zip(pools, held):
                    if connections:
                        stack.enter_context(_only(pool, connections[turn % len(connections)], connections))
                yield turn
    finally:
        for pool, connections in zip(pools, held):
            for connection in connections:
                pool.putconn(connection)


def _one_owner_per_game(service: Any, grants: list[Any]) -> list[Any]:
    """The owner grant of the latest campaign of each game among ``grants`` (latest first)."""
    by_game: dict[str, Any] = {}
    for grant in grants:
        if grant.role == "owner":
            by_game.setdefault(service.get_campaign(grant.campaign_id)["ruleset"]["id"], grant)
    return list(by_game.values())


def _answer_every_read(app: Flask, owners: list[Any]) -> None:
    for grant in owners:
        for path in _campaign_reads(app, grant.campaign_id):
            _answer_inside(app, path, grant)


def _campaign_reads(app: Flask, campaign_id: str) -> list[str]:
    """The paths of the reads about one campaign that need nothing but its id (exports stream: their first line
    is read by the client, not here, so they are left out)."""
    return [
        rule.rule.replace("<campaign_id>", campaign_id)
        for rule in app.url_map.iter_rules()
        if rule.methods and "GET" in rule.methods and rule.arguments == {"campaign_id"}
        and rule.rule.startswith("/campaigns/<campaign_id>") and not rule.rule.endswith("/export")
    ]


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
        except (TrackerError, HTTPException):
            pass  # a read this campaign's game does not have, or one needing more than the id: its path has run
