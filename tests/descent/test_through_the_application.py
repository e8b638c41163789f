"""Descent through the application (tracker.application.service.Tracker), on SQLite and on PostgreSQL: set-up, play, refusals
that append nothing, the heroes' redacted view and verification after the quest ends."""

from __future__ import annotations

import pytest

from tracker.application.service import Tracker
from tracker.core.errors import Unprocessable

BASE_DECK = {"decks": {"overlord": {"cards": ["Aim", "Gust of Wind", "Hordes of the Things", "Dodge"] + [f"Base card {n}" for n in range(1, 17)]}}}


def _session(tracker: Tracker, quest: str, setup: dict | None = None, party=("runewitch-astarra", "aurim")) -> str:
    cid = tracker.create_campaign("descent", "Thursday dungeon", party=list(party), components=BASE_DECK).body["id"]
    return tracker.start_session(cid, quest, setup or {}).body["id"]


def test_a_quest_set_up_and_played_through_the_application_verifies(tracker):
    sid = _session(tracker, "thing-in-the-pit", {"purchases": [{"card": "Dark Power", "remove": "Aim"}], "dark_glyphs": [{"glyph": "power"}]})
    game = tracker.get_session(sid)["game"]
    assert game["treachery"]["remaining"] == {"event": 2, "trap": 0, "monster": 2} and game["opening_hand"] == 3 + 4 // 2
    tracker.act(sid, {"type": "gain-curses", "hero": "runewitch-astarra", "count": 2})
    tracker.act(sid, {"type": "hero-killed", "hero": "runewitch-astarra"})
    tracker.act(sid, {"type": "gain-threat", "source": "corrupted-wound", "count": 2})
    game = tracker.get_session(sid)["game"]
    assert game["conquest"] == 8 - 4 and game["threat"] == 4
    tracker.end_session(sid, "defeat", ruling="the test ends the quest here")
    assert tracker.verify(sid)["status"] == "verified"


def test_a_refused_action_appends_nothing(tracker):
    sid = _session(tracker, "hall-of-the-monkey-kings")
    before = tracker.session_events(sid, limit=1000)["total"]
    with pytest.raises(Unprocessable, match="Say which hero killed the villager"):
        tracker.act(sid, {"type": "award-conquest", "award": "villager-killed"})
    with pytest.raises(Unprocessable, match="The overlord has 0 threat, not 9"):
        tracker.act(sid, {"type": "spend-threat", "purpose": "other", "amount": 9})
    assert tracker.session_events(sid, limit=1000)["total"] == before


def test_a_bad_set_up_starts_no_session(tracker):
    cid = tracker.create_campaign("descent", "Thursday dungeon", party=["aurim"], components=BASE_DECK).body["id"]
    with pytest.raises(Unprocessable, match="Not enough event treachery"):
        tracker.start_session(cid, "thing-in-the-pit", {"dark_glyphs": [{"glyph": "sundered"}, {"glyph": "sundered"}]})
    assert tracker.get_campaign(cid)["sessions"] == []


def test_the_heroes_view_through_the_application_hides_the_hand_until_the_quest_ends(tracker):
    sid = _session(tracker, "altar-of-despair", {"dark_glyphs": [{"glyph": "summoning"}]})
    hand = tracker.get_session(sid)["decks"]["overlord"]["held"]["overlord"]
    assert len(hand) == 3 + 10 // 2
    assert tracker.get_session(sid, viewer="heroes")["decks"]["overlord"]["held"] == {}
    assert tracker.get_session(sid, viewer="overlord")["decks"]["overlord"]["held"]["overlord"] == hand
    tracker.end_session(sid, "victory", ruling="the test ends the quest here")
    assert tracker.get_session(sid, viewer="heroes")["decks"]["overlord"]["held"]["overlord"] == hand
