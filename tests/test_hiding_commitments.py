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

from hypothesis import HealthCheck, given, settings, strategies as st

from tests.kit.descent import TEST_OVERLORD_DECK
from tests.kit.secrets import bearer, mint, ok, readable, verifier
from tracker.integrity import hash_chain
from tracker.integrity.verify_export import canonical_json, event_hash

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
    cid = ok(client.post("/campaigns", json={"ruleset": "descent", "name": "Pit", "party": ["kirga", "aurim"],
                                               "components": TEST_OVERLORD_DECK})).json["id"]
    sid = ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "thing-in-the-pit"})).json["id"]
    return cid, sid


def test_the_heroes_cannot_test_a_guess_of_the_overlords_draws_or_the_secret_rooms_die_against_any_hash(app, client):
    cid, sid = _descent(client)
    overlord = bearer(mint(client, cid, role="player", side="overlord"))
    heroes = bearer(mint(client, cid, role="player", side="heroes"))
    ok(client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "blank"}, headers=overlord))
    one = ok(client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": 1, "holder": "overlord"}, headers=overlord))
    two = ok(client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": 2, "holder": "overlord"}, headers=overlord))
    assert one.json["cards"] and len(two.json["cards"]) == 2
    assert guesses(app, client, cid, sid, heroes) == []


def sealed_values(app, sid):
    """What no token may see in play, by path in the stored events: the seed, a shuffle's order, an undo's piles."""
    tracker = app.extensions["tracker"]
    found = []
    for stored in tracker.recorder.select_events(UUID(sid)):
        state = hash_chain.record(tracker.mapper, stored, sealed=True)["state"]
        for path in (state.get("meta") or {}).get("sealed") or []:
            found.append((stored.originator_version, tuple(path.split(".")), _at(state, tuple(path.split(".")))))
    return found


DESCENT_STEPS = st.lists(st.sampled_from(["draw-1", "draw-2", "secret-room", "reported-draw", "heroes-roll", "undo"]), min_size=1, max_size=5)
JOURNEY_STEPS = st.lists(st.sampled_from(["roll", "draw", "shuffle", "undo"]), min_size=1, max_size=4)


@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=DESCENT_STEPS)
def test_no_value_hidden_from_the_heroes_can_be_tested_against_anything_they_read(app, client, steps):
    cid, sid = _descent(client)
    overlord = bearer(mint(client, cid, role="player", side="overlord"))
    heroes = bearer(mint(client, cid, role="player", side="heroes"))
    answers = []
    for number, step in enumerate(steps):
        if step in ("draw-1", "draw-2"):
            client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": int(step[-1]), "holder": "overlord"}, headers=overlord)
        elif step == "secret-room":
            client.post(f"/sessions/{sid}/actions", json={"type": "secret-room-roll", "face": "surge"}, headers=overlord)
        elif step == "reported-draw":
            client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "cards": ["Dodge"], "holder": "overlord"}, headers=overlord)
        elif step == "heroes-roll":  # the heroes' own answers, and their idempotent replays
            key = {**heroes, "Idempotency-Key": f"roll-{number}"}
            answers += [client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}}, headers=key).get_data(as_text=True) for _ in range(2)]
        else:
            client.post(f"/sessions/{sid}/undo", headers=overlord)
    assert guesses(app, client, cid, sid, heroes, answers) == [], steps
    owner_events = client.get(f"/sessions/{sid}/events?limit=1000").json["events"]
    assert all("salts" not in e["meta"] for e in owner_events)  # not even the owner's views show a salt in play


@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=JOURNEY_STEPS)
def test_no_sealed_value_of_a_journey_session_can_be_tested_against_anything_a_viewer_reads(app, client, steps):
    from tests.kit.journey import JOURNEY_TEST_COMPONENTS

    cid = ok(client.post("/campaigns", json={"ruleset": "journey", "name": "J", "party": ["tripitaka"], "components": JOURNEY_TEST_COMPONENTS})).json["id"]
    sid = ok(client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"})).json["id"]
    for step in steps:
        if step == "roll":
            client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}})
        elif step == "draw":
            client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 1})
        elif step == "shuffle":
            client.post(f"/sessions/{sid}/actions", json={"type": "shuffle", "deck": "fortune"})
        else:
            client.post(f"/sessions/{sid}/undo")
    viewer = bearer(mint(client, cid, role="viewer"))
    assert guesses(app, client, cid, sid, viewer) == [], steps
    # the seed, each shuffle's order, each undo's piles: not in any hash a viewer reads, whatever is tried
    text = readable(app, client, viewer, cid, sid)
    known = set(HEX.findall(text))
    tracker = app.extensions["tracker"]
    records = {s.originator_version: hash_chain.record(tracker.mapper, s) for s in tracker.recorder.select_events(UUID(sid))}
    for position, path, value in sealed_values(app, sid):
        guess = {**records[position], "state": _put(records[position]["state"], path, value)}
        assert event_hash(guess) not in known and hashlib.sha256(canonical_json(value)).hexdigest() not in known


def test_a_value_changed_in_the_store_without_its_commitment_is_found_by_the_service_verifier_and_import(app, client, database_url, tmp_path):
    from tests.kit.forgery_kit import StoredRows

    cid, sid = _descent(client)
    overlord = bearer(mint(client, cid, role="player", side="overlord"))
    # The opening hand is dealt from the session's stream: the card reported drawn is one still in the pile.
    dealt = client.get(f"/sessions/{sid}").json["decks"]["overlord"]["held"].get("overlord", [])
    card, other = [c for c in TEST_OVERLORD_DECK["decks"]["overlord"]["cards"] if c not in dealt][:2]
    ok(client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "cards": [card], "holder": "overlord"}, headers=overlord))
    text = client.get(f"/campaigns/{cid}/export").get_data(as_text=True)  # the owner's, in play: the secrets opened
    assert verifier(text, client).returncode == 0
    lines = [json.loads(line) for line in text.splitlines()]
    drawn = [line["event"] for line in lines[1:-1] if line["event"]["topic"].endswith("CardsDrawn")][-1]
    assert drawn["opened"]["change"]["value"]["cards"] == [card] and "change" not in drawn["state"]
    # a reported card changed to another the deck holds: only the commitment tells (the hashes still hold)
    drawn["opened"]["change"]["value"]["cards"] = [other]
    forged = "".join(json.dumps(line) + "\n" for line in lines)
    checked = verifier(forged, client)
    assert checked.returncode == 1 and "does not match the commitment" in checked.stdout, checked.stdout
    refused = client.post("/campaigns/import", data=forged, headers={"Content-Type": "application/x-ndjson", "Authorization": ""})
    assert refused.status_code == 422 and "commitment" in refused.json["detail"]
    StoredRows(app, database_url).edit(sid, drawn["position"], lambda state: state["change"].update(cards=[other]))
    tracker = app.extensions["tracker"]
    chain = hash_chain.check(tracker, UUID(sid))
    assert chain["status"] == "broken" and "commitment" in chain["break"]["reason"], chain


def test_a_descent_backup_in_play_moves_with_its_salts_and_the_revealed_values_verify_after_the_end(app, client, database_url, tmp_path):
    from tests.kit.secrets import cli as _cli

    cid, sid = _descent(client)
    overlord = bearer(mint(client, cid, role="player", side="overlord"))
    heroes = bearer(mint(client, cid, role="player", side="heroes"))
    ok(client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": 2, "holder": "overlord"}, headers=overlord))
    backup = tmp_path / "backup.jsonl"
    assert _cli("--database-url", database_url, "export", cid, "--backup", "-o", str(backup)).returncode == 0
    target = f"sqlite:///{tmp_path}/target.sqlite3"
    imported = _cli("--database-url", target, "import", str(backup))
    assert imported.returncode == 0, imported.stderr
    from api import create_app

    there = create_app({"TESTING": True, "DATABASE_URL": target, "PROJECTIONS_IN_PROCESS": False})
    try:
        moved = there.extensions["tracker"]
        here = app.extensions["tracker"]
        mine = [hash_chain.record(here.mapper, s, sealed=True) for s in here.recorder.select_events(UUID(sid))]
        theirs = [hash_chain.record(moved.mapper, s, sealed=True) for s in moved.recorder.select_events(UUID(sid))]
        assert [event_hash(r) for r in theirs] == [event_hash(r) for r in mine]  # every value and salt as stored
        assert moved.verify(sid)["chain"]["status"] == "intact"
    finally:
        there.extensions["tracker"].close()
        there.extensions["tracker_views"].store.datastore.close()
    ok(client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "ruling": "the table stops here"}), 200)
    shown = client.get(f"/sessions/{sid}/events?limit=1000", headers=heroes).json["events"]
    drawn = [e for e in shown if e["type"] == "CardsDrawn" and e["payload"]["change"].get("deck") == "overlord"]
    assert drawn and all(e["meta"]["salts"]["change"] and len(e["payload"]["change"]["cards"]) >= 1 for e in drawn)
    text = client.get(f"/campaigns/{cid}/export", headers=heroes).get_data(as_text=True)
    verified = verifier(text, client)
    assert verified.returncode == 0 and "VERIFIED" in verified.stdout, verified.stdout
