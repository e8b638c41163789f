"""`make bench` rewrites bench/RESULTS.md from its own run, but a round's side-by-side measurements (this code beside
main's before it, written by hand) are kept where they stood, after the targets they explain: before, each run dropped
them, and each round wrote them in again from memory."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"

OLD = (
    "# Benchmarks\n\n## Targets (issue 35)\n\n| old table |\n\n"
    "## Replay beside main's code (issue 35, 2026-12-03)\n\nFive rounds: 0.59 against 0.27.\n\n"
    "## Targets (issue 9)\n\nold figures\n\n"
    "## The roll route beside main's code (issue 35, 2026-12-03)\n\n1,383 calls, was 1,837.\n"
)


def test_the_sections_written_beside_main_s_code_are_kept_after_the_targets_and_no_other(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import run

    try:
        parts = ["# Benchmarks", "", "## Targets (issue 35)", "", "| new table |", "", "## Targets (issue 9)", "", "new figures", ""]
        written = "\n".join(run.with_hand_written(parts, OLD))
    finally:
        sys.modules.pop("run", None)
    assert written == (
        "# Benchmarks\n\n## Targets (issue 35)\n\n| new table |\n\n"
        "## Replay beside main's code (issue 35, 2026-12-03)\n\nFive rounds: 0.59 against 0.27.\n\n"
        "## The roll route beside main's code (issue 35, 2026-12-03)\n\n1,383 calls, was 1,837.\n"
        "\n## Targets (issue 9)\n\nnew figures\n"
    )
    assert "old table" not in written and "old figures" not in written
