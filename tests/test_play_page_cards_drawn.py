"""The cards drawn for an action (its "drawn": deck -> cards) are picked on the play page from the deck's card names
when the rules data or the campaign's components list them (issue 32), not typed as "deck: card, card"; a deck
whose cards are not known is still entered as a text line."""

from __future__ import annotations

import re

from werkzeug.datastructures import MultiDict

from api.pages import forms
from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tracker import rulesets

HERE = {"Authorization": "", "Origin": "http://localhost"}


def _meditate():
    return next(a["schema"] for a in rulesets.get("journey").describe()["actions"] if a["type"] == "meditate")


def test_a_known_decks_cards_are_picked_and_read_back_in_the_order_drawn():
    cards = {"fortune": ["Wild Herbs", "Lucky Coin", "Wild Herbs"]}
    names = {"fortune": "Fortune deck", "misfortune": "Misfortune deck"}
    (drawn,) = [f for f in forms.fields(_meditate(), names, ["tripitaka"], ["fortune", "misfortune"], cards=cards) if f["name"] == "drawn"]
    assert drawn["kind"] == "cards"
    (fortune,) = drawn["decks"]
    assert fortune["label"] == "Fortune deck" and fortune["name"] == "drawn@fortune"
    assert [c["label"] for c in fortune["choices"]] == ["Lucky Coin", "Wild Herbs"]  # each name once
    assert drawn["text"]["name"] == "drawn" and drawn["text"]["kind"] == "map"  # the misfortune deck's cards are not known
    sent = MultiDict([("hero", "tripitaka"), ("spin", "black"), ("drawn@fortune", "Wild Herbs"), ("drawn@fortune", "Lucky Coin"),
                      ("drawn", "misfortune: Lose 2 Good Karma")])
    assert forms.body(_meditate(), sent, sent.getlist)["drawn"] == {"fortune": ["Wild Herbs", "Lucky Coin"], "misfortune": ["Lose 2 Good Karma"]}
    none = MultiDict([("hero", "tripitaka"), ("drawn@fortune", ""), ("drawn@fortune", "")])
    assert "drawn" not in forms.body(_meditate(), none, none.getlist)


def test_the_journey_play_page_offers_the_supplied_decks_cards_by_name(client, app):
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Phones", "party": PILGRIMS, "components": COMPONENTS}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": ORDER}}).json["id"]
    assert client.post("/pages/sign-in", data={"token": made["owner_token"]}, headers=HERE).status_code == 303
    html = client.get(f"/pages/sessions/{sid}/play", headers={"Authorization": ""}).get_data(as_text=True)
    meditate = html[html.index('id="action-meditate"'):]
    meditate = meditate[: meditate.index("</form>")]
    picker = re.search(r'<select name="drawn@skill-tripitaka"[^>]*>(.*?)</select>', meditate, re.S)
    assert picker, meditate[:2000]
    assert ">tripitaka skill 3</option>" in picker.group(1)  # the campaign's component cards, by name
    assert 'name="drawn@misfortune"' not in meditate and '<textarea name="drawn"' in meditate  # misfortune: not known
