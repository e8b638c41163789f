"""One writer against a raw commit, both backends, measured side by side in one run.

The issue's one-writer figures (bench/run.py's "1 session, sequential" case beside its raw INSERT + COMMIT
of a row the size of a stored DiceRolled event), without the rest of `make bench`: rounds alternate raw and
service, each figure is the median round's, and the CPU a command uses is printed beside the raw insert's.
With ``--profile``, one more round of the service case runs under cProfile and the functions that take
most of its time are printed.

    .venv/bin/python bench/writer_bench.py [sqlite|postgres|both] [rounds] [--profile]

BENCH_SQLITE_DIR puts SQLite's files (service and raw alike) in that directory: on a memory file system
(/dev/shm) the commit is nearly free, so the figure is the CPU a command costs beside a raw insert's, which a
busy disk on a shared machine otherwise hides.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import (  # noqa: E402
    N_ROLLS, CountingTracker, Rate, measure_raw, measure_rolls, median_rate, persistence_env, postgres_backend,
    sqlite_backend, stored_roll, warm_up_service,
)


def one_writer(backend_name: str, rounds: int, profile: bool) -> None:
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_SQLITE_DIR")) as directory:
        backend = sqlite_backend(Path(directory)) if backend_name == "sqlite" else postgres_backend()
        app = CountingTracker(env=persistence_env(backend.tracker_url))
        try:
            warm_up_service(app)
            payload = stored_roll(app)
            backend.raw.setup()
            measure_raw(backend.raw, payload, 1)  # warm-up, untimed
            raws: list[Rate] = []
            services: list[Rate] = []
            for _ in range(rounds):
                raws.append(measure_raw(backend.raw, payload, 1))
                services.append(measure_rolls(app, 1, 1, True).rate)
            raw, service = median_rate(raws), median_rate(services)
            print(
                f"{backend.name}, 1 writer, {N_ROLLS} commands x {rounds} rounds: service {service.per_second:.0f} cmd/s "
                f"(CPU {service.cpu_ms_each:.3f} ms/cmd, {service.ms_each:.3f} ms/cmd), raw {raw.per_second:.0f}/s "
                f"(CPU {raw.cpu_ms_each:.3f} ms), service/raw {service.per_second / raw.per_second:.2f}"
            )
            if profile:
                profiler = cProfile.Profile()
                profiler.runcall(measure_rolls, app, 1, 1, True)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        finally:
            app.close()
            backend.cleanup()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    which = args[0] if args else "both"
    rounds = int(args[1]) if len(args) > 1 else 5
    for name in (("sqlite", "postgres") if which == "both" else (which,)):
        one_writer(name, rounds, "--profile" in sys.argv)
