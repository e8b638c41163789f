"""Bad input that used to reach a 500 (or worse) is refused at the edge with a 4xx problem, and
appends nothing: on SQLite and on PostgreSQL, through Flask's test client."""

from __future__ import annotations

import json

import pytest

from tests.kit.forgery_kit import NDJSON, PROBLEM, edited, export, lines_of, notifications as _notifications, rechain, resign, text_of
from tests.kit.forgery_kit import fresh_target as target  # noqa: F401  (fixture: an empty database of the test's backend)


def _refused(response, status: int, title: str) -> None:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == PROBLEM
    assert title in response.json["title"], response.json


def _nested(levels: int) -> str:
    return "[" * levels + "]" * levels


# -- JSON the parsers behind the edge cannot take -------------------------------------


@pytest.mark.parametrize("levels", [33, 5_000, 200_000])
def test_json_nested_deeper_than_the_limit_is_a_422_not_a_recursion_error(app, client, levels):
    body = '{"ruleset": "journey", "name": "Deep", "options": {"mode": ' + _nested(levels) + "}}"
    assert len(body) < 1024 * 1024  # under the body limit: only the depth refuses it
    response = client.post("/campaigns", data=body, content_type="application/json")
    _refused(response, 422, "nested more than 32 levels")
    assert _notifications(app) == 0


def test_deep_json_on_a_route_behind_a_token_is_refused_before_the_token_check_reads_it(app, client, session_id):
    before = _notifications(app)
    body = '{"dice": {"d6": 1}, "purpose": ' + _nested(100_000) + "}"
    _refused(client.post(f"/sessions/{session_id}/rolls", data=body, content_type="application/json"), 422, "nested more than")
    _refused(client.post(f"/sessions/{session_id}/actions", data=body, content_type="application/json"), 422, "nested more than")
    assert _notifications(app) == before


def test_brackets_inside_strings_do_not_count_as_nesting(client):
    name = "[" * 90 + "{" * 90
    response = client.post("/campaigns", json={"ruleset": "journey", "name": name})
    assert response.status_code == 201, response.json
    assert response.json["name"] == name


@pytest.mark.parametrize(
    "text, title",
    [
        ('"\\ud800"', "lone UTF-16 surrogate"),
        ('"Monkey \\udfff King"', "lone UTF-16 surrogate"),
        ('"a\\u0000b"', "NUL character"),
    ],
    ids=["high-surrogate", "low-surrogate", "nul"],
)
def test_a_lone_surrogate_or_a_nul_anywhere_is_a_422(app, client, session_id, text, title):
    before = _notifications(app)
    bodies = {
        "/campaigns": '{"ruleset": "journey", "name": ' + text + "}",
        f"/sessions/{session_id}/rolls": '{"faces": {"attack": [' + text + "]}}",  # deep in an array
        f"/sessions/{session_id}/draws": '{"deck": "fortune", "cards": ["Fortune 1"], "holder": "monkey-king", ' + text + ": 1}",  # a key
    }
    for path, body in bodies.items():
        _refused(client.post(path, data=body, content_type="application/json"), 422, title)
    assert _notifications(app) == before


def test_a_surrogate_pair_is_a_character_and_is_accepted(client):
    response = client.post("/campaigns", data='{"ruleset": "journey", "name": "Dragon \\ud83d\\udc09"}', content_type="application/json")
    assert response.status_code == 201, response.json
    assert response.json["name"] == "Dragon \U0001f409"


# -- Descent's reads on other games -------------------------------------------------------


@pytest.mark.parametrize("read", ["treachery-ledger", "conquest"])
def test_descent_reads_on_another_games_campaign_are_a_404_with_a_title(app, client, session_id, journey_campaign, read):
    client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 2}})
    client.post(f"/sessions/{session_id}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    app.extensions["tracker_views"].catch_up()
    _refused(client.get(f"/campaigns/{journey_campaign['id']}/{read}"), 404, "not a Descent campaign")


# -- an import with an event forged into the wrong stream ----------------------------------


def _borrowed(event: dict) -> dict:
    """The fields every stored event has, copied from a real one."""
    return json.loads(json.dumps({k: v for k, v in event["state"].items() if k in ("originator_id", "timestamp", "meta")}))


def _rechained(lines: list[dict]) -> str:
    """The file with every hash, link and head recomputed, unsigned, every character past ASCII escaped (a NUL stays JSON)."""
    return text_of(rechain(lines, unsigned=True), ensure_ascii=True)


@pytest.mark.parametrize(
    "topic",
    ["tracker.domain.access:Grant.GrantRevoked", "tracker.domain.campaign:Campaign.TokenRevoked", "tracker.domain.idempotency:IdempotencyRecord.Recorded"],
    ids=["access-grant", "campaign-event", "idempotency-record"],
)
def test_an_import_with_a_foreign_event_forged_into_a_session_stream_is_a_422(client, target, journey_campaign, session_id, topic):
    client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}})
    lines = lines_of(export(client, journey_campaign["id"]))
    session_events = [line["event"] for line in lines if "event" in line and line["event"]["stream"] == session_id]
    last = session_events[-1]
    forged = {
        "stream": session_id,
        "position": last["position"] + 1,
        "topic": topic,
        "state": {**_borrowed(last), "originator_version": last["position"] + 1},
    }
    lines.insert(lines.index({"event": last}) + 1, {"event": forged})
    response = target.test_client().post("/campaigns/import", data=_rechained(lines), headers=NDJSON)
    _refused(response, 422, f"is not an event of a session")
    assert str(last["position"] + 1) in response.json["title"] or session_id in response.json.get("detail", "")
    assert _notifications(target) == 0


def test_an_import_with_a_session_event_forged_into_the_campaign_stream_is_a_422(client, target, journey_campaign, session_id):
    cid = journey_campaign["id"]
    lines = lines_of(export(client, cid))
    campaign_events = [line["event"] for line in lines if "event" in line and line["event"]["stream"] == cid]
    last = campaign_events[-1]
    forged = {
        "stream": cid,
        "position": last["position"] + 1,
        "topic": "tracker.domain.session:Session.TurnEnded",
        "state": {**_borrowed(last), "originator_version": last["position"] + 1, "turn": 2},
    }
    lines.insert(lines.index({"event": last}) + 1, {"event": forged})
    response = target.test_client().post("/campaigns/import", data=_rechained(lines), headers=NDJSON)
    _refused(response, 422, "is not an event of a campaign")
    assert _notifications(target) == 0


# -- import files that would crash the parser or stop the views -----------------------------


def test_an_import_line_nested_past_any_export_is_a_422_not_a_recursion_error(client, target, journey_campaign):
    lines = client.get(f"/campaigns/{journey_campaign['id']}/export").get_data(as_text=True).splitlines()
    lines.insert(1, '{"event": ' + _nested(100_000) + "}")
    response = target.test_client().post("/campaigns/import", data="\n".join(lines), headers=NDJSON)
    _refused(response, 422, "Line 2 nests deeper than an export does")
    assert _notifications(target) == 0


@pytest.mark.parametrize("text", ["Wild Herbs\u0000", "Wild Herbs\ud800"], ids=["nul", "lone-surrogate"])
def test_an_import_whose_events_hold_text_no_store_keeps_is_a_422(client, target, journey_campaign, session_id, text):
    """Even with every hash recomputed: such an event would stop PostgreSQL's views for good."""
    client.post(f"/sessions/{session_id}/draws", json={"deck": "fortune", "cards": ["Fortune 3"], "holder": "monkey-king"})
    lines = lines_of(export(client, journey_campaign["id"]))
    drawn = next(line["event"] for line in lines if "event" in line and line["event"]["topic"].endswith("CardsDrawn"))
    drawn["state"]["meta"]["correlation_id"] = text
    # a lone surrogate has no UTF-8 form, so no hash can be computed over it: the file carries the old ones
    body = "\n".join(json.dumps(line) for line in lines) if "\ud800" in text else _rechained(lines)
    response = target.test_client().post("/campaigns/import", data=body, headers=NDJSON)
    _refused(response, 422, "cannot be stored")
    assert _notifications(target) == 0


def test_a_line_separator_inside_a_name_survives_export_and_import(client, target):
    """Export lines keep non-ASCII characters as they are, U+2028 included: only \\n ends a line."""
    created = client.post("/campaigns", json={"ruleset": "journey", "name": "Tuesday\u2028group"}).json
    response = target.test_client().post("/campaigns/import", data=client.get(f"/campaigns/{created['id']}/export").get_data(), headers=NDJSON)
    assert response.status_code == 201, response.json
    assert target.test_client().get(f"/campaigns/{created['id']}", headers={"Authorization": f"Bearer {response.json['owner_token']}"}).json["name"] == "Tuesday\u2028group"


def test_a_stream_wait_past_the_cap_is_a_422(client, journey_campaign):
    _refused(client.get("/events/stream?wait=3600"), 422, "wait")


# -- what an import's checks find when every hash was recomputed (the README's table) -----------


def _edited_import(client, target, cid: str, edit, resigned: bool = False) -> object:
    """``resigned``: the forged trailer signed with the service's own key, as an operator holding it could."""
    text = edited(client, cid, edit)
    if resigned:
        text = text_of(resign(lines_of(text), client.application.extensions["tracker"].signing))
    return target.test_client().post("/campaigns/import", data=text, headers=NDJSON)


@pytest.fixture
def reported_session(client, journey_campaign, session_id) -> str:
    assert client.post(f"/sessions/{session_id}/draws", json={"deck": "fortune", "cards": ["Fortune 3"], "holder": "monkey-king"}).status_code == 201
    assert client.post(f"/sessions/{session_id}/rolls", json={"faces": {"attack": ["2"]}}).status_code == 201
    assert client.post(f"/sessions/{session_id}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}).status_code == 200
    return session_id


def _reported_draw(event: dict) -> dict | None:
    return event["state"]["change"] if event["topic"].endswith("CardsDrawn") else None


def test_a_reported_draw_of_a_card_the_pile_does_not_hold_is_a_422_not_a_500(client, target, journey_campaign, reported_session):
    response = _edited_import(client, target, journey_campaign["id"], lambda e: _reported_draw(e) and _reported_draw(e).update(cards=["Not a card"]))
    # refused where the file's events are first folded, naming the line that holds the draw
    _refused(response, 422, "cannot follow the events before it; nothing was imported")
    assert response.json["title"].startswith("Line ") and "has no 'Not a card' in its draw pile" in response.json["detail"]
    assert _notifications(target) == 0


def test_a_reported_face_changed_to_another_the_die_has_is_not_found_by_an_import(client, target, journey_campaign, reported_session):
    """What the README says only a receipt (a hash kept elsewhere) finds once the operator re-signs: the table's report is an input."""

    def other_face(event: dict) -> None:
        if event["topic"].endswith("DiceRolled") and event["state"]["roll"]["source"] == "reported":
            event["state"]["roll"]["results"]["attack"] = ["3"]

    original_head = client.get(f"/sessions/{reported_session}/verification").json["chain"]["head"]
    unsigned = _edited_import(client, target, journey_campaign["id"], other_face)  # anyone without the key: the signature tells
    assert unsigned.status_code == 422 and "not signed by a key this server trusts" in unsigned.json["title"], unsigned.json
    response = _edited_import(client, target, journey_campaign["id"], other_face, resigned=True)  # the operator, with it
    assert response.status_code == 201, response.json
    there = target.test_client().get(f"/sessions/{reported_session}/verification", headers={"Authorization": f"Bearer {response.json['owner_token']}"}).json
    assert there["status"] == "verified" and there["chain"]["head"] != original_head  # only the kept head tells


def test_a_number_past_pythons_digit_limit_is_a_422_in_a_body_and_in_an_import(app, client, target, journey_campaign, session_id):
    before = _notifications(app)
    huge = "9" * 5000
    _refused(client.post(f"/sessions/{session_id}/rolls", data='{"dice": {"d6": ' + huge + "}}", content_type="application/json"), 422, "more than 4300 digits")
    assert _notifications(app) == before
    lines = client.get(f"/campaigns/{journey_campaign['id']}/export").get_data(as_text=True).splitlines()
    lines.insert(1, '{"event": {"stream": "x", "position": ' + huge + "}}")
    _refused(target.test_client().post("/campaigns/import", data="\n".join(lines), headers=NDJSON), 422, "Line 2 cannot be stored")
    # a long run of digits inside a string is only text
    named = client.post("/campaigns", json={"ruleset": "journey", "name": "1" * 150})
    assert named.status_code == 201
    assert _notifications(target) == 0


def test_an_import_past_the_import_limit_is_a_413_and_frees_the_import_slot(client, target, journey_campaign, session_id):
    client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 2}})
    export = client.get(f"/campaigns/{journey_campaign['id']}/export").get_data()
    target.config["IMPORT_MAX_BYTES"] = len(export) - 1  # TRACKER_IMPORT_MAX_BYTES
    _refused(target.test_client().post("/campaigns/import", data=export, headers=NDJSON), 413, "too large")
    assert f"{(len(export) - 1) / (1024 * 1024):g} MB" in target.test_client().post("/campaigns/import", data=export, headers=NDJSON).json["detail"]
    target.config["IMPORT_MAX_BYTES"] = len(export)
    assert target.test_client().post("/campaigns/import", data=export, headers=NDJSON).status_code == 201  # the slot was given back


def test_an_export_sent_as_application_json_still_imports(client, target, journey_campaign, session_id):
    export = client.get(f"/campaigns/{journey_campaign['id']}/export").get_data()
    response = target.test_client().post("/campaigns/import", data=export, headers={"Content-Type": "application/json"})
    assert response.status_code == 201, response.json
