"""Yōkai Quest's The Matsuri Arrives, once the log decides it, plays no more turns (issue 31). L808: "Defeat 12 Hone
Bushi before turn 9."; L753: "When the conditions are fulfilled, the appearance points stop working". A hero's attack
or a Yōkai phase after that is refused, appending nothing; the scene's closing actions (end-scene records its
rewards, L757; the treasure they owe) and the end are still taken; an undo of the deciding attack plays on.
"""

from __future__ import annotations

from tests.kit import decided
from tests.kit.yokai_quest_table import Table

HIT = {"defender": "hone-bushi", "attack_faces": {"red": ["katana"]}, "defense_faces": {"blue": []}}


def test_after_the_twelfth_hone_bushi_an_attack_is_refused_the_scene_closes_and_undo_plays_on(client):
    table = Table(client)
    sid = table.begin()
    table.defeat(sid, "hone-bushi", 12)
    state = table.state(sid)
    assert state["verdict"]["outcome"] == "victory" and "L808" in state["verdict"]["reason"]
    attacker = table.heroes[0]

    problem = decided.refused(client, sid, {"type": "attack", "attacker": attacker, "source": "basic attack", "targets": [HIT]})
    assert '"end-scene"' in problem["detail"], problem  # what still closes it
    decided.refused(client, sid, {"type": "begin-yokai-phase"})
    decided.rolled(client, sid, {"d6": 1})

    decided.undone(client, sid)  # the roll
    reopened = decided.undone(client, sid)  # the attack that decided the scene
    assert reopened["verdict"] is None and reopened["allowed"], reopened["verdict"]
    table.defeat(sid, "hone-bushi", 1)
    assert table.state(sid)["verdict"]["outcome"] == "victory"

    closed = table.do(sid, {"type": "end-scene", "outcome": "victory"})
    assert closed["game"]["scene_result"]["outcome"] == "victory"
    table.draw_owed(sid)
    assert table.state(sid)["allowed"] == []
    assert table.end(sid)["outcome"] == "victory"
