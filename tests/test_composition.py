"""The Tracker is composed, not mixed: the library's Application holding its collaborators (the loads, the write path,
the commands, the queries), each handed what it needs; and a unit of work runs on what it is given, no application."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker.application.service import Tracker
from tracker.application.command_cache import CommandCache
from tracker.application.commands import Commands
from tracker.domain import Session
from tracker.core.errors import NotFound
from tracker.application.loading import Loading
from tracker.application.queries import Queries
from tracker.application.unit_of_work import UnitOfWork, WritePath

ROOT = Path(__file__).resolve().parents[1]


def test_the_tracker_inherits_only_the_librarys_application() -> None:
    own = [cls.__qualname__ for cls in Tracker.__mro__ if cls.__module__.startswith("tracker")]
    assert own == ["Tracker"]
    assert not any(issubclass(cls, (Commands, Queries, Loading, WritePath)) for cls in Tracker.__mro__)


@pytest.mark.parametrize(("part", "cls"), [("commands", Commands), ("queries", Queries)])
def test_every_command_and_query_is_the_trackers_and_goes_to_its_collaborator(part: str, cls: type) -> None:
    public = [name for name, _ in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")]
    assert public
    for name in public:
        forwarded = getattr(Tracker, name, None)
        assert forwarded is not None, f"Tracker.{name} is missing: add it to the Tracker's list in tracker/application/service.py"
        assert forwarded.__wrapped__ is getattr(cls, name), name
        assert inspect.signature(forwarded) == inspect.signature(getattr(cls, name)), name


def test_the_collaborators_are_the_ones_the_tracker_was_built_with(tracker: Tracker) -> None:
    assert tracker.commands.loading is tracker.queries.loading is tracker.write_path.loading is tracker.loading
    assert tracker.commands.write_path is tracker.write_path and tracker.command_cache is tracker.write_path.command_cache
    assert tracker.commands.grants is tracker.queries.grants is tracker.grants
    cid = tracker.create_campaign("journey", "Composed", party=["tripitaka"], components=JOURNEY_TEST_COMPONENTS).body["id"]
    assert tracker.get_campaign(cid) == tracker.queries.get_campaign(cid)


def test_a_unit_of_work_runs_on_the_loader_and_cache_it_is_given(tracker: Tracker) -> None:
    cid = tracker.create_campaign("journey", "Composed", party=["tripitaka"], components=JOURNEY_TEST_COMPONENTS).body["id"]
    sid = tracker.start_session(cid, "q1-meeting").body["id"]
    session = tracker.loading.session(sid)
    loads: list[str] = []

    def load(raw_id: str, cls: type, what: str) -> object:
        loads.append(raw_id)
        return session

    cache = CommandCache()
    cache.put(session)
    first = UnitOfWork(load, cache, lambda s: tracker.loading.rules_for_session(s), from_cache=True)
    assert first.for_change(sid, Session, "session") is session and first.taken == [session.id] and loads == []
    retry = UnitOfWork(load, cache, lambda s: tracker.loading.rules_for_session(s), from_cache=False)
    assert retry.for_change(sid, Session, "session") is session and retry.taken == [] and loads == [sid]
    missing = UnitOfWork(tracker.loading.load, CommandCache(), tracker.loading.rules_for_session, from_cache=True)
    with pytest.raises(NotFound):
        missing.for_change("not-an-id", Session, "session")


def test_the_write_path_reaches_into_no_application() -> None:
    source = (ROOT / "tracker" / "application" / "unit_of_work.py").read_text(encoding="utf-8")
    assert "SLF001" not in source and "self.app" not in source


def test_no_module_of_the_service_reaches_into_another_s_private_parts() -> None:
    """What one part needs of another is public and given (the unit of work its loader, a resolver its working copy's
    checks): no line silences the linter's private-member rule to reach past that."""
    reaching = [f"{path.relative_to(ROOT)}:{number}" for folder in ("tracker", "api", "projections")
                for path in sorted((ROOT / folder).rglob("*.py"))
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "noqa: SLF001" in line]
    assert reaching == []
