"""The play page on a phone (Chromium at 390×844, no script) in each of the four games, mid-turn: the turn on
top in the game's words, the page at most three screens tall, no Python repr, JSON brace or rules-data id in what
a person sees, and a refusal shown with its hint. Screenshots go to the test's tmp_path (look at them)."""

from __future__ import annotations

import re

import pytest

from tests.kit.descent import TEST_OVERLORD_DECK
from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tests.kit.pages_browser import PHONE, chromium, fits_the_width, live_server, open_to, screenshot, sign_in, visible_text  # noqa: F401
from tests.kit.yokai_quest import LOADOUTS, YOKAI_TEST_COMPONENTS

pytestmark = pytest.mark.browser

SCREENS = 3
NAMED = {p: p.replace("-", " ").title() for p in PILGRIMS}
# The test decks' cards named as a group would name them (the kit's names hold the Pilgrims' ids).
JOURNEY = {**COMPONENTS, "decks": {**COMPONENTS["decks"], **{
    f"skill-{p}": {"cards": [{"name": f"{NAMED[p]} skill {n}", "kind": "one-time" if n % 2 else "permanent"} for n in range(1, 12)]} for p in PILGRIMS}}}


def _ids_of(client, ruleset: str) -> set[str]:
    """Ids the rules data names that no person says (hyphenated or snake_case: "monkey-king", "berrok-1")."""
    data = client.get(f"/rulesets/{ruleset}").json
    ids = {item["id"] for key in ("characters", "quests", "decks", "dice") for item in data.get(key) or [] if isinstance(item, dict) and "id" in item}
    return {i for i in ids if "-" in i or "_" in i}


def _plainly_said(text: str, ids: set[str]) -> None:
    assert not re.search(r"\[\s*'|\{\s*'|\{\s*\"|\bNone\b|\bTrue\b|\bFalse\b", text), text
    assert "{" not in text and "}" not in text, text
    named = [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    assert not named, (named, text)
    assert not re.search(r"\b[a-z]+-\d+\b", text), text  # a figure's id (berrok-1)


def _phone(chromium, live_server, token, sid):  # noqa: F811
    context = chromium.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server, token)
    page.goto(f"{live_server}/pages/sessions/{sid}/play")
    return context, page


def _check_phone(page, client, ruleset: str, tmp_path, name: str) -> str:
    height = page.evaluate("document.documentElement.scrollHeight")
    screenshot(page, f"{name}-mid-turn", tmp_path)
    assert height <= SCREENS * PHONE["height"], height
    assert fits_the_width(page)
    text = visible_text(page)
    _plainly_said(text, _ids_of(client, ruleset))
    return text


def _refused(page, action: str, **fields) -> str:
    open_to(page, f"#action-{action}" if action != "roll" else "#roll-form")
    form = page.locator(f"#action-{action} form" if action != "roll" else "#roll-form")
    for field, value in fields.items():
        form.locator(f"[name='{field}']").select_option(value)
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    problem = page.locator("#problem")
    assert problem.count() == 1
    box = problem.bounding_box()
    assert box and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("(() => { const p = document.getElementById('problem'); return p.scrollWidth <= p.clientWidth; })()")
    return problem.inner_text()


def test_journey_mid_turn_on_a_phone(client, live_server, chromium, database_url, tmp_path):  # noqa: F811
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": JOURNEY}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": ORDER}}).json["id"]
    assert client.post(f"/sessions/{sid}/actions", json={"type": "maintenance"}).status_code == 201
    context, page = _phone(chromium, live_server, made["owner_token"], sid)
    text = _check_phone(page, client, "journey", tmp_path, "journey")
    assert "Phase: Pilgrim" in text and "Acts now: Monkey King" in text
    assert "The end will ask whether every Demon in the Villagers' house is removed" in text  # the quest's fact, by its words
    # L362: Pilgrims activate in initiative order: the form preselects the next, Monkey King (not the first listed, Tripitaka)
    assert page.locator("#action-activate-pilgrim [name=hero]").input_value() == "monkey-king"
    said = _refused(page, "activate-pilgrim", hero="monk-sha")
    assert "It is not Monk Sha's turn to activate" in said and "initiative order (Monkey King, Tripitaka, Cho Hakkai, Monk Sha)" in said, said
    _plainly_said(visible_text(page), _ids_of(client, "journey"))
    screenshot(page, "journey-refused", tmp_path)
    context.close()


def test_descent_mid_turn_on_a_phone(client, live_server, chromium, database_url, tmp_path):  # noqa: F811
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["aurim", "tahlia"], "components": TEST_OVERLORD_DECK}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "mists-of-time", "setup": {}}).json["id"]
    assert client.post(f"/sessions/{sid}/actions", json={"type": "gain-threat", "source": "other", "amount": 2}).status_code == 201
    # mid-turn: Aurim's turn, whose moment lists 25 actions (turn.py HERO_TURN): the first and the closing ones shown
    assert client.post(f"/sessions/{sid}/actions", json={"type": "start-hero-turn", "hero": "aurim"}).status_code == 201
    context, page = _phone(chromium, live_server, made["owner_token"], sid)
    text = _check_phone(page, client, "descent", tmp_path, "descent")
    assert "The overlord (" in text and "overlord deck (" not in text  # his hand, held by the overlord, not by the deck
    assert page.locator("#actions > details.action#action-end-hero-turn").is_visible()  # the turn's end, not folded
    said = _refused(page, "roll")  # no dice said
    assert "Say which dice to roll" in said and "Enter a number of dice" in said, said
    said = _refused(page, "start-hero-turn", hero="tahlia")  # Aurim's turn is under way
    assert "“start hero turn” by Tahlia" in said and "start-hero-turn" not in said, said  # the action in words, not its id
    context.close()


def test_kung_fu_panda_mid_round_on_a_phone(client, live_server, chromium, database_url, tmp_path):  # noqa: F811
    made = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                           "options": {"length": "adventure", "adventure": 1, "mode": "standard"}}).json
    setup = {"start_tile": "J", "spawn_points": {"1": "J"}, "enemies": {"J": {"wolf-spearman": 1, "wolf-slasher": 1}}, "villagers": {"mei": "J"}}
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "m1-1", "setup": setup}).json["id"]
    assert client.post(f"/sessions/{sid}/actions", json={"type": "start-round", "entry": "detail"}).status_code == 201
    assert client.post(f"/sessions/{sid}/actions", json={"type": "roll", "hero": "po", "faces": ["Move", "Move", "Kick", "Chi"]}).status_code == 201
    context, page = _phone(chromium, live_server, made["owner_token"], sid)
    text = _check_phone(page, client, "kung-fu-panda", tmp_path, "kung-fu-panda")
    assert "Round 1" in text and "Turn 1" not in text  # L71: rounds, with pauses between
    open_to(page, "#action-spend [name=to]")
    tiles = page.locator("#action-spend [name=to] option").evaluate_all("os => os.map(o => o.textContent)")
    assert "Gatehouse (s)" in tiles, tiles  # tiles by their names
    said = _refused(page, "spend", **{"for": "move"})
    assert said.strip() and "{" not in said
    context.close()


def test_yokai_quest_mid_turn_on_a_phone(client, live_server, chromium, database_url, tmp_path):  # noqa: F811
    made = client.post("/campaigns", json={"ruleset": "yokai-quest", "name": "Friday", "party": ["ryo", "ami"], "components": YOKAI_TEST_COMPONENTS}).json
    first = client.get(f"/campaigns/{made['id']}").json["next_quest"]
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": first, "setup": {"abilities": LOADOUTS}}).json["id"]
    assert client.post(f"/sessions/{sid}/actions", json={"type": "draw-energy", "hero": "ryo", "spheres": 3}).status_code == 201
    context, page = _phone(chromium, live_server, made["owner_token"], sid)
    text = _check_phone(page, client, "yokai-quest", tmp_path, "yokai-quest")
    assert "Phase: Hero" in text
    said = _refused(page, "draw-treasure", hero="ami")
    assert "No treasure card is owed to Ami" in said and "reserve reaches 5" in said, said  # L258, with its hint
    context.close()
