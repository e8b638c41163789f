"""A session's pages live at the table, through Flask's test client on SQLite and PostgreSQL (the browser's side is
tests/test_play_live_browser.py): the stream a page follows (GET /pages/sessions/<id>/live) answers to the page's
cookie as the page does, carries only that session's events, redacted for the token's side as GET /events is
(a heroes player never reads the overlord's hand), and resumes after Last-Event-ID; the play forms take the
Idempotency-Key and If-Match headers the page's script sends for an action kept offline; and only a session's pages
may run a script, this server's only, connecting only here."""

from __future__ import annotations

import json
import re

import pytest

from tests.kit.descent import TEST_OVERLORD_DECK
from tests.kit.journey import COMPONENTS, PILGRIMS, start
from tests.kit.secrets import bearer, compact, mint
from tests.kit.session import total as _total

NO_AUTH = {"Authorization": ""}
HERE = {**NO_AUTH, "Origin": "http://localhost"}
STRICT = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"


@pytest.fixture
def quick(app):
    """Streams say they are alive every half second, so a read that finds no event ends instead of waiting."""
    app.config["STREAM_HEARTBEAT_SECONDS"] = 0.5
    return app


def _journey(client):
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": COMPONENTS})
    assert made.status_code == 201, made.json
    sid, _ = start(client, made.json["id"], "q1-meeting")
    return made.json["id"], made.json["owner_token"], sid


def _pages(app, token):
    """A browser of its own: the token pasted into the sign-in form once, kept in the cookie."""
    pages = app.test_client()
    assert pages.post("/pages/sign-in", data={"token": token}, headers=HERE).status_code == 303
    return pages


class Stream:
    """A page's live stream, read one Server-Sent Event at a time."""

    def __init__(self, pages, sid, **headers):
        self.response = pages.get(f"/pages/sessions/{sid}/live", headers={**NO_AUTH, **headers})
        assert self.response.status_code == 200 and self.response.mimetype == "text/event-stream", self.response.get_data(as_text=True)
        self.chunks = iter(self.response.response)
        assert _text(next(self.chunks)).startswith("retry: ")

    def next_event(self) -> dict | None:
        """The next event, or None once the stream has only said it is alive twice (nothing came)."""
        beats = 0
        while beats < 2:
            chunk = _text(next(self.chunks))
            if chunk.startswith(": keep-alive"):
                beats += 1
                continue
            fields = dict(line.split(": ", 1) for line in chunk.strip().splitlines())
            assert "event" not in fields  # unnamed: the page's script hears every type as a message
            event = json.loads(fields["data"])
            assert fields["id"] == str(event["id"])
            return event
        return None

    def close(self):
        self.response.close()


def _text(chunk) -> str:
    return chunk.decode() if isinstance(chunk, bytes) else chunk


def test_the_play_page_stream_carries_another_devices_roll_and_draw_of_this_session_only(client, quick):
    cid, _owner, sid = _journey(client)
    other, _ = start(client, cid, "q1-meeting")  # another session of the same campaign, at another table
    player = mint(client, cid, role="player")
    stream = Stream(_pages(quick, player), sid)
    try:
        assert client.post(f"/sessions/{other}/rolls", json={"dice": {"d6": 1}}).status_code == 201
        rolled = client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}})
        drawn = client.post(f"/sessions/{sid}/draws", json={"deck": "corruption", "count": 1, "holder": "monkey-king"})
        assert rolled.status_code == 201 and drawn.status_code == 201, (rolled.json, drawn.json)
        seen = []
        while (event := stream.next_event()) is not None:  # until nothing more comes
            seen.append(event)
        # this session's roll, then its draw (the pile shuffled first): no other session's roll
        assert [e["type"] for e in seen] == ["DiceRolled", "DeckShuffled", "CardsDrawn"] and {e["stream"] for e in seen} == {sid}
        assert seen[0]["payload"]["roll"]["results"] == rolled.json["results"]
        assert [e["id"] for e in seen] == sorted(e["id"] for e in seen)
    finally:
        stream.close()


def test_a_page_stream_reconnecting_with_last_event_id_gets_what_it_missed(client, quick):
    _cid, owner, sid = _journey(client)
    pages = _pages(quick, owner)
    stream = Stream(pages, sid)
    try:
        assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}}).status_code == 201
        seen = stream.next_event()
    finally:
        stream.close()
    assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 3}}).status_code == 201  # while it was away
    again = Stream(pages, sid, **{"Last-Event-ID": str(seen["id"])})
    try:
        missed = again.next_event()
        assert missed["type"] == "DiceRolled" and len(missed["payload"]["roll"]["results"]["d6"]) == 3
    finally:
        again.close()
    bad = pages.get(f"/pages/sessions/{sid}/live", headers={**NO_AUTH, "Last-Event-ID": "soon"})
    assert bad.status_code == 400 and "Last-Event-ID" in bad.get_data(as_text=True)


def test_a_page_stream_answers_to_the_cookie_as_the_page_does(client, quick):
    cid, _owner, sid = _journey(client)
    stranger = quick.test_client()  # no cookie
    assert stranger.get(f"/pages/sessions/{sid}/live", headers=NO_AUTH).status_code == 404
    _other_cid, other_owner, _ = _journey(client)
    elsewhere = _pages(quick, other_owner)  # a token of another campaign
    assert elsewhere.get(f"/pages/sessions/{sid}/live", headers=NO_AUTH).status_code == 404
    integration = quick.test_client()  # (the sign-in form takes an integration token too; the pages refuse it)
    integration.set_cookie("tracker_tokens", mint(client, cid, role="integration"))
    refused = integration.get(f"/pages/sessions/{sid}/live", headers=NO_AUTH)
    assert refused.status_code == 403 and "Integration tokens" in refused.get_data(as_text=True)
    viewer = Stream(_pages(quick, mint(client, cid, role="viewer")), sid)  # a viewer reads: its pages follow too
    try:
        assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}}).status_code == 201
        assert viewer.next_event()["type"] == "DiceRolled"
    finally:
        viewer.close()


def test_the_heroes_page_stream_never_carries_the_overlords_hand(client, quick):
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["aurim"], "components": TEST_OVERLORD_DECK,
                                          "options": {"dark_glyph_payment": "any"}})
    assert made.status_code == 201, made.json
    cid, owner = made.json["id"], made.json["owner_token"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "the-trapped-ruins", "setup": {"starting_conquest": 8}}).json["id"]
    heroes = Stream(_pages(quick, mint(client, cid, role="player", side="heroes")), sid)
    everything = Stream(_pages(quick, owner), sid)
    try:
        overlord = bearer(mint(client, cid, role="player", side="overlord"))
        drawn = client.post(f"/sessions/{sid}/draws", json={"deck": "overlord", "count": 2, "holder": "overlord"}, headers=overlord)
        assert drawn.status_code == 201, drawn.json
        cards = drawn.json["cards"]
        seen_by_heroes, seen_by_owner = heroes.next_event(), everything.next_event()
        assert seen_by_heroes["type"] == seen_by_owner["type"] == "CardsDrawn"
        for card in cards:
            assert card in json.dumps(seen_by_owner)  # the check can see a card where one is shown
            assert card not in json.dumps(seen_by_heroes) and compact(card) not in compact(json.dumps(seen_by_heroes))
    finally:
        heroes.close()
        everything.close()


def _hidden(html: str, path: str) -> dict[str, str]:
    """The hidden fields (CSRF token, Idempotency-Key) of the first form posting to ``path``."""
    form = re.search(rf'<form method="post" action="{re.escape(path)}"[^>]*>(.*?)</form>', html, re.DOTALL).group(1)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_an_action_kept_offline_is_sent_once_by_its_idempotency_key_header(client, app):
    _cid, owner, sid = _journey(client)
    pages = _pages(app, owner)
    path = f"/pages/sessions/{sid}/play/roll"
    html = pages.get(f"/pages/sessions/{sid}/play", headers=NO_AUTH).get_data(as_text=True)
    version = int(re.search(r'data-version="(\d+)"', html).group(1))
    hidden = _hidden(html, path)
    before = _total(client, sid)
    # Sent, its answer lost, sent again: the key drawn when it was pressed, the form's own key drawn anew each time.
    sent = [pages.post(path, data={**hidden, "idempotency_key": f"form-{n}", "dice.d6": "2"},
                       headers={**HERE, "Idempotency-Key": "live-pressed-once", "If-Match": str(version)}) for n in range(2)]
    assert [s.status_code for s in sent] == [303, 303]
    assert _total(client, sid) == before + 1
    # A form key alone still decides, as without a script.
    assert pages.post(path, data={**hidden, "dice.d6": "1"}, headers=HERE).status_code == 303
    assert _total(client, sid) == before + 2


def test_an_action_kept_offline_on_a_session_that_moved_on_is_refused_and_shown(client, app):
    _cid, owner, sid = _journey(client)
    pages = _pages(app, owner)
    path = f"/pages/sessions/{sid}/play/roll"
    html = pages.get(f"/pages/sessions/{sid}/play", headers=NO_AUTH).get_data(as_text=True)
    version = int(re.search(r'data-version="(\d+)"', html).group(1))
    assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}}).status_code == 201  # another device, meanwhile
    before = _total(client, sid)
    refused = pages.post(path, data={**_hidden(html, path), "dice.d6": "2"}, headers={**HERE, "Idempotency-Key": "live-late", "If-Match": str(version)})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 412 and 'id="problem"' in text and f"not {version}" in text and "Someone else changed the session first" in text
    assert _total(client, sid) == before  # nothing appended
    bad = pages.post(path, data={**_hidden(html, path), "dice.d6": "2"}, headers={**HERE, "Idempotency-Key": "live-bad", "If-Match": "latest"})
    assert bad.status_code == 400 and "If-Match must be the session version you last saw" in bad.get_data(as_text=True)
    assert _total(client, sid) == before


def test_only_a_sessions_pages_run_a_script_and_only_this_servers(client, app):
    cid, owner, sid = _journey(client)
    pages = _pages(app, owner)
    live = f"{STRICT}; script-src 'self'; connect-src 'self'"
    for path in (f"/pages/sessions/{sid}/play", f"/pages/sessions/{sid}", f"/pages/sessions/{sid}/replay"):
        page = pages.get(path, headers=NO_AUTH)
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and page.headers["Content-Security-Policy"] == live, path
        hooks = re.findall(r"<script[^>]*>", html)
        version = client.get(f"/sessions/{sid}").json["version"]
        hook = (f'<script src="/pages/static/live.js" defer data-live-stream="/pages/sessions/{sid}/live" data-session="{sid}" '
                f'data-version="{version}">')
        assert hooks == [hook], (path, hooks)
        assert "<script>" not in html and " on" + "click=" not in html  # nothing inline, which the policy would refuse anyway
    for path in ("/", f"/pages/campaigns/{cid}", f"/pages/campaigns/{cid}/dice"):
        page = pages.get(path, headers=NO_AUTH)
        assert page.headers["Content-Security-Policy"] == STRICT and "<script" not in page.get_data(as_text=True), path
    script = pages.get("/pages/static/live.js", headers=NO_AUTH)
    assert script.status_code == 200 and script.mimetype in ("text/javascript", "application/javascript")
    body = script.get_data(as_text=True)
    assert "EventSource" in body and "Idempotency-Key" in body and "http" + "s://" not in body  # nothing from elsewhere
    script.close()
