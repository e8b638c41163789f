"""A second PostgreSQL server on this machine for the shard tests: a throwaway cluster in a temporary directory.

initdb and pg_ctl from /usr/lib/postgresql/*/bin (or PATH), on a free port, listening on 127.0.0.1 and
a socket in the same directory; as the `postgres` user when the tests run as root (initdb refuses root).
For tests fsync is off: the cluster lives for one test run and its data is thrown away.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from tests.kit.server import free_port as _free_port


class NoCluster(Exception):
    pass


def _tool(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True)), None)
    if found is None:
        raise NoCluster(f"{name} is not installed (PostgreSQL's server package)")
    return str(found)


def _as_postgres(base: Path) -> list[str]:
    """The command prefix that runs the server's tools as `postgres` when the tests run as root (initdb refuses
    root), with ``base`` given to that user; nothing otherwise."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0):
        return []
    if shutil.which("runuser") is None:
        raise NoCluster("running as root without runuser, and initdb refuses root")
    try:
        shutil.chown(base, user="postgres")
    except (LookupError, OSError) as error:
        raise NoCluster(f"running as root and there is no `postgres` user to run initdb as ({error})") from None
    return ["runuser", "-u", "postgres", "--"]


@contextmanager
def _server(prefix: str, make_data: Callable[[list[str], Path], None], options: str = "") -> Iterator[str]:
    """A server on a free port over the data directory ``make_data`` fills (given the user prefix and the
    directory), listening on 127.0.0.1 and a socket beside its data; its URL,
    stopped and removed afterwards."""
    pg_ctl = _tool("pg_ctl")
    base = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        as_user = _as_postgres(base)
    except NoCluster:
        shutil.rmtree(base, ignore_errors=True)
        raise
    data, port = base / "data", _free_port()
    try:
        make_data(as_user, data)
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(base / "log"), "-o",
                        f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c max_connections=200{options}", "-w", "-t", "60", "start"],
                       check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as error:
        shutil.rmtree(base, ignore_errors=True)
        raise NoCluster(f"{error.cmd[len(as_user)]} failed: {error.stderr.strip() or error.stdout.strip()}") from None
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def throwaway_cluster(durable: bool = False) -> AbstractContextManager[str]:
    """A running cluster's URL (database `postgres`, user `postgres`, trust auth); stopped and removed afterwards.
    ``durable`` keeps fsync and synchronous commits on, as a server in use has them (the benchmark compares it
    with the machine's own server)."""
    initdb = _tool("initdb")

    def initialised(as_user: list[str], data: Path) -> None:
        subprocess.run([*as_user, initdb, "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"],
                       check=True, capture_output=True, text=True)

    return _server("tracker-shard-pg-", initialised, "" if durable else " -c fsync=off -c synchronous_commit=off")


def streaming_replica(primary_url: str) -> AbstractContextManager[str]:
    """A hot standby of a throwaway cluster (pg_basebackup -R, streaming), on a port of its own; removed afterwards."""
    basebackup, primary = _tool("pg_basebackup"), urlsplit(primary_url)

    def copied(as_user: list[str], data: Path) -> None:
        subprocess.run([*as_user, basebackup, "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres", "-D", str(data), "-R", "-X", "stream",
                        "--checkpoint=fast"],  # the primary's next checkpoint would otherwise be waited for, spread out
                       check=True, capture_output=True, text=True)

    return _server("tracker-replica-pg-", copied)
