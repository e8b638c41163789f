"""Replay, audit and portability through the REST API, on SQLite and on PostgreSQL: time travel,
tamper evidence in the stored rows, export and import, the standalone verifier, undo and the event feed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit.forgery_kit import (  # noqa: F401  (fixtures: an empty PostgreSQL to import into)
    NDJSON,
    StoredRows,
    empty_postgres_url,
    export as _export,
    lines_of as _lines,
    notifications as _notifications,
    play_journey as _play_journey,
    target,
)
from tests.kit import contract
from tests.kit import audit_ruleset
from tracker import rulesets
from tracker.rulesets.engine import archive

ROOT = Path(__file__).resolve().parents[1]


# -- helpers -------------------------------------------------------------------


@pytest.fixture
def marker_race(monkeypatch, app):
    """Register the test ruleset whose action records a game event of its own (a GameEvent subclass)."""
    ruleset = audit_ruleset.load()
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, ruleset.id: ruleset})
    contract.with_ruleset(app, ruleset)
    return ruleset


def _journey_campaign(client) -> str:
    response = client.post("/campaigns", json={"ruleset": "journey", "name": "Audit", "party": ["tripitaka", "monkey-king"], "components": JOURNEY_TEST_COMPONENTS})
    assert response.status_code == 201, response.json
    return response.json["id"]


def _marker_session(client) -> tuple[str, str]:
    cid = client.post("/campaigns", json={"ruleset": "marker-race", "name": "Race", "party": ["runner"]}).json["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "race"}).json["id"]
    for _ in range(3):
        assert client.post(f"/sessions/{sid}/actions", json={"type": "move"}).status_code == 201
    return cid, sid


def _digest(app, cid: str) -> str:
    views = app.extensions["tracker_views"]
    views.catch_up()
    return views.store.digest(cid)


def _position(client, sid: str, event_type: str, nth: int = 0) -> int:
    events = client.get(f"/sessions/{sid}/events?limit=1000").json["events"]
    return [e["position"] for e in events if e["type"] == event_type][nth]


# -- time travel -----------------------------------------------------------------


def test_the_state_at_each_event_is_what_the_live_state_was(client, journey_campaign):
    cid = journey_campaign["id"]
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}).json
    sid = started["id"]
    seen = {started["version"]: client.get(f"/sessions/{sid}").json}
    commands = [
        ("/rolls", {"dice": {"attack": 2}}),
        ("/draws", {"deck": "fortune", "count": 2}),
        ("/actions", {"type": "look", "deck": "fortune", "count": 2}),
        ("/actions", {"type": "end-turn"}),
    ]
    for path, body in commands:
        assert client.post(f"/sessions/{sid}{path}", json=body).status_code == 201
        live = client.get(f"/sessions/{sid}").json
        seen[live["version"]] = live
    client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "reported": {"defeated": ["tripitaka"]}})
    for version, live in seen.items():
        assert client.get(f"/sessions/{sid}/state?at={version}").json == live
    campaign_before = client.get(f"/campaigns/{cid}/state?at=3").json  # created, owner token minted, quest started
    assert campaign_before["sessions"] == [{"id": sid, "quest": "q1-meeting", "outcome": None}]
    assert client.get(f"/campaigns/{cid}/state?at=1").json["sessions"] == []
    assert client.get(f"/campaigns/{cid}").json["sessions"][0]["outcome"] == "defeat"


def test_time_travel_beyond_the_log_is_refused_plainly(client, session_id):
    version = client.get(f"/sessions/{session_id}").json["version"]
    response = client.get(f"/sessions/{session_id}/state?at={version + 1}")
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    assert f"has {version} events" in response.json["title"]
    assert client.get(f"/sessions/{session_id}/state?at=0").status_code == 422


def test_time_travel_covers_a_rulesets_own_game_events(client, marker_race):
    _, sid = _marker_session(client)
    events = client.get(f"/sessions/{sid}/events?limit=100").json["events"]
    moves = [e for e in events if e["type"] == "MarkerMoved"]
    assert len(moves) == 3
    marker = 0
    for moved in moves:
        marker += moved["payload"]["change"]["steps"]
        assert client.get(f"/sessions/{sid}/state?at={moved['position']}").json["game"] == {"ruleset": "marker-race", "marker": marker}


# -- tamper evidence in the stored rows ------------------------------------------


def test_an_edited_roll_in_the_stored_rows_is_named_by_its_position(app, client, database_url, journey_campaign):
    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"
    position = _position(client, sid, "DiceRolled")

    def cheat(state):
        state["roll"]["results"]["d6"] = [7 - state["roll"]["results"]["d6"][0]]

    StoredRows(app, database_url).edit(sid, position, cheat)
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "mismatch" and report["first_mismatch"]["position"] == position
    assert report["chain"]["status"] == "broken" and report["chain"]["break"]["position"] == position


def test_a_deleted_event_is_named_by_its_position(app, client, database_url, journey_campaign):
    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    position = _position(client, sid, "ActionTaken", 2)  # the discard: its effects stay, the action goes
    StoredRows(app, database_url).delete(sid, position)
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "mismatch" and report["first_mismatch"]["position"] == position
    assert "missing" in report["first_mismatch"]["reason"]


def test_reordered_events_are_named_by_position(app, client, database_url, journey_campaign):
    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    position = _position(client, sid, "DiceRolled")
    StoredRows(app, database_url).swap(sid, position)
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "mismatch" and report["first_mismatch"]["position"] == position


def test_a_removed_session_end_is_found_through_the_campaigns_record_of_it(app, client, database_url, journey_campaign):
    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    last = client.get(f"/sessions/{sid}").json["version"]
    StoredRows(app, database_url).delete(sid, last)
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "mismatch" and report["first_mismatch"]["check"] == "hash chain"


def test_every_event_links_to_the_one_before_and_the_quest_end_records_the_sessions_last_hash(client, journey_campaign):
    cid = journey_campaign["id"]
    sid = _play_journey(client, cid, "q1-meeting")
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["chain"]["status"] == "intact" and report["recorded_session_head"] == report["chain"]["head"]
    events = client.get(f"/sessions/{sid}/events?limit=1000").json["events"]
    assert events[0]["meta"]["prev_hash"] is None and all(len(e["meta"]["prev_hash"]) == 64 for e in events[1:])


# -- export, import and the standalone verifier ------------------------------------


def test_an_exported_campaign_imported_into_an_empty_postgres_verifies_with_the_same_digest(app, client, target):
    journey_campaign = client.post("/campaigns", json={
        "ruleset": "journey", "name": "Linked group", "party": ["tripitaka", "monkey-king"],
        "components": JOURNEY_TEST_COMPONENTS, "options": {"mode": "linked"},
    }).json
    cid = journey_campaign["id"]
    first = _play_journey(client, cid, "q1-meeting")
    second = _play_journey(client, cid, "q2-rescue", end=False)  # the next quest of the chain, still in play
    text = _export(client, cid)
    lines = _lines(text)
    header = lines[0]["header"]
    assert header["format_version"] == 1 and header["ruleset"] == journey_campaign["ruleset"]
    assert header["components"] == JOURNEY_TEST_COMPONENTS and header["sessions"] == [first, second]
    assert client.get(f"/campaigns/{cid}").json["options"] == {"mode": "linked"}
    assert lines[-1]["trailer"]["events"] == len(lines) - 2

    imported = target.test_client().post("/campaigns/import", data=text, headers=NDJSON)
    assert imported.status_code == 201, imported.json
    assert {k: imported.json[k] for k in ("campaign_id", "events", "sessions")} == {
        "campaign_id": cid, "events": len(lines) - 2, "sessions": {first: "verified", second: "pending"}
    }
    assert imported.json["owner_token"]  # the importer owns the imported campaign: the file holds no usable token
    there = target.test_client()
    assert there.get(f"/sessions/{first}/verification").json["status"] == "verified"
    assert there.get(f"/campaigns/{cid}").json == client.get(f"/campaigns/{cid}").json
    assert _digest(target, cid) == _digest(app, cid)
    assert _export(there, cid) == text  # the same file back: the same events, the same hashes
    # the session in play goes on in its new home with what was played at the table; a public export
    # carries no seed, so its digital rolls wait for a backup (tests/test_secrets.py moves one)
    digital = there.post(f"/sessions/{second}/rolls", json={"dice": {"d6": 1}})
    assert digital.status_code == 409 and "seed is not on this server" in digital.json["title"]
    assert there.post(f"/sessions/{second}/rolls", json={"faces": {"d6": [4]}}).status_code == 201


def test_importing_the_same_file_twice_is_refused_and_writes_nothing(app, client, target, journey_campaign):
    cid = journey_campaign["id"]
    _play_journey(client, cid, "q1-meeting")
    text = _export(client, cid)
    there = target.test_client()
    assert there.post("/campaigns/import", data=text, headers=NDJSON).status_code == 201
    before = _notifications(target)
    again = there.post("/campaigns/import", data=text, headers=NDJSON)
    assert again.status_code == 409 and "already in this database" in again.json["title"]
    assert _notifications(target) == before
    home = client.post("/campaigns/import", data=text, headers=NDJSON)  # nor into the database it came from
    assert home.status_code == 409


@pytest.mark.parametrize(
    "damage, reason",
    [
        (lambda lines: lines[:-3] + lines[-1:], "trailer counts"),  # events dropped at a line boundary
        (lambda lines: lines[:-1], "cut short"),  # no trailer
        (lambda lines: lines[:-1] + [lines[-1][: len(lines[-1]) // 2]], "not JSON"),  # cut mid-line
    ],
    ids=["events-missing", "trailer-missing", "cut-mid-line"],
)
def test_a_truncated_file_is_refused_with_the_reason_and_nothing_is_written(client, target, journey_campaign, damage, reason):
    _play_journey(client, journey_campaign["id"], "q1-meeting")
    lines = _export(client, journey_campaign["id"]).splitlines()
    response = target.test_client().post("/campaigns/import", data="\n".join(damage(lines)), headers=NDJSON)
    assert response.status_code == 422 and "nothing was imported" in response.json["title"]
    assert reason in response.json["detail"]
    assert _notifications(target) == 0


def test_an_edited_file_is_refused_naming_the_event(client, target, journey_campaign):
    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    lines = _lines(_export(client, journey_campaign["id"]))
    roll = next(line["event"] for line in lines if "event" in line and line["event"]["topic"].endswith("DiceRolled"))
    roll["state"]["roll"]["results"]["d6"] = [7 - roll["state"]["roll"]["results"]["d6"][0]]
    text = "\n".join(json.dumps(line) for line in lines)
    response = target.test_client().post("/campaigns/import", data=text, headers=NDJSON)
    assert response.status_code == 422 and f"stream {sid}, position {roll['position']}" in response.json["detail"]
    assert _notifications(target) == 0


def test_an_edited_action_whose_hashes_were_recomputed_is_still_refused_by_re_derivation(app, client, target, journey_campaign):
    """Recomputing the whole chain hides an edit from the hashes, not from the rules: the import re-runs every action."""
    from tracker.integrity.verify_export import event_hash

    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    lines = _lines(_export(client, journey_campaign["id"]))
    events = [line["event"] for line in lines if "event" in line]
    turn = next(e for e in events if e["topic"].endswith("TurnEnded"))
    turn["state"]["turn"] = 7
    heads: dict[str, str] = {}
    for event in events:
        event["state"]["meta"]["prev_hash"] = heads.get(event["stream"])
        if event["state"].get("session_id") in heads and "session_head" in event["state"]["meta"]:
            event["state"]["meta"]["session_head"] = heads[event["state"]["session_id"]]
        heads[event["stream"]] = event["hash"] = event_hash(event)
    lines[-1]["trailer"]["heads"] = heads
    response = target.test_client().post("/campaigns/import", data="\n".join(json.dumps(line) for line in lines), headers=NDJSON)
    assert response.status_code == 422 and sid in response.json["title"]
    assert f"position {turn['position']}" in response.json["detail"]
    assert _notifications(target) == 0


def _run_verifier(path: Path, export: Path, client=None) -> subprocess.CompletedProcess:
    """The verifier run as a player runs it, with the key set saved from the service (``client``'s, or the one
    saved beside the export before)."""
    jwks = export.parent / "jwks.json"
    if client is not None:
        jwks.write_bytes(client.get("/.well-known/jwks.json").data)
    # -I: isolated from the project (no site-packages, no PYTHONPATH, not run from the checkout)
    return subprocess.run([sys.executable, "-I", str(path), str(export), "--jwks", str(jwks)], capture_output=True, text=True, cwd=export.parent, timeout=60)


def test_the_standalone_verifier_accepts_the_export_and_names_an_edited_byte_in_a_roll(client, journey_campaign, tmp_path):
    cid = journey_campaign["id"]
    sid = _play_journey(client, cid, "q1-meeting")
    verifier = tmp_path / "verifier.py"
    served = client.get("/verifier.py")
    assert served.status_code == 200
    verifier.write_bytes(served.data)
    assert served.data == (ROOT / "tracker" / "integrity" / "verify_export.py").read_bytes()
    export = tmp_path / "campaign.jsonl"
    text = _export(client, cid)
    export.write_text(text, encoding="utf-8")
    accepted = _run_verifier(verifier, export, client)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    # two deck shuffles and the Journey set-up's random initiative order
    assert accepted.stdout.splitlines()[1].startswith("VERIFIED") and "1 digital rolls, 3 shuffles" in accepted.stdout

    line_number, line = next((n, line) for n, line in enumerate(text.splitlines(), start=1) if "DiceRolled" in line and '"digital"' in line)
    event = json.loads(line)["event"]
    at = line.index('"d6":[') + len('"d6":[')
    edited = line[:at] + str(7 - int(line[at])) + line[at + 1 :]  # one byte: the d6's face
    lines = text.splitlines()
    lines[line_number - 1] = edited
    export.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rejected = _run_verifier(verifier, export)
    assert rejected.returncode == 1, rejected.stdout
    assert f"line {line_number}, stream {sid}, position {event['position']}" in rejected.stdout


def test_the_standalone_verifier_checks_a_rulesets_own_events_too(client, marker_race, tmp_path):
    cid, sid = _marker_session(client)
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    export = tmp_path / "race.jsonl"
    text = _export(client, cid)
    export.write_text(text, encoding="utf-8")
    result = _run_verifier(ROOT / "tracker" / "integrity" / "verify_export.py", export, client)
    assert result.returncode == 0 and "3 digital rolls" in result.stdout, result.stdout
    lines = _lines(text)
    moved = next(line["event"] for line in lines if "event" in line and line["event"]["topic"].endswith("MarkerMoved"))
    moved["state"]["change"]["steps"] += 1
    export.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    result = _run_verifier(ROOT / "tracker" / "integrity" / "verify_export.py", export)
    assert result.returncode == 1 and f"position {moved['position']}" in result.stdout


def test_a_campaign_with_game_events_round_trips_through_export_and_import(app, client, target, marker_race):
    cid, sid = _marker_session(client)
    client.post(f"/sessions/{sid}/undo")
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    contract.with_ruleset(target, marker_race)
    imported = target.test_client().post("/campaigns/import", data=_export(client, cid), headers=NDJSON)
    assert imported.status_code == 201, imported.json
    assert imported.json["sessions"] == {sid: "verified"}
    assert target.test_client().get(f"/sessions/{sid}").json == client.get(f"/sessions/{sid}").json
    assert _digest(target, cid) == _digest(app, cid)


# -- undo ------------------------------------------------------------------------------


def test_undo_reverts_the_last_action_without_moving_the_random_counter_back(app, client, session_id):
    sid = session_id
    first = client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 3}}).json
    before = client.get(f"/sessions/{sid}").json
    drawn = client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 2}).json
    after_draw = client.get(f"/sessions/{sid}").json
    assert after_draw["random_counter"] > before["random_counter"]  # the draw shuffled

    undone = client.post(f"/sessions/{sid}/undo")
    assert undone.status_code == 201
    assert undone.json["undone"]["from"] == before["version"] + 1 and undone.json["undone"]["to"] == after_draw["version"]
    state = undone.json["state"]
    assert state["decks"] == before["decks"] and state["random_counter"] == after_draw["random_counter"]
    redrawn = client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 2}).json  # redo: a new action
    assert redrawn["events"][0]["payload"]["change"]["counter_start"] == after_draw["random_counter"]

    client.post(f"/sessions/{sid}/undo")  # the redraw
    rolled_back = client.post(f"/sessions/{sid}/undo").json  # then the roll
    assert rolled_back["undone"]["events"][0]["position"] == first["position"] and rolled_back["state"]["rolls"] == 0
    nothing = client.post(f"/sessions/{sid}/undo")  # the quest's set-up is where undo stops
    assert nothing.status_code == 409 and "nothing to undo" in nothing.json["title"]

    views = app.extensions["tracker_views"]
    views.catch_up()
    timeline = client.get(f"/sessions/{sid}/timeline?limit=100").json["entries"]
    by_position = {entry["position"]: entry for entry in timeline}
    assert by_position[first["position"]]["undone_by"] == rolled_back["version"]
    assert by_position[rolled_back["version"]]["summary"].startswith("Undid")
    assert all(entry["count"] == 0 for entry in client.get(f"/campaigns/{state['campaign_id']}/dice-statistics").json["faces"])
    types = [e["type"] for e in client.get(f"/sessions/{sid}/events?limit=100").json["events"]]
    assert types.count("ActionUndone") == 3 and types.count("DiceRolled") == 1  # the log keeps both

    client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_undo_reverts_a_rulesets_game_events_and_verification_checks_it(client, marker_race):
    _, sid = _marker_session(client)
    game_before = client.get(f"/sessions/{sid}/state?at={client.get(f'/sessions/{sid}').json['version'] - 3}").json["game"]
    undone = client.post(f"/sessions/{sid}/undo").json
    assert [e["type"] for e in undone["undone"]["events"]] == ["ActionTaken", "DiceRolled", "MarkerMoved"]
    assert undone["state"]["game"] == game_before
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_an_undo_that_puts_back_another_state_is_found(app, client, database_url, session_id):
    sid = session_id
    client.post(f"/sessions/{sid}/actions", json={"type": "end-turn"})
    undo = client.post(f"/sessions/{sid}/undo").json["version"]
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    StoredRows(app, database_url).edit(sid, undo, lambda state: state["restored"].update(turn=5))
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["first_mismatch"]["position"] == undo


def test_undo_after_the_session_ended_is_refused(client, session_id):
    client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}})
    client.post(f"/sessions/{session_id}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    response = client.post(f"/sessions/{session_id}/undo")
    assert response.status_code == 409 and response.json["title"] == "The session has ended"


# -- the event feed -----------------------------------------------------------------------


def test_the_feed_pages_through_every_event_and_resumes(app, client, session_id):
    client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}, headers={"Idempotency-Key": "k1"})
    every = client.get("/events?after=0&limit=1000").json
    assert every["last"] == _notifications(app)
    types = [e["type"] for e in every["events"]]
    assert types[0] == "CampaignCreated" and "SessionStarted" in types and types[-1] == "DiceRolled"
    assert "Recorded" not in types  # idempotency records are the service's own, not events to follow
    started = next(e for e in every["events"] if e["type"] == "SessionStarted")
    assert "seed" not in started["payload"] and started["stream"] == session_id
    paged, after = [], 0
    while True:
        page = client.get(f"/events?after={after}&limit=2").json
        if not page["events"] and page["next_after"] == after:
            break
        paged += page["events"]
        after = page["next_after"]
    assert paged == every["events"]
    client.post(f"/sessions/{session_id}/actions", json={"type": "end-turn"})
    newer = client.get(f"/events?after={every['next_after']}").json["events"]
    assert [e["type"] for e in newer] == ["ActionTaken", "TurnEnded"]


def _sse(response) -> list[dict]:
    events = []
    for block in response.get_data(as_text=True).split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "data" in fields:
            events.append({"id": int(fields["id"]), "event": fields["event"], "data": json.loads(fields["data"])})
    return events


def test_the_event_stream_pushes_events_and_resumes_from_last_event_id(client, session_id):
    response = client.get("/events/stream?limit=3")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    first = _sse(response)
    assert [e["event"] for e in first] == ["CampaignCreated", "TokenMinted", "SessionStarted"]  # the owner token's grant itself is never in the feed
    client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}})
    rest = _sse(client.get("/events/stream?wait=0.3", headers={"Last-Event-ID": str(first[-1]["id"])}))
    assert [e["event"] for e in rest][-1] == "DiceRolled" and rest[0]["id"] > first[-1]["id"]
    assert client.get("/events/stream", headers={"Last-Event-ID": "x"}).status_code == 422  # issue 34: a problem, never ignored


def test_a_position_beyond_what_the_store_can_hold_is_refused_not_an_error(client, session_id):
    """Positions are 64-bit in both stores; one past that used to reach SQLite and fail with a 500."""
    beyond = 2**63
    for path in (f"/events?after={beyond}", f"/events/stream?after={beyond}", f"/sessions/{session_id}/events?after={beyond}"):
        refused = client.get(path)
        assert refused.status_code == 422 and refused.mimetype == "application/problem+json", path
    refused = client.get("/events/stream", headers={"Last-Event-ID": str(beyond)})
    assert refused.status_code == 422 and refused.json["title"] == "Last-Event-ID must be a notification position"
    assert client.get(f"/events?after={beyond - 1}").status_code == 200  # the largest position is still a position


# -- earlier ruleset versions -------------------------------------------------------------


def test_a_campaign_pinned_to_an_earlier_ruleset_version_still_plays_and_verifies(client, marker_race, monkeypatch, tmp_path):
    cid, sid = _marker_session(client)
    moved_on = audit_ruleset.load(version="2")  # the code's ruleset moves on: its data (and so its hash) changed
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, moved_on.id: moved_on})
    game_load = rulesets.loader
    monkeypatch.setattr(rulesets, "loader", lambda ruleset_id: audit_ruleset.load if ruleset_id == moved_on.id else game_load(ruleset_id))
    rulesets.archived.cache_clear()
    monkeypatch.setattr(rulesets, "ARCHIVE", tmp_path)
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})

    changed = client.get(f"/sessions/{sid}/verification").json
    assert changed["status"] == "ruleset-changed" and "keeps no earlier version" in changed["detail"]

    archive.keep(marker_race.data, marker_race.contract(), tmp_path)  # the earlier version, archived
    rulesets.archived.cache_clear()
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified"
    assert report["ruleset_used"] == marker_race.pin and report["ruleset_in_code"] == moved_on.pin
    later = client.post(f"/campaigns/{cid}/sessions", json={"quest": "race"})  # and the campaign plays on under it
    assert later.status_code == 201 and later.json["state"]["ruleset"] == marker_race.pin
    rulesets.archived.cache_clear()


def test_archived_ruleset_versions_load_and_differ_from_the_current_ones():
    for ruleset_id, current in rulesets.registry().items():
        for old in rulesets.archived(ruleset_id):
            assert old.id == ruleset_id and old.version != current.version and old.hash != current.hash
            assert rulesets.resolve(old.pin) is old


# -- the command line ----------------------------------------------------------------------


def test_tracker_export_and_import_from_the_command_line(client, journey_campaign, database_url, empty_postgres_url, tmp_path, capsys, monkeypatch):
    from tracker.cli import main

    monkeypatch.setenv("DATABASE_URL", database_url)  # main() sets it; put it back afterwards

    cid = journey_campaign["id"]
    sid = _play_journey(client, cid, "q1-meeting")
    export = tmp_path / "campaign.jsonl"
    assert main(["--database-url", database_url, "export", cid, "--output", str(export)]) == 0
    # The same events; over HTTP the header also names the address the request reached (the CLI has none set).
    from_cli, over_http = export.read_text(encoding="utf-8").splitlines(), _export(client, cid).splitlines()
    assert from_cli[1:-1] == over_http[1:-1]
    assert {**json.loads(over_http[0])["header"], "service": None} == {**json.loads(from_cli[0])["header"], "service": None}
    assert main(["--database-url", empty_postgres_url, "import", str(export)]) == 0
    assert json.loads(capsys.readouterr().out)["sessions"] == {sid: "verified"}
    assert main(["--database-url", empty_postgres_url, "import", str(export)]) == 1
    assert "already in this database" in capsys.readouterr().err
    assert main(["--database-url", empty_postgres_url, "verify", sid]) == 0


def test_the_standalone_verifier_finds_a_session_end_cut_from_the_file(client, journey_campaign):
    from tracker.integrity.verify_export import event_hash, verify_lines

    sid = _play_journey(client, journey_campaign["id"], "q1-meeting")
    lines = _lines(_export(client, journey_campaign["id"]))
    lines = [line for line in lines if not ("event" in line and line["event"]["topic"].endswith("SessionEnded"))]
    events = [line["event"] for line in lines if "event" in line]
    lines[-1]["trailer"] = {"events": len(events), "heads": {e["stream"]: event_hash(e) for e in events}}  # made to agree
    report = verify_lines([json.dumps(line) for line in lines])
    assert report["status"] == "failed" and report["failure"]["stream"] == sid
    assert "does not have" in report["failure"]["reason"]


def test_the_standalone_verifier_recomputes_a_rulesets_own_random_draw(client, journey_campaign, tmp_path):
    """Journey's set-up draws the initiative order from the stream; the export records it as a shuffle."""
    cid = journey_campaign["id"]
    sid = _play_journey(client, cid, "q1-meeting")
    text = _export(client, cid)
    line_number, line = next((n, line) for n, line in enumerate(text.splitlines(), start=1) if '"quest-set-up"' in line)
    shuffle = json.loads(line)["event"]["state"]["change"]["shuffle"]
    assert len(shuffle["order"]) >= 2 and shuffle["counter_end"] > shuffle["counter_start"]
    swapped = list(reversed(shuffle["order"]))
    edited = line.replace(json.dumps(shuffle["order"], separators=(",", ":")), json.dumps(swapped, separators=(",", ":")), 1)
    assert edited != line
    lines = text.splitlines()
    lines[line_number - 1] = edited
    export = tmp_path / "campaign.jsonl"
    export.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rejected = _run_verifier(ROOT / "tracker" / "integrity" / "verify_export.py", export, client)
    assert rejected.returncode == 1, rejected.stdout
    assert f"line {line_number}, stream {sid}" in rejected.stdout
