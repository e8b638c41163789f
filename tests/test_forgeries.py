"""Forgeries an auditor tried, each built with every hash recomputed, on SQLite and on PostgreSQL.

Each is shown refused three ways: by the standalone verifier (tracker/verify_export.py) reading the
file, by the import (POST /campaigns/import, which re-checks the file and re-derives every session),
and by the service's verification (GET /sessions/{sid}/verification) after the same forgery was
written into the stored rows past the application. What the file alone cannot show is stated in the
README, and checked there (tests/test_export_format.py)."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from tests.conftest import JOURNEY_TEST_COMPONENTS
from tests.test_audit import NDJSON, StoredRows, _export, _lines, _notifications, _play_journey
from tests.test_audit import empty_postgres_url, target  # noqa: F401  (fixtures: an empty PostgreSQL to import into)
from tracker import sealing, verify_export
from tracker.verify_export import event_hash, verify_lines

PROBLEM = "application/problem+json"


# -- building a forgery ----------------------------------------------------------------------------------


def _events(lines: list[dict]) -> list[dict]:
    return [line["event"] for line in lines if "event" in line]


def _rechain(lines: list[dict]) -> list[dict]:
    """What a forger with the README does after an edit: renumber each stream, recompute every
    prev_hash, session_head and line hash, and rewrite the trailer to agree."""
    heads: dict[str, str] = {}
    positions: dict[str, int] = {}
    for event in _events(lines):
        stream = event["stream"]
        positions[stream] = event["position"] = positions.get(stream, 0) + 1
        meta = event["state"]["meta"]
        meta["prev_hash"] = heads.get(stream)
        if "session_head" in meta and event["state"].get("session_id") in heads:
            meta["session_head"] = heads[event["state"]["session_id"]]
        heads[stream] = event["hash"] = event_hash(event)
    lines[-1] = {"trailer": {"events": len(_events(lines)), "heads": heads}}
    return lines


def _text(lines: list[dict]) -> str:
    return "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n"


def _of(lines: list[dict], name: str, stream: str | None = None) -> list[dict]:
    return [e for e in _events(lines) if verify_export.event_name(e["topic"]) == name and stream in (None, e["stream"])]


def _store_forgery(app, database_url: str, genuine: list[dict], forged: list[dict]) -> None:
    """Write the forged file's events into the stored rows (edits and deletions), as a tamperer with the database would."""
    rows = StoredRows(app, database_url)
    kept = {(e["stream"], e["position"]): e["state"] for e in _events(forged)}
    for event in _events(genuine):
        key = (event["stream"], event["position"])
        if key not in kept:
            rows.delete(*key)
        elif kept[key] != event["state"]:
            rows.edit(*key, lambda state, new=kept[key]: _replace_public_form(state, new))


def _replace_public_form(stored: dict, forged: dict) -> None:
    """The row takes the forged public form; the sealed values it kept stay, unless the forgery set them."""
    kept = {path: value for path, value in sealing.values(stored).items() if not sealing.holds(forged, path)}
    new = sealing.restore(forged, kept)
    stored.clear()
    stored.update(new)


def _refused_by_verifier_and_import(client, app, text: str, reason: str) -> dict:
    report = verify_lines(text.splitlines())
    assert report["status"] == "failed" and reason in report["failure"]["reason"], report
    before = _notifications(app)
    imported = client.post("/campaigns/import", data=text, headers=NDJSON)
    # Refused before anything else is looked at: the same file unforged gets 409 (already here), not 422.
    assert imported.status_code == 422 and imported.mimetype == PROBLEM, imported.json
    assert "nothing was imported" in imported.json["title"] and imported.json["detail"]
    assert _notifications(app) == before
    return report["failure"]


def _refused_by_the_service(client, sid: str, reason: str) -> dict:
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "mismatch" and reason in report["first_mismatch"]["reason"], (report["first_mismatch"], report["chain"])
    return report["first_mismatch"]


def _genuine(client, cid: str) -> list[dict]:
    text = _export(client, cid)
    assert verify_lines(text.splitlines())["status"] in ("verified", "pending")
    assert client.post("/campaigns/import", data=text, headers=NDJSON).status_code == 409  # passes every check
    return _lines(text)


# -- the holes -------------------------------------------------------------------------------------------


def test_the_last_digital_roll_relabelled_as_reported_is_refused(app, client, database_url, journey_campaign):
    cid = journey_campaign["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}).json["id"]
    assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}}).status_code == 201
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}).status_code == 200
    genuine = _genuine(client, cid)
    forged = copy.deepcopy(genuine)
    roll = _of(forged, "DiceRolled", sid)[-1]["state"]["roll"]
    assert roll["source"] == "digital"
    face = roll["layouts"]["d6"][-1]
    roll.clear()
    roll.update({"dice": {"d6": 2}, "results": {"d6": [face, face]}, "source": "reported", "purpose": None})  # no counters
    _rechain(forged)
    ended = _of(forged, "SessionEnded", sid)[0]
    failure = _refused_by_verifier_and_import(client, app, _text(forged), "session ended with the random counter at")
    assert (failure["stream"], failure["position"]) == (sid, ended["position"])
    _store_forgery(app, database_url, genuine, forged)
    assert _refused_by_the_service(client, sid, "ended with the random counter at")["position"] == ended["position"]


def test_a_changed_seed_at_the_start_of_an_ended_session_is_refused(app, client, database_url, journey_campaign):
    """A copy of the seed in SessionStarted (events stored before sealing carry one) must agree with the commitment."""
    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    forged = _genuine(client, journey_campaign["id"])
    _of(forged, "SessionStarted", sid)[0]["state"]["seed"] = hashlib.sha256(b"another seed").hexdigest()
    _rechain(forged)
    failure = _refused_by_verifier_and_import(client, app, _text(forged), "The seed SessionStarted records does not hash")
    assert (failure["stream"], failure["position"]) == (sid, 1)
    # In the store the seed is sealed, outside the hash: nothing to recompute, the commitment finds it.
    StoredRows(app, database_url).edit(sid, 1, lambda state: state.update(seed=hashlib.sha256(b"another seed").hexdigest()))
    assert _refused_by_the_service(client, sid, "The seed SessionStarted records")["position"] == 1


def test_a_session_in_play_whose_seed_was_replaced_is_not_imported_to_roll_from_it(app, client, database_url, journey_campaign):
    """The importing server would roll on from the file's seed: one of the forger's choosing, unless it matches the commitment."""
    cid = journey_campaign["id"]
    sid = _play_journey(client, cid, "q1-meeting", end=False)
    genuine = _genuine(client, cid)
    assert "seed" not in _of(genuine, "SessionStarted", sid)[0]["state"]  # sealed while in play
    forged = copy.deepcopy(genuine)
    _of(forged, "SessionStarted", sid)[0]["state"]["seed"] = "00" * 32
    _rechain(forged)
    failure = _refused_by_verifier_and_import(client, app, _text(forged), "does not hash to the session's commitment")
    assert (failure["stream"], failure["position"]) == (sid, 1)

    # A backup carries the sealed seed beside the public form: the same check applies to that copy.
    backup = _lines("".join(app.extensions["tracker"].export_campaign(cid, backup=True)))
    started = _of(backup, "SessionStarted", sid)[0]
    assert started["sealed"]["seed"] != "00" * 32
    started["sealed"]["seed"] = "00" * 32
    failure = _refused_by_verifier_and_import(client, app, _text(backup), "does not hash to the session's commitment")
    assert (failure["stream"], failure["position"]) == (sid, 1)

    StoredRows(app, database_url).edit(sid, 1, lambda state: state.update(seed="00" * 32))
    assert _refused_by_the_service(client, sid, "does not hash to the commitment")["position"] == 1


@pytest.mark.parametrize("rehash", [False, True], ids=["hash-kept", "hash-recomputed"])
def test_edited_header_components_are_refused(app, client, journey_campaign, rehash):
    """The header exists only in the file (the service verifies from its own events), so the verifier and the import check it."""
    _play_journey(client, journey_campaign["id"], "q1-meeting")
    forged = _genuine(client, journey_campaign["id"])
    header = forged[0]["header"]
    header["components"] = {**header["components"], "dice": {**header["components"].get("dice", {}), "d6": {"faces": ["6"] * 6}}}
    if rehash:
        header["components_hash"] = verify_export.components_hash(header["components"])
    failure = _refused_by_verifier_and_import(client, app, _text(_rechain(forged)), "The header's components are not the ones the campaign's events pin")
    assert failure["line"] == 1


def test_the_header_pins_follow_components_supplied_later(app, client):
    """ComponentsSupplied merges into the header's components; a file that leaves it out of the header is refused."""
    cid = client.post("/campaigns", json={"ruleset": "journey", "name": "Later facts", "party": ["monkey-king"], "components": {"decks": JOURNEY_TEST_COMPONENTS["decks"]}}).json["id"]
    supplied = {"dice": JOURNEY_TEST_COMPONENTS["dice"]}
    assert client.post(f"/campaigns/{cid}/components", json={"components": supplied}).status_code == 201
    genuine = _genuine(client, cid)
    assert genuine[0]["header"]["components"] == JOURNEY_TEST_COMPONENTS
    forged = copy.deepcopy(genuine)
    forged[0]["header"]["components"] = _of(forged, "CampaignCreated")[0]["state"]["components"]
    forged[0]["header"]["components_hash"] = verify_export.components_hash(forged[0]["header"]["components"])
    _refused_by_verifier_and_import(client, app, _text(forged), "The header's components are not the ones")


def test_a_lines_own_hash_field_is_checked(app, client, journey_campaign):
    """The README says the line's hash is checked: a reader may take it on trust."""
    _play_journey(client, journey_campaign["id"], "q1-meeting")
    forged = _genuine(client, journey_campaign["id"])
    line = next(n for n, line in enumerate(forged) if "event" in line and line["event"]["topic"].endswith("DiceRolled"))
    forged[line]["event"]["hash"] = "0" * 64
    failure = _refused_by_verifier_and_import(client, app, _text(forged), "hash field is not the hash of its event")
    assert failure["line"] == line + 1


def test_an_ended_session_cut_back_and_re_hashed_is_refused_through_the_campaigns_record(app, client, database_url, journey_campaign):
    """Its last command and its end removed, every hash recomputed (the campaign's record of its last event
    too): the session would pass for one in play, but the campaign's QuestEnded says it ended."""
    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    genuine = _genuine(client, journey_campaign["id"])
    session = [e for e in _events(genuine) if e["stream"] == sid]
    # Quest 1's Victory states the house cleared (L712): the end records that fact before SessionEnded.
    assert [verify_export.event_name(e["topic"]) for e in session[-4:]] == ["ActionTaken", "TurnEnded", "FactsReported", "SessionEnded"]
    cut = {id(e) for e in session[-4:]}
    forged = copy.deepcopy([line for line in genuine if id(line.get("event")) not in cut])
    _rechain(forged)
    failure = _refused_by_verifier_and_import(client, app, _text(forged), "stop before its SessionEnded: it was cut back")
    assert (failure["stream"], failure["position"]) == (sid, len(session) - 4)
    _store_forgery(app, database_url, genuine, forged)
    assert _refused_by_the_service(client, sid, "stop before its SessionEnded")["type"] == "SessionEnded"


def test_a_quest_end_removed_from_the_campaign_and_re_hashed_is_refused(app, client, journey_campaign):
    """The file would say both that the session ended and that its quest is still being played.
    (The service verifies a session from its own stream; the campaign's record is checked from a file.)"""
    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    genuine = _genuine(client, journey_campaign["id"])
    quest_end = _of(genuine, "QuestEnded")[0]
    forged = copy.deepcopy([line for line in genuine if line.get("event") is not quest_end])
    failure = _refused_by_verifier_and_import(client, app, _text(_rechain(forged)), "the campaign records no end of its quest")
    assert failure["stream"] == sid


def test_a_key_sorted_rewrite_of_a_genuine_file_still_verifies_and_imports(client, target, journey_campaign):
    """Dice order is the roll's ``order`` list: a rewrite with sorted keys (d6 after attack) is no false alarm.
    Four rolls, so that rolling them in the other order gives other faces (all four alike by chance: about 1e-8)."""
    cid = journey_campaign["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}).json["id"]
    for _ in range(4):
        rolled = client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1, "attack": 2}})
        assert rolled.status_code == 201 and list(rolled.json["results"]) == ["d6", "attack"]
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    text = _export(client, cid)
    rewritten = "".join(json.dumps(json.loads(line), sort_keys=True, ensure_ascii=False) + "\n" for line in text.splitlines())
    roll = _of(_lines(rewritten), "DiceRolled", sid)[0]["state"]["roll"]
    assert list(roll["dice"]) == ["attack", "d6"] and roll["order"] == ["d6", "attack"]
    assert verify_lines(rewritten.splitlines())["status"] == "verified"
    imported = target.test_client().post("/campaigns/import", data=rewritten, headers=NDJSON)
    assert imported.status_code == 201 and imported.json["sessions"] == {sid: "verified"}, imported.json

    def without_order(lines: list[dict]) -> list[str]:
        for event in _of(lines, "DiceRolled", sid):
            del event["state"]["roll"]["order"]
        return _text(_rechain(lines)).splitlines()

    # Rolls recorded before `order` existed verify by the key order of `dice`, as the service wrote it...
    assert verify_lines(without_order(_lines(text)))["status"] == "verified"
    # ...which a key-sorted rewrite loses: the reason for the list.
    assert verify_lines(without_order(_lines(rewritten)))["status"] == "failed"
    # An `order` that is not the dice rolled is found.
    partial = _lines(text)
    _of(partial, "DiceRolled", sid)[0]["state"]["roll"]["order"] = ["attack"]
    report = verify_lines(_text(_rechain(partial)).splitlines())
    assert report["status"] == "failed" and "does not list the dice rolled" in report["failure"]["reason"]
