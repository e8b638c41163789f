"""Where the event store lives: a DATABASE_URL (tracker/settings.py reads it) turned into the eventsourcing library's settings."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from tracker.adapters import postgres_url, sqlite

# The libpq keywords of a DATABASE_URL beyond host, port, dbname, user and password, as one conninfo string.
LIBPQ_EXTRA = "TRACKER_POSTGRES_LIBPQ"

# Aggregates stay cached between commands; each get still reads any newer events
# first (fast-forward), so several processes stay consistent, and hands out a copy.
CACHE = {"AGGREGATE_CACHE_MAXSIZE": "1000", "AGGREGATE_CACHE_FASTFORWARD": "y"}


def persistence_env(url: str, create_tables: bool = True) -> dict[str, str]:
    """Settings for eventsourcing's SQLite or PostgreSQL persistence module.

    ``create_tables``: False where another process made them (gunicorn's master, tracker/bootstrap.py).

    ``sqlite:///relative/path`` and ``sqlite:////absolute/path`` select SQLite;
    ``postgresql://user:password@host:port/dbname?schema=name`` selects PostgreSQL.
    """
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
        if not path:
            raise ValueError("A SQLite DATABASE_URL needs a file path, e.g. sqlite:///var/tracker.sqlite3")
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return {
            **CACHE,
            "CREATE_TABLE": "y" if create_tables else "n",
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            # The library's recorder, its insert called without its context-manager layers (tracker/adapters/sqlite.py).
            "APPLICATION_RECORDER_TOPIC": sqlite.TOPIC,
            "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "30",
        }
    if postgres_url.is_postgres(url):
        given = postgres_url.parse(url)
        query, libpq = given.ours, given.libpq
        env = {
            **CACHE,
            "CREATE_TABLE": "y" if create_tables else "n",
            "PERSISTENCE_MODULE": "tracker.adapters.postgres:FailFastPostgresFactory",
            "POSTGRES_DBNAME": libpq.get("dbname") or "postgres",
            # Several nodes (a failover formation) as libpq lists them: "a,b" and "5432,5432".
            "POSTGRES_HOST": libpq.get("host") or "127.0.0.1",
            "POSTGRES_PORT": libpq.get("port") or "5432",
            "POSTGRES_USER": libpq.get("user") or "postgres",
            "POSTGRES_PASSWORD": libpq.get("password") or "",
            "POSTGRES_POOL_SIZE": query.get("pool_size", "5"),
            "POSTGRES_MAX_OVERFLOW": query.get("max_overflow", "10"),
            "POSTGRES_CONNECT_TIMEOUT": "2",  # how long a request waits for a connection before 503
            # After a database restart pooled connections are dead: check before use, so the
            # service recovers by itself instead of failing on every stale connection.
            "POSTGRES_PRE_PING": "y",
            "POSTGRES_LOCK_TIMEOUT": "10",
            # One statement, so one round trip and one transaction, per command's events: a stored
            # function that keeps the library's table lock (tracker/adapters/postgres.py says why).
            "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
        }
        if "schema" in query:
            env["POSTGRES_SCHEMA"] = query["schema"]
        extra = given.extra()
        if extra:  # target_session_attrs=read-write and the like: the pool's connections take them (adapters/postgres.py)
            env[LIBPQ_EXTRA] = extra
        return env
    raise ValueError(f"Unsupported DATABASE_URL scheme '{parts.scheme}': use sqlite:/// or postgresql://")


def describe(url: str) -> str:
    """Where the data lives, without the password."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        return str(Path(persistence_env(url)["SQLITE_DBNAME"]).resolve())
    return postgres_url.parse(url).describe()
