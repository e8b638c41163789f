"""Every setting the service takes from its environment, read here and nowhere else.

An operator sets these (Procfile, README's "Running it"); everything below the entrypoints is handed the
values, never the environment: `Settings.from_environment` for the service (tracker/bootstrap.py builds it,
api/__init__.py's `create_app` serves it), `ServerSettings.from_environment` for gunicorn (gunicorn.conf.py,
`tracker serve`), `move_settings` for `tracker shards move`, and `process_environment` for a child process
started with the whole environment (the front's gunicorn, api/front/launcher.py). What a test or a bench wants
different is a field of these, never an environment variable flipped on the way (tests/test_settings.py).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from tracker.core.randomness import new_seed

DEFAULT_SQLITE_PATH = Path("var") / "tracker.sqlite3"
IMPORT_MAX_BYTES = 64 * 1024 * 1024  # an export of a long campaign can exceed the 1 MB that other requests may send
GUNICORN_THREADS = 4
LEASE_SECONDS = 30.0  # a dead mover holds its campaign's writes back this long at most (tracker/sharding/moving.py)
PAUSE_STEPS = ("before-copy", "during-copy", "before-flip")  # before the export; in the import, its write not committed; before the flip


def _environment(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def database_url(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``explicit`` (a --database-url), else DATABASE_URL, else the SQLite file under var/."""
    return explicit or _environment(environ).get("DATABASE_URL") or f"sqlite:///{DEFAULT_SQLITE_PATH}"


def public_url(environ: Mapping[str, str] | None = None) -> str | None:
    """TRACKER_PUBLIC_URL: where this service is reached, named in exports made outside a request."""
    return _environment(environ).get("TRACKER_PUBLIC_URL") or None


METRICS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"  # prometheus-client's own name for it: the library reads it too


def metrics_directory(environ: Mapping[str, str] | None = None) -> tuple[str, bool]:
    """Where gunicorn's workers keep their counters (api/metrics.py): PROMETHEUS_MULTIPROC_DIR, else a new temporary
    directory, named in this process's environment for the workers it forks (prometheus-client reads the variable
    itself, when a worker first imports it). Also whether it was made here (and so is removed at the server's exit)."""
    env = os.environ if environ is None else environ
    given = env.get(METRICS_DIR_VARIABLE)
    if given:
        Path(given).mkdir(parents=True, exist_ok=True)
        return given, False
    made = tempfile.mkdtemp(prefix="tracker-metrics-")
    if environ is None:
        os.environ[METRICS_DIR_VARIABLE] = made
    return made, True


LOG_FORMATS = ("text", "json")


def log_format(environ: Mapping[str, str] | None = None) -> str:
    """TRACKER_LOG_FORMAT: text (the default) or json; ValueError, worded for the operator, for anything else."""
    chosen = (_environment(environ).get("TRACKER_LOG_FORMAT") or "text").strip().lower()
    if chosen not in LOG_FORMATS:
        raise ValueError(f"TRACKER_LOG_FORMAT is text or json, not {chosen!r}")
    return chosen


def process_environment() -> dict[str, str]:
    """The process's whole environment, for a child process started with it (the front's gunicorn)."""
    return dict(os.environ)


@dataclass(frozen=True)
class Settings:
    """How to build the service and serve it. ``create_tables``: False in gunicorn's workers, whose master made
    them (workers replacing the same PostgreSQL functions at once fail with "tuple concurrently updated").
    ``seed_source`` makes each new session's secret seed (tracker/core/randomness.py; the bench fixes them);
    ``clock`` is the time events record (None: the time now). The HTTP fields are the REST API's
    (api/__init__.py puts each in the Flask config under its upper-case name, where a test may override it)."""

    database_url: str
    create_tables: bool = True
    projections_in_process: bool = False
    seed_source: Callable[[], bytes] = new_seed
    clock: Callable[[], datetime] | None = None
    batch_size: int = 500  # notifications per projection batch
    warm_at_boot: bool = False  # a server's worker: pay the first request's one-time costs before serving (api/warming.py)
    signing_keys: str | None = None  # the signing key file (tracker/integrity/signing.py); None: var/signing-keys.json
    trusted_jwks: tuple[str, ...] = ()  # key sets of other servers an import trusts (tracker/integrity/signing.py)
    public_url: str | None = None  # the service's public address, named in exports made outside a request (the CLI)
    # -- the REST API --
    rate_limit: str = ""  # '30/10': writes per seconds per token (api/rate_limit.py); empty or 'off': none
    redis_url: str = ""  # REDIS_URL: where the write limits count, across workers and servers (tracker/adapters/rate_limits.py)
    # How many proxies in front of the service set X-Forwarded-For/-Proto/-Host/-Port; 0 ignores those headers.
    trusted_proxies: int = 0
    # Event streams one worker holds open at once; each holds a thread (api/stream_slots.py): half its threads.
    streams_per_worker: int = max(1, GUNICORN_THREADS // 2)
    # An idle event stream sends a comment this often: how soon a worker finds a client gone and frees its slot
    # (and how often a proxy in between sees traffic on the connection).
    stream_heartbeat_seconds: float = 15.0
    views_stall_seconds: float = 60.0  # /health answers 503 once the views have failed to move on for this long
    views_wait_seconds: float = 2.0  # how long a read with ?min_position= waits for the views before its 503
    # A streaming replica of the database the views may be read from (with shards: `tracker shards replica`).
    views_replica_url: str = ""
    replica_wait_seconds: float = 0.5  # how long a ?min_position= read waits for the replica before the primary
    import_max_bytes: int = IMPORT_MAX_BYTES
    # -- operating it (README's "Operating") --
    # PROMETHEUS_MULTIPROC_DIR: where each worker keeps its counters for GET /metrics to add up (api/metrics.py);
    # gunicorn.conf.py makes a temporary one when it is not set. None: one process, its own counts.
    metrics_dir: str | None = None
    metrics_token: str = ""  # TRACKER_METRICS_TOKEN: GET /metrics wants it as a bearer token; empty: /metrics is public
    log_format: str = "text"  # TRACKER_LOG_FORMAT: "json", one JSON object a line and one per request (api/request_log.py)
    cors_origins: str = ""  # TRACKER_CORS_ORIGINS: browser origins allowed to call the API, comma-separated (api/cors.py)
    ready_max_lag: int = 100  # TRACKER_READY_MAX_LAG: GET /ready answers 503 while the views are more events behind than this

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """DATABASE_URL and the TRACKER_ variables, as an operator sets them (Procfile, README)."""
        env = _environment(environ)
        threads = int(env.get("GUNICORN_THREADS") or GUNICORN_THREADS)
        found = cls(
            database_url=database_url(environ=env),
            projections_in_process=env.get("TRACKER_PROJECTIONS_IN_PROCESS", "") == "1",
            signing_keys=env.get("TRACKER_SIGNING_KEYS") or None,
            trusted_jwks=tuple(filter(None, env.get("TRACKER_TRUSTED_JWKS", "").split(os.pathsep))),
            public_url=public_url(env),
            rate_limit=env.get("TRACKER_RATE_LIMIT", ""),
            redis_url=env.get("REDIS_URL", ""),
            trusted_proxies=int(env.get("TRACKER_TRUSTED_PROXIES", "0") or 0),
            streams_per_worker=int(env.get("TRACKER_STREAMS_PER_WORKER", max(1, threads // 2))),
            stream_heartbeat_seconds=float(env.get("TRACKER_STREAM_HEARTBEAT_SECONDS", "15")),
            views_stall_seconds=float(env.get("TRACKER_VIEWS_STALL_SECONDS", "60")),
            views_wait_seconds=float(env.get("TRACKER_VIEWS_WAIT_SECONDS", "2")),
            views_replica_url=env.get("TRACKER_VIEWS_REPLICA_URL", ""),
            replica_wait_seconds=float(env.get("TRACKER_REPLICA_WAIT_SECONDS", "0.5")),
            import_max_bytes=int(env.get("TRACKER_IMPORT_MAX_BYTES") or IMPORT_MAX_BYTES),
            metrics_dir=env.get(METRICS_DIR_VARIABLE) or None,
            metrics_token=env.get("TRACKER_METRICS_TOKEN", ""),
            log_format=log_format(env),
            ready_max_lag=int(env.get("TRACKER_READY_MAX_LAG") or 100),
            cors_origins=env.get("TRACKER_CORS_ORIGINS", ""),
        )
        return replace(found, **overrides)


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass(frozen=True)
class ServerSettings:
    """gunicorn's: where it listens (BIND, else 127.0.0.1:PORT), its workers (WEB_CONCURRENCY, else one per core),
    each worker's threads (GUNICORN_THREADS) and its access log (GUNICORN_ACCESS_LOG)."""

    bind: str = "127.0.0.1:8000"
    workers: int = 1
    threads: int = GUNICORN_THREADS
    access_log: str | None = None
    nginx: str | None = None  # TRACKER_NGINX: the nginx `tracker front` runs (else the one on PATH)
    log_format: str = "text"  # TRACKER_LOG_FORMAT: "json" makes gunicorn's own lines JSON too (gunicorn.conf.py)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> ServerSettings:
        env = _environment(environ)
        return cls(
            bind=env.get("BIND") or f"127.0.0.1:{env.get('PORT') or '8000'}",
            workers=int(env.get("WEB_CONCURRENCY") or _cores()),
            threads=int(env.get("GUNICORN_THREADS") or GUNICORN_THREADS),
            access_log=env.get("GUNICORN_ACCESS_LOG") or None,
            nginx=env.get("TRACKER_NGINX") or None,
            log_format=log_format(env),
        )


@dataclass(frozen=True)
class MoveSettings:
    """A campaign's move between shards (tracker/sharding/moving.py): its lease, and where a test pauses it."""

    lease_seconds: float = LEASE_SECONDS
    pause_at: str | None = None
    pause_file: str | None = None


def move_settings(environ: Mapping[str, str] | None = None) -> MoveSettings:
    """TRACKER_MOVE_LEASE_SECONDS, TRACKER_MOVE_PAUSE_AT and TRACKER_MOVE_PAUSE_FILE (tracker/sharding/moving.py); ValueError,
    worded for the operator, for a value that cannot be used."""
    env = _environment(environ)
    raw = env.get("TRACKER_MOVE_LEASE_SECONDS", "").strip()
    try:
        seconds = float(raw) if raw else LEASE_SECONDS
    except ValueError:
        raise ValueError(f"TRACKER_MOVE_LEASE_SECONDS must be a number of seconds, not {raw!r}") from None
    if not 0.3 <= seconds <= 3600:
        raise ValueError(f"TRACKER_MOVE_LEASE_SECONDS must be between 0.3 and 3600 seconds, not {raw}")
    pause_at = env.get("TRACKER_MOVE_PAUSE_AT", "").strip() or None
    pause_file = env.get("TRACKER_MOVE_PAUSE_FILE", "").strip() or None
    if pause_at is not None and pause_at not in PAUSE_STEPS:
        raise ValueError(f"TRACKER_MOVE_PAUSE_AT names a step: one of {', '.join(PAUSE_STEPS)}, not {pause_at!r}")
    if pause_at is not None and pause_file is None:
        raise ValueError("TRACKER_MOVE_PAUSE_AT needs TRACKER_MOVE_PAUSE_FILE: the file the mover waits on")
    return MoveSettings(seconds, pause_at, pause_file)
