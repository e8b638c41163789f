"""The REST API: create_app() serves what tracker/bootstrap.py wired (the application, its views, the shards) with the routes."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from typing import Any

from flask import Flask, current_app
from flask.globals import _cv_app, _cv_request  # Flask's own context variables: one look-up where a proxy makes four
from flask_smorest import Api
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from api import access, chunked_bodies, contract, cors, json_body, metrics, problems, query, rate_limit, request_log, sharding, stream_slots, warming
from api.flask_app import TrackerFlask
from api.context import assign_correlation_id, echo_correlation_id, name_views_source
from api.pages import bp as pages
from api.routes import campaigns, descent, feed, health, heroes, keys, rulesets, sessions, verifier
from api.routes import metrics as metrics_route, ready
from tracker.core import safe_json
from tracker.bootstrap import Served, Settings, wire
from tracker.core.errors import TrackerError

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1024 * 1024  # 1 MB: larger request bodies get 413
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


# The Flask settings that are the service's (tracker/settings.py): each a field of Settings, shown under this name in
# app.config for the views to read, where a test's ``test_config`` may give it another value before anything is built.
FROM_SETTINGS = {
    "DATABASE_URL": "database_url",
    "CREATE_TABLES": "create_tables",
    "PROJECTIONS_IN_PROCESS": "projections_in_process",
    "RATE_LIMIT": "rate_limit",
    "TRUSTED_PROXIES": "trusted_proxies",
    "STREAMS_PER_WORKER": "streams_per_worker",
    "STREAM_HEARTBEAT_SECONDS": "stream_heartbeat_seconds",
    "VIEWS_STALL_SECONDS": "views_stall_seconds",
    "VIEWS_WAIT_SECONDS": "views_wait_seconds",
    "VIEWS_REPLICA_URL": "views_replica_url",
    "REPLICA_WAIT_SECONDS": "replica_wait_seconds",
    "IMPORT_MAX_BYTES": "import_max_bytes",
    "METRICS_DIR": "metrics_dir",
    "METRICS_TOKEN": "metrics_token",
    "READY_MAX_LAG": "ready_max_lag",
    "CROSS_ORIGINS": "cors_origins",  # not CORS_ORIGINS: flask-cors reads that key itself
}


def create_app(test_config: dict[str, Any] | None = None, *, settings: Settings | None = None, served: Served | None = None) -> Flask:
    """The REST API and its pages over what tracker/bootstrap.py wires (``served``; by default wired from ``settings``,
    which are by default read from the environment, tracker/settings.py). ``test_config`` overrides Flask settings,
    those of FROM_SETTINGS (DATABASE_URL, CREATE_TABLES, RATE_LIMIT...) included, before anything is wired."""
    if served is None:
        settings = settings or Settings.from_environment()
        overridden = {FROM_SETTINGS[key]: value for key, value in (test_config or {}).items() if key in FROM_SETTINGS}
        served = wire(replace(settings, **overridden))
    settings = served.settings
    app = TrackerFlask(__name__)
    app.config.from_mapping(
        **{key: getattr(settings, name) for key, name in FROM_SETTINGS.items()},
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
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

    service = served.service
    app.extensions["tracker_service"] = service
    app.extensions["tracker"] = service.tracker
    app.extensions["tracker_views"] = service.runner
    if served.replica is not None:
        app.extensions["tracker_views_replica"] = served.replica
    if served.router is not None:
        app.extensions["tracker_router"] = served.router
    app.extensions["tracker_import_slot"] = threading.Lock()  # one import at a time in this process
    app.extensions["tracker_stream_slots"] = stream_slots.StreamSlots(settings.streams_per_worker)
    app.extensions["tracker_rate_limit"] = served.rate_limit
    if served.every_shard is not None:
        app.extensions["tracker_projection_shards"] = served.every_shard
    if settings.projections_in_process:
        app.extensions["tracker_projection_threads"] = served.projection_threads
        app.extensions["tracker_projection_thread"] = served.projection_threads[0]

    api = TrackerApi(app, spec_kwargs={"extra_plugins": [contract.ContractPlugin()]})

    blueprints = (rulesets.blp, campaigns.blp, heroes.blp, sessions.blp, health.blp, descent.blp, feed.blp, verifier.blp, keys.blp,
                  metrics_route.blp, ready.blp)
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
    metrics.install(app)  # first and last around every request: its latency is the whole of it
    request_log.install(app, settings.log_format)  # TRACKER_LOG_FORMAT=json: a JSON line per request
    cors.install(app, app.config["CROSS_ORIGINS"])  # a browser's preflight, answered before any check reads it
    app.before_request(_before_the_view)
    rate_limit.install(app, served.rate_limit)  # after the access check, whose grant names the token
    app.after_request(_after_the_view)
    app.teardown_request(sharding.release_fence)  # a request that ended without a response (none left by then otherwise)
    app.register_error_handler(TrackerError, problems.from_tracker_error)
    app.register_error_handler(Exception, _unexpected)
    if settings.warm_at_boot:
        ready.expect_warm_up(app)  # GET /ready: not ready until the warm-up is done
        warming.warm(app)
    return app


def _before_the_view():
    """Every request's checks before its view (BEFORE_THE_VIEW, in order); the first that answers is the answer. One
    hook where there were seven: Flask dispatches one function, and the request is looked up once for all of them."""
    req = _cv_request.get().request
    for check in BEFORE_THE_VIEW:
        answer = check(req)
        if answer is not None:
            return answer
    return None


def _after_the_view(response):
    """The write's move lock released (api/sharding.py), then every answer's own headers (that answer's, or the 503
    the release gave): one hook where there were three, run in their order."""
    return echo_correlation_id(name_views_source(_release_fence(response)))


def _body_limit(app: Flask, environ: dict[str, Any]) -> int:
    if environ.get("PATH_INFO") == IMPORT_PATH and environ.get("REQUEST_METHOD") == "POST":
        return app.config["IMPORT_MAX_BYTES"]
    return app.config["MAX_CONTENT_LENGTH"]


# Bodies that are not JSON documents but JSON Lines: a campaign export sent to POST /campaigns/import.
JSON_LINES = ("application/x-ndjson", "application/jsonl", "application/json-lines")


def _check_the_body(req: Any):
    """A write's body is JSON (415 otherwise), and JSON no parser or store further in would choke on (422): refused
    before anything reads it. Whether it is JSON is asked once for both."""
    method = req.method
    if method in ("GET", "HEAD"):
        return None
    if req.is_json:
        return _refuse_unsafe_json()
    if method not in ("POST", "PUT", "PATCH"):
        return None  # (the 415 answers no other method)
    if req.blueprint == "pages":
        return None  # the pages' forms post form fields
    if req.mimetype in JSON_LINES and req.path == IMPORT_PATH:
        return None
    if req.content_length:
        return problems.problem(
            415,
            "Send the body as JSON",
            f"Set Content-Type: application/json (got {req.mimetype or 'none'}).",
        )
    return None


def _refuse_unsafe_json():
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
    # Not "nothing was recorded": a commit the server made just before the connection was lost (a failover) is stored
    # though its answer never came; the Idempotency-Key is how the client finds out without writing twice.
    return problems.problem(
        503, "The database is unavailable; retry shortly",
        "Retry with the same Idempotency-Key: a request recorded before the connection was lost is answered as it was, never made twice.",
        headers={"Retry-After": str(int(OUTAGE_BACKOFF_SECONDS))},
    )


def _release_fence(response):
    """A write's move lock goes once it is answered (api/sharding.py). Releasing it commits on the home database: if
    that server was lost meanwhile (a failover), the lock did not hold to the end, so the write is not acknowledged
    but answered 503, and the client's retry with its Idempotency-Key gets the stored answer."""
    try:
        sharding.release_fence()
    except Exception as error:
        if not _is_database_outage(error):
            raise
        log.warning("the home database was lost while a write held its move lock: %s", error)
        current_app.extensions["tracker_database_down_until"] = time.monotonic() + OUTAGE_BACKOFF_SECONDS
        return _unavailable()
    return response


def _while_the_database_is_down(req: Any):
    """Once a request found the database down, answer 503 at once for a moment instead of making
    every client wait through the driver's retries; the first request after that probes again."""
    if req.endpoint in contract.FROM_MEMORY:
        return None  # served from memory
    until = _cv_app.get().app.extensions.get("tracker_database_down_until", 0.0)
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


# Every request's checks before its view, each given the request, in this order (api/cors.py's preflight answer and the
# metrics' clock come before them, the write limit after: api/rate_limit.py needs the grant the access check found).
BEFORE_THE_VIEW = (
    assign_correlation_id,
    _while_the_database_is_down,
    _check_the_body,
    query.refuse_unknown,  # every route, pages too: an unknown query parameter is a 422
    sharding.route_to_shard,
    access.authorize,
)
