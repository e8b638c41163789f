"""A whole quest of each game played on the play page in a real headless Chromium at 390 px, on SQLite and
PostgreSQL: dice entered as rolled on the table, a draw, several actions from their generated forms, an undo,
play on until the rules give their verdict (Journey's house cleared, Basalt killed, Mission 1.1 won, every hero
of a Yōkai Quest scene struck down), and the end with the verdict the page preselects, no table ruling; then the
timeline, the standing and the charts read back. Screenshots go to each test's tmp_path."""

from __future__ import annotations

import pytest

from tests.kit.descent import TEST_OVERLORD_DECK
from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tests.kit.pages_browser import (  # noqa: F401  (fixtures)
    PHONE,
    chromium,
    fits_the_width,
    live_server,
    open_to,
    screenshot,
    sign_in,
    smallest_chart_text,
)
from tests.kit.yokai_quest import LOADOUTS, YOKAI_TEST_COMPONENTS

pytestmark = pytest.mark.browser


def _submit(page, form) -> None:
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    problem = page.locator("#problem")
    assert problem.count() == 0, problem.inner_text()


def _act(page, action: str, **fields) -> None:
    """Open an action's form, fill it as a person would (choices chosen, faces counted, text typed), and send it.
    Faces are given as the table says them ("Chi, Punch, Kick"), and counted into the form's face pickers; a list per
    hero as "po: Punch, Chi"."""
    open_to(page, f"#action-{action}")
    form = page.locator(f"#action-{action}").locator("form")
    for name, value in fields.items():
        field = form.locator(f"[name='{name}']")
        if field.count() == 0:
            _count_faces(form, name, value)
        elif field.first.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        elif field.first.get_attribute("type") == "checkbox":
            for v in value:
                form.locator(f"[name='{name}'][value='{v}']").check()
        else:
            open_to(page, f"#action-{action} [name='{name}']")
            field.fill(value)
    _submit(page, form)


def _count_faces(form, name: str, said: str) -> None:
    """Faces said as the table says them, counted into the face pickers ("{name}#{face}": how many showed it)."""
    prefix, colon, faces = said.partition(":") if ":" in said and form.locator(f"[name^='{name}.']").count() else ("", "", said)
    field = f"{name}.{prefix.strip()}" if colon else name
    counts: dict[str, int] = {}
    for face in (f.strip() for f in faces.split(",") if f.strip()):
        counts[face] = counts.get(face, 0) + 1
    for face, count in counts.items():
        picker = form.locator(f"[name='{field}#{face}']")
        assert picker.count() == 1, f"no picker for {field} {face}"
        picker.fill(str(count))


def _offered(page, action: str, field: str) -> list[str]:
    """The ids an action's form offers for a field (the figures on the board for a target), chosen by name."""
    return [v for v in page.locator(f"#action-{action} [name='{field}'] option").evaluate_all("os => os.map(o => o.value)") if v]


def _roll_reported(page, die: str, faces: str) -> None:
    open_to(page, "#report-form")
    _count_faces(page.locator("#report-form"), f"faces.{die}", faces)
    _submit(page, page.locator("#report-form"))


def _roll_digital(page, die: str, count: int) -> None:
    open_to(page, f"#roll-form [name='dice.{die}']")
    page.fill(f"#roll-form [name='dice.{die}']", str(count))
    _submit(page, page.locator("#roll-form"))


def _draw_reported(page, deck: str, cards: str, holder: str = "") -> None:
    open_to(page, "#draw-reported-form")
    form = page.locator("#draw-reported-form")
    form.locator("[name=deck]").select_option(deck)
    form.locator("[name=cards]").fill(cards)
    if holder:
        form.locator("[name=holder]").select_option(holder)
    _submit(page, form)


def _refused(page, action: str, hint: str, **fields) -> None:
    """Send a form the rules refuse: the page says why in words (its hint), no JSON, and the turn stays where it was."""
    open_to(page, f"#action-{action}")
    form = page.locator(f"#action-{action}").locator("form")
    for name, value in fields.items():
        field = form.locator(f"[name='{name}']")
        if field.count() == 0:
            _count_faces(form, name, value)
        elif field.first.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    before = page.locator("#done").inner_text()
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    said = page.locator("#problem").inner_text()
    assert hint in said and "{" not in said and "/campaigns/" not in said, said
    assert page.locator("#done").inner_text() == before  # nothing appended


def _undo(page) -> None:
    _submit(page, page.locator("#undo-form"))


def _end(page, outcome: str, ruling: str = "", reported: str = "") -> None:
    open_to(page, "#end-form")
    form = page.locator("#end-form")
    form.locator("[name=outcome]").select_option(outcome)
    if reported:
        fact, _, said = reported.partition(":")
        form.locator(f"[name='reported.{fact.strip()}']").select_option(said.strip())  # the quest's fact, by its name
    if ruling:
        form.locator("[name=ruling]").fill(ruling)
    _submit(page, form)


def _end_by_the_rules(page, outcome: str) -> None:
    """End the quest with the verdict the rules gave, as the page preselects it: no ruling typed."""
    where = page.locator("#where").inner_text()
    assert "The rules decided: " + outcome.replace("-", " ") in where, where
    form = page.locator("#end-form")
    assert form.locator("[name=outcome]").input_value() == outcome  # preselected, not chosen by the test
    assert "(as the rules decided)" in form.locator("[name=outcome] option:checked").inner_text()
    assert page.locator("#end").get_attribute("open") is not None  # the end opened by the verdict
    _submit(page, form)
    where = page.locator("#where").inner_text()
    assert f"Ended: {outcome.replace('-', ' ')}" in where and "table ruling" not in where, where


def _read_back(page, base: str, cid: str, sid: str, name: str, shots) -> None:
    """After the end: the timeline (by turn, the undone line struck through), the campaign page and the dice page."""
    page.goto(f"{base}/pages/sessions/{sid}")
    assert page.locator("section.turn h3").count() >= 1
    assert page.locator("ol.timeline li.undone del").count() >= 1
    text = page.locator("main").inner_text()
    assert "_" not in text.split("Seed commitment")[0] and "{" not in text and "None" not in text
    assert fits_the_width(page)
    screenshot(page, f"play-{name}-timeline", shots)
    page.goto(f"{base}/pages/campaigns/{cid}")
    assert fits_the_width(page)
    smallest = smallest_chart_text(page)
    assert smallest is None or smallest >= 11, smallest  # chart text readable on a phone
    screenshot(page, f"play-{name}-campaign", shots)
    page.goto(f"{base}/pages/campaigns/{cid}/dice")
    assert page.locator("p.fit").count() >= 1
    assert fits_the_width(page)
    assert smallest_chart_text(page) >= 11, smallest_chart_text(page)
    screenshot(page, f"play-{name}-dice", shots)


def _open(chromium, live_server, token: str, sid: str):  # noqa: F811
    context = chromium.new_context(viewport=PHONE, java_script_enabled=False)  # the core flow needs no script
    page = context.new_page()
    sign_in(page, live_server, token)
    page.goto(f"{live_server}/pages/sessions/{sid}/play")
    assert fits_the_width(page)
    return context, page


def test_journey_quest_1_on_the_play_page(client, live_server, chromium, database_url, tmp_path):  # noqa: F811
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": COMPONENTS}).json
    cid, token = made["id"], made["owner_token"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": ORDER}}).json["id"]
    context, page = _open(chromium, live_server, token, sid)
    _roll_digital(page, "d6", 2)
    _roll_reported(page, "attack", "2, X")
    _draw_reported(page, "fortune", "Wild Herbs", "monkey-king")
    _act(page, "maintenance")
    assert page.locator("#action-activate-pilgrim [name=hero]").input_value() == "monkey-king"  # the next in Initiative order
    _refused(page, "activate-pilgrim", "Pilgrims activate in initiative order (Monkey King, Tripitaka, Cho Hakkai, Monk Sha)", hero="tripitaka")
    _act(page, "activate-pilgrim")  # as preselected
    _act(page, "meditate", hero="monkey-king", spin="black", drawn="misfortune: Lose 2 Good Karma")  # a card drawn at the table
    _undo(page)
    assert "Undone by" in page.locator("#done").inner_text()
    screenshot(page, "play-journey-phone", tmp_path)
    _end(page, "victory", reported="house_cleared: yes")
    assert "Ended: victory" in page.locator("#where").inner_text()
    client.application.extensions["tracker_views"].catch_up()
    _read_back(page, live_server, cid, sid, "journey", tmp_path)
    context.close()


def test_descent_quest_on_the_play_page(client, live_server, chromium, database_url, tmp_path):  # noqa: F811
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["aurim", "tahlia"], "components": TEST_OVERLORD_DECK}).json
    cid, token = made["id"], made["owner_token"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "mists-of-time", "setup": {}}).json["id"]
    context, page = _open(chromium, live_server, token, sid)
    assert page.locator("#hands li[data-holder=overlord]").count() == 1  # the owner sees the overlord's hand
    _roll_reported(page, "d6", "4, 1")
    _act(page, "gain-threat", source="other", amount="2")
    _refused(page, "spend-threat", "The overlord has 2 threat, not 50", purpose="other", amount="50")
    _act(page, "gain-curses", hero="aurim", count="1", source="silver chest")
    for hero in ("aurim", "tahlia"):  # each hero's turn, then the overlord's (rules 1.7.0 on)
        _act(page, "start-hero-turn", hero=hero)
        _act(page, "end-hero-turn", hero=hero)
    _act(page, "start-overlord-turn")
    _act(page, "end-turn")
    _undo(page)
    assert "Undone by" in page.locator("#done").inner_text()
    overlord = client.get(f"/sessions/{sid}").json["decks"]["overlord"]  # the owner's view: what is out of the draw pile
    out = {c for cards in overlord["held"].values() for c in cards} | set(overlord["discard_pile"]) | set(overlord["removed_from_game"])
    _draw_reported(page, "overlord", next(c for c in TEST_OVERLORD_DECK["decks"]["overlord"]["cards"] if c not in out))
    # Zone 5: Basalt, a master troll with 3 armour and 24 more wounds (L606); his card's wounds are stated, here 30
    _act(page, "place-monsters", **{"monsters.0.monster": "troll", "monsters.0.named": "basalt", "monsters.0.wounds": "30"}, source="zone 5 revealed")
    _act(page, "end-turn")
    _act(page, "start-hero-turn", hero="tahlia")  # she attacks in her own turn
    basalt = [v for v in _offered(page, "attack", "target") if v not in ("aurim", "tahlia")]  # a hero may be struck too
    assert basalt == ["basalt-1"], basalt  # the figure on the board, offered by the attack's form
    assert page.locator("#action-attack [name=target] option[value='basalt-1']").text_content() == "Basalt 1"  # by name
    for _ in range(2):  # five red dice showing 4 damage each, less his 3 armour: 17 wounds a blow
        assert "The rules decided" not in page.locator("#where").inner_text()
        _act(page, "attack", attacker="tahlia", target=basalt[0], attack_type="melee", faces="red: 4D 0R, 4D 0R, 4D 0R, 4D 0R, 4D 0R")
    assert "L608" in page.locator("#where").inner_text()  # L610: "They have completed their quest!", decided by the kill
    screenshot(page, "play-descent-phone", tmp_path)
    _end_by_the_rules(page, "victory")
    client.application.extensions["tracker_views"].catch_up()
    _read_back(page, live_server, cid, sid, "descent", tmp_path)
    context.close()


def test_kung_fu_panda_mission_on_the_play_page(client, live_server, chromium, database_url, tmp_path):  # noqa: F811
    made = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                           "options": {"length": "adventure", "adventure": 1, "mode": "standard"}}).json
    cid, token = made["id"], made["owner_token"]
    setup = {"start_tile": "J", "spawn_points": {"1": "J"}, "enemies": {"J": {"wolf-spearman": 1, "wolf-slasher": 1}}, "villagers": {"mei": "J"}}
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m1-1", "setup": setup}).json["id"]
    context, page = _open(chromium, live_server, token, sid)
    _refused(page, "spend", "round", **{"heroes": "po: Move, Move", "for": "move", "to": "s"})  # no round under way yet
    _act(page, "start-round", entry="detail")
    _roll_digital(page, "d6", 1)
    _act(page, "roll", hero="po", faces="Chi, Punch, Kick, Kick")  # the Action Dice rolled at the table
    _act(page, "spend", heroes="po: Punch, Chi", **{"for": "token"}, token="villager", villager="mei")  # L245: save the villager
    _act(page, "spend", heroes="po: Kick, Kick", **{"for": "knock-out"}, enemy="wolf-slasher")
    _act(page, "roll", hero="tigress", faces="Claws, Claws, Claws, Claws")
    _undo(page)
    assert "Undone by" in page.locator("#done").inner_text()
    _act(page, "roll", hero="tigress", faces="Move, Move, Punch, Chi")
    _act(page, "roll", hero="po", faces="Chi, Chi, Move, Move")
    # both heroes onto the Gatehouse, the end tile: one more Move for each enemy on the tile left (the Wolf Spearman)
    _act(page, "spend", heroes="po: Move, Move", **{"for": "move"}, to="s")
    _act(page, "spend", heroes="tigress: Move, Move", **{"for": "move"}, to="s")
    _act(page, "mission-won")  # declared by the table, checked against the board (L245)
    screenshot(page, "play-kung-fu-panda-phone", tmp_path)
    _end_by_the_rules(page, "victory")
    client.application.extensions["tracker_views"].catch_up()
    _read_back(page, live_server, cid, sid, "kung-fu-panda", tmp_path)
    page.goto(f"{live_server}/pages/campaigns/{cid}")
    assert "Wolf Slasher" in page.locator("#standing").locator("xpath=..").inner_text()
    context.close()


def test_yokai_quest_scene_on_the_play_page(client, live_server, chromium, database_url, tmp_path):  # noqa: F811
    made = client.post("/campaigns", json={"ruleset": "yokai-quest", "name": "Friday", "party": ["ryo", "ami"], "components": YOKAI_TEST_COMPONENTS}).json
    cid, token = made["id"], made["owner_token"]
    first = client.get(f"/campaigns/{cid}").json["next_quest"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": first, "setup": {"abilities": LOADOUTS}}).json["id"]
    context, page = _open(chromium, live_server, token, sid)
    _roll_reported(page, "red", "katana, blank")
    _act(page, "draw-energy", hero="ryo", spheres="3")
    _act(page, "draw-energy", hero="ami", spheres="1")
    _undo(page)
    _refused(page, "draw-treasure", "A hero draws a treasure card when the reserve reaches 5 tokens", hero="ami")  # L258: none owed yet
    _act(page, "move", hero="ryo", movement="basic")
    _act(page, "end-activation", hero="ryo")
    _act(page, "end-activation", hero="ami")
    _act(page, "begin-yokai-phase", **{"coins.red-blue": "red", "coins.green-yellow": "green"})  # nested fields, one by one
    # L164-L166: an appearance card for the point the coins show; the table reads the yōkai it places
    _act(page, "draw-appearance", point="red")
    _act(page, "yokai-appear", by="appearance-card", yokai="yurei: 1")
    attackers = page.locator("#action-attack [name=attacker] option").evaluate_all("os => os.map(o => o.value)")
    assert "yurei" in attackers, attackers  # the yōkai on the board may attack, not only the heroes
    for hero in ("ryo", "ami"):  # the Yūrei strikes each hero down (their Health 6 and 5, from the components)
        assert "The rules decided" not in page.locator("#where").inner_text()
        _act(page, "attack", attacker="yurei", source="yokai attack",  # a target's fields in the form's first row
             **{"targets.0.defender": hero, "targets.0.attack_faces.red": ", ".join(["katana"] * 6), "targets.0.defense_faces.blue": "blank"})
    # L763: "If all the heroes in the scene are defeated, the Reattempt mechanic is engaged": the scene is lost
    assert "L763" in page.locator("#where").inner_text()
    screenshot(page, "play-yokai-quest-phone", tmp_path)
    _end_by_the_rules(page, "defeat")
    client.application.extensions["tracker_views"].catch_up()
    _read_back(page, live_server, cid, sid, "yokai-quest", tmp_path)
    context.close()
