"""The campaign pages through Flask's test client, on SQLite and PostgreSQL: signing in with a token
kept in an HttpOnly, SameSite=Strict cookie, the same grants as the API, and the Descent overlord's
secrets hidden from the heroes' pages until the quest ends. (tests/test_pages_browser.py drives them in Chromium.)"""

from __future__ import annotations

from tests.kit.descent import (
    TEST_OVERLORD_DECK,
    act as descent_act,
    start as descent_start,
)

NO_AUTH = {"Authorization": ""}  # the OwnerClient sends no bearer token with this: pages use the cookie


def _created(client, ruleset="journey", name="Tuesday group", **extra):
    made = client.post("/campaigns", json={"ruleset": ruleset, "name": name, **extra})
    assert made.status_code == 201, made.json
    return made.json["id"], made.json["owner_token"]


def _sign_in(client, token):
    return client.post("/pages/sign-in", data={"token": token}, headers=NO_AUTH)


def _page(client, path):
    return client.get(path, headers=NO_AUTH)


def test_signing_in_keeps_the_token_in_an_http_only_strict_cookie_and_out_of_every_page(client):
    cid, token = _created(client, party=["tripitaka", "monkey-king"])
    assert "Sign in with a token" in _page(client, "/").get_data(as_text=True)
    signed = _sign_in(client, token)
    assert signed.status_code == 303 and signed.headers["Location"].endswith(f"/pages/campaigns/{cid}")
    cookie = signed.headers["Set-Cookie"]
    assert cookie.startswith("tracker_tokens=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    for path in ("/", f"/pages/campaigns/{cid}", f"/pages/campaigns/{cid}/dice", f"/pages/campaigns/{cid}/heroes/tripitaka"):
        page = _page(client, path)
        assert page.status_code in (200, 404), path
        assert token not in page.get_data(as_text=True) and page.headers["Cache-Control"] == "no-store"
        assert "script-src" not in page.headers["Content-Security-Policy"] and "default-src 'none'" in page.headers["Content-Security-Policy"]
    listing = _page(client, "/").get_data(as_text=True)
    assert "Tuesday group" in listing and "next: Meeting" in listing
    out = client.post("/pages/sign-out", headers=NO_AUTH)
    assert out.status_code == 303 and "tracker_tokens=;" in out.headers["Set-Cookie"]
    assert _page(client, f"/pages/campaigns/{cid}").status_code == 404


def test_a_token_that_is_not_valid_is_refused_and_nothing_is_kept(client):
    refused = _sign_in(client, "not-a-token")
    assert refused.status_code == 401 and "Set-Cookie" not in refused.headers
    said = refused.get_data(as_text=True)
    assert "That token was not accepted" in said and "No campaigns yet" not in said


def test_pages_answer_to_the_same_grants_as_the_api(client):
    cid, owner = _created(client, party=["tripitaka"])
    other, other_owner = _created(client, name="Another table", party=["tripitaka"])
    assert _page(client, f"/pages/campaigns/{cid}").status_code == 404  # no cookie: out of reach, like a missing campaign
    _sign_in(client, other_owner)
    missing = _page(client, f"/pages/campaigns/{cid}")
    assert missing.status_code == 404 and "Sign in with a token of this campaign" in missing.get_data(as_text=True)
    integration = client.post(f"/campaigns/{cid}/tokens", json={"role": "integration"}, headers={"Authorization": f"Bearer {owner}"}).json
    _sign_in(client, integration["token"])
    assert _page(client, f"/pages/campaigns/{cid}").status_code == 403
    viewer = client.post(f"/campaigns/{cid}/tokens", json={"role": "viewer", "label": "Grandpa"}, headers={"Authorization": f"Bearer {owner}"}).json
    _sign_in(client, viewer["token"])
    page = _page(client, f"/pages/campaigns/{cid}").get_data(as_text=True)
    assert "Signed in as Grandpa" in page
    both = _page(client, "/").get_data(as_text=True)
    assert "Tuesday group" in both and "Another table" in both  # one cookie, a token per campaign
    client.delete(f"/campaigns/{cid}/tokens/{viewer['id']}", headers={"Authorization": f"Bearer {owner}"})
    assert _page(client, f"/pages/campaigns/{cid}").status_code == 403  # the viewer's token is revoked; the integration token remains


def test_the_overlords_secrets_stay_off_the_heroes_pages_until_the_quest_ends(client, app):
    cid, owner = _created(client, ruleset="descent", name="Thursday dungeon", party=["aurim"], components=TEST_OVERLORD_DECK)
    mint = {"Authorization": f"Bearer {owner}"}
    heroes = client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "side": "heroes"}, headers=mint).json["token"]
    overlord = client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "side": "overlord"}, headers=mint).json["token"]
    sid = descent_start(client, cid, "altar-of-despair", {"purchases": [{"card": "Dark Power", "remove": "Aim"}], "dark_glyphs": [{"glyph": "summoning"}]})
    descent_act(client, sid, type="place-glyph", glyph="summoning")
    app.extensions["tracker_views"].catch_up()
    pages = (f"/pages/campaigns/{cid}", f"/pages/sessions/{sid}")

    _sign_in(client, heroes)
    for path in pages:
        text = _page(client, path).get_data(as_text=True)
        assert "Dark Power" not in text and "summoning" not in text, path
    assert "hidden until the quest ends" in _page(client, pages[0]).get_data(as_text=True)
    client.post("/pages/sign-out", headers=NO_AUTH)
    for token in (overlord, owner):
        _sign_in(client, token)
        assert "Dark Power in, Aim out" in _page(client, pages[0]).get_data(as_text=True)
        assert "Dark Power" in _page(client, pages[1]).get_data(as_text=True)
        client.post("/pages/sign-out", headers=NO_AUTH)

    # no defeat is recorded (L670, L687): the test is about the pages, so the owner ends it by a table ruling
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "ruling": "the test ends the quest here"}).status_code == 200
    app.extensions["tracker_views"].catch_up()
    _sign_in(client, heroes)
    assert "Dark Power in, Aim out" in _page(client, pages[0]).get_data(as_text=True)
    assert "Dark Power" in _page(client, pages[1]).get_data(as_text=True)


def test_the_heroes_export_waits_for_the_quest_to_end_as_in_the_api(client, app):
    cid, owner = _created(client, ruleset="descent", name="Thursday dungeon", party=["aurim"], components=TEST_OVERLORD_DECK)
    heroes = client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "side": "heroes"}, headers={"Authorization": f"Bearer {owner}"}).json["token"]
    sid = descent_start(client, cid, "altar-of-despair")
    _sign_in(client, heroes)
    assert _page(client, f"/pages/campaigns/{cid}/export").status_code == 403
    # no altar is destroyed (L693): the test is about the export, so the owner ends it by a table ruling
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "ruling": "the test ends the quest here"}).status_code == 200
    exported = _page(client, f"/pages/campaigns/{cid}/export")
    assert exported.status_code == 200 and exported.mimetype == "application/x-ndjson"
    assert exported.get_data(as_text=True).splitlines()[0].startswith('{"header"')


def test_a_game_without_hero_sheets_shows_its_standing(client, app):
    cid, token = _created(client, ruleset="kung-fu-panda", name="Po's friends", party=["po", "tigress"])
    _sign_in(client, token)
    page = _page(client, f"/pages/campaigns/{cid}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'id="standing"' in text and "Quest chain" in text and "Kung Fu Panda" in text
    assert _page(client, f"/pages/campaigns/{cid}/heroes/crane").status_code == 404  # a hero not of this party


def test_a_roll_reported_with_an_action_reads_as_a_person_would_say_it(client, app):
    from tests.kit.journey import campaign as _campaign, play_q1 as _play_q1

    cid = _campaign(client, mode="linked")
    q1, _ = _play_q1(client, cid)
    app.extensions["tracker_views"].catch_up()
    said = [e["summary"] for e in client.get(f"/sessions/{q1}/timeline?limit=1000").json["entries"] if e["event_type"] == "ActionTaken"]
    rolled = [line for line in said if line.startswith("Monkey King rolled 1, X on the attack dice and X on the pilgrim die (pilgrim attack: ")]
    assert len(rolled) == 2 and "target berrok-1" in rolled[0] and "target berrok-2" in rolled[1] and all("outcome kill" in r for r in rolled)


def test_the_timeline_keeps_the_overlords_set_up_choices_from_the_heroes_until_the_quest_ends(client, app):
    cid, owner = _created(client, ruleset="descent", name="Thursday dungeon", party=["aurim"], components=TEST_OVERLORD_DECK)
    heroes = client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "side": "heroes"}, headers={"Authorization": f"Bearer {owner}"}).json["token"]
    sid = descent_start(client, cid, "altar-of-despair", {"purchases": [{"card": "Dark Power", "remove": "Aim"}]})
    app.extensions["tracker_views"].catch_up()
    as_heroes = {"Authorization": f"Bearer {heroes}"}
    seen = " ".join(e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=1000", headers=as_heroes).json["entries"])
    assert "Dark Power" not in seen and "Set up quest (its details are secret to the overlord until the quest ends)" in seen
    assert "Dark Power" in " ".join(e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=1000").json["entries"])


def test_a_lost_quest_played_again_shows_as_replayed_with_both_outcomes(client, app):
    from tests.kit.journey import COMPONENTS, PILGRIMS, start as _start

    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Unlucky", "party": PILGRIMS, "components": COMPONENTS, "options": {"mode": "linked"}})
    cid, token = made.json["id"], made.json["owner_token"]
    first, _ = _start(client, cid, "q1-meeting")
    # Tripitaka Defeated is Quest 1's Defeat (L713): the log records it, and the end follows it.
    client.post(f"/sessions/{first}/actions", json={"type": "report-health", "hero": "tripitaka", "hp": 1})
    client.post(f"/sessions/{first}/actions", json={"type": "demon-attack", "demon": "berrok-1", "target": "tripitaka", "faces": {"attack": ["3"], "defense": ["X"]}})
    assert client.post(f"/sessions/{first}/end", json={"outcome": "defeat"}).json["next_quest"] == "q1-meeting"
    again, _ = _start(client, cid, "q1-meeting")
    client.post(f"/sessions/{again}/end", json={"outcome": "victory", "reported": {"house_cleared": True}})
    app.extensions["tracker_views"].catch_up()
    _sign_in(client, token)
    page = _page(client, f"/pages/campaigns/{cid}").get_data(as_text=True)
    meeting = page[page.index('<span class="quest">Meeting</span>'):page.index('<span class="quest">Rescue</span>')]
    assert "<script" not in page and "Karma has not moved" in page  # no Karma moved: said in words, not drawn as flat lines
    assert "Replayed ×2" in meeting and meeting.index("✘ Defeat") < meeting.index("✔ Victory")
    assert f'href="/pages/sessions/{first}"' in meeting and f'href="/pages/sessions/{again}"' in meeting
    rescue = page[page.index('<span class="quest">Rescue</span>'):]
    assert "Next quest" in rescue[:200]


def test_the_standing_of_a_game_without_hero_sheets_shows_what_was_played(client, app):
    from tests.kit.yokai_quest import (
        act,
        create_campaign,
        defeat,
        draw_owed,
        end,
        start,
    )

    campaign = create_campaign(client)
    cid, token = campaign["id"], campaign["owner_token"]
    sid = start(client, cid, "shake-them-skeleton-bones-1")
    defeat(client, sid, "hone-bushi", 12)  # they come into play in Yōkai phases, eight miniatures at a time
    act(client, sid, {"type": "end-scene", "outcome": "victory"})
    draw_owed(client, sid)
    end(client, sid, "victory")
    app.extensions["tracker_views"].catch_up()  # pages read the projected views
    _sign_in(client, token)
    text = _page(client, f"/pages/campaigns/{cid}").get_data(as_text=True)
    standing = text[text.index('id="standing"'):]
    assert "Nothing recorded yet" not in standing
    assert "Shake Them Skeleton Bones!" in standing and "Ryo" in standing and "Nigiri" in standing  # by their names
