"""The campaign pages in a real headless Chromium, on SQLite and PostgreSQL: a linked Journey campaign
of three quests and a Descent campaign's treachery ledger, created through the API, read the way a
person at the table reads them: at 390 px wide on a phone and on a laptop. Screenshots: tests/kit/pages_browser.py says where."""

from __future__ import annotations

import logging
import re

import pytest

from tests.kit.descent import TEST_OVERLORD_DECK
from tests.kit.journey import PILGRIMS, Q2_COMPONENTS, Q3_ORDER, act, play_q1, start
from tests.kit.pages_browser import (  # noqa: F401
    LAPTOP,
    PHONE,
    chromium,
    fits_the_width,
    live_server,
    screenshot,
    sign_in,
)
from tests.kit.session import end

pytestmark = pytest.mark.browser


def _journey_campaign_of_three_quests(client) -> dict:
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Pilgrims of Tuesday", "party": PILGRIMS,
                                           "components": Q2_COMPONENTS, "options": {"mode": "linked"}})  # Q2 hands out named cards (L741)
    assert made.status_code == 201, made.json
    cid, token = made.json["id"], made.json["owner_token"]
    q1, _ = play_q1(client, cid)  # Monkey King: 6 + 6 Bad Karma, traded 10 for weapon level 2 and a Corruption Card
    q2 = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q2-rescue"}).json["id"]
    act(client, q2, type="maintenance")
    act(client, q2, type="activate-pilgrim", hero="monkey-king")
    act(client, q2, type="rescue-villager", hero="monkey-king", villager="villager-1")
    # The pages are under test, not Q2's conditions (L749): the owner ends it by a table ruling, shown as one.
    end(client, q2, "victory", ruling="the table agreed the rescue was enough")
    q3, _ = start(client, cid, "q3-village-fields", initiative=Q3_ORDER)
    rolled = client.post(f"/sessions/{q3}/rolls", json={"dice": {"d6": 3}, "purpose": "initiative"})
    assert rolled.status_code == 201
    act(client, q3, type="maintenance")
    undone = client.post(f"/sessions/{q3}/undo")
    assert undone.status_code == 201, undone.json
    client.application.extensions["tracker_views"].catch_up()
    monkey = client.get(f"/campaigns/{cid}/heroes/monkey-king").json
    return {"id": cid, "token": token, "sessions": (q1, q2, q3), "monkey": monkey, "d6": rolled.json["results"]["d6"],
            "undone": undone.json["undone"]}


def test_a_linked_journey_campaign_of_three_quests_in_chromium(client, live_server, chromium, database_url, caplog):  # noqa: F811
    caplog.set_level(logging.INFO, logger="werkzeug")  # the live server's request log
    made = _journey_campaign_of_three_quests(client)
    cid, (q1, q2, q3), monkey = made["id"], made["sessions"], made["monkey"]
    db = "postgres" if database_url.startswith("postgresql") else "sqlite"
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    sign_in(page, live_server, made["token"])

    # The campaign page: the quest chain with outcomes, the next quest, each session's length and result.
    assert page.url == f"{live_server}/pages/campaigns/{cid}"
    chain = page.locator("ol.chain > li")
    assert chain.nth(0).inner_text().startswith("Meeting") and "Heroic victory" in chain.nth(0).inner_text()
    assert "Victory" in chain.nth(1).inner_text() and "Rescue" in chain.nth(1).inner_text()
    assert "Next quest" in chain.nth(2).inner_text() and "In play" in chain.nth(2).inner_text()
    rows = page.locator("table.sessions tbody tr")
    assert rows.count() == 3
    assert re.search(r"Rescue\s+✔ Victory by table ruling\s+\(the table agreed the rescue was enough\)\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+\d+ events · \d+ (s|min)", rows.nth(1).inner_text())
    assert fits_the_width(page)
    screenshot(page, f"journey-campaign-phone-{db}")

    # The karma chart: an SVG image with a text alternative, the trade marked and listed in words.
    figure = page.locator("#karma-monkey-king figure.chart")
    label = figure.locator("svg").get_attribute("aria-label")
    assert label.startswith("Line chart of Monkey King's Good and Bad Karma") and "now 3 Good and 2 Bad" in label
    assert "Traded 10 Bad Karma for weapon upgrade in Meeting" in label
    assert figure.locator("svg").get_attribute("role") == "img"
    page.click("#karma-monkey-king details summary")
    trade_rows = page.locator("#karma-monkey-king tr.trade")
    assert trade_rows.count() == 1 and "Trade: Traded 10 Bad Karma" in trade_rows.inner_text()
    last = page.locator("#karma-monkey-king tbody tr").last.inner_text().split("\t")
    assert last[2:4] == ["3", "2"]  # Good 3 (Q2's rescue), Bad 2 (12 less the trade)

    # The hero sheet: the values the API reports, each linking to the event that made it.
    page.click("a[href$='/heroes/monkey-king']")
    page.wait_for_load_state()
    sheet = page.locator("dl.sheet")
    assert page.locator("dd.wheel.good").get_attribute("data-value") == str(monkey["good_karma"]) == "3"
    assert page.locator("dd.wheel.bad").get_attribute("data-value") == str(monkey["bad_karma"]) == "2"
    assert page.locator("dd.weapon > a").inner_text() == str(monkey["weapon_level"]) == "2"
    corruption = monkey["corruption"][0]
    assert page.locator("dd.corruption a").inner_text() == corruption
    for card in monkey["skills"]["one-time"]:
        assert card in page.locator("dd.skills-one-time").inner_text()
    for card in monkey["skills"]["permanent"]:
        assert card in page.locator("dd.skills-permanent").inner_text()
    assert page.locator("dd.quests-played").inner_text() == "3" and page.locator("dd.quests-won").inner_text() == "2"
    assert "Heroic victory" in sheet.locator("xpath=following-sibling::ol[1]").inner_text()
    assert page.locator("figure.chart svg[role=img]").count() == 1
    assert fits_the_width(page)
    screenshot(page, f"journey-hero-sheet-phone-{db}")

    # The weapon level's link lands on the WeaponUpgraded event in Quest 1's timeline.
    page.click("dd.weapon > a")
    page.wait_for_load_state()
    upgraded = next(h for h in monkey["weapon_history"] if h["event"] == "WeaponUpgraded")
    assert page.url.endswith(f"/pages/sessions/{q1}#e{upgraded['position']}")
    target = page.locator(f"#e{upgraded['position']}")
    assert "Monkey King's weapon went from level 1 to 2" in target.inner_text()

    # The timeline of Quest 1: rolls as a person says them, who and when, and the verdict badge.
    # (Quest 1 is played over two turns, its last Demon removed on the second (L710): a timeline list per turn.)
    text = "\n".join(page.locator("ol.timeline").all_inner_texts())
    assert "Monkey King rolled 1, X on the attack dice and X on the pilgrim die" in text
    assert "owner" in page.locator("ol.timeline").first.locator("li").nth(1).locator(".meta").inner_text()
    assert page.locator(".verdict").inner_text().strip() == "✔ Verified"
    assert page.locator("a[href$='/export']").count() == 1 and page.locator("a[href='/verifier.py']").count() >= 1
    screenshot(page, f"journey-timeline-q1-phone-{db}")

    # Quest 3 is in play: the badge says pending, the undone action is shown as undone, the digital roll reads as faces.
    page.goto(f"{live_server}/pages/sessions/{q3}")
    assert page.locator(".verdict").inner_text().startswith("… Pending")
    reverted = made["undone"]["from"]
    undone = page.locator(f"#e{reverted}")
    assert "Undone by" in undone.inner_text() and undone.locator("del").count() == 1
    assert "Maintenance" in undone.inner_text()
    rolled = ", ".join(str(f) for f in made["d6"])
    assert f"Rolled {rolled} on {len(made['d6'])}d6" in page.locator("ol.timeline").inner_text()
    assert fits_the_width(page)
    screenshot(page, f"journey-timeline-q3-phone-{db}")

    # Dice luck: the three digital d6 against the expected count (a d6's faces are known), reported dice apart.
    page.goto(f"{live_server}/pages/campaigns/{cid}/dice")
    digital = page.locator("#luck-d6-digital")
    assert "3 dice" in digital.locator("caption").inner_text()
    observed = {f: made["d6"].count(f) for f in range(1, 7)}
    for face in range(1, 7):
        cells = digital.locator("tbody tr").nth(face - 1).inner_text().split("\t")
        assert cells == [str(face), str(observed[face]), "0.5"]
    assert "faces not known" in page.locator("#luck-attack-reported").inner_text()
    assert page.locator("#luck-d6-digital svg").get_attribute("aria-label").startswith("Bar chart of how often each face of d6")
    screenshot(page, f"journey-dice-phone-{db}")

    # The token never shows: not in any address, not in the page, and the cookie is out of scripts' reach.
    page.goto(f"{live_server}/pages/campaigns/{cid}")
    assert made["token"] not in page.content() and made["token"] not in page.url
    cookie = next(c for c in context.cookies() if c["name"] == "tracker_tokens")
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict"
    assert page.evaluate("document.cookie") == ""
    context.close()
    assert "POST /pages/sign-in" in caplog.text and made["token"] not in caplog.text  # nor in the server's log

    laptop = chromium.new_context(viewport=LAPTOP)
    page = laptop.new_page()
    sign_in(page, live_server, made["token"])
    screenshot(page, f"journey-campaign-laptop-{db}")
    laptop.close()


def test_a_descent_quests_treachery_ledger_in_chromium(client, live_server, chromium, database_url):  # noqa: F811
    from tests.kit.descent import act as descent_act, start as descent_start

    db = "postgres" if database_url.startswith("postgresql") else "sqlite"
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Thursday dungeon", "party": ["runewitch-astarra", "aurim"],
                                           "components": TEST_OVERLORD_DECK})
    cid, owner = made.json["id"], made.json["owner_token"]
    hero_token = client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "side": "heroes", "label": "Ana"}).json["token"]
    q1 = descent_start(client, cid, "thing-in-the-pit", {"purchases": [{"card": "Dark Power", "remove": "Aim"}], "dark_glyphs": [{"glyph": "power"}]})
    descent_act(client, q1, type="open-cell", cell="cell-1", hero="aurim")  # 10: prisoner 1 saved (L350)
    descent_act(client, q1, type="open-chest", chest="copper-2", opener="aurim", treasure={"runewitch-astarra": ["Copper A"], "aurim": ["Copper B"]})  # 13
    descent_act(client, q1, type="gain-curses", hero="runewitch-astarra", count=2, source="silver chest")
    descent_act(client, q1, type="hero-killed", hero="runewitch-astarra")  # 9
    for _ in range(10):  # turn 1 had a cell opened; turns 2-10 give the clock prisoners 2, 3 and 4 (L345)
        descent_act(client, q1, type="sacrifice-clock")
        descent_act(client, q1, type="end-turn")
    descent_act(client, q1, type="open-cell", cell="zone-2-cell", hero="aurim")  # 14: prisoners 5 and 6 saved (L374)
    descent_act(client, q1, type="gain-threat", source="corrupted-wound", count=2)
    client.application.extensions["tracker_views"].catch_up()

    # The heroes' player, while the quest is played: the overlord's swaps, glyphs and hand stay hidden.
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    sign_in(page, live_server, hero_token)
    ledger = page.locator(f"#ledger-{q1}")
    assert "hidden until the quest ends" in ledger.inner_text()
    for secret in ("Dark Power", "Aim", "power (paid"):
        assert secret not in page.content()
    granted = ledger.locator("tbody tr")
    assert [granted.nth(i).inner_text().split("\t")[:2] for i in range(3)] == [["Event", "3"], ["Trap", "2"], ["Monster", "2"]]
    assert "Ana" in page.locator(".who").inner_text() and "heroes side" in page.locator(".who").inner_text()
    assert fits_the_width(page)
    screenshot(page, f"descent-ledger-heroes-in-play-phone-{db}")

    # The Thing is not defeated (L399-L404): the test is about the pages, so the owner ends it by a table ruling
    assert client.post(f"/sessions/{q1}/end", json={"outcome": "victory", "ruling": "the test ends the quest here"}).status_code == 200
    client.application.extensions["tracker_views"].catch_up()
    page.reload()
    ledger = page.locator(f"#ledger-{q1}")
    text = ledger.inner_text()
    assert "Dark Power in, Aim out" in text and "power" in ledger.locator("dd").nth(1).inner_text()
    spent = ledger.locator("tbody tr")
    assert [spent.nth(i).inner_text().split("\t") for i in range(3)] == [["Event", "3", "1"], ["Trap", "2", "2"], ["Monster", "2", "0"]]
    assert "4" in ledger.locator("dd").nth(2).inner_text() and "5 cards" in ledger.locator("dd").nth(3).inner_text()

    # Conquest and threat over the quest: the chart's text alternative and its table.
    track = page.locator(f"#track-{q1}")
    label = track.locator("svg").get_attribute("aria-label")
    assert "conquest ends at 14, threat at 4" in label
    track.locator("summary").click()
    conquest = [row.split("\t")[2] for row in track.locator("tbody tr").all_inner_texts()]
    assert conquest == ["8", "10", "13", "9", "14", "14"]  # the last step is the threat gained
    screenshot(page, f"descent-ledger-after-the-quest-phone-{db}")

    # A swap links to its event in the timeline.
    ledger.locator("a", has_text="Dark Power in, Aim out").click()
    page.wait_for_load_state()
    assert re.search(rf"/pages/sessions/{q1}#e\d+$", page.url)
    assert page.locator(".verdict").inner_text().strip() == "✔ Verified"

    # Hero sheet: the deaths and chest items, each linked.
    page.goto(f"{live_server}/pages/campaigns/{cid}/heroes/runewitch-astarra")
    assert page.locator("dd.curses").inner_text() == "2" and "4 conquest" in page.locator("dd.deaths").inner_text()
    assert page.locator("dd.chest-items a").inner_text() == "Copper A"
    screenshot(page, f"descent-hero-sheet-phone-{db}")
    context.close()

    owner_context = chromium.new_context(viewport=LAPTOP)
    page = owner_context.new_page()
    sign_in(page, live_server, owner)
    screenshot(page, f"descent-campaign-laptop-{db}")
    owner_context.close()
