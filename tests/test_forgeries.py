"""Forgeries an auditor tried, each built with every hash recomputed, on SQLite and on PostgreSQL.

Each is shown refused three ways: by the standalone verifier (tracker/integrity/verify_export.py) reading the
file, by the import (POST /campaigns/import, which re-checks the file and re-derives every session),
and by the service's verification (GET /sessions/{sid}/verification) after the same forgery was
written into the stored rows past the application. What the file alone cannot show is stated in the
README, and checked there (tests/test_export_format.py)."""

from __future__ import annotations

import copy
import hashlib
import json
import uuid

import pytest

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit.kung_fu_panda import TEST_COMPONENTS as KUNG_FU_PANDA_COMPONENTS
from tests.kit.forgery_kit import NDJSON, StoredRows
from tests.kit.forgery_kit import events as _events, export as _export, lines_of as _lines, notifications as _notifications, of as _of
from tests.kit.forgery_kit import play_journey as _play_journey, rechain as _rechain, store_forgery as _store_forgery, text_of as _text
from tests.kit.forgery_kit import jwks_of, reseed, retarget
from tests.kit.forgery_kit import empty_postgres_url, target  # noqa: F401  (fixtures: an empty PostgreSQL to import into)
from tracker.integrity import verify_export
from tracker.integrity.verify_export import verify_lines

PROBLEM = "application/problem+json"


# -- refusals -------------------------------------------------------------------------------------------


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
    assert verify_lines(text.splitlines(), keys=jwks_of(client))["status"] in ("verified", "pending")
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


# -- forgeries only the signature finds ----------------------------------------------------------------------
#
# Each of these was VERIFIED by the standalone verifier and imported (201) before exports were signed: every hash
# is recomputed, every counter follows on, every session still re-derives. The trailer's signature over the
# campaign's and every session's heads finds each one; the content checks alone still pass (asserted), so it is
# the signature, checked after everything else, that refuses them.


def _refused_only_by_the_signature(client, app, forged: list[dict]) -> None:
    text = _text(_rechain(forged))
    content = verify_lines(text.splitlines())
    assert content["status"] in ("verified", "pending"), content["failure"]  # the file's own checks pass
    report = verify_lines(text.splitlines(), keys=jwks_of(client))
    assert report["status"] == "failed", report
    assert report["failure"]["line"] == len(text.splitlines()) and "trailer's signature fails" in report["failure"]["reason"], report["failure"]
    before = _notifications(app)
    imported = client.post("/campaigns/import", data=text, headers=NDJSON)
    assert imported.status_code == 422 and imported.mimetype == PROBLEM, imported.json
    assert imported.json["title"] == "The export file is not signed by a key this server trusts; nothing was imported", imported.json
    assert f"(line {len(text.splitlines())})" in imported.json["detail"]
    assert _notifications(app) == before


def _copy_session(lines: list[dict], source: list[dict], sid: str, new_sid: str, cid: str) -> None:
    """Session ``sid`` of ``source`` (this campaign's file or another's) added to ``lines`` as session ``new_sid``
    of campaign ``cid``, with copies of the campaign's QuestStarted and QuestEnded that record it."""
    session = [retarget(copy.deepcopy(e), sid, new_sid) for e in _events(source) if e["stream"] == sid]
    session[0]["state"]["campaign_id"] = cid
    noted = [retarget(copy.deepcopy(e), sid, new_sid) for e in _events(source)
             if e["state"].get("session_id") == sid and verify_export.event_name(e["topic"]) in ("QuestStarted", "QuestEnded")]
    for event in noted:
        event["stream"] = cid
    lines[-1:-1] = [{"event": e} for e in session + noted]
    lines[0]["header"]["sessions"].append(new_sid)


def test_the_last_digital_roll_relabelled_as_reported_with_the_end_counter_lowered(app, client, journey_campaign):
    cid = journey_campaign["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}).json["id"]
    assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}}).status_code == 201
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}).status_code == 200
    forged = _genuine(client, cid)
    roll = _of(forged, "DiceRolled", sid)[-1]["state"]["roll"]
    start, face = roll["counter_start"], roll["layouts"]["d6"][-1]
    roll.clear()
    roll.update({"dice": {"d6": 2}, "results": {"d6": [face, face]}, "source": "reported", "purpose": None})
    _of(forged, "SessionEnded", sid)[0]["state"]["counter_end"] = start  # where the stream stops without that roll
    _refused_only_by_the_signature(client, app, forged)


def _kung_fu_panda_rolled(client) -> tuple[str, str]:
    """A Kung Fu Panda mission whose set-up draws nothing from the stream: its rolls are its only uses of it."""
    cid = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                          "options": {"length": "single", "mission": "m2-1"}, "components": KUNG_FU_PANDA_COMPONENTS}).json["id"]
    setup = {"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}}
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m2-1", "setup": setup}).json["id"]
    assert client.post(f"/sessions/{sid}/actions", json={"type": "start-round"}).status_code == 201
    assert client.post(f"/sessions/{sid}/actions", json={"type": "roll", "hero": "tigress"}).status_code == 201  # digital
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "ruling": "the table stopped here"}).status_code == 200
    return cid, sid


def test_a_sessions_rolls_recomputed_with_another_sessions_seed(app, client):
    cid, sid = _kung_fu_panda_rolled(client)
    _, other = _kung_fu_panda_rolled(client)
    theirs = _lines(_export(client, client.get(f"/sessions/{other}").json["campaign_id"]))
    seed, commitment = _of(theirs, "SessionEnded", other)[0]["state"]["seed"], _of(theirs, "SessionStarted", other)[0]["state"]["seed_commitment"]
    forged = _genuine(client, cid)
    reseed(forged, sid, bytes.fromhex(seed), commitment)
    rolled = _of(forged, "DiceRolled", sid)[0]["state"]["roll"]["results"]["action-die"]
    pool = _of(forged, "DicePoolRolled", sid)[0]["state"]["change"]
    pool["results"], pool["pool"] = rolled, rolled  # the game's record of the pool follows the roll
    assert _of(forged, "DiceRolled", sid)[0]["state"]["roll"]["results"] != _of(_genuine(client, cid), "DiceRolled", sid)[0]["state"]["roll"]["results"]
    _refused_only_by_the_signature(client, app, forged)


def test_a_reported_roll_swapped_with_a_digital_draw(app, client, journey_campaign):
    cid = journey_campaign["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}).json["id"]
    assert client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 1}).status_code == 201  # shuffles the deck first
    assert client.post(f"/sessions/{sid}/rolls", json={"faces": {"defense": ["3"]}}).status_code == 201
    assert client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 1}).status_code == 201
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}).status_code == 200
    forged = _genuine(client, cid)
    at = {id(line.get("event")): n for n, line in enumerate(forged)}
    reported = at[id(_of(forged, "DiceRolled", sid)[0])]
    drawn = at[id(_of(forged, "CardsDrawn", sid)[0])]
    forged[reported], forged[drawn] = forged[drawn], forged[reported]  # the draw now comes first
    _refused_only_by_the_signature(client, app, forged)


def test_a_session_duplicated_with_copied_quest_start_and_end(app, client, journey_campaign):
    cid = journey_campaign["id"]
    sid = _play_journey(client, cid, "q1-meeting")
    forged = _genuine(client, cid)
    _copy_session(forged, copy.deepcopy(forged), sid, str(uuid.uuid4()), cid)
    _refused_only_by_the_signature(client, app, forged)


def test_a_session_spliced_in_from_another_campaign(app, client, journey_campaign):
    cid = journey_campaign["id"]
    _play_journey(client, cid, "q1-meeting")
    forged = _genuine(client, cid)
    other = client.post("/campaigns", json={"ruleset": "journey", "name": "Another group", "party": ["tripitaka", "monkey-king"],
                                            "components": JOURNEY_TEST_COMPONENTS}).json["id"]
    theirs = _play_journey(client, other, "q1-meeting")
    _copy_session(forged, _lines(_export(client, other)), theirs, theirs, cid)  # campaign_id rewritten to this campaign
    _refused_only_by_the_signature(client, app, forged)


def test_a_version_label_changed_with_the_hash_kept(app, client, journey_campaign):
    cid = journey_campaign["id"]
    sid = _play_journey(client, cid, "q1-meeting")
    forged = _genuine(client, cid)
    relabelled = {**forged[0]["header"]["ruleset"], "version": "9.9.9"}
    forged[0]["header"]["ruleset"] = relabelled
    _of(forged, "CampaignCreated")[0]["state"]["ruleset"] = relabelled
    _of(forged, "SessionStarted", sid)[0]["state"]["ruleset"] = relabelled
    _refused_only_by_the_signature(client, app, forged)


def test_reported_faces_changed_to_other_valid_faces(app, client, journey_campaign):
    cid = journey_campaign["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}).json["id"]
    assert client.post(f"/sessions/{sid}/rolls", json={"faces": {"attack": ["X", "1"]}}).status_code == 201
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}).status_code == 200
    forged = _genuine(client, cid)
    roll = _of(forged, "DiceRolled", sid)[0]["state"]["roll"]
    assert roll["source"] == "reported"
    roll["results"] = {"attack": ["3", "3"]}  # faces the attack die has (JOURNEY_TEST_COMPONENTS)
    _refused_only_by_the_signature(client, app, forged)


def test_a_kung_fu_panda_mission_lost_on_time_rewritten_to_victory(app, client):
    cid = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                          "options": {"length": "single", "mission": "m1-2"}}).json["id"]
    setup = {"tiles": {"po": "i", "tigress": "k"}, "spawn_points": {"2": "l", "4": "O", "5": "f"},
             "enemies": {"l": {"wolf-slasher": 1, "wolf-spearman": 2}, "C": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}}
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m1-2", "setup": setup}).json["id"]
    for _ in range(3):  # the sand runs out: time's up at the end of the final round (L193)
        answer = client.post(f"/sessions/{sid}/actions", json={"type": "round-summary"})
        assert answer.status_code == 201, answer.json
    assert answer.json["state"]["verdict"]["outcome"] == "defeat"
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}).status_code == 200
    forged = _genuine(client, cid)
    _of(forged, "SessionEnded", sid)[0]["state"]["outcome"] = "victory"
    _of(forged, "QuestEnded")[0]["state"]["outcome"] = "victory"
    # Found twice over: the rules' recorded verdict (tests/test_rederivation.py) before any key is consulted, and the
    # trailer's signature once the verdict check is passed by a forger who also removed the QuestDecided.
    text = _text(_rechain(forged))
    content = verify_lines(text.splitlines())
    assert content["status"] == "failed" and "the rules decided the quest" in content["failure"]["reason"], content
    before = _notifications(app)
    imported = client.post("/campaigns/import", data=text, headers=NDJSON)
    assert imported.status_code == 422 and imported.mimetype == PROBLEM, imported.json
    assert _notifications(app) == before
    report = verify_lines(text.splitlines(), keys=jwks_of(client))
    assert report["status"] == "failed", report
