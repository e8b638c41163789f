"""Commands/s on two shards against one: the same gunicorn, the same clients, spread over campaigns.

Both runs route by placement (tracker/sharding/placement.py), so both pay the write fence; they differ only in
how many PostgreSQL servers hold the campaigns. One: the home database alone. Two: the home database
and a second server, a throwaway cluster on this machine (tests/kit/second_cluster.py), the campaigns
placed on the least loaded, so alternately. CAMPAIGNS campaigns of SESSIONS_EACH sessions are created
over HTTP; wrk's CLIENTS connections then roll, each on sessions of its own, each session with its
campaign's owner token. Around each run the machine's busy CPU (from /proc/stat) and the gunicorn
workers' CPU are read: on one machine the shards share its cores, which is what limits the ratio.

The placement fence's own cost is measured apart: how many `SELECT ... FOR SHARE` + COMMIT pairs the
home database answers a second from FENCE_THREADS threads, the ceiling it puts on writes however
many shards there are (the paper estimate for N servers in bench/RESULTS.md uses it).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quick import scaled  # noqa: E402
from http_load import _call, _cpu_seconds, _free_port, _start_server, _stop, _worker_pids, wrk_path  # noqa: E402
from tests.kit.second_cluster import NoCluster, throwaway_cluster  # noqa: E402
from tracker.application.service import Tracker  # noqa: E402
from tracker.adapters.config import persistence_env  # noqa: E402
from tracker.sharding.placement import Placement  # noqa: E402

CAMPAIGNS = 16
SESSIONS_EACH = 4
CLIENTS = 16
SECONDS = scaled(8, 3)
WARM_UP_SECONDS = scaled(2, 1)
FENCE_THREADS = 8
FENCE_SECONDS = 3
BODY = '{"dice": {"d6": 2}}'

LUA = """
local sessions = {%(sessions)s}
local tokens = {%(tokens)s}
local body = '%(body)s'
local threads = %(threads)d
local counter = 0
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end
function init(args)
  counter = 0
end
request = function()
  local per_thread = math.floor(#sessions / threads)
  local i = (counter %% per_thread) * threads + id + 1
  counter = counter + 1
  return wrk.format("POST", "/sessions/" .. sessions[i] .. "/rolls",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. tokens[i]}, body)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %%d %%f %%f %%d\\n", summary.requests, summary.duration / 1e6, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
"""


@dataclass
class ShardRun:
    shards: int
    requests: int
    seconds: float
    p99_ms: float
    errors: int
    machine_busy: float  # of all cores, 0..1
    worker_cpu_ms_each: float
    placed: dict[str, int] = field(default_factory=dict)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


@dataclass
class ShardsResult:
    runs: list[ShardRun] = field(default_factory=list)
    fences_per_second: float = 0.0
    fence_ms: float = 0.0  # one fence, one thread
    note: str = ""

    @property
    def ratio(self) -> float | None:
        one = next((r for r in self.runs if r.shards == 1), None)
        two = next((r for r in self.runs if r.shards == 2), None)
        return two.per_second / one.per_second if one and two and one.per_second else None


def _busy() -> tuple[int, int]:
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def _schema(base: str) -> tuple[str, str]:
    schema = f"shards_{os.getpid()}_{time.monotonic_ns() % 10**8}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return schema, f"{base}?schema={schema}"


def _drop(base: str, schema: str) -> None:
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _prepare(url: str) -> None:
    from projections.store import open_view_store

    env = {**persistence_env(url), "CREATE_TABLE": "y"}
    Tracker(env=env).close()
    open_view_store(env).datastore.close()


def _run(home: str, other: str | None, directory: Path) -> ShardRun:
    _prepare(home)
    placement = Placement(home, pool_size=2)
    try:
        placement.create_tables()
        if other:
            _prepare(other)
            placement.add_shard("b", other)
    finally:
        placement.close()
    port = _free_port()
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 2)
    process = _start_server(home, port, workers, 4, directory / f"gunicorn-{2 if other else 1}.log")
    try:
        sessions, tokens = [], []
        for n in range(CAMPAIGNS):
            campaign = _call(port, "POST", "/campaigns", {"ruleset": "journey", "name": f"Group {n}"})
            for _ in range(SESSIONS_EACH):
                sessions.append(_call(port, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"}, campaign["owner_token"])["id"])
                tokens.append(campaign["owner_token"])
        # Sessions interleaved by campaign, so each client's sessions span campaigns (and so shards).
        order = sorted(range(len(sessions)), key=lambda i: (i % SESSIONS_EACH, i))
        sessions, tokens = [sessions[i] for i in order], [tokens[i] for i in order]
        script = directory / "shards.lua"
        script.write_text(LUA % {"sessions": ",".join(f'"{s}"' for s in sessions), "tokens": ",".join(f'"{t}"' for t in tokens),
                                 "body": BODY, "threads": CLIENTS})

        def wrk(seconds: int) -> list[str]:
            out = subprocess.run([wrk_path(), "-t", str(CLIENTS), "-c", str(CLIENTS), "-d", f"{seconds}s", "--timeout", "10s",
                                  "-s", str(script), f"http://127.0.0.1:{port}"], capture_output=True, text=True, check=True).stdout
            return next(line for line in out.splitlines() if line.startswith("RESULT ")).split()[1:]

        wrk(WARM_UP_SECONDS)
        pids = _worker_pids(process.pid)
        cpu, busy = _cpu_seconds(pids), _busy()
        requests, duration, p99, errors = wrk(SECONDS)
        cpu, after = _cpu_seconds(pids) - cpu, _busy()
        placement = Placement(home, pool_size=1)
        try:
            placed = placement.load()
        finally:
            placement.close()
        return ShardRun(2 if other else 1, int(requests), float(duration), float(p99), int(errors),
                        (after[0] - busy[0]) / max(after[1] - busy[1], 1), 1000 * cpu / max(int(requests), 1), placed)
    except Exception:
        _stop(process)
        print((directory / f"gunicorn-{2 if other else 1}.log").read_text()[-3000:], file=sys.stderr)
        raise
    finally:
        _stop(process)


def _fences(home: str) -> tuple[float, float]:
    """Fences a second from FENCE_THREADS threads, and one fence's time from one thread (ms)."""
    placement = Placement(home, pool_size=FENCE_THREADS)
    try:
        placement.create_tables()
        ids = [f"fence-{n}" for n in range(FENCE_THREADS)]
        for campaign_id in ids:
            placement.place(campaign_id, "home")
        started = time.perf_counter()
        count = 0
        while time.perf_counter() - started < 1:
            with placement.fence(ids[0]):
                count += 1
        one_ms = 1000 * (time.perf_counter() - started) / count
        counts = [0] * FENCE_THREADS
        stop_at = time.perf_counter() + FENCE_SECONDS

        def fence(i: int) -> None:
            while time.perf_counter() < stop_at:
                with placement.fence(ids[i]):
                    counts[i] += 1

        threads = [threading.Thread(target=fence, args=(i,)) for i in range(FENCE_THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sum(counts) / FENCE_SECONDS, one_ms
    finally:
        placement.close()


def measure_shards(base: str) -> ShardsResult:
    result = ShardsResult()
    if wrk_path() is None:
        result.note = "wrk is not installed: no shard run"
        return result
    try:
        cluster = throwaway_cluster(durable=True)
        second = cluster.__enter__()
    except NoCluster as error:
        result.note = f"a second PostgreSQL cluster could not start: {error}"
        return result
    try:
        with tempfile.TemporaryDirectory(prefix="tracker-shards-") as tmp:
            directory = Path(tmp)
            for shards in (1, 2, 1, 2):  # alternated, so a busy moment of the machine falls on both
                print(f"  shards: {shards} shard{'s' if shards > 1 else ''}, {CLIENTS} clients over {CAMPAIGNS} campaigns for {SECONDS} s ...", flush=True)
                home_schema, home = _schema(base)
                other_schema, other = _schema(second) if shards == 2 else (None, None)
                try:
                    result.runs.append(_run(home, other, directory))
                finally:
                    _drop(base, home_schema)
                    if other_schema:
                        _drop(second, other_schema)
            schema, home = _schema(base)
            try:
                result.fences_per_second, result.fence_ms = _fences(home)
            finally:
                _drop(base, schema)
    finally:
        cluster.__exit__(None, None, None)
    # Keep the better of the two runs of each: the figure least disturbed by the machine's other load.
    best = {}
    for run in result.runs:
        if run.shards not in best or run.per_second > best[run.shards].per_second:
            best[run.shards] = run
    result.runs = [best[n] for n in sorted(best)]
    return result


if __name__ == "__main__":
    found = measure_shards(os.environ.get("TRACKER_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres"))
    print(found.note)
    for run in found.runs:
        print(f"{run.shards} shard(s): {run.per_second:.0f} cmd/s, p99 {run.p99_ms:.1f} ms, errors {run.errors}, machine busy {100 * run.machine_busy:.0f}%, "
              f"worker CPU {run.worker_cpu_ms_each:.2f} ms/cmd, placed {run.placed}")
    print(f"ratio two/one: {found.ratio}")
    print(f"fences: {found.fences_per_second:.0f}/s from {FENCE_THREADS} threads; one fence {found.fence_ms:.3f} ms")
