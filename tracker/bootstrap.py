"""The one place the service is wired: settings in (tracker/settings.py, which alone reads the environment); the
application, its view store and the runner out, and for a server (`wire`) the views' replica, the shards, the
projection threads and the write limits beside them.

Every entrypoint builds through here: `create_app` (api/__init__.py) for the REST API and its pages,
api/wsgi.py and gunicorn.conf.py under gunicorn, the `tracker` command line, and the bench. What a
test or a bench wants different (a fixed seed source, no table creation) is a setting, never an
environment variable flipped on the way.
"""

from __future__ import annotations

import atexit
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gunicorn.app.base import Application as GunicornApplication

from projections.every_shard import SHARD_WATCH_SECONDS, EveryShard
from projections.runner import REBUILD_BATCH_SIZE, ProjectionRunner
from projections.store import ViewStore, open_view_store
from tracker.sharding import placement
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.sharding.placement import HOME, Placement
from tracker.adapters.rate_limits import WriteLimit, parse_rate_limit
from tracker.settings import Settings, metrics_directory
from tracker.sharding.shards import Router, Shard
from tracker.integrity.signing import KeyRing

ROOT = Path(__file__).resolve().parents[1]
GUNICORN_CONF = ROOT / "gunicorn.conf.py"

__all__ = ["GUNICORN_CONF", "REBUILD_BATCH_SIZE", "EveryShard", "SHARD_WATCH_SECONDS", "Served", "Service", "Settings", "bootstrap",
           "create_tables", "serve", "wire"]


@dataclass
class Service:
    """What the entrypoints use: the application (commands and queries) and the views kept beside it."""

    tracker: Tracker
    store: ViewStore
    runner: ProjectionRunner

    def close(self) -> None:
        self.tracker.close()
        self.store.datastore.close()


def bootstrap(settings: Settings) -> Service:
    env = persistence_env(settings.database_url, create_tables=settings.create_tables)
    tracker = Tracker(env=env, seed_source=settings.seed_source, clock=settings.clock,
                      signing=KeyRing(settings.signing_keys, trusted=settings.trusted_jwks), public_url=settings.public_url)
    store = open_view_store(env)
    return Service(tracker, store, ProjectionRunner(tracker, store, batch_size=settings.batch_size))


@dataclass
class Served:
    """What a server's process serves: the service on the home database; the views read from its streaming replica
    (TRACKER_VIEWS_REPLICA_URL); the router to the shards (when the home database places campaigns on shards);
    the projection threads (TRACKER_PROJECTIONS_IN_PROCESS: one runner, or one per shard, watched for new shards);
    and the per-token write limits (TRACKER_RATE_LIMIT)."""

    settings: Settings
    service: Service
    replica: ProjectionRunner | None = None
    router: Router | None = None
    rate_limit: WriteLimit | None = None
    projection_threads: list[tuple[threading.Thread, threading.Event]] = field(default_factory=list)
    every_shard: EveryShard | None = None


def wire(settings: Settings) -> Served:
    """Everything a server's process runs beside its requests, built from ``settings`` alone."""
    service = bootstrap(settings)
    replica = _replica_views(service.tracker, settings.views_replica_url) if settings.views_replica_url else None
    in_worker = replace(settings, create_tables=False, projections_in_process=False)
    home = Shard(HOME, settings.database_url, service.tracker, service.runner, replica)
    served = Served(settings, service, replica, _shard_router(settings.database_url, home, in_worker),
                    parse_rate_limit(settings.rate_limit, settings.database_url, settings.redis_url))
    if settings.projections_in_process:
        if served.router is None:
            thread, stop = service.runner.start_in_thread()
            atexit.register(stop.set)
            served.projection_threads = [(thread, stop)]
        else:
            # A runner per shard, each writing its views beside that shard's events; a shard added while this
            # process runs gets its runner within a few seconds (projections/every_shard.py).
            router = served.router
            stop = threading.Event()
            atexit.register(stop.set)
            every = EveryShard(lambda: {shard.name: shard.views for shard in router.every_shard()}, stop)
            every.watch()
            served.every_shard = every
            served.projection_threads = [(thread, stop) for thread in every.threads.values()]
    return served


def _shard_router(url: str, home: Shard, settings: Settings) -> Router | None:
    """Routing by placement, when the home database has the shard tables (`tracker shards add` makes them)."""
    if not placement.is_postgres(url) or not placement.enabled(url):
        return None
    shards = Placement(url)
    if home.replica is None and HOME in (replicas := shards.replicas()):  # `tracker shards replica home URL`
        home.replica = _replica_views(home.tracker, replicas[HOME])

    def open_shard(name: str, where: str, replica_url: str | None = None) -> Shard:
        """A shard's service on its database, and the views on its replica, as this worker uses them."""
        service = bootstrap(replace(settings, database_url=where))
        replica = _replica_views(service.tracker, replica_url) if replica_url else None
        return Shard(name, where, service.tracker, service.runner, replica)

    return Router(shards, open_shard, home)


def _replica_views(tracker: Tracker, url: str) -> ProjectionRunner:
    """Views read from a streaming replica: never written, so its tables are not created (a standby is read-only)."""
    return ProjectionRunner(tracker, open_view_store(persistence_env(url, create_tables=False)))


def create_tables(settings: Settings) -> None:
    """The event store's and the views' tables, made once (gunicorn's master, before its workers fork)."""
    bootstrap(replace(settings, create_tables=True)).close()


class _Gunicorn(GunicornApplication):
    """gunicorn with gunicorn.conf.py's settings, serving the app ``build`` makes in each worker after the fork."""

    def __init__(self, options: dict[str, Any], build: Callable[[], Any]) -> None:
        self.options = options
        self.build = build
        super().__init__("%(prog)s [OPTIONS]")

    def load_config(self) -> None:
        self.load_config_from_file(str(GUNICORN_CONF))
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        return self.build()


def serve(settings: Settings, build_app: Callable[[Settings], Any], options: dict[str, Any]) -> None:
    """Serve ``build_app(settings)`` (the API's create_app) under gunicorn with gunicorn.conf.py's settings and
    ``options``: the tables made here first, then each worker builds its own app after the fork."""
    create_tables(settings)
    # The workers' counters for GET /metrics (api/metrics.py): the directory named before gunicorn.conf.py is read,
    # so the settings each worker is built with name it too; one made here goes when the server exits.
    metrics_dir, made = (settings.metrics_dir, False) if settings.metrics_dir else metrics_directory()
    for stale in Path(metrics_dir).glob("*.db"):  # a past run's counts would be added to this one's
        stale.unlink()
    in_worker = replace(settings, create_tables=False, warm_at_boot=True, metrics_dir=metrics_dir)
    ending = {"on_exit": lambda server: shutil.rmtree(metrics_dir, ignore_errors=True)} if made else {}
    _Gunicorn({**options, "on_starting": lambda server: None, **ending}, lambda: build_app(in_worker)).run()
