"""The REST API: create_app() wires the tracker application, its views and the routes."""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from dataclasses import replace
from typing import Any

from flask import Flask, current_app, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from api import access, chunked_bodies, contract, json_body, problems, query, sharding, stream_slots, warming
from api.flask_app import TrackerFlask
from api.context import assign_correlation_id, echo_correlation_id, name_views_source
from api.pages import bp as pages
from api.routes import campaigns, descent, feed, health, heroes, keys, rulesets, sessions, verifier
from tracker import safe_json
from projections.every_shard import EveryShard
from projections.runner import ProjectionRunner
from projections.store import open_view_store
from tracker import placement
from tracker.bootstrap import Settings, bootstrap
from tracker.config import persistence_env
from tracker.placement import HOME, Placement
from tracker.shards import Router, Shard
from tracker.errors import TrackerError

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1024 * 1024  # 1 MB: larger request bodies get 413
IMPORT_MAX_BYTES = 64 * 1024 * 1024  # an export of a long campaign can exceed the 1 MB that other requests may send
IMPORT_PATH = "/campaigns/import"


class TrackerApi(Api):
    # Errors are problem+json, declared per operation by api/contract.py instead of one catch-all "default".
    DEFAULT_ERROR_RESPONSE_NAME = None

    def _register_responses(self):
        """flask-smorest's catch-all error responses (code/status/message); ours are problem+json (api/contract.py)."""

    def _register_pagination_header(self):
        """Nothing here pages with flask-smorest's pagination header."""

    def handle_http_exception(self, error: HTTPException):
        return problems.from_http_exception(error)


def create_app(test_config: dict[str, Any] | None = None, *, settings: Settings | None = None) -> Flask:
    """The REST API and its pages over the service tracker/bootstrap.py builds from ``settings`` (by default
    from the environment); ``test_config`` overrides Flask settings, DATABASE_URL and CREATE_TABLES included."""
    settings = settings or Settings.from_environment()
    app = TrackerFlask(__name__)
    app.config.from_mapping(
        DATABASE_URL=settings.database_url,
        CREATE_TABLES=settings.create_tables,
        PROJECTIONS_IN_PROCESS=settings.projections_in_process,
        RATE_LIMIT=os.environ.get("TRACKER_RATE_LIMIT", ""),
        # How many proxies in front of the service set X-Forwarded-For/-Proto/-Host/-Port; 0 ignores those headers.
        TRUSTED_PROXIES=int(os.environ.get("TRACKER_TRUSTED_PROXIES", "0") or 0),
        # Event streams one worker holds open at once; each holds a thread (api/stream_slots.py).
        STREAMS_PER_WORKER=int(os.environ.get("TRACKER_STREAMS_PER_WORKER", stream_slots.default_cap())),
        # An idle event stream sends a comment this often: how soon a worker finds a client gone and frees its slot
        # (and how often a proxy in between sees traffic on the connection).
        STREAM_HEARTBEAT_SECONDS=float(os.environ.get("TRACKER_STREAM_HEARTBEAT_SECONDS", "15")),
        # /health answers 503 once the views have failed to move on for this long.
        VIEWS_STALL_SECONDS=float(os.environ.get("TRACKER_VIEWS_STALL_SECONDS", "60")),
        # How long a read with ?min_position= waits for the views to get there before its 503.
        VIEWS_WAIT_SECONDS=float(os.environ.get("TRACKER_VIEWS_WAIT_SECONDS", "2")),
        # A streaming replica of the database the views may be read from (with shards: `tracker shards replica`).
        VIEWS_REPLICA_URL=os.environ.get("TRACKER_VIEWS_REPLICA_URL", ""),
        # How long a read asking ?min_position= waits for the replica's views before it reads the primary's.
        REPLICA_WAIT_SECONDS=float(os.environ.get("TRACKER_REPLICA_WAIT_SECONDS", "0.5")),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        IMPORT_MAX_BYTES=int(os.environ.get("TRACKER_IMPORT_MAX_BYTES", IMPORT_MAX_BYTES)),
        API_TITLE="campaign-tracker",
        API_VERSION="1",
        # 3.1: the rulesets' own JSON Schemas (const, if/then, propertyNames) go into the document as they are.
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        JSON_SORT_KEYS=False,
        # Every operation needs a token unless api/contract.py marks it public.
        API_SPEC_OPTIONS={"security": [{contract.BEARER: []}]},
    )
    if test_config:
        app.config.update(test_config)
    app.json.sort_keys = False

    service = bootstrap(
        replace(settings, database_url=app.config["DATABASE_URL"], create_tables=app.config["CREATE_TABLES"],
                projections_in_process=app.config["PROJECTIONS_IN_PROCESS"])
    )
    runner = service.runner
    app.extensions["tracker_service"] = service
    app.extensions["tracker"] = service.tracker
    app.extensions["tracker_views"] = runner
    replica = _replica_views(service.tracker, app.config["VIEWS_REPLICA_URL"]) if app.config["VIEWS_REPLICA_URL"] else None
    if replica is not None:
        app.extensions["tracker_views_replica"] = replica
    in_worker = replace(settings, database_url=app.config["DATABASE_URL"], create_tables=False, projections_in_process=False)
    router = _shard_router(app.config["DATABASE_URL"], Shard(HOME, app.config["DATABASE_URL"], service.tracker, runner, replica), in_worker)
    if router is not None:
        app.extensions["tracker_router"] = router
    app.extensions["tracker_import_slot"] = threading.Lock()  # one import at a time in this process
    app.extensions["tracker_stream_slots"] = stream_slots.StreamSlots(app.config["STREAMS_PER_WORKER"])
    app.extensions["tracker_rate_limit"] = access.parse_rate_limit(app.config["RATE_LIMIT"])
    if app.config["PROJECTIONS_IN_PROCESS"]:
        if router is None:
            thread, stop = runner.start_in_thread()
            atexit.register(stop.set)
            app.extensions["tracker_projection_threads"] = [(thread, stop)]
        else:
            # A runner per shard, each writing its views beside that shard's events; a shard added while this
            # process runs gets its runner within a few seconds (projections/every_shard.py).
            stop = threading.Event()
            atexit.register(stop.set)
            every = EveryShard(lambda: {shard.name: shard.views for shard in router.every_shard()}, stop)
            every.watch()
            app.extensions["tracker_projection_shards"] = every
            app.extensions["tracker_projection_threads"] = [(thread, stop) for thread in every.threads.values()]
        app.extensions["tracker_projection_thread"] = app.extensions["tracker_projection_threads"][0]

    api = TrackerApi(app, spec_kwargs={"extra_plugins": [contract.ContractPlugin()]})

    blueprints = (rulesets.blp, campaigns.blp, heroes.blp, sessions.blp, health.blp, descent.blp, feed.blp, verifier.blp, keys.blp)
    for blueprint in blueprints:
        api.register_blueprint(blueprint)

    app.register_blueprint(pages)
    access.declare_framework_routes(app)

    if app.config["TRUSTED_PROXIES"] > 0:
        # Behind a TLS proxy the request arrives as plain HTTP; the proxy's X-Forwarded-Proto makes the
        # sign-in cookie Secure and the pages' origin check see the public address. Only the proxies'
        # own headers count: a client's forged ones are ignored without this setting.
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)  # type: ignore[method-assign]
    app.wsgi_app = chunked_bodies.ChunkedBodies(app.wsgi_app, lambda environ: _body_limit(app, environ))  # type: ignore[method-assign]
    app.before_request(assign_correlation_id)
    app.before_request(_while_the_database_is_down)
    app.before_request(_require_json_body)
    app.before_request(_refuse_unsafe_json)
    app.before_request(query.refuse_unknown)  # every route, pages too: an unknown query parameter is a 422
    app.before_request(sharding.route_to_shard)
    app.before_request(access.authorize)
    app.after_request(echo_correlation_id)
    app.after_request(name_views_source)
    app.teardown_request(sharding.release_fence)
    app.register_error_handler(TrackerError, problems.from_tracker_error)
    app.register_error_handler(Exception, _unexpected)
    if settings.warm_at_boot:
        warming.warm(app)
    return app


def _shard_router(url: str, home: Shard, settings: Settings) -> Router | None:
    """Routing by placement, when the home database has the shard tables (`tracker shards add` makes them)."""
    if not placement.is_postgres(url) or not placement.enabled(url):
        return None
    shards = Placement(url)
    if home.replica is None and HOME in (replicas := shards.replicas()):  # `tracker shards replica home URL`
        home.replica = _replica_views(home.tracker, replicas[HOME])

    def open_shard(name: str, where: str, replica_url: str | None = None) -> Shard:
        """A shard's service (tracker/bootstrap.py) on its database, and the views on its replica, as this worker uses them."""
        service = bootstrap(replace(settings, database_url=where))
        replica = _replica_views(service.tracker, replica_url) if replica_url else None
        return Shard(name, where, service.tracker, service.runner, replica)

    return Router(shards, open_shard, home)


def _replica_views(tracker: Any, url: str) -> ProjectionRunner:
    """Views read from a streaming replica: never written, so its tables are not created (a standby is read-only)."""
    return ProjectionRunner(tracker, open_view_store(persistence_env(url, create_tables=False)))


def _body_limit(app: Flask, environ: dict[str, Any]) -> int:
    if environ.get("PATH_INFO") == IMPORT_PATH and environ.get("REQUEST_METHOD") == "POST":
        return app.config["IMPORT_MAX_BYTES"]
    return app.config["MAX_CONTENT_LENGTH"]


# Bodies that are not JSON documents but JSON Lines: a campaign export sent to POST /campaigns/import.
JSON_LINES = ("application/x-ndjson", "application/jsonl", "application/json-lines")


def _require_json_body():
    if request.blueprint == "pages":
        return None  # the pages' forms post form fields
    if request.mimetype in JSON_LINES and request.path == IMPORT_PATH:
        return None
    if request.method in ("POST", "PUT", "PATCH") and request.content_length and not request.is_json:
        return problems.problem(
            415,
            "Send the body as JSON",
            f"Set Content-Type: application/json (got {request.mimetype or 'none'}).",
        )
    return None


def _refuse_unsafe_json():
    """Bodies that would crash a parser or a store further in are refused before anything reads them."""
    if request.method in ("GET", "HEAD") or not request.is_json:
        return None
    try:
        json_body.decoded()
    except safe_json.UnsafeJson as error:
        return problems.problem(422, error.title, "Nothing was recorded; change the document and send it again.")
    except ValueError:
        return None  # not JSON at all: the view's parser answers 400 and says so
    return None


def _unexpected(error: Exception):
    if isinstance(error, HTTPException):
        return problems.from_http_exception(error)
    if _is_database_outage(error):
        log.warning("database unavailable: %s", error)
        current_app.extensions["tracker_database_down_until"] = time.monotonic() + OUTAGE_BACKOFF_SECONDS
        return _unavailable()
    log.exception("unexpected error")
    return problems.problem(500, "The server failed; the request was not applied", "An unexpected error; nothing was recorded for this request.")


OUTAGE_BACKOFF_SECONDS = 2.0


def _unavailable():
    return problems.problem(
        503, "The database is unavailable; retry shortly", "Nothing was recorded for this request.",
        headers={"Retry-After": str(int(OUTAGE_BACKOFF_SECONDS))},
    )


def _while_the_database_is_down():
    """Once a request found the database down, answer 503 at once for a moment instead of making
    every client wait through the driver's retries; the first request after that probes again."""
    if request.endpoint in contract.FROM_MEMORY:
        return None  # served from memory
    until = current_app.extensions.get("tracker_database_down_until", 0.0)
    if time.monotonic() < until:
        return _unavailable()
    return None


def _is_database_outage(error: Exception) -> bool:
    """Lost connections and pool time-outs: the request failed before anything was committed."""
    import psycopg
    from eventsourcing.persistence import InterfaceError, OperationalError

    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # pragma: no cover
        PoolTimeout = ()  # type: ignore[assignment]
    return isinstance(error, (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout))
