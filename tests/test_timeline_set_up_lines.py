"""The timeline's set-up lines and a few others as issue 32 read them on a phone: Yōkai Quest's loadouts by the
abilities' names (not "kiri-susumu"); Descent's quest, and Kung Fu Panda's mission, set up once (the second line said
"set up" again); nested maps said in brackets instead of running into the line's own semicolons (Kung Fu Panda's
enemies per tile, Descent's hero sheets); a Yōkai energy draw said "gains 3 energy" on the play page (not "3 Energy
deck (Energy deck card)"); and the hero-progress refusals by the game's and the hero's names."""

from __future__ import annotations

import re

from tests.kit.descent import SHEETS, TEST_OVERLORD_DECK
from tests.kit.yokai_quest import LOADOUTS, YOKAI_TEST_COMPONENTS

NO_AUTH = {"Authorization": ""}
HERE = {**NO_AUTH, "Origin": "http://localhost"}


def _lines(client, app, sid) -> list[str]:
    app.extensions["tracker_views"].catch_up()
    return [e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=100").json["entries"]]


def _yokai(client):
    made = client.post("/campaigns", json={"ruleset": "yokai-quest", "name": "Friday", "party": ["ryo", "ami"], "components": YOKAI_TEST_COMPONENTS}).json
    first = client.get(f"/campaigns/{made['id']}").json["next_quest"]
    started = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": first, "setup": {"abilities": LOADOUTS}})
    assert started.status_code == 201, started.json
    return made, started.json["id"]


def test_yokai_quests_set_up_names_the_abilities(client, app):
    _, sid = _yokai(client)
    set_up = next(line for line in _lines(client, app, sid) if " set up (abilities " in line)
    assert "abilities Ryo (Kiri Susumu, Senpuu, Moui, Suchu-Ryouku), Ami (Kami no Ibuki, Chiyute, Kaminari, Soukatsui)" in set_up, set_up
    ids = [ability for loadout in LOADOUTS.values() for ability in loadout]
    assert not [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", set_up)], set_up


def test_descents_quest_is_set_up_once_and_its_hero_sheets_are_bracketed(client, app):
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["tahlia", "aurim"], "components": TEST_OVERLORD_DECK}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "mists-of-time", "setup": {"hero_sheets": SHEETS}}).json["id"]
    lines = _lines(client, app, sid)
    assert len([line for line in lines if "set up" in line]) == 1, lines
    assert "Quest The Mists of Time set up (hero sheets Tahlia (wounds 12, fatigue 4, armor 2), Aurim (wounds 8, fatigue 5, armor 1))" in lines, lines
    assert "The quest starts with 8 conquest and the overlord's treachery event 5, trap 2, monster 4" in lines, lines


def test_kung_fu_pandas_set_up_keeps_each_map_together(client, app):
    made = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                           "options": {"length": "single", "mission": "m1-1"}}).json
    setup = {"start_tile": "J", "spawn_points": {"1": "J", "4": "d"}, "enemies": {"J": {"wolf-spearman": 2, "wolf-slasher": 1}, "d": {"ox-grunt": 1}},
             "villagers": {"mei": "q", "li": "n"}, "special_moves": {"po": "Crane Kick", "tigress": "Tiger Claw"}}
    started = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "m1-1", "setup": setup})
    assert started.status_code == 201, started.json
    sid = started.json["id"]
    lines = _lines(client, app, sid)
    assert len([line for line in lines if "set up" in line]) == 1 and "Played in standard mode by 2 heroes" in lines, lines  # once
    set_up = next(line for line in lines if " set up (" in line)
    fields = set_up.partition(" set up (")[2].removesuffix(")").split("; ")
    assert fields[:4] == ["start tile Kitchen (J)", "spawn points 1 Kitchen (J), 4 Long Market (d)",
                          "enemies Kitchen (J) (Wolf Spearman 2, Wolf Slasher 1), Long Market (d) (Ox Grunt 1)",
                          "villagers mei Market 2 (q), li Market 1 (n)"], fields


def test_a_yokai_energy_draw_says_energy_on_the_play_page(client, app):
    made, sid = _yokai(client)
    drawn = client.post(f"/sessions/{sid}/actions", json={"type": "draw-energy", "hero": "ryo", "spheres": 3})
    assert drawn.status_code == 201, drawn.json
    assert any(line.startswith("Ryo gains 3 energy") for line in _lines(client, app, sid))
    assert client.post("/pages/sign-in", data={"token": made["owner_token"]}, headers=HERE).status_code == 303
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(f"/pages/sessions/{sid}/play", headers=NO_AUTH).get_data(as_text=True)))
    assert "Ryo gains 3 energy (energy card)" in page and "Energy deck (" not in page and "3 Energy deck" not in page


def test_the_hero_progress_refusals_name_the_game_and_the_hero(client):
    panda = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                            "options": {"length": "single", "mission": "m1-1"}}).json["id"]
    none_kept = client.get(f"/campaigns/{panda}/heroes/po")
    assert none_kept.status_code == 404 and none_kept.json["title"] == "Kung Fu Panda: The Board Game keeps no hero progress across a campaign"
    assert "kung-fu-panda" not in none_kept.json["detail"] and "GET /sessions/{sid}" in none_kept.json["detail"]
    descent = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["tahlia", "aurim"]}).json["id"]
    absent = client.get(f"/campaigns/{descent}/heroes/sir-valadir")
    assert absent.status_code == 404 and absent.json["title"] == "No hero Sir Valadir in this campaign", absent.json
    assert "[" not in absent.json["detail"] and "'" not in absent.json["detail"], absent.json
