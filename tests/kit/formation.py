"""A pg_auto_failover formation of throwaway servers on this machine: a monitor, and two Postgres nodes (a primary
and its synchronous standby), each run by its own `pg_autoctl` keeper, in one temporary directory.

The failover tests use it as a shard or as the home database would be run in production (README "Failover"): the
service is given the formation's multi-host URL (every node, ``target_session_attrs=read-write``), the test kills
the primary's server (its keeper and its postmaster, SIGKILL: the machine is gone), the monitor promotes the
standby, and the killed node is started again to rejoin as the new standby.

The monitor's health checks are made quicker than its defaults (a few seconds, not twenty) so the runs stay short on
two cores; the states and their order are pg_auto_failover's own. As root, every tool runs as `postgres` (initdb
refuses root). Missing tools raise NoCluster, which the fixtures turn into a skip, or a failure in CI.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

from tests.kit.databases import started_or_skipped
from tests.kit.second_cluster import NoCluster, _as_postgres, _free_port

# The monitor's checks (milliseconds): how soon an unreachable primary is failed over. pg_auto_failover's defaults
# (a check every 5 s, unhealthy after 20 s, a demote timeout of 30 s) suit a network; these suit one machine.
MONITOR_SETTINGS = {
    "pgautofailover.health_check_period": "1000",
    "pgautofailover.health_check_timeout": "1000",
    "pgautofailover.health_check_max_retries": "1",
    "pgautofailover.health_check_retry_delay": "500",
    "pgautofailover.node_considered_unhealthy_timeout": "4000",
    "pgautofailover.primary_demote_timeout": "6000",
}


@dataclass
class Node:
    name: str
    port: int
    pgdata: Path
    keeper: subprocess.Popen | None = None


@dataclass
class Formation:
    base: Path
    as_user: list[str]
    monitor_port: int
    nodes: dict[str, Node] = field(default_factory=dict)
    monitor: subprocess.Popen | None = None

    # -- addresses ---------------------------------------------------------------------------------------------
    @property
    def monitor_url(self) -> str:
        return f"postgresql://autoctl_node@127.0.0.1:{self.monitor_port}/pg_auto_failover"

    def url(self, dbname: str = "postgres") -> str:
        """The service's DATABASE_URL: every node, libpq keeping the one that takes writes."""
        hosts = ",".join(f"127.0.0.1:{node.port}" for node in self.nodes.values())
        return f"postgresql://postgres@{hosts}/{dbname}?target_session_attrs=read-write&connect_timeout=2"

    def node_url(self, name: str, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.nodes[name].port}/{dbname}"

    # -- the monitor's view ------------------------------------------------------------------------------------
    def states(self) -> dict[str, tuple[str, str]]:
        """Each node's (reported, assigned) state, as the monitor has them."""
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.monitor_port}/pg_auto_failover", autocommit=True) as conn:
            rows = conn.execute("SELECT nodename, reportedstate, goalstate FROM pgautofailover.node").fetchall()
        return {name: (str(reported), str(goal)) for name, reported, goal in rows}

    def primary(self) -> str | None:
        """The node that takes writes, if there is one: reporting and assigned primary, or wait_primary (promoted,
        its standby not back yet: writes are taken without waiting for a second server, pg_auto_failover's choice)."""
        return next((name for name, (reported, goal) in self.states().items() if reported == goal and reported in ("primary", "wait_primary")), None)

    def wait(self, what: str, holds: Callable[[], bool], seconds: float = 90) -> float:
        """Waits until ``holds()``; the seconds it took. Fails with the monitor's states and the keepers' logs."""
        start = deadline = time.monotonic()
        deadline += seconds
        while time.monotonic() < deadline:
            try:
                if holds():
                    return time.monotonic() - start
            except psycopg.Error:
                pass
            time.sleep(0.2)
        raise AssertionError(f"the formation did not reach '{what}' in {seconds} s: {self._states_or_error()}\n" + self.logs())

    def healthy(self) -> bool:
        """A primary and a secondary, each reporting what it was assigned."""
        states = sorted(reported for reported, goal in self.states().values() if reported == goal)
        return states == ["primary", "secondary"]

    def commit_waits_for_the_standby(self) -> dict[str, str]:
        """Shows that a commit on the primary is acknowledged only once the standby has it: the standby's WAL receiver
        is frozen (SIGSTOP), a commit is made on the primary, and the primary's backend is seen waiting for the standby
        (``wait_event = 'SyncRep'``) instead of answering; the receiver thawed, the commit returns and the row is on the
        standby. Fails if the commit is answered while the standby cannot have it. The primary's replication settings
        (as pg_auto_failover set them: number_sync_standbys 0 with one standby in the quorum gives ``ANY 1 (...)``)."""
        primary = self.primary()
        assert primary is not None and self.healthy(), self.states()
        standby = next(name for name in self.nodes if name != primary)
        with psycopg.connect(self.node_url(primary), autocommit=True) as conn:
            settings = dict(conn.execute("SELECT name, setting FROM pg_settings WHERE name IN ('synchronous_standby_names', 'synchronous_commit')").fetchall())
            conn.execute("CREATE TABLE IF NOT EXISTS formation_check (n bigint)")
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.monitor_port}/pg_auto_failover", autocommit=True) as conn:
            settings["number_sync_standbys"] = str(conn.execute("SELECT number_sync_standbys FROM pgautofailover.formation WHERE formationid = 'default'").fetchone()[0])
        with psycopg.connect(self.node_url(standby), autocommit=True) as conn:
            receiver = conn.execute("SELECT pid FROM pg_stat_wal_receiver").fetchone()
        assert receiver is not None, f"{standby} streams from no primary: {self.states()}"
        marker = time.monotonic_ns()
        committing = psycopg.connect(self.node_url(primary), autocommit=True)
        committer_pid = committing.info.backend_pid
        answered = threading.Event()

        def commit() -> None:
            committing.execute("INSERT INTO formation_check VALUES (%s)", (marker,))
            answered.set()

        os.kill(receiver[0], signal.SIGSTOP)
        thread = threading.Thread(target=commit, daemon=True)
        try:
            thread.start()
            with psycopg.connect(self.node_url(primary), autocommit=True) as watcher:
                deadline = time.monotonic() + 30
                while (watcher.execute("SELECT wait_event FROM pg_stat_activity WHERE pid = %s", (committer_pid,)).fetchone() or (None,))[0] != "SyncRep":
                    assert not answered.is_set(), f"a commit was acknowledged while the standby could not have it ({settings})"
                    assert time.monotonic() < deadline, f"the commit neither waited for the standby nor returned ({settings})"
                    time.sleep(0.01)
            assert not answered.is_set(), f"a commit was acknowledged while the standby could not have it ({settings})"
        finally:
            os.kill(receiver[0], signal.SIGCONT)
            thread.join(timeout=30)
            committing.close()
        assert answered.is_set(), "the commit did not return once the standby had it"
        with psycopg.connect(self.node_url(standby), autocommit=True) as conn:  # flushed there; replayed soon after
            self.wait("the commit replayed on the standby", lambda: conn.execute("SELECT count(*) FROM formation_check WHERE n = %s", (marker,)).fetchone() == (1,), 30)
        with psycopg.connect(self.node_url(primary), autocommit=True) as conn:
            conn.execute("DROP TABLE formation_check")
        return settings

    def _states_or_error(self) -> object:
        try:
            return self.states()
        except psycopg.Error as error:
            return error

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n" + path.read_text(errors="replace")[-3000:] for path in sorted(self.base.glob("*.log")))

    # -- the servers -------------------------------------------------------------------------------------------
    def _env(self) -> dict[str, str]:
        pg_bin = str(_pg_bin())
        return {**os.environ, "PATH": f"{pg_bin}:{os.environ.get('PATH', '')}",
                "XDG_CONFIG_HOME": str(self.base / "config"), "XDG_DATA_HOME": str(self.base / "share")}

    def _keeper(self, args: list[str], log: str) -> subprocess.Popen:
        """A pg_autoctl process in a process group of its own (killed as one: keeper, postmaster and backends)."""
        return subprocess.Popen([*self.as_user, _autoctl(), *args], env=self._env(), cwd=self.base,
                                stdout=(self.base / log).open("a"), stderr=subprocess.STDOUT, start_new_session=True)

    def add_node(self, name: str) -> Node:
        """A Postgres node registered with the monitor and kept running; the first becomes the primary, the next its
        synchronous standby (pg_auto_failover's replication quorum)."""
        node = Node(name, _free_port(), self.base / name)
        node.keeper = self._keeper(["create", "postgres", "--pgdata", str(node.pgdata), "--pgctl", str(_pg_bin() / "pg_ctl"), "--pgport", str(node.port),
                                    "--hostname", "127.0.0.1", "--name", name, "--auth", "trust", "--no-ssl",
                                    "--monitor", self.monitor_url, "--run"], f"{name}.log")
        self.nodes[name] = node
        return node

    def kill(self, name: str) -> None:
        """The node's machine is gone: its keeper, its postmaster and every backend killed with SIGKILL at once."""
        node = self.nodes[name]
        postmaster = _postmaster_pid(node.pgdata)
        if node.keeper is not None:
            _kill_group(node.keeper)
        if postmaster is not None:
            _kill_server(postmaster)
        node.keeper = None

    def restart(self, name: str) -> None:
        """The node's machine is back: its keeper runs again, and pg_auto_failover rejoins it (as a standby now)."""
        node = self.nodes[name]
        node.keeper = self._keeper(["run", "--pgdata", str(node.pgdata)], f"{name}.log")

    def stop(self) -> None:
        for node in self.nodes.values():
            if node.keeper is not None:
                _kill_group(node.keeper)
            postmaster = _postmaster_pid(node.pgdata)
            if postmaster is not None:
                _kill_server(postmaster)


def _pg_bin() -> Path:
    """The server's bin directory of the PostgreSQL version pg_auto_failover's extension is built for (pg_autoctl
    finds pg_ctl, pg_controldata and initdb beside each other there, not through a lone symlink on PATH)."""
    built = sorted(Path("/usr/lib/postgresql").glob("*/lib/pgautofailover.so"), reverse=True)
    if not built:
        raise NoCluster("pg_auto_failover's extension is not installed (Debian's postgresql-15-auto-failover; .ci/install-pg-auto-failover)")
    return built[0].parents[1] / "bin"


def _autoctl() -> str:
    found = shutil.which("pg_autoctl")
    if found is None:
        raise NoCluster("pg_autoctl is not installed (Debian's postgresql-15-auto-failover; .ci/install-pg-auto-failover)")
    return found


def _postmaster_pid(pgdata: Path) -> int | None:
    try:
        return int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None


def _kill_server(postmaster: int) -> None:
    """A postmaster, with SIGKILL (its backends exit once they see it gone; the formation's end kills what does not)."""
    try:  # a postmaster.pid left by a server killed earlier may name a pid the system has given another process since
        if b"postgres" in Path(f"/proc/{postmaster}/cmdline").read_bytes():
            os.kill(postmaster, signal.SIGKILL)
    except (OSError, ProcessLookupError):
        pass


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


@contextmanager
def formation(nodes: tuple[str, ...] = ("a", "b")) -> Iterator[Formation]:
    """A running formation, healthy (a primary and its synchronous standby); everything killed and removed afterwards."""
    _pg_bin(), _autoctl()  # NoCluster now, not half-way
    base = Path(tempfile.mkdtemp(prefix="tracker-formation-"))
    try:
        as_user = _as_postgres(base)
    except NoCluster:
        shutil.rmtree(base, ignore_errors=True)
        raise
    made = Formation(base, as_user, _free_port())
    try:
        created = subprocess.run([*as_user, _autoctl(), "create", "monitor", "--pgdata", str(base / "monitor"), "--pgctl", str(_pg_bin() / "pg_ctl"),
                                  "--pgport", str(made.monitor_port), "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl"],
                                 env=made._env(), cwd=base, capture_output=True, text=True)
        if created.returncode != 0:
            raise NoCluster(f"pg_autoctl create monitor failed: {created.stderr.strip()[-2000:]}")
        with (base / "monitor" / "postgresql.auto.conf").open("a") as conf:
            conf.writelines(f"{key} = {value}\n" for key, value in MONITOR_SETTINGS.items())
        made.monitor = made._keeper(["run", "--pgdata", str(base / "monitor")], "monitor.log")
        made.wait("the monitor answers", lambda: made.states() is not None, 60)
        for name in nodes:
            made.add_node(name)
            made.wait(f"node {name} registered", lambda name=name: made.states().get(name, ("", ""))[0] in ("single", "primary", "secondary"), 90)
        made.wait("a primary and a synchronous standby", made.healthy, 90)
        yield made
    finally:
        made.stop()
        if made.monitor is not None:
            _kill_group(made.monitor)
        monitor = _postmaster_pid(base / "monitor")
        if monitor is not None:
            _kill_server(monitor)
        # PostgreSQL's children each lead a session of their own, and most exit once their postmaster is gone; the
        # monitor's health-check worker and its logger do not (one pair per formation lived on until the machine
        # restarted). Whatever still works in the formation's directory is killed too.
        for pid, _ in _running_in(base):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        left = _still_running_in(base)
        # A killed postmaster's children write on for a moment before they notice (a file left behind once).
        for _ in range(10):
            shutil.rmtree(base, ignore_errors=True)
            if not base.exists():
                break
            time.sleep(0.3)
        if left:  # every test formation would leave them running on the machine (and CI's) until it restarts
            raise AssertionError(f"processes of the formation outlived it: {left}")


def _running_in(base: Path) -> list[tuple[int, str]]:
    """The processes working in the formation's directory (their working directory under it), with their commands."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and Path(os.readlink(proc / "cwd")).is_relative_to(base):
                found.append((int(proc.name), (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()))
        except OSError:
            continue
    return found


def _still_running_in(base: Path, seconds: float = 5.0) -> list[str]:
    """The processes still working in the formation's directory, given a moment to exit: none once all were killed."""
    deadline = time.monotonic() + seconds
    while True:
        left = [f"{pid} {command}" for pid, command in _running_in(base)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


@pytest.fixture
def ha() -> Iterator[Formation]:
    """A formation for one test (it kills nodes): skipped, saying why, where pg_auto_failover cannot run; failed in CI."""
    yield from started_or_skipped(formation(), "a pg_auto_failover formation", "FAILOVER TESTS")
