"""A group plays a fresh Yōkai Quest campaign through the API knowing only what it publishes: the ruleset document
(GET /rulesets/yokai-quest: heroes, the chain, each scene's victory conditions as data, the action and set-up
schemas), and the session's state. Every request is checked against the published schema before it is sent. The first
scene is played to its verdict twice: won, and lost when its turn limit passes; every scene of the chain is won by its
published conditions and lost when every hero falls; both on SQLite and PostgreSQL. Each turn is played as the book runs it:
the heroes replenish energy (L156), each activates once with its basic movement and up to two actions (L398), and the
Yōkai phase follows (L164-L172); a session ends only after the log shows a Yōkai phase in every turn played.

The Health values are the table's reading of its control panels (test inputs, not facts of the real components).
"""

from __future__ import annotations

import pytest

from tests.kit.yokai_quest_table import Table
from tracker import rulesets

# Parametrized by the chain the ruleset publishes (read here only to name the tests; each test reads the API).
CHAIN = rulesets.get("yokai-quest").data["campaign"]["chain"]


def test_a_group_wins_the_first_scene_by_its_published_conditions(client):
    table = Table(client)
    sid = table.begin()
    victory = table.scene["victory"]
    assert all("defeat" in condition for condition in victory)  # this scene's conditions are all ones the log checks
    for condition in victory:
        for yokai, count in condition["defeat"].items():
            table.defeat(sid, yokai, count)
    # Met, and the next scene keeps the board (L807): the log decides the scene at the twelfth defeat (L753), no /end first.
    decided = table.state(sid)["verdict"]
    assert decided["outcome"] == "victory"
    state = table.do(sid, {"type": "end-scene", "outcome": "victory"})  # records the scene's rewards
    assert state["verdict"] == decided
    assert all(condition["source"] in state["verdict"]["reason"] for condition in victory)
    table.draw_owed(sid)
    ended = table.end(sid)
    assert ended["outcome"] == "victory" and ended["next_quest"] == table.rules["rules"]["campaign"]["chain"][1]


def test_a_group_loses_the_first_scene_when_its_turn_limit_passes(client):
    table = Table(client)
    sid = table.begin()
    limit = min(condition["before_turn"] for condition in table.scene["victory"] if condition.get("before_turn"))
    one_short = {yokai: count - 1 for yokai, count in table.scene["victory"][0]["defeat"].items()}
    for yokai, count in one_short.items():
        table.defeat(sid, yokai, count)
    while table.state(sid)["verdict"] is None:
        assert table.state(sid)["turn"] < limit, "the scene outlived its turn limit"
        table.yokai_phase(sid)
    state = table.state(sid)
    assert state["turn"] == limit and state["verdict"]["outcome"] == "defeat"
    assert state["game"]["scene_result"]["outcome"] == "failed"
    ended = table.end(sid)
    assert ended["outcome"] == "defeat" and ended["next_quest"] == table.first  # the one reattempt (L774)


@pytest.mark.parametrize("scene_id", CHAIN)
def test_every_scene_is_won_by_its_published_conditions(client, scene_id):
    table = Table(client)
    ended = table.win(table.reach(scene_id))
    assert ended["outcome"] == "victory"
    progress = client.get(f"/campaigns/{table.campaign}").json["progress"]
    assert progress["stories"][table.scene["story"]]["scenes"][scene_id]["result"] == "victory"


@pytest.mark.parametrize("scene_id", CHAIN)
def test_every_scene_is_lost_when_every_hero_falls(client, scene_id):
    table = Table(client)
    sid = table.reach(scene_id)
    ended = table.lose(sid)
    story = next(s for s in table.rules["rules"]["stories"] if scene_id in s["scenes"])
    restart = (table.scene.get("defeat_penalty") or {}).get("effect") == "restart-story"
    assert ended["outcome"] == "defeat" and ended["next_quest"] == (story["scenes"][0] if restart else scene_id)  # the reattempt (L774)
