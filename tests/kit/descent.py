"""Descent played through the REST API in tests: the overlord deck a group might supply, and the session helpers
(tests/kit/session.py) with Descent's keyword actions."""

from __future__ import annotations

from tests.kit import session

KNOWN_BASE = ["Danger", "Dark Balm", "Crushing Block", "Paralyzing Gas", "Blood Ape Tribe", "Black Order",
              "Aim", "Gust of Wind", "Hordes of the Things", "Dark Charm", "Dodge", "Explosive Rune"]
# A base overlord deck a group might supply as component data so the tracker can draw digitally.
# The names past the twelve known ones are test inputs, not facts about the real deck.
TEST_OVERLORD_DECK = {"decks": {"overlord": {"cards": KNOWN_BASE + [f"Base card {n}" for n in range(1, 13)]}}}
EVANS_PURCHASES = [
    {"card": "Dance of the Monkey God", "remove": "Aim"},
    {"card": "Dark Power", "remove": "Gust of Wind"},
    {"card": "Time Slips Away", "remove": "Hordes of the Things"},
]
# The heroes' sheets a table states at set-up (test inputs, in the shape the set-up takes).
SHEETS = {"tahlia": {"wounds": 12, "fatigue": 4, "armor": 2}, "aurim": {"wounds": 8, "fatigue": 5, "armor": 1}}


def campaign(client, party, components=None, options=None) -> str:
    return session.campaign(client, "descent", party, name="Thursday dungeon", components=components, options=options)["id"]


def start(client, cid, quest, setup=None) -> str:
    return session.start(client, cid, quest, setup)["id"]


def act(client, sid, **action) -> dict:
    return session.act(client, sid, action)


def refused(client, sid, **action) -> dict:
    return session.refused(client, sid, action)


def game(client, sid, view=None) -> dict:
    """The session as a side sees it (``view``: ``heroes`` or ``overlord``; none: the owner's)."""
    return session.read(client, sid, view)


def verified(client, sid) -> None:
    session.ruled_and_verified(client, sid)


def in_combat(client, quest="mists-of-time", party=("tahlia", "aurim"), sheets=SHEETS, **setup) -> str:
    """A session of ``quest`` whose heroes start with the sheets given."""
    cid = campaign(client, list(party))
    return start(client, cid, quest, {"hero_sheets": sheets, **setup})


def placed(client, sid, *monsters, source="zone 1 revealed") -> list[str]:
    """The ids of the monster figures placed."""
    done = act(client, sid, type="place-monsters", monsters=list(monsters), source=source)
    return [f["id"] for f in session.change(done, "MonstersPlaced")["figures"]]


def attack(client, sid, attacker, target, faces, **more) -> dict:
    """One attack (melee unless ``attack_type`` says otherwise) with the faces the table rolled."""
    return act(client, sid, type="attack", attacker=attacker, target=target, attack_type=more.pop("attack_type", "melee"), faces=faces, **more)
