"""Standings and hero sheets on the pages read as tables and sentences, on SQLite and PostgreSQL: no nested
dump, no True / False, no snake_case key, no session id, and totals said as totals."""

from __future__ import annotations

import re

from tests.kit.kung_fu_panda import act as kfp_act, start as kfp_start
from tests.kit.yokai_quest import create_campaign, start

NO_AUTH = {"Authorization": ""}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _section(client, cid, token, section="standing") -> str:
    assert client.post("/pages/sign-in", data={"token": token}, headers=NO_AUTH).status_code == 303
    html = client.get(f"/pages/campaigns/{cid}", headers=NO_AUTH).get_data(as_text=True)
    found = re.search(rf'<section aria-labelledby="{section}">(.*?)</section>', html, re.DOTALL)
    assert found, html[:2000]
    return found.group(1)


def _words(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def _reads_at_a_glance(text: str) -> None:
    assert not re.search(r"\b(True|False|None)\b", text), text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
    assert not UUID.search(text) and "{" not in text and "[" not in text, text


def test_kung_fu_pandas_standing_is_tables_and_sentences(client, app):
    made = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                           "options": {"length": "adventure", "adventure": 1, "mode": "standard"}}).json
    cid, owner = made["id"], made["owner_token"]
    base = {"start_tile": "J", "spawn_points": {"1": "J"}, "enemies": {"J": {"wolf-spearman": 1, "wolf-slasher": 1}}, "villagers": {"mei": "J"}}
    sid = kfp_start(client, cid, "m1-1", base)
    kfp_act(client, sid, {"type": "start-round"})
    kfp_act(client, sid, {"type": "roll", "hero": "po", "faces": ["Chi", "Punch", "Kick", "Kick"]})
    kfp_act(client, sid, {"type": "spend", "heroes": {"po": ["Kick", "Kick"]}, "for": "knock-out", "enemy": "wolf-slasher"})
    app.extensions["tracker_views"].catch_up()
    section = _section(client, cid, owner)
    text = _words(section)
    _reads_at_a_glance(text)
    assert "0 missions won and 0 lost, of 1 played." in text
    assert "<table" in section and "Enemies knocked out, in all" in text and "Wolf Slasher" in text


def test_yokai_quests_standing_is_tables_and_sentences(client, app):
    made = create_campaign(client)
    cid, owner = made["id"], made["owner_token"]
    first = client.get(f"/campaigns/{cid}").json["next_quest"]
    sid = start(client, cid, first)
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "ruling": "the test ends the scene here"}).status_code == 200
    app.extensions["tracker_views"].catch_up()
    section = _section(client, cid, owner)
    text = _words(section)
    _reads_at_a_glance(text)
    assert "Scenes played" in text and "Treasure reserve now:" in text and "Heroes now" in text
