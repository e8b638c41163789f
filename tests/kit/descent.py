"""Descent played through the REST API in tests: the overlord deck a group might supply, and the session helpers
(tests/kit/session.py) with Descent's keyword actions."""

from __future__ import annotations

from tests.kit import session
from tracker.rulesets.descent import turn

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
    """``action`` at its moment of the turn (act_in_turn, below)."""
    return act_in_turn(client, sid, **action)


def refused(client, sid, **action) -> dict:
    """``action`` refused by its rule at its moment of the turn (refused_in_turn, below)."""
    return refused_in_turn(client, sid, **action)


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


# -- The turn (rules 1.7.0 on: tracker/rulesets/descent/turn.py) --------------------------------------------------------
# Descent's session keeps whose turn it is: each hero's turn, then the overlord's. A test of a rule takes the session to
# the moment its action belongs to with the turn's own actions, as a table would, then acts.


def _state(client, sid) -> dict:
    return session.read(client, sid)


def _acting_hero(game, action) -> str | None:
    kind = action["type"]
    hero = action.get(turn.HERO_FIELD.get(kind, "hero"))
    if hero in (game.get("heroes") or {}) and not (kind == turn.ATTACK and action.get("dark_charm")):
        return hero
    return None


def _step(client, sid, by=None, **action) -> None:
    """A turn action, posted by the owner's client, or with the headers ``by(action)`` gives (a side's token)."""
    if by is None:
        session.act(client, sid, action)
        return
    done = client.post(f"/sessions/{sid}/actions", json=action, headers=by(action))
    assert done.status_code == 201, done.json


def to_heroes_turns(client, sid, by=None) -> None:
    """Out of the overlord's turn and any hero's turn: the heroes' turns, between two of them."""
    game = _state(client, sid)["game"]
    if game.get("phase") == turn.OVERLORD_PHASE:
        _step(client, sid, by, type=turn.END_TURN)
    elif game.get("active"):
        _step(client, sid, by, type=turn.END_HERO_TURN, hero=game["active"])


def to_overlord_turn(client, sid, by=None) -> None:
    """The overlord's turn: the heroes still to have theirs this turn have them first."""
    game = _state(client, sid)["game"]
    if game.get("phase") == turn.OVERLORD_PHASE:
        return
    to_heroes_turns(client, sid, by)
    for hero in [h for h in game["heroes"] if h not in (_state(client, sid)["game"].get("turns_taken") or [])]:
        _step(client, sid, by, type=turn.START_HERO_TURN, hero=hero)
        _step(client, sid, by, type=turn.END_HERO_TURN, hero=hero)
    _step(client, sid, by, type=turn.START_OVERLORD_TURN)


def to_hero_turn(client, sid, hero: str | None = None, by=None) -> None:
    """``hero``'s turn (None: any hero's, the one under way or the next one's): the turn moves on until it is his."""
    for _ in range(3 + 2 * 6):
        game = _state(client, sid)["game"]
        if game.get("phase") == turn.HEROES_PHASE and game.get("active") and hero in (None, game["active"]):
            return
        waiting = [h for h in game["heroes"] if h not in (game.get("turns_taken") or [])]
        if game.get("phase") == turn.HEROES_PHASE and not game.get("active") and (hero in waiting or (hero is None and waiting)):
            _step(client, sid, by, type=turn.START_HERO_TURN, hero=hero or waiting[0])
            return
        if game.get("phase") == turn.HEROES_PHASE and not game.get("active") and not waiting:
            _step(client, sid, by, type=turn.START_OVERLORD_TURN)
        elif game.get("phase") == turn.HEROES_PHASE and not game.get("active"):
            _step(client, sid, by, type=turn.START_HERO_TURN, hero=waiting[0])  # the heroes before him this turn
        else:
            to_heroes_turns(client, sid, by)
    raise AssertionError(f"{hero}'s turn was never reached")


def to_moment(client, sid, action: dict, by=None) -> None:
    """The session taken to the moment of the turn ``action`` belongs to (where the session keeps the turn)."""
    state = _state(client, sid)
    game = state.get("game") or {}
    if "phase" not in game or game.get("phase") is None:
        return  # a session of rules from before the turn: every action at any time
    allowed = [e for e in state["allowed"] if e["type"] == action["type"]]
    hero = _acting_hero(game, action)
    kind = action["type"]
    if kind == turn.ATTACK:
        if hero is None or any(hero in (e["heroes"] or []) for e in allowed):
            return
        to_hero_turn(client, sid, hero, by)
    elif kind in turn.HERO_TURN:
        if not any(e["heroes"] and (hero is None or hero in e["heroes"]) for e in allowed):
            to_hero_turn(client, sid, hero or ("sharr-the-brightwing" if kind == "sharr-cleanses-glyph" and "sharr-the-brightwing" in game["heroes"] else None), by)
    elif kind in turn.OVERLORD_TURN or kind == turn.END_TURN:
        to_overlord_turn(client, sid, by)


def act_in_turn(client, sid, **action) -> dict:
    """``action`` taken at its moment of the turn (to_moment), answered 201."""
    to_moment(client, sid, action)
    return session.act(client, sid, action)


def refused_in_turn(client, sid, **action) -> dict:
    """``action``, refused by its rule at its moment of the turn (to_moment): a problem, nothing appended."""
    to_moment(client, sid, action)
    return session.refused(client, sid, action)
