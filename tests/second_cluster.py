"""A second PostgreSQL server on this machine for the shard tests: a throwaway cluster in a temporary directory.

initdb and pg_ctl from /usr/lib/postgresql/*/bin (or PATH), on a free port, listening on 127.0.0.1 and
a socket in the same directory; as the `postgres` user when the tests run as root (initdb refuses root).
For tests fsync is off: the cluster lives for one test run and its data is thrown away.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class NoCluster(Exception):
    pass


def _tool(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True)), None)
    if found is None:
        raise NoCluster(f"{name} is not installed (PostgreSQL's server package)")
    return str(found)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def throwaway_cluster(durable: bool = False) -> Iterator[str]:
    """A running cluster's URL (database `postgres`, user `postgres`, trust auth); stopped and removed afterwards.
    ``durable`` keeps fsync and synchronous commits on, as a server in use has them (the benchmark compares it
    with the machine's own server)."""
    initdb, pg_ctl = _tool("initdb"), _tool("pg_ctl")
    as_user: list[str] = []
    base = Path(tempfile.mkdtemp(prefix="tracker-shard-pg-"))
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        if shutil.which("runuser") is None:
            raise NoCluster("running as root without runuser, and initdb refuses root")
        try:
            shutil.chown(base, user="postgres")
        except (LookupError, OSError) as error:
            raise NoCluster(f"running as root and there is no `postgres` user to run initdb as ({error})") from None
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = base / "data", _free_port()
    try:
        subprocess.run([*as_user, initdb, "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"],
                       check=True, capture_output=True, text=True)
        options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off"
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(base / "log"), "-o", options, "-w", "-t", "60", "start"],
                       check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as error:
        shutil.rmtree(base, ignore_errors=True)
        raise NoCluster(f"{error.cmd[len(as_user)]} failed: {error.stderr.strip() or error.stdout.strip()}") from None
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def streaming_replica(primary_url: str) -> Iterator[str]:
    """A hot standby of a throwaway cluster (pg_basebackup -R, streaming), on a port of its own; removed afterwards."""
    from urllib.parse import urlsplit

    basebackup, pg_ctl = _tool("pg_basebackup"), _tool("pg_ctl")
    primary = urlsplit(primary_url)
    as_user: list[str] = []
    base = Path(tempfile.mkdtemp(prefix="tracker-replica-pg-"))
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        shutil.chown(base, user="postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = base / "data", _free_port()
    try:
        subprocess.run([*as_user, basebackup, "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres", "-D", str(data), "-R", "-X", "stream"],
                       check=True, capture_output=True, text=True)
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-l", str(base / "log"), "-o", f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c max_connections=200",
                        "-w", "-t", "60", "start"], check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as error:
        shutil.rmtree(base, ignore_errors=True)
        raise NoCluster(f"{error.cmd[len(as_user)]} failed: {error.stderr.strip() or error.stdout.strip()}") from None
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
