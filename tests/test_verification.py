"""Verification re-derives a session and names the first event that does not follow from the rest."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker import rulesets
from tracker.integrity import verification


@pytest.fixture
def played(tracker):
    """A finished session with digital and reported rolls, draws across a reshuffle and actions."""
    campaign = tracker.create_campaign("journey", "Audit", components=JOURNEY_TEST_COMPONENTS).body["id"]
    sid = tracker.start_session(campaign, "q1-meeting").body["id"]
    tracker.roll(sid, dice={"attack": 2, "d6": 1})
    tracker.roll(sid, faces={"defense": ["3"]})
    tracker.draw(sid, "fortune", count=19)
    held = tracker.get_session(sid)["decks"]["fortune"]["held"]["table"]
    tracker.act(sid, {"type": "discard", "deck": "fortune", "cards": held[:5]})
    tracker.draw(sid, "fortune", count=3)  # one from the pile, then the discards reshuffled
    tracker.act(sid, {"type": "look", "deck": "fortune", "count": 2})
    tracker.act(sid, {"type": "end-turn"})
    tracker.end_session(sid, "victory", reported={"house_cleared": True})
    events = tracker.session_history(sid)
    return events, tracker.get_campaign(campaign)["components"]


def _verify(events, components):
    return verification.verify(events, rulesets.get("journey"), components)


def _position(events, type_name, nth=0):
    return [e.originator_version for e in events if type(e).__name__ == type_name][nth]


def _replace(events, position, **changes):
    return [dataclasses.replace(e, **changes) if e.originator_version == position else e for e in events]


def test_an_untouched_session_verifies(played):
    events, components = played
    report = _verify(events, components)
    assert report["status"] == "verified", report["first_mismatch"]
    assert report["checked"]["digital_rolls"] == 1 and report["checked"]["reported_rolls"] == 1
    # two deck shuffles and the set-up's initiative order; the quest set-up and three actions
    assert report["checked"]["shuffles"] == 3 and report["checked"]["actions"] == 4


def test_a_changed_roll_is_found(played):
    events, components = played
    position = _position(events, "DiceRolled")
    roll = copy.deepcopy(events[position - 1].roll)
    roll["results"]["d6"] = [7 - roll["results"]["d6"][0]]
    report = _verify(_replace(events, position, roll=roll), components)
    assert report["status"] == "mismatch" and report["first_mismatch"]["position"] == position


def test_a_reused_counter_is_found(played):
    events, components = played
    position = _position(events, "DeckShuffled")
    change = copy.deepcopy(events[position - 1].change)
    change["counter_start"] = 0
    report = _verify(_replace(events, position, change=change), components)
    assert report["first_mismatch"]["position"] == position and "counter" in report["first_mismatch"]["reason"]


def test_a_changed_shuffle_is_found(played):
    events, components = played
    position = _position(events, "DeckShuffled", 1)
    change = copy.deepcopy(events[position - 1].change)
    change["order"] = list(reversed(change["order"]))
    report = _verify(_replace(events, position, change=change), components)
    assert report["first_mismatch"]["position"] == position


def test_a_draw_that_skipped_the_top_card_is_found(played):
    events, components = played
    position = _position(events, "CardsDrawn")
    change = copy.deepcopy(events[position - 1].change)
    change["cards"] = change["cards"][1:] + change["cards"][:1]
    report = _verify(_replace(events, position, change=change), components)
    assert report["first_mismatch"]["position"] == position


def test_an_action_whose_recorded_effect_differs_is_found(played):
    events, components = played
    position = _position(events, "TurnEnded")
    report = _verify(_replace(events, position, turn=5), components)
    assert report["first_mismatch"]["position"] == position


def test_a_seed_that_does_not_match_the_commitment_is_found(played):
    events, components = played
    position = _position(events, "SessionEnded")
    report = _verify(_replace(events, position, seed="00" * 32), components)
    assert report["status"] == "mismatch"
    assert report["first_mismatch"]["position"] == position and report["first_mismatch"]["type"] == "SessionEnded"


def test_a_stored_seed_at_the_start_that_does_not_match_the_commitment_is_found(played):
    """The start's copy of the seed is what a session in play rolls from: it must agree with the commitment too."""
    events, components = played
    report = _verify(_replace(events, 1, seed="00" * 32), components)
    assert report["status"] == "mismatch"
    assert report["first_mismatch"]["position"] == 1 and report["first_mismatch"]["type"] == "SessionStarted"
    assert _verify(_replace(events, 1, seed="not hex"), components)["first_mismatch"]["position"] == 1


def test_a_reported_face_that_the_die_cannot_show_is_found(played):
    events, components = played
    position = _position(events, "DiceRolled", 1)
    roll = copy.deepcopy(events[position - 1].roll)
    roll["results"]["defense"] = ["9"]
    assert _verify(_replace(events, position, roll=roll), components)["first_mismatch"]["position"] == position


def test_a_session_in_progress_is_pending_until_the_seed_is_revealed(played):
    events, components = played
    report = _verify(events[:-1], components)
    assert report["status"] == "pending" and report["seed"] is None


def test_a_ruleset_that_changed_since_the_campaign_was_pinned_is_said_plainly(played):
    events, components = played
    pinned = dict(events[0].ruleset, hash="sha256:" + "0" * 64)
    report = _verify(_replace(events, 1, ruleset=pinned), components)
    assert report["status"] == "ruleset-changed" and "cannot be re-derived" in report["detail"]
