"""The replay and reading pages fixed as issue 32 saw them on a phone: the stepper's buttons drawn (inline SVG, no
font glyph), the hero table in the sheet's order with names, an action's request shown with its effects, no
"HP None", a Kung Fu Panda hero page, and a long set-up line as a list with no sentence twice."""

from __future__ import annotations

import re

from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tests.kit.pages import NO_AUTH, signed_in as _signed_in


def _get(client, url) -> str:
    page = client.get(url, headers=NO_AUTH)
    assert page.status_code == 200, page.get_data(as_text=True)[:300]
    return page.get_data(as_text=True)


def _journey(client, app):
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": COMPONENTS}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": ORDER}}).json["id"]
    acted = client.post(f"/sessions/{sid}/actions", json={"type": "maintenance"}).json
    app.extensions["tracker_views"].catch_up()
    _signed_in(client, made["owner_token"])
    return made["id"], sid, acted


def test_the_replay_stepper_is_drawn_and_the_hero_table_reads_down_the_sheet(client, app):
    cid, sid, _ = _journey(client, app)
    html = _get(client, f"/pages/sessions/{sid}/replay?at=2")
    stepper = re.search(r'<nav class="stepper".*?</nav>', html, re.DOTALL).group(0)
    assert not re.search("[\u23ee\u23ed\u25c0\u25b6]", stepper) and stepper.count("<svg") == 4  # drawn, not font glyphs
    table = re.search(r"<caption>Each hero at this point</caption>(.*?)</table>", html, re.DOTALL).group(1)
    headers = re.findall(r'<th scope="col">([^<]*)</th>', table)
    assert headers == ["", "Tripitaka", "Monkey King", "Cho Hakkai", "Monk Sha"]  # a column per hero, by name
    stats = re.findall(r'<th scope="row">([^<]*)</th>', table)
    assert stats[:3] == ["HP", "Max HP", "Chi"], stats  # the sheet's order, not the alphabet


def test_an_actions_request_is_shown_with_its_effects(client, app):
    cid, sid, acted = _journey(client, app)
    request = acted["events"][0]["position"]
    html = _get(client, f"/pages/sessions/{sid}/replay?at={request}")
    effects = re.search(r'<span id="effects">(.*?)</span>', html, re.DOTALL).group(1)
    assert "the pilgrim phase began" in effects and f"(through #{acted['events'][-1]['position']})" in effects  # what it did
    facts = re.search(r"<caption>The game at this point</caption>(.*?)</table>", html, re.DOTALL).group(1)
    assert re.search(r'<th scope="row">Phase</th><td>pilgrim</td>', facts), facts[:500]  # the state after its effects


def test_a_set_up_line_is_a_list_with_no_sentence_twice(client, app):
    cid, sid, _ = _journey(client, app)
    html = _get(client, f"/pages/sessions/{sid}")
    lists = re.findall(r'<span class="parts">((?:<span class="part listed"[^>]*>[^<]*</span>)+)</span>', html)
    assert lists
    for listed in lists:
        said = re.findall(r'<span class="part listed"[^>]*>([^<]*)</span>', listed)
        assert len(said) > 3
        assert len(said) == len(set(said)), said


def test_a_kung_fu_panda_hero_has_a_page(client, app):
    made = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                           "options": {"length": "adventure", "adventure": 1, "mode": "standard"}}).json
    setup = {"start_tile": "J", "spawn_points": {"1": "J"}, "enemies": {"J": {"wolf-spearman": 1}}, "villagers": {"mei": "J"}}
    assert client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "m1-1", "setup": setup}).status_code == 201
    _signed_in(client, made["owner_token"])
    html = _get(client, f"/pages/campaigns/{made['id']}/heroes/po")
    assert "<h1>Po</h1>" in html and 'id="in-play"' in html and "Across the Rooftops" in html
    assert re.search(r'<th scope="row">Health</th><td>4</td>', html)
    missing = client.get(f"/pages/campaigns/{made['id']}/heroes/shifu", headers=NO_AUTH)
    assert missing.status_code == 404 and "'shifu'" not in missing.get_data(as_text=True)


def test_a_hero_whose_hp_was_lost_shows_no_none(client, app):
    lost = {**COMPONENTS, "characters": {k: v for k, v in COMPONENTS["characters"].items() if k not in PILGRIMS}}
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Lost", "party": PILGRIMS, "components": lost}).json
    started = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": ORDER}})
    app.extensions["tracker_views"].catch_up()
    _signed_in(client, made["owner_token"])
    html = _get(client, f"/pages/campaigns/{made['id']}/heroes/tripitaka")
    assert started.status_code == 201
    assert "HP not known" in html and "None" not in re.sub(r"<[^>]+>", "", html)
