"""Events stored by earlier code must keep loading: a fixture of serialized events, read by today's classes."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.domain import Campaign, IdempotencyRecord, Session
from tracker.domain.events import TrackerCreated, TrackerEvent
from tracker.adapters.repository import mutate_each

FIXTURES = sorted(Path(__file__).with_name("fixtures").glob("stored_events_v*.json"))


@pytest.fixture
def app(tmp_path):
    app = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/empty.sqlite3"))
    yield app
    app.close()


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_stored_events_still_load_and_rebuild_the_same_state(app, fixture):
    data = json.loads(fixture.read_text())
    aggregates: dict[str, object] = {}
    for record in data["records"]:
        stored = StoredEvent(
            originator_id=UUID(record["originator_id"]),
            originator_version=record["originator_version"],
            topic=record["topic"],
            state=json.dumps(record["state"], separators=(",", ":")).encode(),
        )
        event = app.mapper.to_domain_event(stored)
        # each aggregate given what the application gives those it loads (a session: the rules it pinned)
        aggregates[record["originator_id"]] = mutate_each(aggregates.get(record["originator_id"]), [event], app.given)
    expected = data["expected"]
    campaign = aggregates[expected["campaign"]["id"]]
    session = aggregates[expected["session"]["id"]]
    assert isinstance(campaign, Campaign) and isinstance(session, Session)
    # State may gain fields over time; everything the old code derived must come out the same.
    campaign_state = {**campaign.state(), "components": campaign.components}
    assert {key: campaign_state.get(key) for key in expected["campaign"]} == expected["campaign"]
    session_state = session.state()
    assert {key: session_state.get(key) for key in expected["session"]} == expected["session"]


def test_the_fixture_covers_every_session_event_type():
    topics = {record["topic"].rsplit(".", 1)[-1] for f in FIXTURES for record in json.loads(f.read_text())["records"]}
    session_events = {name for name, cls in vars(Session).items() if inspect.isclass(cls) and issubclass(cls, (TrackerEvent, TrackerCreated))}
    assert session_events <= topics, session_events - topics


def test_every_event_class_has_an_upcaster_for_each_version_step():
    """A class at version N must say how to read versions 1..N-1, or old events stop loading."""
    for aggregate in (Campaign, Session, IdempotencyRecord):
        for name, cls in vars(aggregate).items():
            if inspect.isclass(cls) and issubclass(cls, (TrackerEvent, TrackerCreated)):
                assert isinstance(cls.class_version, int) and cls.class_version >= 1, name
                for step in range(1, cls.class_version):
                    assert callable(getattr(cls, f"upcast_v{step}_v{step + 1}", None)), f"{name} lacks upcast_v{step}_v{step + 1}"


@pytest.mark.parametrize("fixture", ["stored_events_v5.json", "stored_events_v6.json"])
def test_campaigns_pinned_before_their_rules_changed_still_resolve_to_those_rules(fixture):
    """Journey 1.0.0 (v5) and Descent 1.0.0 (v6) campaigns: their games' data and actions changed since, and the
    archive keeps each version's data and published contract (tracker/rulesets/versions/), so the pin still
    resolves and their sessions re-derive with the rules they were played under. (Older fixtures were pinned
    to hashes of code from before the archive existed.)"""
    from tracker import rulesets

    data = json.loads((Path(__file__).with_name("fixtures") / fixture).read_text())
    pins = [record["state"]["ruleset"] for record in data["records"] if record["topic"].endswith("CampaignCreated")]
    assert pins
    for pin in pins:
        resolved = rulesets.resolve(pin)
        assert resolved is not None and resolved.hash == pin["hash"] and resolved.version == pin["version"]
        assert rulesets.get(pin["id"]).hash != pin["hash"]  # the code's own rules moved on


# Fixtures pinned to hashes of code from before the archive existed: verification says the rules changed.
BEFORE_THE_ARCHIVE = {"stored_events_v1.json", "stored_events_v2.json", "stored_events_v3.json", "stored_events_v4.json"}


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_every_stored_session_verifies_under_the_rules_it_pinned(fixture, tmp_path):
    """An export's promise: a session played under rules this server archives re-derives, event for event, as it
    was played, and says so (status "verified"); one pinned to rules from before the archive says the rules changed."""
    data = json.loads(fixture.read_text())
    app = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/stored.sqlite3"))
    try:
        app.recorder.insert_events([
            StoredEvent(originator_id=UUID(r["originator_id"]), originator_version=r["originator_version"], topic=r["topic"],
                        state=json.dumps(r["state"], separators=(",", ":")).encode())
            for r in data["records"]
        ])
        sessions = sorted({r["originator_id"] for r in data["records"] if r["topic"].endswith("SessionStarted")})
        assert sessions
        expected = "ruleset-changed" if fixture.name in BEFORE_THE_ARCHIVE else "verified"
        reports = {session: app.verify(session) for session in sessions}
        assert {s: r["status"] for s, r in reports.items()} == {s: expected for s in sessions}, [r.get("first_mismatch") for r in reports.values()]
    finally:
        app.close()
