"""Commands start from the state their process last saved (tracker/application/command_cache.py): two applications on one
store, as two gunicorn workers are, so one of them always starts from a state the other has moved past.

A stale start must never show: not as a reused random counter, not as a lost or doubled event, not as a
refusal (412, 409, 422) that the current state would not give."""

from __future__ import annotations

import json
import threading
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker.application.service import Request, Tracker
from tracker.adapters.config import persistence_env
from tracker.core.errors import Conflict, PreconditionFailed


@pytest.fixture
def other(tracker: Tracker, database_url: str):
    second = Tracker(env={**persistence_env(database_url), "CREATE_TABLE": "n"})
    yield second
    second.close()


def _session(tracker: Tracker) -> str:
    campaign = tracker.create_campaign("journey", "Two devices", components=JOURNEY_TEST_COMPONENTS).body["id"]
    return tracker.start_session(campaign, "q1-meeting").body["id"]


def test_a_roll_from_a_stale_start_is_rolled_again_on_the_current_state(tracker: Tracker, other: Tracker) -> None:
    sid = _session(tracker)
    first = tracker.roll(sid, dice={"d6": 2}).body  # the first application now keeps this state
    assert tracker.command_cache.version(UUID(sid)) == first["version"]
    elsewhere = other.roll(sid, dice={"d6": 3}).body  # ... which the second moves past
    again = tracker.roll(sid, dice={"d6": 2}).body

    assert again["version"] == elsewhere["version"] + 1
    # the random counter goes on from the other application's roll: no number is drawn twice
    assert again["counter_start"] == elsewhere["counter_end"]
    stored = tracker.recorder.select_events(UUID(sid))
    assert [e.originator_version for e in stored] == list(range(1, len(stored) + 1))
    assert sum(e.topic.endswith("DiceRolled") for e in stored) == 3


def test_an_if_match_on_the_current_version_is_not_refused_by_a_stale_start(tracker: Tracker, other: Tracker) -> None:
    sid = _session(tracker)
    tracker.roll(sid, dice={"d6": 1})
    current = other.roll(sid, dice={"d6": 1}).body["version"]

    answer = tracker.roll(sid, dice={"d6": 1}, request=Request(if_match=current))
    assert answer.status == 201 and answer.body["version"] == current + 1
    with pytest.raises(PreconditionFailed):  # an old version is still refused
        tracker.roll(sid, dice={"d6": 1}, request=Request(if_match=current))


def test_a_session_ended_elsewhere_is_refused_as_ended(tracker: Tracker, other: Tracker) -> None:
    sid = _session(tracker)
    tracker.roll(sid, dice={"d6": 1})
    other.end_session(sid, "victory", reported={"house_cleared": True})
    with pytest.raises(Conflict, match="The session has ended"):
        tracker.roll(sid, dice={"d6": 1})
    assert tracker.command_cache.version(UUID(sid)) is None  # the stale state was dropped


def test_a_card_drawn_elsewhere_is_not_drawn_again(tracker: Tracker, other: Tracker) -> None:
    sid = _session(tracker)
    tracker.draw(sid, "fortune", count=1)
    drawn_elsewhere = other.draw(sid, "fortune", count=1).body["cards"]
    drawn_here = tracker.draw(sid, "fortune", count=1).body["cards"]
    assert not set(drawn_here) & set(drawn_elsewhere)
    held = tracker.get_session(sid)["decks"]["fortune"]
    assert held["draw_pile"] == other.get_session(sid)["decks"]["fortune"]["draw_pile"]


def test_a_campaign_changed_elsewhere_lists_every_session(tracker: Tracker, other: Tracker) -> None:
    campaign = tracker.create_campaign("journey", "Two devices").body["id"]
    first = tracker.start_session(campaign, "q1-meeting").body["id"]  # kept: the campaign as of this start
    second = other.start_session(campaign, "q1-meeting").body["id"]
    third = tracker.start_session(campaign, "q1-meeting").body["id"]
    listed = [s["id"] for s in other.get_campaign(campaign)["sessions"]]
    assert listed == [first, second, third]


def test_a_failed_command_leaves_the_kept_state_as_it_was(tracker: Tracker) -> None:
    sid = _session(tracker)
    before = tracker.roll(sid, dice={"d6": 1}).body["version"]
    with pytest.raises(Exception):
        tracker.draw(sid, "no-such-deck", count=1)
    assert tracker.command_cache.version(UUID(sid)) in (None, before)
    assert tracker.roll(sid, dice={"d6": 1}).body["version"] == before + 1


def _containers(value: object, seen: set[int]) -> set[int]:
    if isinstance(value, (dict, list)) and id(value) not in seen:
        seen.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, seen)
    return seen


def test_an_answer_shares_nothing_with_the_session_the_next_command_changes(tracker: Tracker) -> None:
    """The saved session is handed to the next command, which changes it in place; an answer still being
    written out (or kept by a caller) must not change with it."""
    sid = _session(tracker)
    answers = [
        tracker.roll(sid, dice={"d6": 2}).body,
        tracker.draw(sid, "fortune", count=2).body,
        tracker.act(sid, {"type": "discard", "deck": "fortune", "cards": [tracker.get_session(sid)["decks"]["fortune"]["held"]["table"][0]]}).body,
    ]
    frozen = json.loads(json.dumps(answers))
    kept = tracker.command_cache.take(UUID(sid))
    assert kept is not None
    in_session = _containers(vars(kept), set())
    for answer in answers:
        assert not _containers(answer, set()) & in_session
    tracker.command_cache.put(kept)
    tracker.draw(sid, "fortune", count=1, holder="monkey-king")
    assert json.loads(json.dumps(answers)) == frozen


def test_threads_of_one_process_take_turns_on_a_session_instead_of_racing(tracker: Tracker) -> None:
    sid = _session(tracker)
    conflicts = []
    save = tracker.save

    def counting_save(*objs, **kwargs):
        try:
            return save(*objs, **kwargs)
        except IntegrityError:
            conflicts.append(1)
            raise

    tracker.save = counting_save
    answers: list[int] = []
    threads = [threading.Thread(target=lambda: [answers.append(tracker.roll(sid, dice={"d6": 1}).body["version"]) for _ in range(25)]) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == len(set(answers)) == 200
    assert conflicts == []
    assert len(tracker.turns) == 0  # no lock is kept for a session nobody is writing
