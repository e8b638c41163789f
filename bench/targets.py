"""The issue's targets, each next to the figure this run measured, and what limits a missed one."""

from __future__ import annotations

from typing import Any

from history import HISTORY_LONG, HISTORY_SHORT, HistoryResult
from http_load import HttpResult


def _row(what: str, figure: str, ratio: float | None, target: str, met: bool | None, limit: str = "") -> tuple[str, ...]:
    verdict = "n/a" if met is None else ("met" if met else "**missed**")
    return (what, figure, "" if ratio is None else f"{ratio:.2f}", target, verdict, limit if met is False else "")


def _one_writer_limit(backend: str, row: Any) -> str:
    service, raw = row.service, row.raw
    waits = (
        "the stored function's table lock and NOTIFY, then the commit" if backend == "PostgreSQL" else "the commit, WAL mode"
    )
    return (
        f"a roll waits {service.wait_ms_each:.2f} ms on the database ({waits}) against the raw insert's "
        f"{raw.wait_ms_each:.2f} ms, and uses {service.cpu_ms_each:.2f} ms of CPU against the raw insert's "
        f"{raw.cpu_ms_each:.2f} ms (the command's own work, the hash chain, the library's insert path)"
        f"{_beside_the_library(row)}"
    )


def _beside_the_library(row: Any) -> str:
    """The eventsourcing library's own save of a trivial one-event aggregate, the same run: what storing through it costs."""
    service, raw, bare = row.service, row.raw, row.bare
    if not bare.per_second or not raw.per_second:
        return ""
    library = bare.per_second / raw.per_second
    reach = (
        "below the target before any of this project's work, so the target is beyond the library the service must store "
        "through" if library < 0.70 else "within the target's reach"
    )
    return (
        f"; the eventsourcing library's own save of a one-event change to a trivial aggregate (no rules, dice or hash chain; "
        f"the bare/s column) reaches {library:.2f} of the raw insert, {reach}, and the roll reaches "
        f"{service.per_second / bare.per_second:.2f} of the library's own save"
    )


def _many_writers_limit(backend: str, row: Any, n_threads: int) -> str:
    cpu = row.service.cpu_ms_each
    ceiling = f"{n_threads} threads in one process reach at most ~{1000 / cpu:.0f} cmd/s" if cpu else "one process"
    store = (
        "and the events table lock (kept so the notification log is gap-free) admits one commit at a time, while raw inserts "
        "commit in parallel and share fsyncs"
        if backend == "PostgreSQL"
        else "and SQLite has one writer at a time"
    )
    return f"the commands' CPU ({cpu:.2f} ms each) runs under one GIL ({ceiling}), {store}"


def _request_cpu(http: HttpResult, run: Any) -> str:
    """A worker's CPU per request, split by the profile of the real server (server_profile.py)."""
    split = ""
    profile = http.profile
    if profile is not None and profile.samples:
        cpu = http.profiled.worker_cpu_ms_each if http.profiled else run.worker_cpu_ms_each
        stages = ", ".join(f"{cpu * profile.share(n):.2f} {name}" for name, n in profile.stages.most_common(4))
        split = f" (sampled in the running workers by py-spy: {stages}; the bench/RESULTS.md HTTP section has every layer)"
    elif profile is not None:
        split = f" ({profile.note})"
    return f"a worker spends {run.worker_cpu_ms_each:.2f} ms of CPU per request{split}"


def _beside_the_floor(http: HttpResult, run: Any) -> str:
    """The roll route beside floor_app.py, the stack doing a roll's own work (token, dice, chain, one autocommitted INSERT)."""
    floor = http.run_at(run.clients, floor=True)
    if floor is None or not floor.per_second or not floor.worker_cpu_ms_each:
        return ""
    return (
        f"; the stack's floor for a roll (bench/floor_app.py: the same request, the token looked up in memory, HMAC dice, "
        f"a hash chain and one autocommitted INSERT, one round trip, through psycopg's pool, nothing of this project's) serves "
        f"{floor.per_second:,.0f} req/s at {floor.worker_cpu_ms_each:.2f} ms of worker CPU, p99 {floor.p99_ms:.1f} ms: the "
        f"roll route is {run.per_second / floor.per_second:.2f} of its rate at {run.worker_cpu_ms_each / floor.worker_cpu_ms_each:.1f}x "
        f"its CPU, so {max(run.worker_cpu_ms_each - floor.worker_cpu_ms_each, 0):.2f} ms a request is this project's code and "
        "the eventsourcing library's"
    )


def instructions_said(http: HttpResult) -> str:
    """The in-process instruction counts (bench/instructions.py), said in a clause; empty where valgrind was missing."""
    counts = http.instructions
    if not counts:
        return ""
    k = {path: f"{counts[path] / 1000:,.0f}" for path in counts}
    return (
        f"; counted by callgrind in process (gunicorn left out), a request is {k['minimal']} thousand instructions in the "
        f"minimal app, {k['floor']} thousand in the floor app and {k['route']} thousand on the roll route, of which the command "
        f"(Tracker.roll) is {k['command']} thousand and the HTTP layer {(counts['route'] - counts['command']) / 1000:,.0f} thousand"
    )


def _latency_limit(http: HttpResult, run: Any) -> str:
    return (
        f"each client sends its next roll when the last is answered, so the mean wait is clients / throughput "
        f"({run.clients} / {run.per_second:.0f} req/s = {1000 * run.clients / run.per_second:.0f} ms) however the {http.workers} "
        f"workers x {http.threads} threads are arranged: p99 < 50 ms needs well over {1000 * run.clients / 50:.0f} req/s. "
        f"The throughput is CPU-bound: {_request_cpu(http, run)}, and PostgreSQL and wrk share the same 2 cores"
    )


def _throughput_limit(http: HttpResult, run: Any, minimal: Any, app_cpu: float | None) -> str:
    command = f", against {app_cpu:.2f} ms per command in the application layer" if app_cpu else ""
    return (
        f"{_request_cpu(http, run)}; the minimal app's worker spends {minimal.worker_cpu_ms_each:.2f} ms{command}: "
        f"{max(run.worker_cpu_ms_each - minimal.worker_cpu_ms_each - (app_cpu or 0), 0):.2f} ms a request is neither the stack's "
        "nor the command's (the token check's query, the hooks, the schemas, the disclosure, the driver's round trips from "
        "threads that take turns on one GIL)"
    )


def bound(minimal_rate: float, app_rate: float) -> float:
    """What the roll route could serve if a request cost the minimal app's work plus the command's, on shared cores."""
    return 1 / (1 / minimal_rate + 1 / app_rate)


def target_rows(results: list[Any], n_threads: int, history: HistoryResult | None, http: HttpResult | None) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for r in results:
        one, _many, _shared, spread = r.rows
        single = one.service.per_second / one.raw.per_second
        rows.append(_row(
            f"{r.name} write, 1 writer, 1 session: service/raw", f"{one.service.per_second:.0f} vs {one.raw.per_second:.0f} cmd/s",
            single, ">= 0.70", single >= 0.70, _one_writer_limit(r.name, one),
        ))
        concurrent = spread.service.per_second / spread.raw.per_second
        rows.append(_row(
            f"{r.name} write, {n_threads} writers, {n_threads} sessions: service/raw", f"{spread.service.per_second:.0f} vs {spread.raw.per_second:.0f} cmd/s",
            concurrent, ">= 0.50", concurrent >= 0.50, _many_writers_limit(r.name, spread, n_threads),
        ))
    if http is not None:
        by_clients = {run.clients: run for run in http.runs}
        app_rate = next((r.rows[3].service.per_second for r in results if r.name == "PostgreSQL"), None)
        app_cpu = next((r.rows[3].service.cpu_ms_each for r in results if r.name == "PostgreSQL"), None)
        for clients, run in sorted(by_clients.items()):
            rows.append(_row(f"HTTP, {clients} client{'s' if clients > 1 else ''}: p99 latency of a roll", f"{run.p99_ms:.1f} ms (p50 {run.p50_ms:.1f}, p95 {run.p95_ms:.1f})",
                             None, "< 50 ms at 32 clients" if clients == 32 else "(no target)", (run.p99_ms < 50) if clients == 32 else None,
                             _latency_limit(http, run)))
        if http.application_per_second:  # measured beside the HTTP runs, under the same load of the machine
            app_rate, app_cpu = http.application_per_second, http.application_cpu_ms_each
        minimal = {run.clients: run for run in http.minimal}
        for clients in sorted(set(minimal) & set(by_clients)):
            if not app_rate:
                break
            limit = bound(minimal[clients].per_second, app_rate)
            ratio = by_clients[clients].per_second / limit
            rows.append(_row(
                f"HTTP, {clients} clients: roll route / 1/(1/minimal app + 1/application layer, {8} writers, measured beside it)",
                f"{by_clients[clients].per_second:.0f} vs {limit:.0f} req/s (minimal {minimal[clients].per_second:.0f}, application {app_rate:.0f})",
                ratio, ">= 0.80", ratio >= 0.80, _throughput_limit(http, by_clients[clients], minimal[clients], app_cpu)))
        if http.worker_rss_mb:
            worst = max(http.worker_rss_mb)
            rows.append(_row("Memory: resident size of a gunicorn worker after the HTTP run", ", ".join(f"{m:.0f} MB" for m in http.worker_rss_mb),
                             None, "< 150 MB", worst < 150, "the aggregate cache (1,000 aggregates) and the imported rulesets"))
    if history is not None:
        raw_rate = history.events_in_log / history.raw_seconds
        replay_rate = history.events_in_log / history.replay_seconds
        decode_rate = history.events_in_log / history.decode_seconds
        msgspec_rate = history.events_in_log / history.raw_msgspec_seconds
        rows.append(_row(f"Replay of {history.events_in_log:,} events: every projection rebuilt / raw read + json.loads",
                         f"{replay_rate:,.0f} vs {raw_rate:,.0f} events/s", replay_rate / raw_rate, ">= 0.50", replay_rate / raw_rate >= 0.50,
                         "each event is decoded (msgspec, about 3.8 µs), given its timeline line (its game's words gathered once, "
                         "each distinct line said once: about 1.7 µs) and its dice rows (about 1 µs), and the rows are written by COPY "
                         "in the batch's transaction, on the 2 cores the Python shares with PostgreSQL's reading and writing; raw only "
                         "reads and parses JSON (bench/replay_profile.py profiles it, bench/replay_bench.py measures it beside main's code)"))
        rows.append(_row("Replay: every projection rebuilt / raw read + msgspec (the decoder the replay uses)",
                         f"{replay_rate:,.0f} vs {msgspec_rate:,.0f} events/s", replay_rate / msgspec_rate, "(beside the reference)", None))
        rows.append(_row("Replay: the library's decode alone (mapper.to_domain_event) / raw read + json.loads",
                         f"{decode_rate:,.0f} vs {raw_rate:,.0f} events/s", decode_rate / raw_rate, "(the issue's reference: about 1/3)", None))
        for what, ms in history.reads_ms.items():
            ratio = ms[HISTORY_LONG] / ms[HISTORY_SHORT]
            rows.append(_row(f"Read {what} after {HISTORY_LONG:,} / after {HISTORY_SHORT} events (warm)",
                             f"{ms[HISTORY_LONG]:.2f} vs {ms[HISTORY_SHORT]:.2f} ms", ratio, "<= 1.2", ratio <= 1.2,
                             "see the history section"))
    return rows


ISSUE_35_HEADER = ("figure (this run)", "service", "its limit, same run", "ratio", "target", "", "what limits it (when missed)")


def _issue35_row(what: str, service: str, limit: str, ratio: float | None, shown: str, target: str, met: bool | None,
                 why: str = "") -> tuple[str, ...]:
    verdict = "not measured" if met is None else ("met" if met else "**missed**")
    return (what, service, limit, shown if ratio is not None else "", target, verdict, why if met is False else "")


def issue35_rows(results: list[Any], history: HistoryResult | None, http: HttpResult | None) -> list[tuple[str, ...]]:
    """Issue 35's table, every figure beside its limit measured in this same run."""
    rows: list[tuple[str, ...]] = []
    roll, minimal = (http.run_at(8), http.run_at(8, minimal=True)) if http is not None else (None, None)
    if roll is not None and minimal is not None and minimal.per_second:
        ratio = roll.per_second / minimal.per_second
        rows.append(_issue35_row(
            "roll route through gunicorn, 8 clients", f"{roll.per_second:,.0f} req/s",
            f"minimal Flask app on the same gunicorn: {minimal.per_second:,.0f} req/s", ratio, f"{ratio:.2f}", ">= 0.40",
            ratio >= 0.40, _request_cpu(http, roll) + _beside_the_floor(http, roll)))
        cpu = roll.worker_cpu_ms_each / minimal.worker_cpu_ms_each if minimal.worker_cpu_ms_each else None
        rows.append(_issue35_row(
            "worker CPU per request, 8 clients", f"{roll.worker_cpu_ms_each:.2f} ms (roll)",
            f"{minimal.worker_cpu_ms_each:.2f} ms (minimal app)", cpu, f"{cpu:.1f}x" if cpu else "", "<= 2.5x",
            None if cpu is None else cpu <= 2.5, _request_cpu(http, roll) + _beside_the_floor(http, roll) + instructions_said(http)))
    else:
        rows.append(_issue35_row("roll route through gunicorn, 8 clients", "", "", None, "", ">= 0.40", None))
        rows.append(_issue35_row("worker CPU per request, 8 clients", "", "", None, "", "<= 2.5x", None))
    busy = http.run_at(32) if http is not None else None
    if busy is not None:
        rows.append(_issue35_row("p99 latency, 32 clients", f"{busy.p99_ms:.1f} ms (p50 {busy.p50_ms:.1f})", "—", None, "",
                                 "< 50 ms", busy.p99_ms < 50, _latency_limit(http, busy) + _beside_the_floor(http, busy)))
    else:
        rows.append(_issue35_row("p99 latency, 32 clients", "", "", None, "", "< 50 ms", None))
    if history is not None and history.replay_seconds and history.raw_seconds:
        replay = history.events_in_log / history.replay_seconds
        raw = history.events_in_log / history.raw_seconds
        rows.append(_issue35_row(
            f"replay, every view rebuilt, {history.events_in_log:,} events", f"{replay:,.0f} events/s",
            f"raw read + json.loads: {raw:,.0f}/s", replay / raw, f"{replay / raw:.2f}", ">= 0.50", replay / raw >= 0.50,
            "each event decoded, given its line and dice rows in Python (about 7 µs an event on a quiet core) and written by COPY in the "
            "batch's transaction, PostgreSQL writing beside the reading on the same 2 cores; raw only reads and parses"))
    else:
        rows.append(_issue35_row("replay, every view rebuilt", "", "", None, "", ">= 0.50", None))
    for name in ("PostgreSQL", "SQLite"):
        found = next((r for r in results if r.name == name), None)
        if found is None:
            rows.append(_issue35_row(f"{name}, 1 writer", "", "", None, "", ">= 0.70", None))
            continue
        one = found.rows[0]
        ratio = one.service.per_second / one.raw.per_second
        rows.append(_issue35_row(
            f"{name}, 1 writer", f"{one.service.per_second:,.0f} cmd/s", f"raw INSERT + COMMIT: {one.raw.per_second:,.0f}",
            ratio, f"{ratio:.2f}", ">= 0.70", ratio >= 0.70, _one_writer_limit(name, one)))
    return rows
