"""No hostile file gets a traceback from the standalone verifier (tracker/integrity/verify_export.py): it reports FAILED
naming the line. The files are those of tests/test_hostile_files.py (tests/kit/hostile_files.py: a topic swapped,
a field dropped or given another type, every hash recomputed), checked in process on the public export and the
backup, and through the verifier as a program. Hypothesis makes the edits (seeded: derandomized, bounded)."""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.kit.forgery_kit import events, rechain, text_of as _text  # the Hypothesis tests' source keeps its names: their examples are derived from it
from tests.kit.hostile_files import checked_by_the_verifier as _checked_by_the_verifier, genuine, hostile  # noqa: F401  (genuine: a fixture)
from tracker.integrity import verify_export

ROOT = Path(__file__).resolve().parents[1]


@settings(max_examples=1500, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_the_verifier_reports_every_hostile_file_naming_a_line(genuine, data):
    for kind in ("public", "backup"):
        done, forged, _ = data.draw(hostile(genuine[kind]), label=kind)
        _checked_by_the_verifier(_text(forged), done, must_fail=False)


def _verify(path) -> subprocess.CompletedProcess:
    """The standalone verifier on a file, trusting no key (an empty saved key set): what it reads of the file is
    checked before the signature, so a hostile edit is FAILED naming its line; a file it reads whole then fails
    only on its signature, which no trusted key made."""
    keys = path.with_name("no-keys.json")
    keys.write_text('{"keys": []}', encoding="utf-8")
    return subprocess.run([sys.executable, str(ROOT / "tracker" / "integrity" / "verify_export.py"), str(path), "--jwks", str(keys)], capture_output=True, text=True, timeout=60)


def _verdict(ran: subprocess.CompletedProcess) -> str:
    """The verdict line, after the line that names the keys trusted."""
    return "\n".join(line for line in ran.stdout.splitlines() if not line.startswith("Trusted keys"))


@settings(max_examples=10, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_the_standalone_verifier_exits_1_naming_the_line_never_a_traceback(genuine, tmp_path, data):
    done, forged, _ = data.draw(hostile(genuine["public"], swaps_only=True), label="edit")
    path = tmp_path / "forged.jsonl"
    path.write_text(_text(forged), encoding="utf-8")
    ran = _verify(path)
    # Some swaps leave everything the verifier reads intact (it knows no game's rules: the import does): it
    # then verifies. Either way it answers, and a failure names the line.
    assert ran.returncode in (0, 1) and "Traceback" not in ran.stderr, (done, ran.stdout, ran.stderr)
    if ran.returncode == 1:
        assert _verdict(ran).startswith("FAILED: ") and re.search(r"\(line \d+", ran.stdout), (done, ran.stdout)


@pytest.mark.parametrize("name, other", [("ActionTaken", "DiceRolled"), ("DiceRolled", "ActionTaken"), ("CardsDrawn", "SessionStarted"), ("TurnEnded", "DeckShuffled")])
def test_the_standalone_verifier_names_the_line_of_a_swap_it_reads(genuine, tmp_path, name, other):
    """The issue's cases that crashed the verifier (KeyError: 'counter_start', 'roll', 'seed_commitment')."""
    forged = copy.deepcopy(genuine["public"])
    file_events = events(forged)
    index = next(i for i, e in enumerate(file_events) if verify_export.event_name(e["topic"]) == name)
    file_events[index]["topic"] = next(e["topic"] for e in file_events if verify_export.event_name(e["topic"]) == other)
    path = tmp_path / "forged.jsonl"
    path.write_text(_text(rechain(forged, unsigned=True)), encoding="utf-8")
    ran = _verify(path)
    assert ran.returncode == 1 and "Traceback" not in ran.stderr, (ran.stdout, ran.stderr)
    assert _verdict(ran).startswith("FAILED: ") and f"(line {index + 2}," in ran.stdout, ran.stdout
