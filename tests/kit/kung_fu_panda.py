"""Kung Fu Panda played through the REST API in tests: the die faces a group might supply, and the session helpers
(tests/kit/session.py) with Kung Fu Panda's party and mission set-up."""

from __future__ import annotations

from tests.kit import session

# A face layout a group might supply as component data, to exercise digital rolls (a test input, not a fact).
TEST_COMPONENTS = {"dice": {"action-die": {"faces": ["Punch", "Kick", "Claws", "Chi", "Move", "Chi"]}}}


def campaign(client, options, party=("po", "tigress"), components=None) -> str:
    return session.campaign(client, "kung-fu-panda", party, name="Valley of Peace", components=components or None, options=options)["id"]


def start(client, cid, quest, setup) -> str:
    return session.start(client, cid, quest, setup)["id"]


def act(client, sid, body, status=201) -> dict:
    return session.act(client, sid, body, status)


def refused(client, sid, body, title_part) -> dict:
    return session.refused(client, sid, body, title_part)


def game(client, sid) -> dict:
    return session.read(client, sid)["game"]


kinds = session.event_types
