"""No file gets a 500 from the import: hostile export files, every hash recomputed after the edit.

A forger with the README swaps an event's topic for another of the same game, drops a field or gives it
another type, then renumbers, re-links and re-hashes everything, so the chain checks pass (tests/kit/hostile_files.py).
Whatever the edit, the import's check answers with a refusal naming a line (tracker.core.errors.Unprocessable, a 422)
or accepts a file the edit left meaningful, and never raises anything else. Hypothesis makes the edits (seeded:
derandomized, bounded in examples); most go straight to the import's checking function, some through
POST /campaigns/import on SQLite and PostgreSQL. The standalone verifier on the same files:
tests/test_hostile_files_verifier.py."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.kit.forgery_kit import NDJSON, events, rechain, text_of as _text  # the Hypothesis tests' source keeps its names: their examples are derived from it
from tests.kit.hostile_files import LINE, checked_by_the_verifier as _checked_by_the_verifier, genuine, hostile  # noqa: F401  (genuine: a fixture)
from tracker.portability import campaign_files as portability
from tracker.integrity import verify_export
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.core.errors import Conflict, Unprocessable


@pytest.fixture(scope="module")
def importer(genuine):
    """The database the files are imported into: it holds nothing, so a file the checks accept would be written."""
    app = Tracker(env=persistence_env(f"sqlite:///{genuine['path'] / 'target.sqlite3'}"))
    yield app
    app.close()


@pytest.fixture(scope="module")
def holding(genuine, importer):
    """The importer holding the genuine campaign: every file the checks accept then meets it (a 409), unwritten."""
    portability.import_text(importer, _text(genuine["public"]))
    return importer


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


def test_every_topic_swap_of_every_event_type_is_refused_naming_a_line(genuine, holding):
    """The issue's finding, exhaustively: each event type's first event given every other topic of the file."""
    lines = genuine["public"]
    firsts = {}
    for index, event in enumerate(events(lines)):
        firsts.setdefault(event["topic"], index)
    topics = sorted(firsts)
    for topic, index in firsts.items():
        for other in topics:
            if other == topic:
                continue
            forged = copy.deepcopy(lines)
            events(forged)[index]["topic"] = other
            text = _text(rechain(forged, unsigned=True))
            done = f"line {index + 2}: {verify_export.event_name(topic)} -> {verify_export.event_name(other)}"
            _checked_by_the_import(holding, text, done, must_refuse=True)


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
