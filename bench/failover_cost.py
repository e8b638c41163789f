"""What a synchronous standby costs, and how long writes pause when the primary is lost (issue 36).

    .venv/bin/python bench/failover_cost.py

One pg_auto_failover formation of throwaway servers on this machine (tests/kit/formation.py: a monitor, a primary
and its synchronous standby). In one run, on the same primary and the same database:

- **with the standby**: the formation healthy, every commit acknowledged only once the standby has it
  (``synchronous_standby_names`` set by pg_auto_failover);
- **without it**: the standby's server killed, the monitor has put the primary in ``wait_primary`` (it commits alone);
- **with the standby again**, once it has rejoined, so that a drift of the machine between the cases shows.

Each case measures, in rounds (as bench/run.py does), raw INSERT + COMMIT of a row the size of a stored DiceRolled
event, and the service's write path (``tracker.roll``, the application against the formation's multi-host URL),
from one writer and from eight (each writer on sessions of its own). The ratios with / without carry the meaning.

Then the **write pause of a failover**: eight writers roll through the application, each retrying a roll with its
Idempotency-Key until it is acknowledged; the primary's server is killed (keeper and postmaster, SIGKILL); the pause
is the longest time without an acknowledged roll from the kill on, once writes resume on the promoted standby. It is
repeated (the killed node rejoined as the standby in between) and every sample is reported.

The monitor's checks are tests/kit/formation.py's quick ones (unhealthy after 4 s), not pg_auto_failover's defaults
(20 s): the pause measured is what those settings give, and most of it is the monitor's detection. Nothing asserts
a figure; bench/RESULTS.md keeps the last run's in its own section.
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import psycopg  # noqa: E402

from import_memory import replace_section  # noqa: E402
from run import (  # noqa: E402
    DICE, N_THREADS, CountingTracker, PostgresRaw, Rate, measure_raw, measure_rolls, median_rate, stored_roll, warm_up_service,
)
from tests.kit.formation import formation  # noqa: E402
from tests.kit.second_cluster import NoCluster  # noqa: E402
from tracker.adapters.config import persistence_env  # noqa: E402
from tracker.application.unit_of_work import Request  # noqa: E402

SECTION = "## Synchronous standby and failover (pg_auto_failover)"
ROUNDS = 3
FAILOVERS = 2
BENCH_DB = "bench"


def _measure_case(app: CountingTracker, raw: PostgresRaw, payload: bytes) -> dict[str, dict[int, Rate]]:
    """Raw commits and service rolls from 1 writer and from N_THREADS, the median of ROUNDS rounds each."""
    runs: dict[str, dict[int, list[Rate]]] = {"raw": {1: [], N_THREADS: []}, "service": {1: [], N_THREADS: []}}
    for _ in range(ROUNDS):
        for writers in (1, N_THREADS):
            runs["raw"][writers].append(measure_raw(raw, payload, writers))
            runs["service"][writers].append(measure_rolls(app, N_THREADS if writers > 1 else 1, writers, share_session=False).rate)
    return {what: {w: median_rate(rates) for w, rates in by.items()} for what, by in runs.items()}


class _Writers:
    """N_THREADS writers rolling through the application, each roll retried with its key until acknowledged."""

    def __init__(self, app: CountingTracker, sessions: list[str]) -> None:
        self.app, self.sessions = app, sessions
        self.acked: list[float] = []
        self.refused = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._write, args=(sid,), daemon=True) for sid in sessions]

    def _write(self, session_id: str) -> None:
        while not self.stop.is_set():
            request = Request(idempotency_key=str(uuid.uuid4()))
            while True:
                try:
                    self.app.roll(session_id, dice=DICE, request=request)
                except Exception:  # noqa: BLE001 - the primary is gone: the same key again, as a client would
                    with self.lock:
                        self.refused += 1
                    if self.stop.is_set():
                        break
                    time.sleep(0.05)
                    continue
                with self.lock:
                    self.acked.append(time.monotonic())
                break

    def count(self) -> int:
        with self.lock:
            return len(self.acked)

    def wait_for(self, more: int, seconds: float) -> None:
        target, deadline = self.count() + more, time.monotonic() + seconds
        while self.count() < target:
            if time.monotonic() > deadline:
                raise RuntimeError(f"writes did not resume within {seconds:.0f} s")
            time.sleep(0.02)

    def pause_after(self, moment: float) -> float:
        with self.lock:
            times = [moment, *sorted(t for t in self.acked if t >= moment)]
        return max(b - a for a, b in zip(times, times[1:]))


def _failover_pauses(ha, app: CountingTracker) -> list[float]:
    campaign = app.create_campaign("journey", "Failover bench").body["id"]
    sessions = [app.start_session(campaign, "q1-meeting").body["id"] for _ in range(N_THREADS)]
    writers = _Writers(app, sessions)
    for thread in writers.threads:
        thread.start()
    pauses = []
    try:
        writers.wait_for(80, 60)
        for _ in range(FAILOVERS):
            killed = ha.primary()
            promoted = next(name for name in ha.nodes if name != killed)
            at = time.monotonic()
            ha.kill(killed)
            ha.wait(f"{promoted} promoted", lambda: ha.primary() == promoted, 90)
            writers.wait_for(N_THREADS * 10, 90)
            pauses.append(writers.pause_after(at))
            print(f"  failover {len(pauses)}: writes paused {pauses[-1]:.1f} s", flush=True)
            ha.restart(killed)
            ha.wait(f"{killed} back as the standby", ha.healthy, 180)
            writers.wait_for(N_THREADS * 5, 60)
    finally:
        writers.stop.set()
        for thread in writers.threads:
            thread.join(timeout=30)
    return pauses


def _without_the_standby(ha) -> str:
    """Kill the standby's server and wait until the monitor lets the primary commit alone; the standby's name."""
    primary = ha.primary()
    standby = next(name for name in ha.nodes if name != primary)
    ha.kill(standby)
    ha.wait("the primary commits alone (wait_primary)", lambda: ha.states().get(primary, ("", ""))[0] == "wait_primary", 90)
    with psycopg.connect(ha.node_url(primary), autocommit=True) as conn:
        names = conn.execute("SHOW synchronous_standby_names").fetchone()[0]
    if names:
        raise RuntimeError(f"the primary still waits for {names!r} without its standby")
    return standby


def _sync_state(ha) -> str:
    with psycopg.connect(ha.node_url(ha.primary()), autocommit=True) as conn:
        rows = conn.execute("SELECT sync_state FROM pg_stat_replication").fetchall()
    return ", ".join(row[0] for row in rows) or "none"


def measure() -> dict:
    load_at_start = os.getloadavg()[0]
    with formation() as ha:
        with psycopg.connect(ha.node_url(ha.primary()), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {BENCH_DB}")
        url = ha.url(BENCH_DB)
        schema = "public"
        raw = PostgresRaw(ha.node_url(ha.primary(), BENCH_DB), schema)
        raw.setup()
        app = CountingTracker(env=persistence_env(url))
        try:
            warm_up_service(app)
            payload = stored_roll(app)
            measure_raw(raw, payload, N_THREADS)  # warm-up, untimed
            cases = {}
            print(f"  with the standby ({_sync_state(ha)}) ...", flush=True)
            cases["with the standby"] = _measure_case(app, raw, payload)
            standby = _without_the_standby(ha)
            print("  without it (wait_primary) ...", flush=True)
            cases["without the standby"] = _measure_case(app, raw, payload)
            ha.restart(standby)
            ha.wait(f"{standby} back as the standby", ha.healthy, 180)
            print(f"  with the standby again ({_sync_state(ha)}) ...", flush=True)
            cases["with the standby again"] = _measure_case(app, raw, payload)
            print("  failovers under 8 writers ...", flush=True)
            pauses = _failover_pauses(ha, app)
        finally:
            app.close()
    return {"cases": cases, "pauses": pauses, "event_bytes": len(payload), "load": (load_at_start, os.getloadavg()[0])}


def section(result: dict) -> list[str]:
    cases, pauses = result["cases"], result["pauses"]
    alone = cases["without the standby"]
    rows = []
    for name, figures in cases.items():
        for writers in (1, N_THREADS):
            raw, service = figures["raw"][writers], figures["service"][writers]
            rows.append(f"| {name} | {writers} | {raw.per_second:,.0f} | {raw.per_second / alone['raw'][writers].per_second:.2f} | "
                        f"{service.per_second:,.0f} | {service.per_second / alone['service'][writers].per_second:.2f} | "
                        f"{service.per_second / raw.per_second:.2f} |")
    first, again = cases["with the standby"], cases["with the standby again"]
    drift = max(abs(1 - again[what][w].per_second / first[what][w].per_second) for what in ("raw", "service") for w in (1, N_THREADS))
    cost = {what: {w: 1 - (first[what][w].per_second + again[what][w].per_second) / 2 / alone[what][w].per_second for w in (1, N_THREADS)}
            for what in ("raw", "service")}
    if drift > 0.25:
        reading = (f"**Not a clean run**: the two cases with the standby, before and after the one without it, differ by up to "
                   f"{drift:.0%} (load average {result['load'][0]:.1f} at the start, {result['load'][1]:.1f} at the end, on 2 cores): "
                   "the machine was busy with other work, so the with / without ratios above carry that noise more than the standby's cost.")
    else:
        reading = (f"The two cases with the standby, before and after the one without it, agree within {drift:.0%} (load average "
                   f"{result['load'][0]:.1f} at the start, {result['load'][1]:.1f} at the end). Averaged over both, the synchronous standby costs "
                   f"one writer {cost['service'][1]:.0%} of its commands/s ({cost['raw'][1]:.0%} of raw commits) and eight writers "
                   f"{cost['service'][N_THREADS]:.0%} ({cost['raw'][N_THREADS]:.0%} raw). A commit waits for the standby's flush (one more "
                   "loopback round trip and its fsync); concurrent commits share the standby's flushes. On one machine the standby also "
                   "takes CPU and disk from the primary; on separate hosts the cost is the network round trip instead.")
    return [
        SECTION,
        "",
        f"`bench/failover_cost.py`, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC: one pg_auto_failover formation on this machine "
        "(tests/kit/formation.py: monitor, primary, synchronous standby; every server on the same 2 cores), the same primary and database "
        f"in every case. *raw*: INSERT + COMMIT of a {result['event_bytes']}-byte row (a stored DiceRolled event); *service*: "
        "`tracker.roll` through the application on the formation's multi-host URL, each writer on sessions of its own. "
        f"Median of {ROUNDS} rounds per figure; *without the standby*: its server killed, the primary in `wait_primary` "
        "(`synchronous_standby_names` empty, it commits alone).",
        "",
        "| case | writers | raw commits/s | / without | service cmd/s | / without | service / raw |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        reading,
        "",
        f"**Write pause during a failover** (8 writers, the primary's server killed with SIGKILL, each roll retried with its "
        f"Idempotency-Key): {', '.join(f'{p:.1f} s' for p in pauses)} (median {statistics.median(pauses):.1f} s). Most of it is the "
        "monitor's own timing (tests/kit/formation.py): 4 s without an answer before it calls the primary unhealthy, then the 6 s "
        "demote timeout it waits before promoting the standby; then the promotion and the pool's reconnect on its next checkout. "
        "pg_auto_failover's defaults (20 s and 30 s) would make it about 40 s longer. tests/test_failover.py checks the pause stays "
        "under its bound.",
        "",
    ]


def main() -> None:
    started = time.perf_counter()
    try:
        result = measure()
    except NoCluster as missing:
        print(f"not measured: {missing}")
        return
    path = ROOT / "bench" / "RESULTS.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(replace_section(text, SECTION, "\n".join(section(result))), encoding="utf-8")
    print("\n".join(section(result)))
    print(f"wrote {path} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
