"""Point 2 and 5 of the benchmark: roll commands over HTTP through a real gunicorn, and its workers' memory.

gunicorn starts as the Procfile starts it (gunicorn.conf.py: WEB_CONCURRENCY workers of
GUNICORN_THREADS threads, here the machine's core count of workers) on loopback, on a
fresh PostgreSQL schema. One campaign with SESSIONS sessions is created over HTTP; the
clients then POST /sessions/{sid}/rolls round-robin over the sessions, each client over
sessions of its own, so no two requests race for one session.

The load generator is wrk (Debian's package; `make bench` installs it when it is missing
and apt-get may run) with a Lua script, or, without wrk, a Python client of one thread and
one keep-alive connection per client. Each run is bounded in time (SECONDS). The workers'
CPU time (from /proc) is read around each run: CPU per request is the figure that the
other programs on a shared machine disturb least. After the last run, the resident set
(VmRSS) of every worker is read from /proc.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import instructions
import server_profile
from quick import scaled
from http_layers import Layers, measure_layers
from server_profile import Profile

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CLIENTS = (1, 8, 32)
MINIMAL_CLIENTS = (8, 32)  # the stack's limit, at the client counts the targets name
PROFILED_CLIENTS = 8  # an extra run of the roll route, sampled by py-spy (the measured runs are not)
SECONDS = scaled(8, 3)  # each run's length
WARM_UP_SECONDS = scaled(2, 1)
SESSIONS = 128
BODY = json.dumps({"dice": {"d6": 2}})


@dataclass
class HttpRun:
    clients: int
    requests: int
    seconds: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    errors: int  # non-2xx answers and socket errors
    worker_cpu_seconds: float = 0.0  # the gunicorn workers' CPU time during the run, all threads

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def worker_cpu_ms_each(self) -> float:
        return 1000 * self.worker_cpu_seconds / self.requests if self.requests else 0.0


@dataclass
class HttpResult:
    generator: str
    workers: int
    threads: int
    runs: list[HttpRun] = field(default_factory=list)
    worker_rss_mb: list[float] = field(default_factory=list)
    layers: Layers | None = None  # the request's CPU split, measured in process (http_layers.py)
    minimal: list[HttpRun] = field(default_factory=list)  # the minimal Flask app, same gunicorn configuration (minimal_app.py)
    floor: list[HttpRun] = field(default_factory=list)  # the stack's floor for a roll, same configuration and database (floor_app.py)
    application_per_second: float = 0.0  # the application layer alone, 8 writers on 8 sessions, measured between the HTTP runs
    application_cpu_ms_each: float = 0.0
    profile: Profile | None = None  # the real server's workers sampled under load (server_profile.py)
    instructions: dict[str, float] | None = None  # instructions a request by path, counted by callgrind (instructions.py)
    profiled: HttpRun | None = None  # the run the profile was taken in
    note: str = ""

    def run_at(self, clients: int, minimal: bool = False, floor: bool = False) -> HttpRun | None:
        runs = self.minimal if minimal else self.floor if floor else self.runs
        return next((r for r in runs if r.clients == clients), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    answer = json.loads(response.read() or b"null")
    conn.close()
    if response.status >= 400:
        raise RuntimeError(f"{method} {path}: {response.status} {answer}")
    return answer


def start_and_wait(command: list[str], port: int, log: Path, env: dict[str, str], what: str = "the server") -> subprocess.Popen:
    """``command`` started in the repository with ``env`` added to this environment, once GET /health answers on ``port``."""
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env}, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            _call(port, "GET", "/health")
            return process
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{what} did not start:\n" + log.read_text())


def _start_server(database_url: str, port: int, workers: int, threads: int, log: Path, app: str = "api.wsgi:app",
                  more: dict[str, str] | None = None) -> subprocess.Popen:
    env = {
        **(more or {}),
        "DATABASE_URL": database_url,
        "PORT": str(port),
        "WEB_CONCURRENCY": str(workers),
        "GUNICORN_THREADS": str(threads),
        "TRACKER_PROJECTIONS_IN_PROCESS": "",  # the projector is its own process (Procfile), not measured here
    }
    return start_and_wait([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "--pythonpath", str(ROOT / "bench"), app], port, log, env, "gunicorn")


def sessions_to_roll_on(port: int, name: str) -> tuple[str, list[str]]:
    """A campaign made on the server at ``port`` and SESSIONS sessions of it: its owner token and the session ids."""
    campaign = _call(port, "POST", "/campaigns", {"ruleset": "journey", "name": name})
    token = campaign["owner_token"]
    return token, [_call(port, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"}, token)["id"] for _ in range(SESSIONS)]


def _worker_pids(master: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master:
                pids.append(int(entry.name))
    return sorted(pids)


def _cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time of the processes, from /proc/<pid>/stat."""
    total = 0
    for pid in pids:
        try:
            fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# -- load generators ---------------------------------------------------------------


def wrk_path() -> str | None:
    return shutil.which("wrk")


LUA = """
local sessions = {%(sessions)s}
local token = "%(token)s"
local body = '%(body)s'
local threads = %(threads)d
local counter = 0
local next_id = 0
-- `id` is a global on purpose: thread:set writes the thread's globals, which a local
-- of the same name would shadow (every thread would then read 0 and share sessions).
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end
function init(args)
  counter = 0
end
request = function()
  -- thread t uses sessions t, t+threads, t+2*threads, ...: no two threads share one
  local per_thread = math.floor(#sessions / threads)
  local sid = sessions[(counter %% per_thread) * threads + id + 1]
  counter = counter + 1
  return wrk.format("POST", "/sessions/" .. sid .. "/rolls",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %%d %%f %%f %%f %%f %%d\\n", summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
"""


def run_wrk(port: int, sessions: list[str], token: str, clients: int, seconds: int, directory: Path) -> HttpRun:
    threads = clients  # one connection per wrk thread, so each connection rolls on sessions of its own
    script = directory / "rolls.lua"
    script.write_text(LUA % {"sessions": ",".join(f'"{s}"' for s in sessions), "token": token, "body": BODY, "threads": threads})
    out = subprocess.run(
        [wrk_path(), "-t", str(threads), "-c", str(clients), "-d", f"{seconds}s", "--timeout", "10s", "-s", str(script),
         f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, check=True,
    ).stdout
    line = next(line for line in out.splitlines() if line.startswith("RESULT "))
    requests, duration, p50, p95, p99, errors = line.split()[1:]
    return HttpRun(clients, int(requests), float(duration), float(p50), float(p95), float(p99), int(errors))


def run_python(port: int, sessions: list[str], token: str, clients: int, seconds: int, directory: Path) -> HttpRun:
    """One thread and one keep-alive connection per client, each over sessions of its own."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    barrier = threading.Barrier(clients + 1)
    stop_at = [0.0]
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}

    def client(index: int) -> None:
        own = sessions[index::clients] or sessions
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        barrier.wait()
        i = 0
        while time.perf_counter() < stop_at[0]:
            started = time.perf_counter()
            try:
                conn.request("POST", f"/sessions/{own[i % len(own)]}/rolls", body=BODY, headers=headers)
                response = conn.getresponse()
                response.read()
                if response.status >= 300:
                    errors[index] += 1
            except OSError:
                errors[index] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            latencies[index].append(time.perf_counter() - started)
            i += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    stop_at[0] = time.perf_counter() + seconds
    started = time.perf_counter()
    barrier.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    every = sorted(t for per_client in latencies for t in per_client)
    q = statistics.quantiles(every, n=100, method="inclusive") if len(every) > 1 else [every[0] if every else 0.0] * 99
    return HttpRun(clients, len(every), elapsed, 1000 * q[49], 1000 * q[94], 1000 * q[98], sum(errors))


# -- the run ------------------------------------------------------------------------


def measure_http(database_url: str, profile_only: bool = False) -> HttpResult:
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 2)
    threads = int(os.environ.get("GUNICORN_THREADS", "4"))
    generator = "wrk" if wrk_path() else "python-threads"
    run = run_wrk if generator == "wrk" else run_python
    result = HttpResult(generator=generator, workers=workers, threads=threads)
    if generator != "wrk":
        result.note = "wrk was not found, so the clients are Python threads in this process (they share the 2 cores with the server)"
    if not profile_only:
        print("  HTTP: the request's CPU in process, by layer ...", flush=True)
        result.layers = measure_layers(database_url)
        if shutil.which("valgrind") and shutil.which("callgrind_control"):
            print("  HTTP: instructions a request, counted by callgrind ...", flush=True)
            result.instructions = instructions.measure()
    with tempfile.TemporaryDirectory(prefix="tracker-http-") as tmp:
        directory = Path(tmp)
        # The stack's limit: the minimal app on the same gunicorn configuration, the same request.
        port = _free_port()
        process = _start_server(database_url, port, workers, threads, directory / "minimal.log", app="minimal_app:app")
        try:
            paths = [f"00000000-0000-4000-8000-{n:012d}" for n in range(SESSIONS)]
            run(port, paths, "none", 8, WARM_UP_SECONDS, directory)
            pids = _worker_pids(process.pid)
            for clients in () if profile_only else MINIMAL_CLIENTS:
                print(f"  HTTP: the minimal app, {clients} clients for {SECONDS} s ({generator}) ...", flush=True)
                result.minimal.append(_measured(run, port, paths, "none", clients, directory, pids))
        finally:
            _stop(process)
        if not profile_only:
            result.floor = _measure_floor(database_url, workers, threads, run, directory)
            print(f"  HTTP: the application layer alone, {APPLICATION_WRITERS} writers for {SECONDS} s ...", flush=True)
            result.application_per_second, result.application_cpu_ms_each = measure_application(database_url)
        port = _free_port()
        process = _start_server(database_url, port, workers, threads, directory / "gunicorn.log")
        try:
            token, sessions = sessions_to_roll_on(port, "HTTP bench")
            run(port, sessions, token, 8, WARM_UP_SECONDS, directory)  # warm-up: imports, pools, caches
            pids = _worker_pids(process.pid)
            for clients in () if profile_only else CLIENTS:
                print(f"  HTTP: {clients} clients for {SECONDS} s ({generator}) ...", flush=True)
                result.runs.append(_measured(run, port, sessions, token, clients, directory, pids))
            result.worker_rss_mb = [_rss_mb(pid) for pid in pids]
            print(f"  HTTP: {PROFILED_CLIENTS} clients for {SECONDS} s, the workers sampled by py-spy ...", flush=True)
            recorders = server_profile.start(pids, SECONDS, directory)
            result.profiled = _measured(run, port, sessions, token, PROFILED_CLIENTS, directory, pids)
            result.profile = server_profile.finish(recorders, directory)
        finally:
            _stop(process)
    return result


FLOOR_TOKEN = "floor-" + "0" * 58


def _measure_floor(database_url: str, workers: int, threads: int, run: Any, directory: Path) -> list[HttpRun]:
    """floor_app.py at MINIMAL_CLIENTS, on a table of its own in the run's schema (dropped with the schema)."""
    import psycopg

    base, _, schema = database_url.partition("?schema=")
    table = f'"{schema}".floor_rolls' if schema else "floor_rolls"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {table} (id bigserial PRIMARY KEY, session text NOT NULL, hash bytea NOT NULL, payload bytea NOT NULL)")
    port = _free_port()
    process = _start_server(database_url, port, workers, threads, directory / "floor.log", app="floor_app:app",
                            more={"FLOOR_DATABASE": base, "FLOOR_TABLE": table, "FLOOR_TOKEN": FLOOR_TOKEN})
    try:
        paths = [f"00000000-0000-4000-8000-{n:012d}" for n in range(SESSIONS)]
        run(port, paths, FLOOR_TOKEN, 8, WARM_UP_SECONDS, directory)
        pids = _worker_pids(process.pid)
        runs = []
        for clients in MINIMAL_CLIENTS:
            print(f"  HTTP: the stack's floor for a roll, {clients} clients for {SECONDS} s ...", flush=True)
            runs.append(_measured(run, port, paths, FLOOR_TOKEN, clients, directory, pids))
        return runs
    finally:
        _stop(process)
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP TABLE {table}")


APPLICATION_WRITERS = 8


def measure_application(database_url: str) -> tuple[float, float]:
    """Commands/s and CPU ms a command of the application layer alone (Tracker.roll from APPLICATION_WRITERS threads,
    each on a session of its own), on the same database, just before the roll route's runs: the issue's bound
    needs the two measured under the same load of the machine."""
    from tracker.application.service import Tracker
    from tracker.adapters.config import persistence_env

    app = Tracker(env=persistence_env(database_url))
    try:
        campaign = app.create_campaign("journey", "Application layer").body["id"]
        sessions = [app.start_session(campaign, "q1-meeting").body["id"] for _ in range(APPLICATION_WRITERS)]
        counts = [0] * APPLICATION_WRITERS
        barrier = threading.Barrier(APPLICATION_WRITERS + 1)
        stop_at = [0.0]

        def writer(i: int) -> None:
            barrier.wait()
            while time.perf_counter() < stop_at[0]:
                app.roll(sessions[i], dice={"d6": 2})
                counts[i] += 1

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(APPLICATION_WRITERS)]
        for thread in threads:
            thread.start()
        stop_at[0] = time.perf_counter() + SECONDS
        cpu, started = time.process_time(), time.perf_counter()
        barrier.wait()
        for thread in threads:
            thread.join()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        total = sum(counts)
        return total / elapsed, 1000 * cpu / max(total, 1)
    finally:
        app.close()


def _measured(run, port: int, paths: list[str], token: str, clients: int, directory: Path, pids: list[int]) -> HttpRun:
    cpu = _cpu_seconds(pids)
    measured = run(port, paths, token, clients, SECONDS, directory)
    measured.worker_cpu_seconds = _cpu_seconds(pids) - cpu
    return measured


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def main() -> None:
    """The HTTP runs alone, on a fresh schema of the local PostgreSQL: for working on the request path."""
    import psycopg

    base = os.environ.get("TRACKER_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    schema = f"http_{os.getpid()}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        result = measure_http(f"{base}?schema={schema}", profile_only="--profile-only" in sys.argv)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    if result.layers:
        print(result.layers)
    for path, count in (result.instructions or {}).items():
        print(f"{path:14} {count / 1000:,.0f} thousand instructions a request (callgrind, in process)")
    for label, runs in (("minimal", result.minimal), ("floor", result.floor), ("roll", result.runs), ("profiled roll", [result.profiled])):
        for r in runs:
            print(f"{label:14} {r.clients:3} clients {r.per_second:7.0f} req/s  p99 {r.p99_ms:6.1f} ms  CPU {r.worker_cpu_ms_each:.3f} ms/req  errors {r.errors}")
    profile = result.profile
    if profile is not None:
        Path("/tmp/tracker-http-profile.txt").write_text(profile.raw)
        print(profile.note or f"{profile.samples} samples")
        for name, n in profile.layers.most_common():
            print(f"  layer {100 * profile.share(n):5.1f}%  {name}")
        for name, n in profile.stages.most_common():
            print(f"  stage {100 * profile.share(n):5.1f}%  {name}")
        for name, n in profile.top.most_common(25):
            print(f"  top   {100 * profile.share(n):5.1f}%  {name}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
