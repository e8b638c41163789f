"""No file gets a 500: hostile export files, every hash recomputed after the edit, against the import and the verifier.

A forger with the README swaps an event's topic for another of the same game, drops a field or gives it
another type, then renumbers, re-links and re-hashes everything, so the chain checks pass. Whatever the
edit, the import's check answers with a refusal naming a line (tracker.errors.Unprocessable, a 422) or
accepts a file the edit left meaningful, and never raises anything else; the standalone verifier
(tracker/verify_export.py) reports FAILED naming the line, never a traceback. Hypothesis makes the edits
(seeded: derandomized, bounded in examples); most go straight to the import's checking function, some
through POST /campaigns/import on SQLite and PostgreSQL, and some through the verifier as a program."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import JOURNEY_TEST_COMPONENTS
from tracker import portability, verify_export
from tracker.application import Tracker
from tracker.config import persistence_env
from tracker.errors import Conflict, Unprocessable

ROOT = Path(__file__).resolve().parents[1]
NDJSON = {"Content-Type": "application/x-ndjson"}
LINE = re.compile(r"\bline (\d+)", re.IGNORECASE)
# Values of every JSON type, and numbers no counter or position can be.
OTHER_VALUES = [None, True, False, 0, -1, 1.5, 2**70, "", "x", [], ["x"], {}, {"kind": "x"}]


def _play(app: Tracker, cid: str, quest: str, end: str | None) -> str:
    """A session with every kind of event an import meets: set-up draws, digital and reported rolls, draws, a
    reshuffle, a discard, a turn's end, an undo, component data supplied in play; ended, abandoned, or in play."""
    sid = app.start_session(cid, quest).body["id"]
    app.roll(sid, dice={"attack": 2, "d6": 1}, purpose="attack")
    app.roll(sid, faces={"defense": ["3"]})
    cards = app.draw(sid, "fortune", count=19, holder="monkey-king").body["cards"]
    app.act(sid, {"type": "discard", "deck": "fortune", "cards": cards[:5], "holder": "monkey-king"})
    app.draw(sid, "fortune", count=3)  # reshuffles the discards
    app.act(sid, {"type": "end-turn"})
    app.roll(sid, dice={"d20": 1})
    app.undo(sid)
    if end == "ended":
        app.end_session(sid, "victory", ruling="the table rules the quest won")
    elif end == "abandoned":
        app.abandon_session(sid, "time ran out")
    return sid


@pytest.fixture(scope="module")
def genuine(tmp_path_factory) -> dict[str, Any]:
    """A campaign's public export and its backup, built once: one session ended, one abandoned, one in play
    (whose seed no public file holds, so its random actions' effects are taken as recorded)."""
    path = tmp_path_factory.mktemp("hostile")
    app = Tracker(env=persistence_env(f"sqlite:///{path / 'genuine.sqlite3'}"))
    cid = app.create_campaign("journey", "Hostile", ["tripitaka", "monkey-king"], {"dice": JOURNEY_TEST_COMPONENTS["dice"]}).body["id"]
    app.supply_components(cid, {"decks": JOURNEY_TEST_COMPONENTS["decks"]})
    _play(app, cid, "q1-meeting", "ended")
    _play(app, cid, "q2-rescue", "abandoned")
    _play(app, cid, "q2-rescue", None)
    public = [json.loads(line) for line in app.export_campaign(cid)]
    backup = [json.loads(line) for line in app.export_campaign(cid, backup=True)]
    app.close()
    return {"public": public, "backup": backup, "path": path}


@pytest.fixture(scope="module")
def importer(genuine):
    """The database the files are imported into: it holds nothing, so a file the checks accept would be written."""
    app = Tracker(env=persistence_env(f"sqlite:///{genuine['path'] / 'target.sqlite3'}"))
    yield app
    app.close()


# -- the forger's tools ------------------------------------------------------------------------------------


def _events(lines: list[dict]) -> list[dict]:
    return [line["event"] for line in lines if "event" in line]


def _rechain(lines: list[dict]) -> list[dict]:
    """Renumber each stream, recompute every prev_hash, session_head and line hash, and rewrite the trailer."""
    heads: dict[str, str] = {}
    positions: dict[str, int] = {}
    for event in _events(lines):
        stream = event["stream"]
        positions[stream] = event["position"] = positions.get(stream, 0) + 1
        meta = event["state"].get("meta") if isinstance(event["state"], dict) else None
        if isinstance(meta, dict):
            meta["prev_hash"] = heads.get(stream)
            session = event["state"].get("session_id")
            if "session_head" in meta and isinstance(session, str) and session in heads:
                meta["session_head"] = heads[session]
        event.pop("withheld", None)
        heads[stream] = event["hash"] = verify_export.event_hash(event)
    lines[-1] = {"trailer": {"events": len(_events(lines)), "heads": heads}}
    return lines


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a JSON value (keys and list indexes), the value itself excluded."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append(prefix + (key,))
            found += _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append(prefix + (index,))
            found += _paths(item, prefix + (index,))
    return found


def _holder(value: Any, path: tuple) -> Any:
    for part in path[:-1]:
        value = value[part]
    return value


class Forged(tuple):
    def __repr__(self) -> str:  # what was done, not the whole file
        return repr(self[0])


@st.composite
def hostile(draw, lines: list[dict], swaps_only: bool = False) -> tuple[str, list[dict], int]:
    """(what was done, the forged lines re-hashed, the forged event's line number)."""
    forged = copy.deepcopy(lines)
    events = _events(forged)
    index = draw(st.integers(0, len(events) - 1))
    event = events[index]
    topics = sorted({e["topic"] for e in events} - {event["topic"]})
    how = "swap" if swaps_only else draw(st.sampled_from(["swap", "drop", "retype", "retype"]))
    if how == "swap":
        event["topic"] = draw(st.sampled_from(topics))
        done = f"topic of line {index + 2} -> {event['topic']}"
    else:
        paths = [p for p in _paths(event["state"]) if p[0] != "timestamp"] or [("meta",)]
        path = draw(st.sampled_from(paths))
        holder = _holder(event["state"], path)
        if how == "drop":
            del holder[path[-1]]
        else:
            holder[path[-1]] = draw(st.sampled_from(OTHER_VALUES))
        done = f"{how} {'.'.join(map(str, path))} of line {index + 2} ({verify_export.event_name(event['topic'])})"
    return Forged((done, _rechain(forged), index + 2))


def _text(lines: list[dict]) -> str:
    return "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n"


def _checked_by_the_import(app: Tracker, text: str, done: str, must_refuse: bool) -> None:
    """The import's check of the file: a refusal naming a line of the file, or (for an edit that left the file
    meaningful) acceptance. Nothing is written either way: accepted, it meets the campaign already here."""
    before = app.recorder.max_notification_id()
    try:
        portability.import_text(app, text)
    except Unprocessable as refusal:
        named = [int(n) for n in LINE.findall(f"{refusal.title} {refusal.detail}")]
        assert named and all(1 <= n <= text.count("\n") for n in named), (done, refusal.title, refusal.detail)
    except Conflict:
        assert not must_refuse, f"{done}: accepted"
    else:
        raise AssertionError(f"{done}: written into a database that holds the campaign")
    assert app.recorder.max_notification_id() == before, done


def _checked_by_the_verifier(text: str, done: str, must_fail: bool) -> None:
    report = verify_export.verify_lines(text.splitlines())
    if report["status"] == "failed":
        assert report["failure"]["line"] is not None, (done, report["failure"])
    else:
        assert not must_fail, f"{done}: verified"


# -- the properties ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def holding(genuine, importer):
    """The importer holding the genuine campaign: every file the checks accept then meets it (a 409), unwritten."""
    portability.import_text(importer, _text(genuine["public"]))
    return importer


def test_every_topic_swap_of_every_event_type_is_refused_naming_a_line(genuine, holding):
    """The issue's finding, exhaustively: each event type's first event given every other topic of the file."""
    lines = genuine["public"]
    events = _events(lines)
    firsts = {}
    for index, event in enumerate(events):
        firsts.setdefault(event["topic"], index)
    topics = sorted(firsts)
    for topic, index in firsts.items():
        for other in topics:
            if other == topic:
                continue
            forged = copy.deepcopy(lines)
            _events(forged)[index]["topic"] = other
            text = _text(_rechain(forged))
            done = f"line {index + 2}: {verify_export.event_name(topic)} -> {verify_export.event_name(other)}"
            _checked_by_the_import(holding, text, done, must_refuse=True)


@settings(max_examples=1500, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_the_verifier_reports_every_hostile_file_naming_a_line(genuine, data):
    for kind in ("public", "backup"):
        done, forged, _ = data.draw(hostile(genuine[kind]), label=kind)
        _checked_by_the_verifier(_text(forged), done, must_fail=False)


@settings(max_examples=250, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_the_imports_check_refuses_every_hostile_file_naming_a_line(genuine, holding, data):
    kind = data.draw(st.sampled_from(["public", "backup"]), label="file")
    done, forged, _ = data.draw(hostile(genuine[kind]), label="edit")
    text = _text(forged)
    _checked_by_the_import(holding, text, done, must_refuse=done.startswith("topic"))
    _checked_by_the_verifier(text, done, must_fail=False)


@settings(max_examples=12, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_post_campaigns_import_answers_422_naming_the_line_and_appends_nothing(app, genuine, data):
    """Through the API on each backend, into a database without the campaign: a refusal writes nothing."""
    client = app.test_client()
    tracker = app.extensions["tracker"]
    done, forged, _ = data.draw(hostile(genuine["public"], swaps_only=True), label="edit")
    before = tracker.recorder.max_notification_id()
    response = client.post("/campaigns/import", data=_text(forged), headers=NDJSON)
    assert response.status_code == 422 and response.mimetype == "application/problem+json", (done, response.status_code, response.get_data(as_text=True)[:500])
    assert LINE.search(f"{response.json['title']} {response.json['detail']}"), (done, response.json)
    assert "nothing was imported" in f"{response.json['title']} {response.json['detail']}"
    assert tracker.recorder.max_notification_id() == before


def _verify(path) -> subprocess.CompletedProcess:
    """The standalone verifier on a file, trusting no key (an empty saved key set): what it reads of the file is
    checked before the signature, so a hostile edit is FAILED naming its line; a file it reads whole then fails
    only on its signature, which no trusted key made."""
    keys = path.with_name("no-keys.json")
    keys.write_text('{"keys": []}', encoding="utf-8")
    return subprocess.run([sys.executable, str(ROOT / "tracker" / "verify_export.py"), str(path), "--jwks", str(keys)], capture_output=True, text=True, timeout=60)


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
    events = _events(forged)
    index = next(i for i, e in enumerate(events) if verify_export.event_name(e["topic"]) == name)
    events[index]["topic"] = next(e["topic"] for e in events if verify_export.event_name(e["topic"]) == other)
    path = tmp_path / "forged.jsonl"
    path.write_text(_text(_rechain(forged)), encoding="utf-8")
    ran = _verify(path)
    assert ran.returncode == 1 and "Traceback" not in ran.stderr, (ran.stdout, ran.stderr)
    assert _verdict(ran).startswith("FAILED: ") and f"(line {index + 2}," in ran.stdout, ran.stdout
