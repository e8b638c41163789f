"""BENCH_QUICK=1 make bench: every section, in a few minutes instead of the full run's, to see that the benchmark runs
and roughly where each figure of the issue's table stands. Shorter runs, fewer rounds and a shorter history are
noisier, so a quick run prints its tables and leaves bench/RESULTS.md as it was: the figures written there are a full
run's."""

from __future__ import annotations

import os

QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")


def scaled(full: int, quick: int) -> int:
    """``full`` in a full run, ``quick`` under BENCH_QUICK=1."""
    return quick if QUICK else full
