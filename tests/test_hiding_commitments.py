"""What is secret from a side enters the public hash only as a salted commitment, on SQLite and PostgreSQL (issue 29).

The finding: a heroes-side token read ``/sessions/{sid}/events``, hashed each card of the public card list in the
event's public form and compared with the next event's ``meta.prev_hash``: the overlord's draws and the secret room's
die face came out. ``guesses`` plays that attack for every value a token's views leave out: for each such value it
takes the event as the hash covers it (everything else in it is what a reader could know or learn), puts each
candidate from the public lists in the value's place, and looks for the result among every hash the token can read;
it also tries each candidate as an unsalted commitment, and salted with every 32-byte hex string the token can read.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import re
from uuid import UUID

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_descent_api import TEST_OVERLORD_DECK
from tests.test_secrets import _mint, _ok, _verifier, bearer, readable
from tracker import hash_chain
from tracker.verify_export import canonical_json, event_hash

HEX = re.compile(r"[0-9a-f]{64}")


def _leaves(value, path=()):
    """Every value in a JSON tree by its path; a list of plain values is one value too (a hand of cards, a roll's faces)."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))


def _at(value, path):
    for part in path:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and part < len(value):
            value = value[part]
        else:
            return _ABSENT
    return value


_ABSENT = object()


def _put(value, path, item):
    """``value`` with ``item`` at ``path``, making the objects on the way."""
    value = copy.deepcopy(value)
    holder = value
    for part in path[:-1]:
        if isinstance(holder, list):
            holder = holder[part]
        else:
            holder = holder.setdefault(part, {})
    holder[path[-1]] = item
    return value


def hidden_values(owner_events, token_events):
    """(position, path in the payload, value) for each value the owner's view of an event holds and the token's does not."""
    shown = {e["position"]: e["payload"] for e in token_events}
    found = []
    for event in owner_events:
        theirs = shown[event["position"]]
        for path, value in _leaves(event["payload"]):
            if path and not isinstance(value, dict) and _at(theirs, path) != value:
                found.append((event["position"], path, value))
    return found


def public_lists(client, cid, token):
    """The lists of names any reader has: the rules document's, and the campaign's component data."""
    lists = []

    def gather(value):
        if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
            lists.append(value)
        for item in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
            gather(item)

    campaign = client.get(f"/campaigns/{cid}", headers=token).json
    gather(client.get(f"/rulesets/{campaign['ruleset']['id']}").json)
    gather(campaign.get("components") or {})
    return lists


def candidates(value, lists, limit=40):
    """What an attacker would try for ``value``: names from a public list that holds it (for a list, orderings of
    as many of them), or small numbers; the true value always among them."""
    tried = [value]
    if isinstance(value, str):
        tried += [name for names in lists if value in names for name in names][:limit]
    elif isinstance(value, list) and value and len(value) <= 3 and all(isinstance(item, str) for item in value):
        for names in lists:
            if set(value) <= set(names):
                tried += [list(p) for p in itertools.islice(itertools.permutations(names, len(value)), limit)]
    elif isinstance(value, bool):
        tried += [True, False]
    elif isinstance(value, int):
        tried += list(range(0, 30))
    return tried


def guesses(app, client, cid, sid, token, also=()):
    """The guesses that reproduce a hash (or a commitment) ``token`` can read: (position, path, candidate)."""
    owner_events = client.get(f"/sessions/{sid}/events?limit=1000").json["events"]
    token_events = client.get(f"/sessions/{sid}/events?limit=1000", headers=token).json["events"]
    text = readable(app, client, token, cid, sid) + "\n".join(also)
    known = set(HEX.findall(text))
    salts = [bytes.fromhex(h) for h in known]
    lists = public_lists(client, cid, token)
    tracker = app.extensions["tracker"]
    records = {s.originator_version: hash_chain.record(tracker.mapper, s) for s in tracker.recorder.select_events(UUID(sid))}
    found = []
    for position, path, value in hidden_values(owner_events, token_events):
        for candidate in candidates(value, lists):
            guess = {**records[position], "state": _put(records[position]["state"], path, candidate)}
            committed = canonical_json(candidate)
            tried = [event_hash(guess), hashlib.sha256(committed).hexdigest()]
            tried += [hashlib.sha256(salt + committed).hexdigest() for salt in salts]
            if any(h in known for h in tried):
                found.append((position, ".".join(map(str, path)), candidate))
    return found


def _descent(client):
    cid = _ok(client.post("/campaigns", json={"ruleset": "descent", "name": "Pit", "party": ["kirga", "aurim"],
                                               "components": TEST_OVERLORD_DECK})).json["id"]
    sid = _ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "thing-in-the-pit"})).json["id"]
    return cid, sid


def test_the_heroes_cannot_test_a_guess_of_the_overlords_draws_or_the_secret_rooms_die_against_any_hash(app, client):
    cid, sid = _descent(client)
    overlord = bearer(_mint(client, cid, role="player", side="overlord"))
    heroes = bearer(_mint(client, cid, role="player", side="heroes"))
    _ok(client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "blank"}, headers=overlord))
    one = _ok(client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": 1, "holder": "overlord"}, headers=overlord))
    two = _ok(client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": 2, "holder": "overlord"}, headers=overlord))
    assert one.json["cards"] and len(two.json["cards"]) == 2
    assert guesses(app, client, cid, sid, heroes) == []
