"""A Kung Fu Panda party is 2 to 4 heroes, and only heroes (L46: "Each player chooses one of the six heroes"; L47-50:
the Dials of Destiny for 2, 3 and 4 players). The campaign that names another party is refused when it is created, by
the command that takes the party, whatever carried it: before, it was created, and every session start was then
refused, so the group met the rule only once it sat down to play, with no way to change the party."""

from __future__ import annotations

import pytest

from tests.kit.forgery_kit import PROBLEM, notifications
from tracker.core.errors import Unprocessable

PARTIES = [
    ([], "at least 2 heroes; choose 2 to 4"),
    (["po"], "at least 2 heroes; choose 2 to 4"),
    (["po", "tigress", "viper", "monkey", "mantis"], "at most 4 heroes"),
    (["po", "tai-lung"], "Only heroes are played: Tai Lung is not"),
    (["wolf-boss", "ox-grunt"], "Only heroes are played: Wolf Boss and Ox Grunt are not"),
]


@pytest.mark.parametrize("party, title", PARTIES, ids=["none", "one", "five", "an-enemy", "two-enemies"])
def test_a_party_the_dials_have_no_row_for_is_refused_over_the_api(app, client, party, title):
    before = notifications(app)
    response = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": party})
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == PROBLEM
    assert title in response.json["title"], response.json
    assert "party" in response.json["errors"]
    assert notifications(app) == before


@pytest.mark.parametrize("party, title", PARTIES, ids=["none", "one", "five", "an-enemy", "two-enemies"])
def test_the_command_refuses_it_whatever_carried_it(app, party, title):
    tracker = app.extensions["tracker"]
    before = notifications(app)
    with pytest.raises(Unprocessable, match=title):
        tracker.create_campaign("kung-fu-panda", "Valley", party=party)
    assert notifications(app) == before


@pytest.mark.parametrize("party", [["po", "tigress"], ["po", "tigress", "crane"], ["po", "tigress", "crane", "viper"]])
def test_two_three_or_four_heroes_are_a_party(client, party):
    created = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": party})
    assert created.status_code == 201, created.get_json()
    assert created.json["party"] == party
