"""The one place the service is wired: settings in; the application, its view store and the runner out.

Every entrypoint builds through here: `create_app` (api/__init__.py) for the REST API and its pages,
api/wsgi.py and gunicorn.conf.py under gunicorn, the `tracker` command line, and the bench. What a
test or a bench wants different (a fixed seed source, no table creation) is a setting, never an
environment variable flipped on the way.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from gunicorn.app.base import Application as GunicornApplication

from projections.every_shard import SHARD_WATCH_SECONDS, EveryShard
from projections.runner import REBUILD_BATCH_SIZE, ProjectionRunner
from projections.store import ViewStore, open_view_store
from tracker.application import Tracker
from tracker.config import database_url, persistence_env
from tracker.randomness import new_seed
from tracker.signing import KeyRing

ROOT = Path(__file__).resolve().parents[1]
GUNICORN_CONF = ROOT / "gunicorn.conf.py"

__all__ = ["GUNICORN_CONF", "REBUILD_BATCH_SIZE", "EveryShard", "SHARD_WATCH_SECONDS", "Service", "Settings", "bootstrap", "create_tables", "serve"]


@dataclass(frozen=True)
class Settings:
    """How to build the service. ``create_tables``: False in gunicorn's workers, whose master made them
    (workers replacing the same PostgreSQL functions at once fail with "tuple concurrently updated").
    ``seed_source`` makes each new session's secret seed (tracker/randomness.py; the bench fixes them);
    ``clock`` is the time events record (None: the time now)."""

    database_url: str
    create_tables: bool = True
    projections_in_process: bool = False
    seed_source: Callable[[], bytes] = new_seed
    clock: Callable[[], datetime] | None = None
    batch_size: int = 500  # notifications per projection batch
    warm_at_boot: bool = False  # a server's worker: pay the first request's one-time costs before serving (api/warming.py)
    signing_keys: str | None = None  # the signing key file (tracker/signing.py); None: TRACKER_SIGNING_KEYS, else var/signing-keys.json
    public_url: str | None = None  # the service's public address, named in exports made outside a request (the CLI)

    @classmethod
    def from_environment(cls, **overrides: Any) -> Settings:
        """DATABASE_URL and TRACKER_PROJECTIONS_IN_PROCESS, as an operator sets them (Procfile, README)."""
        found = cls(
            database_url=database_url(),
            projections_in_process=os.environ.get("TRACKER_PROJECTIONS_IN_PROCESS", "") == "1",
            signing_keys=os.environ.get("TRACKER_SIGNING_KEYS") or None,
            public_url=os.environ.get("TRACKER_PUBLIC_URL") or None,
        )
        return replace(found, **overrides)


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
                      signing=KeyRing(settings.signing_keys), public_url=settings.public_url)
    store = open_view_store(env)
    return Service(tracker, store, ProjectionRunner(tracker, store, batch_size=settings.batch_size))


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
    in_worker = replace(settings, create_tables=False, warm_at_boot=True)
    _Gunicorn({**options, "on_starting": lambda server: None}, lambda: build_app(in_worker)).run()
