"""Authorization is the application's (tracker/application/authorization.py): every command refuses a token that may not run it,
whatever channel called it. These call the application itself, no HTTP in between, and check that a refusal
appends nothing (tests/test_access.py shows the same refusals over the REST API)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker.application.service import Request, Tracker
from tracker.application.authorization import OWNER_ONLY
from tracker.core.errors import Forbidden

DESCENT_DECK = {"decks": {"overlord": {"cards": ["Aim", "Gust of Wind", "Hordes of the Things", "Dodge"] + [f"Base card {n}" for n in range(1, 17)]}}}

# Every command on a session, as a token of that campaign would send it.
SESSION_COMMANDS: dict[str, Callable[[Tracker, str, Request], Any]] = {
    "roll": lambda t, sid, r: t.roll(sid, {"d6": 1}, request=r),
    "draw": lambda t, sid, r: t.draw(sid, "fortune", 1, holder="tripitaka", request=r),
    "act": lambda t, sid, r: t.act(sid, {"type": "meditate", "hero": "tripitaka"}, request=r),
    "end": lambda t, sid, r: t.end_session(sid, "defeat", request=r),
    "abandon": lambda t, sid, r: t.abandon_session(sid, "the table stopped", request=r),
    "undo": lambda t, sid, r: t.undo(sid, request=r),
}
# And on a campaign: starting a session is a player's, the rest the owner's.
CAMPAIGN_COMMANDS: dict[str, Callable[[Tracker, str, Request], Any]] = {
    "start_session": lambda t, cid, r: t.start_session(cid, "q1-meeting", request=r),
    "supply_components": lambda t, cid, r: t.supply_components(cid, {"decks": {}}, request=r),
    "mint_token": lambda t, cid, r: t.mint_token(cid, "player", request=r),
    "revoke_token": lambda t, cid, r: t.revoke_token(cid, "tok_0000000000000000", request=r),
}


def _journey(tracker: Tracker) -> tuple[str, str]:
    cid = tracker.create_campaign("journey", "Tuesday group", party=["tripitaka", "monkey-king"], components=JOURNEY_TEST_COMPONENTS).body["id"]
    sid = tracker.start_session(cid, "q1-meeting").body["id"]
    tracker.roll(sid, {"d6": 1})  # something the owner did, for an undo to find
    return cid, sid


def _token(role: str, heroes: tuple[str, ...] = (), side: str | None = None) -> Request:
    return Request(issued_by=f"tok_{role}{''.join(heroes)}{side or ''}", role=role, heroes=heroes, side=side)


def _refused(tracker: Tracker, run: Callable[[], Any]) -> str:
    """The title of the Forbidden ``run`` raises, once nothing was appended."""
    before = tracker.recorder.max_notification_id()
    with pytest.raises(Forbidden) as refused:
        run()
    assert tracker.recorder.max_notification_id() == before
    return refused.value.title


@pytest.mark.parametrize(("role", "title"), [("viewer", "Viewer tokens are read-only"), ("integration", "Integration tokens may only read the event log")])
def test_every_command_refuses_a_token_that_only_reads(tracker: Tracker, role: str, title: str) -> None:
    cid, sid = _journey(tracker)
    request = _token(role)
    for name, command in SESSION_COMMANDS.items():
        assert _refused(tracker, lambda command=command: command(tracker, sid, request)) == title, name
    assert _refused(tracker, lambda: CAMPAIGN_COMMANDS["start_session"](tracker, cid, request)) == title
    for name in ("supply_components", "mint_token", "revoke_token"):
        assert _refused(tracker, lambda name=name: CAMPAIGN_COMMANDS[name](tracker, cid, request)) == OWNER_ONLY, name


def test_a_player_token_runs_no_owners_command(tracker: Tracker) -> None:
    cid, sid = _journey(tracker)
    player = _token("player")
    for name in ("supply_components", "mint_token", "revoke_token"):
        assert _refused(tracker, lambda name=name: CAMPAIGN_COMMANDS[name](tracker, cid, player)) == OWNER_ONLY, name
    assert _refused(tracker, lambda: SESSION_COMMANDS["abandon"](tracker, sid, player)) == "Only the campaign's owner abandons a session"
    assert _refused(tracker, lambda: tracker.end_session(sid, "defeat", ruling="we say so", request=player)) == "Only the campaign's owner makes a table ruling"


def test_a_player_token_acts_draws_and_undoes_only_for_its_own_heroes(tracker: Tracker) -> None:
    _, sid = _journey(tracker)
    monkey = _token("player", heroes=("monkey-king",))
    assert "Monkey King" in _refused(tracker, lambda: SESSION_COMMANDS["draw"](tracker, sid, monkey))
    assert "Monkey King" in _refused(tracker, lambda: SESSION_COMMANDS["act"](tracker, sid, monkey))
    assert "Monkey King" in _refused(tracker, lambda: SESSION_COMMANDS["undo"](tracker, sid, monkey))  # the owner's roll, for no hero of its own
    assert tracker.draw(sid, "fortune", 1, holder="monkey-king", request=monkey).status == 201
    assert tracker.undo(sid, request=monkey).status == 201  # its own draw
    assert tracker.roll(sid, {"d6": 1}, request=monkey).status == 201  # a roll names no hero


def test_a_player_token_acts_and_draws_only_for_its_own_side(tracker: Tracker) -> None:
    cid = tracker.create_campaign("descent", "Thursday dungeon", party=["runewitch-astarra", "aurim"], components=DESCENT_DECK).body["id"]
    sid = tracker.start_session(cid, "thing-in-the-pit").body["id"]
    heroes, overlord = _token("player", side="heroes"), _token("player", side="overlord")
    play_a_card = {"type": "play-overlord-card", "card": "Aim", "threat_cost": 2}
    assert _refused(tracker, lambda: tracker.act(sid, play_a_card, request=heroes)) == "This token plays the heroes side, not the overlord"
    assert _refused(tracker, lambda: tracker.draw(sid, "overlord", 1, request=heroes)) == "This token plays the heroes side, not the overlord"
    assert tracker.draw(sid, "overlord", 1, request=overlord).status == 201
    assert _refused(tracker, lambda: tracker.undo(sid, request=heroes)) == "This token plays the heroes side; the action it would undo was the overlord's"
    assert tracker.undo(sid, request=overlord).status == 201
    assert _refused(tracker, lambda: tracker.end_session(sid, "defeat", request=heroes)).startswith("Only the campaign's owner ends a quest played by two sides")


def test_the_owner_and_the_operator_may_run_every_command(tracker: Tracker) -> None:
    cid, sid = _journey(tracker)
    for request in (_token("owner"), Request()):  # Request(): the command line, no token
        assert tracker.mint_token(cid, "viewer", request=request).status == 201
        assert tracker.draw(sid, "fortune", 1, holder="tripitaka", request=request).status == 201
        assert tracker.undo(sid, request=request).status == 201
