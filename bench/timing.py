"""Timing one call: the median of repeated runs, in milliseconds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_ms(func: Callable[[], Any], repeats: int, *, warm: bool = False) -> float:
    """``warm``: call once first, untimed, so caches are filled before the timed runs."""
    if warm:
        func()
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        func()
        timings.append(time.perf_counter() - started)
    return 1000 * statistics.median(timings)
