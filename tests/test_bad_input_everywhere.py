"""Issue 29: every bad value through every transport that carries it is refused by the command that takes it, with a
title a person can act on, and appends nothing: the JSON API (problem+json), the play page's forms (the page again,
with the problem and the same 4xx status), the command line (its refusal on stderr, exit 2), and an import of a file
carrying it (422, nothing imported). On SQLite and PostgreSQL.

The values: text no store keeps (a NUL, a lone surrogate) or too long; dice and card counts past the bounds the JSON
API publishes; a holder the game does not know; a Descent party of one hero named ten times, or of five heroes;
``count`` and ``cards`` sent together. And ``tracker export --backup`` writes its file 0600."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from tests.kit.forgery_kit import PROBLEM, edited, notifications as _total
from tests.kit.forgery_kit import fresh_target as target  # noqa: F401  (fixture: an empty database of the test's backend)
from tracker.application.service import Request
from tracker.core.errors import Unprocessable

TRACKER = str(Path(sys.executable).with_name("tracker"))
HERE = {"Authorization": "", "Origin": "http://localhost"}
NUL_TITLE = "NUL character"
LONG = "x" * 201  # a purpose, a name or a label: the JSON API has always taken 200 characters at most
SAID_LONG = "x" * 1001  # a ruling or a reason: 1000


def _problem(response, title: str, status: int = 422) -> None:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == PROBLEM
    assert title in response.json["title"], response.json


# -- the play page's forms ------------------------------------------------------------------


def _signed_in(client, journey_campaign) -> None:
    assert client.post("/pages/sign-in", data={"token": journey_campaign["owner_token"]}, headers=HERE).status_code == 303


def _hidden(client, sid: str, form_id: str) -> dict[str, str]:
    html = client.get(f"/pages/sessions/{sid}/play", headers=HERE).get_data(as_text=True)
    form = re.search(rf'<form[^>]*id="{form_id}"[^>]*>(.*?)</form>', html, re.DOTALL).group(1)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def _action_hidden(client, sid: str, action: str) -> dict[str, str]:
    html = client.get(f"/pages/sessions/{sid}/play", headers=HERE).get_data(as_text=True)
    form = re.search(rf'<form method="post" action="[^"]*/play/act/{action}"[^>]*>(.*?)</form>', html, re.DOTALL).group(1)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def _page_refused(response, title: str, status: int = 422) -> None:
    """A form's refusal: the play page again, with the problem's status and its title shown."""
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    shown = re.search(r'id="problem"><strong>(.*?)</strong>', response.get_data(as_text=True), re.DOTALL)
    assert shown and title in unescape(shown.group(1)), shown and shown.group(1)


FORMS = [  # (form, fields, title): each a value the form once let through to the command
    ("roll", {"dice.d6": "1", "purpose": "initiative\x00"}, NUL_TITLE),
    ("roll", {"dice.d6": "1", "purpose": LONG}, "purpose is longer than 200 characters"),
    ("roll", {"dice.d6": "10000"}, "number of d6 dice must be 1 to 100"),
    ("roll", {"dice.d6": str(10**23)}, "number of d6 dice must be 1 to 100"),  # once spun a worker until stopped
    ("draw", {"deck": "fortune", "count": "101"}, "number of cards to draw must be 1 to 100"),
    ("draw", {"deck": "fortune", "cards": "Fortune 1", "holder": "nobody"}, "Unknown holder nobody"),  # the page says the refusal in players' words (api/pages/refusals.py)
    ("draw", {"deck": "fortune", "cards": "Fortune 1", "holder": "monkey-king\x00"}, NUL_TITLE),
    ("end", {"outcome": "victory", "ruling": "we agreed\x00"}, NUL_TITLE),
    ("end", {"outcome": "victory", "ruling": SAID_LONG}, "ruling is longer than 1000 characters"),
    ("abandon", {"reason": "bedtime\x00"}, NUL_TITLE),
    ("abandon", {"reason": SAID_LONG}, "reason is longer than 1000 characters"),
]
FORM_IDS = {"roll": "roll-form", "draw": "draw-reported-form", "end": "end-form", "abandon": "abandon-form"}


@pytest.mark.parametrize("form, fields, title", FORMS, ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(FORMS)])
def test_a_bad_value_in_a_play_page_form_is_refused_and_appends_nothing(app, client, journey_campaign, session_id, form, fields, title):
    _signed_in(client, journey_campaign)
    hidden = _hidden(client, session_id, FORM_IDS[form])
    before = _total(app)
    _page_refused(client.post(f"/pages/sessions/{session_id}/play/{form}", data={**hidden, **fields}, headers=HERE), title)
    assert _total(app) == before


def test_a_nul_in_a_corrections_reason_from_its_form_is_refused(app, client, journey_campaign, session_id):
    _signed_in(client, journey_campaign)
    hidden = _action_hidden(client, session_id, "correct")
    before = _total(app)
    sent = {**hidden, "hero": "monkey-king", "field": "karma", "should_be": "1", "reason": "misread\x00"}
    _page_refused(client.post(f"/pages/sessions/{session_id}/play/act/correct", data=sent, headers=HERE), NUL_TITLE)
    assert _total(app) == before


# -- the JSON API ------------------------------------------------------------------------------


def test_the_json_api_refuses_the_same_values(app, client, session_id):
    before = _total(app)
    refusals = [
        (f"/sessions/{session_id}/rolls", {"dice": {"d6": 101}}, "d6"),
        (f"/sessions/{session_id}/draws", {"deck": "fortune", "cards": ["Fortune 1"], "holder": "nobody"}, "Unknown holder 'nobody'"),
        (f"/sessions/{session_id}/draws", {"deck": "fortune", "count": 1, "cards": ["Fortune 1"]}, 'Send "count" or "cards", not both'),
        (f"/sessions/{session_id}/actions", {"type": "discard", "deck": "fortune", "cards": ["Fortune 1"], "from": "draw", "holder": "nobody"},
         "Unknown holder 'nobody'"),
        (f"/sessions/{session_id}/end", {"outcome": "victory", "ruling": "we agreed\u0000"}, NUL_TITLE),
        (f"/sessions/{session_id}/abandon", {"reason": "bedtime\u0000"}, NUL_TITLE),
    ]
    for path, body, title in refusals:
        _problem(client.post(path, json=body), title)
    assert _total(app) == before


def test_a_descent_party_of_one_hero_ten_times_or_of_five_heroes_is_refused(app, client):
    _problem(client.post("/campaigns", json={"ruleset": "descent", "name": "Ten", "party": ["aurim"] * 10}), "names Aurim more than once")
    five = ["runewitch-astarra", "tahlia", "aurim", "kirga", "sir-valadir"]
    _problem(client.post("/campaigns", json={"ruleset": "descent", "name": "Five", "party": five}), "at most 4 heroes")
    assert _total(app) == 0
    assert client.post("/campaigns", json={"ruleset": "descent", "name": "Four", "party": five[:4]}).status_code == 201


# -- the application itself (what the CLI and any other edge call) -------------------------------


def test_the_commands_refuse_them_whatever_carried_them(app, session_id):
    tracker = app.extensions["tracker"]
    before = _total(app)
    calls = [
        (lambda: tracker.roll(session_id, {"d6": 10**23}, request=Request()), "number of d6 dice must be 1 to 100"),
        (lambda: tracker.roll(session_id, {"d6": 1}, purpose="a\ud800b", request=Request()), "lone UTF-16 surrogate"),
        (lambda: tracker.roll(session_id, faces={"d6": [1] * 101}, request=Request()), "number of d6 dice must be 1 to 100"),
        (lambda: tracker.draw(session_id, "fortune", count=10**6, request=Request()), "number of cards to draw must be 1 to 100"),
        (lambda: tracker.draw(session_id, "fortune", cards=["Fortune 1"], count=1, request=Request()), "not both"),
        (lambda: tracker.draw(session_id, "fortune", cards=["Fortune 1"], holder="nobody", request=Request()), "Unknown holder"),
        (lambda: tracker.abandon_session(session_id, "x\x00", request=Request()), NUL_TITLE),
        (lambda: tracker.create_campaign("journey", "Tuesday\x00", request=Request()), NUL_TITLE),
        (lambda: tracker.create_campaign("journey", LONG, request=Request()), "longer than 200 characters"),
    ]
    for call, title in calls:
        with pytest.raises(Unprocessable, match=re.escape(title)):
            call()
    assert _total(app) == before


def _tracker(database_url: str, *args: str | bytes) -> subprocess.CompletedProcess:
    return subprocess.run([TRACKER, "--database-url", database_url, *args], capture_output=True, timeout=60)


def test_the_command_line_refuses_a_label_no_store_keeps_or_too_long(database_url, app, journey_campaign):
    cid = journey_campaign["id"]
    before = _total(app)
    # Bytes that are not UTF-8 reach Python's argv as lone surrogates (surrogateescape): the command refuses them.
    undecodable = _tracker(database_url, "token", "mint", cid, "--role", "viewer", "--label", b"phone \xff")
    assert undecodable.returncode == 2 and b"lone UTF-16 surrogate" in undecodable.stderr, undecodable.stderr
    long = _tracker(database_url, "token", "mint", cid, "--role", "viewer", "--label", LONG)
    assert long.returncode == 2 and b"label is longer than 200 characters" in long.stderr, long.stderr
    unknown = _tracker(database_url, "token", "mint", cid, "--role", "player", "--hero", "nobody")
    assert unknown.returncode == 2 and b"Unknown hero 'nobody'" in unknown.stderr
    assert _total(app) == before


# -- an import of a file carrying them ---------------------------------------------------------


def _named(event: dict) -> str:
    return event["topic"].rpartition(".")[2]


EDITS = {
    "a-roll-of-101-dice": (lambda e: _named(e) == "DiceRolled" and e["state"]["roll"].update(dice={"d6": 101}, results={"d6": [1] * 101}),
                           "d6 dice must be 0 to 100; send at most 100 at once"),
    "a-long-purpose": (lambda e: _named(e) == "DiceRolled" and e["state"]["roll"].update(purpose=LONG), "purpose is longer than 200"),
    "a-holder-nobody": (lambda e: _named(e) == "CardsDrawn" and e["state"]["change"].update(holder="nobody"), "Unknown holder 'nobody'"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_import_carrying_a_value_no_command_takes_is_refused(client, target, journey_campaign, session_id, edit):
    assert client.post(f"/sessions/{session_id}/rolls", json={"faces": {"d6": [3]}, "purpose": "initiative"}).status_code == 201
    assert client.post(f"/sessions/{session_id}/draws", json={"deck": "fortune", "cards": ["Fortune 1"], "holder": "monkey-king"}).status_code == 201
    change, title = EDITS[edit]
    text = edited(client, journey_campaign["id"], change)
    answer = target.test_client().post("/campaigns/import", data=text, headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 422 and answer.mimetype == PROBLEM, answer.get_data(as_text=True)[:400]
    assert "nothing was imported" in answer.json["title"] and title in answer.json["detail"], answer.json
    assert _total(target) == 0


def test_an_import_of_a_descent_party_of_ten_aurim_is_refused(client, target):
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Thursday", "party": ["aurim"]})
    assert made.status_code == 201, made.json

    def ten(event):
        if _named(event) == "CampaignCreated":
            event["state"]["party"] = ["aurim"] * 10

    text = edited(client, made.json["id"], ten)
    answer = target.test_client().post("/campaigns/import", data=text, headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 422 and "names Aurim more than once" in answer.json["title"], answer.json
    assert _total(target) == 0


def test_an_import_carrying_a_nul_is_refused(client, target, journey_campaign, session_id):
    assert client.post(f"/sessions/{session_id}/rolls", json={"faces": {"d6": [3]}, "purpose": "initiative"}).status_code == 201
    text = edited(client, journey_campaign["id"], lambda e: _named(e) == "DiceRolled" and e["state"]["roll"].update(purpose="a\x00b"))
    answer = target.test_client().post("/campaigns/import", data=text, headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 422 and answer.mimetype == PROBLEM and "NUL" in json.dumps(answer.json), answer.json
    assert _total(target) == 0


# -- backups are the owner's alone --------------------------------------------------------------


@pytest.mark.parametrize("already", [False, True], ids=["new-file", "existing-0644-file"])
def test_a_backup_is_written_readable_by_its_owner_alone(database_url, app, journey_campaign, session_id, tmp_path, already):
    out = tmp_path / "backup.jsonl"
    if already:
        out.write_text("an older backup\n")
        os.chmod(out, 0o644)
    written = _tracker(database_url, "export", journey_campaign["id"], "--backup", "--output", str(out))
    assert written.returncode == 0, written.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert '"backup": true' in out.read_text().splitlines()[0].replace('"backup":true', '"backup": true')
