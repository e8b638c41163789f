"""Descent's play page (rules 1.7.0, the turn recorded: tracker/rulesets/descent/turn.py) opens this moment's actions
and folds the records either side makes at any time (turn.ANYTIME: L241 the overlord's cards "at any time, even during a
hero player's turn"); a version from before the turn keeps the page's reading of the actions of every turn."""

from __future__ import annotations

import re

from tests.kit.descent import TEST_OVERLORD_DECK
from tracker import rulesets
from tracker.rulesets.descent import turn, versions

NO_AUTH = {"Authorization": ""}


def _sections(html: str) -> tuple[str, str]:
    """The page's "now" section and its "Everything else" section."""
    now = html[html.index('id="actions"'):html.index('id="dice"')]
    others = html[html.index('id="others"'):html.index('id="done"')]
    return now, others


def _forms(part: str) -> list[str]:
    return re.findall(r'<details class="action" id="action-([a-z-]+)"', part)


def test_the_heroes_turns_open_the_next_hero_turn_and_fold_the_any_time_records(client):
    made = client.post("/campaigns", json={"ruleset": "descent", "name": "Dungeon", "party": ["aurim", "tahlia"], "components": TEST_OVERLORD_DECK}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "mists-of-time", "setup": {}}).json["id"]
    assert client.post("/pages/sign-in", data={"token": made["owner_token"]}, headers=NO_AUTH).status_code == 303
    now, others = _sections(client.get(f"/pages/sessions/{sid}/play", headers=NO_AUTH).get_data(as_text=True))
    # Between the heroes' turns: a hero's turn starts (L264), or a monster the overlord controls attacks (L233, L577).
    assert _forms(now) == ["start-hero-turn", "attack"], _forms(now)
    assert '<details class="action" id="action-start-hero-turn" open>' in now  # the next step, open
    anytime = others[others.index('id="anytime"'):others.index('id="later"')]
    assert {"gain-threat", "play-overlord-card", "spend-threat", "place-monsters", "spend-fatigue", "recover"} <= set(_forms(anytime))
    later = others[others.index('id="later"'):]
    assert {"end-hero-turn", "start-overlord-turn", "ready"} <= set(_forms(later))  # another moment's


def test_the_any_time_records_are_the_turns_own_list_from_1_7_0_and_the_pages_reading_before():
    rules = rulesets.get("descent").rules
    assert rules.version.number == "1.8.0"  # the turn as 1.7.0 brought it
    assert set(rules.anytime_actions) == set(turn.ANYTIME) & set(rules.client_actions)
    assert not {turn.START_HERO_TURN, turn.END_HERO_TURN, turn.START_OVERLORD_TURN, "ready", "attack"} & set(rules.anytime_actions)
    before = versions.of("1.6.0").anytime_actions(rules.client_actions)
    assert "gain-threat" not in before and "attack" not in before and "place-glyph" in before
