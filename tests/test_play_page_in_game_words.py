"""The play page speaks the game (issue 32), through Flask's test client on SQLite and PostgreSQL: the turn on top
(who acts, what is owed, the end's facts), the next Pilgrim preselected, dice as face pickers from the die's faces,
the Weapon Card's damage and knock back under their card, tiles by their names, and a refusal in players' words."""

from __future__ import annotations

import re

from api.pages import refusals
from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tracker import rulesets
from tracker.core.errors import Unprocessable

NO_AUTH = {"Authorization": ""}
HERE = {**NO_AUTH, "Origin": "http://localhost"}


def _signed_in_page(client, token, sid) -> str:
    assert client.post("/pages/sign-in", data={"token": token}, headers=HERE).status_code == 303
    page = client.get(f"/pages/sessions/{sid}/play", headers=NO_AUTH)
    assert page.status_code == 200
    return page.get_data(as_text=True)


def _journey(client, components=COMPONENTS):
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": components}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": ORDER}}).json["id"]
    return made["owner_token"], sid


def _form_of(html: str, action: str) -> str:
    return re.search(rf'/play/act/{action}"[^>]*>(.*?)</form>', html, re.DOTALL).group(1)


def _hidden(form: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_the_next_pilgrim_is_preselected_and_the_turn_says_who_acts(client):
    token, sid = _journey(client)
    assert client.post(f"/sessions/{sid}/actions", json={"type": "maintenance"}).status_code == 201
    html = _signed_in_page(client, token, sid)
    # L362: in initiative order: Monkey King holds Initiative 1 here, though Tripitaka is listed first in the party
    assert '<option value="monkey-king" selected>Monkey King</option>' in _form_of(html, "activate-pilgrim")
    assert re.search(r'<li id="acting"><strong>Acts now:</strong> Monkey King</li>', html)
    assert "The end will ask whether</strong> every Demon in the Villagers&#39; house is removed (L710" in html  # the fact awaited


def test_the_attack_dice_are_face_pickers_and_the_weapon_card_keeps_its_damage(client):
    token, sid = _journey(client)
    attack = _form_of(_signed_in_page(client, token, sid), "pilgrim-attack")
    faces = re.findall(r'name="faces\.attack#([^"]+)"', attack)
    assert faces == ["X", "0", "1", "2", "3"]  # the Attack Die's faces, each counted
    assert 'name="faces.attack"' not in attack  # no comma-separated text
    weapon = re.search(r"<fieldset class=\"group\"><legend>Weapon</legend>(.*?)</fieldset>", attack, re.DOTALL).group(1)
    assert "Weapon Card" in weapon and 'name="stated.weapon.damage"' in weapon and 'name="stated.weapon.knock_back"' in weapon
    assert '<option value="berrok-1">Berrok 1</option>' in attack  # the target by name


def test_faces_counted_on_the_page_are_the_roll_recorded(client):
    token, sid = _journey(client)
    html = _signed_in_page(client, token, sid)
    form = re.search(r'<form[^>]*id="report-form"[^>]*>(.*?)</form>', html, re.DOTALL).group(1)
    before = client.get(f"/sessions/{sid}/events?limit=1").json["total"]
    sent = client.post(f"/pages/sessions/{sid}/play/roll", data={**_hidden(form), "faces.attack#X": "1", "faces.attack#2": "2"}, headers=HERE)
    assert sent.status_code == 303
    rolled = client.get(f"/sessions/{sid}/events?after={before}").json["events"][0]["payload"]["roll"]["results"]["attack"]
    assert sorted(map(str, rolled)) == ["2", "2", "X"]


def test_starting_skill_cards_owed_show_at_the_top(client):
    lost = {**COMPONENTS, "decks": {k: v for k, v in COMPONENTS["decks"].items() if not k.startswith("skill-")}}
    token, sid = _journey(client, lost)
    html = _signed_in_page(client, token, sid)
    # L221: "Shuffle the Skill Cards and draw the top 2": the decks' cards are lost, so the table draws them and reports them
    assert "<strong>Owed:</strong> Monk Sha draws 2 starting Skill Cards at the table (L221)" in html


def test_the_end_states_the_quests_fact_by_its_words(client):
    token, sid = _journey(client)
    html = _signed_in_page(client, token, sid)
    end = re.search(r'<form[^>]*id="end-form"[^>]*>(.*?)</form>', html, re.DOTALL).group(1)
    assert '<select name="reported.house_cleared">' in end and "house_cleared:" not in end  # the quest's published fact
    assert "House cleared" in end and "Villagers&#39; house" in end  # by its name and the rulebook's words
    ended = client.post(f"/pages/sessions/{sid}/play/end", data={**_hidden(end), "outcome": "victory", "reported.house_cleared": "yes"}, headers=HERE)
    assert ended.status_code == 303  # L712: Victory when the house is cleared, stated by the table
    assert client.get(f"/sessions/{sid}").json["outcome"] == "victory"


def test_kung_fu_panda_counts_rounds_and_names_tiles(client):
    made = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                           "options": {"length": "adventure", "adventure": 1, "mode": "standard"}}).json
    setup = {"start_tile": "J", "spawn_points": {"1": "J"}, "enemies": {"J": {"wolf-spearman": 1}}, "villagers": {"mei": "J"}}
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "m1-1", "setup": setup}).json["id"]
    assert client.post(f"/sessions/{sid}/actions", json={"type": "start-round", "entry": "detail"}).status_code == 201
    html = _signed_in_page(client, made["owner_token"], sid)
    assert '<span class="badge outcome-playing">Round 1</span>' in html and "Turn 1</span>" not in html
    spend = _form_of(html, "spend")
    assert '<option value="s">Gatehouse (s)</option>' in spend  # L242's scene tiles, by name
    assert 'name="heroes.po#Punch"' in spend and 'name="heroes.tigress#Move"' in spend  # each hero's dice, counted


def test_yokai_quest_treasure_owed_is_said_with_its_rule():
    rules = rulesets.get("yokai-quest").rules
    owed = rules.owed("s1", {"treasure_owed": [{"hero": "ami", "reason": "treasure reserve reached 5", "search": None}]}, 1)
    assert owed == ["Ami is owed a treasure card: treasure reserve reached 5 (L258); draw it with Draw treasure"]
    assert rules.owed("s1", {"treasure_owed": []}, 1) == []


def test_a_refusal_is_said_without_json_paths_or_ids():
    problem = Unprocessable(
        "The card list of deck 'skill-monk-sha' is unknown, so it cannot be drawn digitally",
        detail='The rulebook transcription lost the cards. Supply them as component data ("components": {"decks": {}}) '
               "when creating the campaign or later with POST /campaigns/{cid}/components. Draw at the table instead.",
        errors={"drawn.skill-monk-sha": ["Expected 2 card(s)."], "hero": ["One of ['tripitaka', 'monk-sha']."]},
        unknown={"deck": "skill-monk-sha", "count": 2},
    )
    said = refusals.said(problem, {"skill-monk-sha": "Monk Sha Skill Cards", "tripitaka": "Tripitaka", "monk-sha": "Monk Sha"})
    text = " ".join([said["title"], said["hint"], *said["change"]])
    assert "{" not in text and "POST" not in text and "/campaigns" not in text and "['" not in text, text
    assert "skill-monk-sha" not in text and "Monk Sha Skill Cards" in said["title"]
    assert "Draw at the table instead." in said["hint"] and "Hero: One of Tripitaka, Monk Sha." in said["change"]
    assert any("draw at the table and enter the cards drawn" in c for c in said["change"])


def test_a_choice_the_game_gives_no_name_is_said_as_words_and_a_face_as_it_is_written():
    """A select's options: a code word of the schema as a word ("basic": Basic, "heroic-victory": Heroic victory), what the
    game names by its name, and a die face or a card as it is printed (never lower-cased or rewritten)."""
    from api.pages import forms

    schema = {"type": "object", "required": ["movement"], "properties": {
        "movement": {"type": "string", "enum": ["basic", "heroic-victory", "run_away"]},
        "face": {"type": "string", "enum": ["X", "3D 1R", "Wild Herbs"]},
        "tile": {"type": "string", "enum": ["n", "N"]},
        "hero": {"type": "string", "enum": ["ami"]}}}
    said = {f["name"]: [c["label"] for c in f["choices"]] for f in forms.fields(schema, {"ami": "Ami"}, [], [])}
    assert said == {"movement": ["Basic", "Heroic victory", "Run away"], "face": ["X", "3D 1R", "Wild Herbs"],
                     "tile": ["n", "N"], "hero": ["Ami"]}  # a letter is an id, as written (Kung Fu Panda's tiles n and N differ)
