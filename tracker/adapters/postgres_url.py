"""A PostgreSQL DATABASE_URL read once: what libpq takes, and the few settings of this service's own.

A high-availability formation (pg_auto_failover, README "Failover") is reached with one URL naming every
node, as libpq understands it: ``postgresql://user@a:5432,b:5432/db?target_session_attrs=read-write``, or the
key/value form ``host=a,b port=5432,5432 dbname=db target_session_attrs=read-write``. libpq tries the hosts in
turn and keeps the one that accepts writes, so after a failover a new connection finds the promoted server by
itself. The service's own settings ride on the URL's query (``schema``, ``pool_size``, ``max_overflow``) and are
taken off before libpq sees it, since libpq refuses a parameter it does not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from psycopg.conninfo import conninfo_to_dict, make_conninfo

SCHEMES = ("postgres", "postgresql", "postgresql+psycopg")
OURS = ("schema", "pool_size", "max_overflow")  # settings of this service, not libpq's


@dataclass(frozen=True)
class PostgresURL:
    libpq: dict[str, str]  # host (comma-separated for several), port, dbname, user, password and any other libpq keyword
    ours: dict[str, str] = field(default_factory=dict)

    @property
    def hosts(self) -> list[str]:
        """Each node as host:port, in the order libpq tries them."""
        hosts = (self.libpq.get("host") or "127.0.0.1").split(",")
        ports = (self.libpq.get("port") or "5432").split(",")
        ports = ports * len(hosts) if len(ports) == 1 else ports
        return [f"{h}:{p}" for h, p in zip(hosts, ports)]

    @property
    def conninfo(self) -> str:
        """What psycopg.connect takes."""
        return make_conninfo(**self.libpq)

    def extra(self) -> str:
        """The libpq keywords beyond the five the eventsourcing library passes itself (target_session_attrs, ...), as
        one conninfo string; empty when there are none."""
        return make_conninfo(**{k: v for k, v in self.libpq.items() if k not in ("host", "port", "dbname", "user", "password")})

    def describe(self) -> str:
        """Where the data lives, without the password."""
        return f"postgresql://{self.libpq.get('user') or 'postgres'}@{','.join(self.hosts)}/{self.libpq.get('dbname') or 'postgres'}"


def is_postgres(url: str) -> bool:
    """A postgresql:// URL, or a libpq key/value string (``host=... dbname=...``)."""
    return urlsplit(url).scheme in SCHEMES or ("://" not in url and "=" in url)


def parse(url: str) -> PostgresURL:
    """The URL's libpq part and this service's settings; ValueError for anything libpq would not take."""
    if "://" not in url and "=" in url:
        return PostgresURL(_libpq(url))
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise ValueError(f"A PostgreSQL database is a postgresql:// URL, not {parts.scheme or url!r}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    ours = {k: v for k, v in query if k in OURS}
    theirs = urlencode([(k, v) for k, v in query if k not in OURS])
    return PostgresURL(_libpq(urlunsplit(parts._replace(scheme="postgresql", query=theirs))), ours)


def _libpq(conninfo: str) -> dict[str, str]:
    try:
        return {k: str(v) for k, v in conninfo_to_dict(conninfo).items() if v is not None}
    except Exception as error:  # psycopg.ProgrammingError: libpq's own words for what it could not read
        raise ValueError(f"This PostgreSQL URL cannot be read: {str(error).strip()}") from None
