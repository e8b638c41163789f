"""Where the event store lives: a DATABASE_URL (tracker/settings.py reads it) turned into the eventsourcing library's settings."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

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
            "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "30",
        }
    if parts.scheme in ("postgres", "postgresql", "postgresql+psycopg"):
        query = parse_qs(parts.query)
        env = {
            **CACHE,
            "CREATE_TABLE": "y" if create_tables else "n",
            "PERSISTENCE_MODULE": "tracker.adapters.postgres:FailFastPostgresFactory",
            "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or "postgres",
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
            "POSTGRES_POOL_SIZE": query.get("pool_size", ["5"])[0],
            "POSTGRES_MAX_OVERFLOW": query.get("max_overflow", ["10"])[0],
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
            env["POSTGRES_SCHEMA"] = query["schema"][0]
        return env
    raise ValueError(f"Unsupported DATABASE_URL scheme '{parts.scheme}': use sqlite:/// or postgresql://")


def describe(url: str) -> str:
    """Where the data lives, without the password."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        return str(Path(persistence_env(url)["SQLITE_DBNAME"]).resolve())
    host = parts.hostname or "127.0.0.1"
    return f"postgresql://{parts.username or 'postgres'}@{host}:{parts.port or 5432}{parts.path}"
