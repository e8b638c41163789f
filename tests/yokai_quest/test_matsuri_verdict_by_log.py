"""Yōkai Quest: a scene is won the moment the log shows it, and a failure the log contradicts is refused (issue 31).

L753: "To progress from one scene to the next, it's necessary to achieve the victory conditions established for the
scene. When the conditions are fulfilled, the appearance points stop working [...] When there are no more yōkai left
to fight, the scene ends and the next one is prepared."
L755: "If one or more of the victory conditions cannot be achieved any longer, the scene ends and the reattempt
mechanic comes into play."
L808 (The Matsuri Arrives): "Victory conditions: Defeat 12 Hone Bushi before turn 9."; L807: "Transition into scene 2
immediately, keeping the board and miniatures on it." (so no yōkai need be cleared first).
"""

from __future__ import annotations

from tests.kit import session
from tests.kit.yokai_quest_table import Table

MATSURI = "shake-them-skeleton-bones-1"


def _twelve_defeated(client) -> tuple[Table, str]:
    table = Table(client)
    sid = table.begin()
    assert table.scene["id"] == MATSURI and table.scene["name"] == "The Matsuri Arrives"
    table.defeat(sid, "hone-bushi", 12)
    return table, sid


def test_twelve_hone_bushi_defeated_before_turn_9_win_the_matsuri_at_that_attack(client):
    table, sid = _twelve_defeated(client)
    state = table.state(sid)
    assert state["turn"] < 9
    assert state["verdict"] is not None and state["verdict"]["outcome"] == "victory", state["verdict"]
    assert "L808" in state["verdict"]["reason"] and "L753" in state["verdict"]["reason"]
    decided_at = state["verdict"]["position"]
    kinds = [event["type"] for event in table.events(sid)]
    assert kinds[-1] == "QuestDecided" and table.events(sid)[-1]["position"] == decided_at
    # No more hero or yōkai turns: only the scene's end (its rewards) and the treasure owed, then the session's end.
    offered = [entry["type"] for entry in state["allowed"]]
    assert "end-scene" in offered and set(offered) <= {"end-scene", "draw-treasure"}, offered
    assert state["end"]["decided"] is True and state["end"]["outcome"] == "victory"
    # The session's end waits for the scene's: end-scene records the rewards the campaign carries (L757).
    assert "end-scene" in session.end(client, sid, "victory", status=409)
    state = table.do(sid, {"type": "end-scene", "outcome": "victory"})
    assert state["game"]["scene_result"]["outcome"] == "victory" and state["verdict"]["position"] == decided_at
    assert {entry["type"] for entry in state["allowed"]} <= {"draw-treasure"}
    table.draw_owed(sid)
    assert table.state(sid)["allowed"] == []
    assert table.end(sid)["outcome"] == "victory"


def test_a_failure_stated_after_twelve_hone_bushi_is_refused(client):
    """The twelfth Hone Bushi decides the scene (L753, L807): no turn 9 comes after it to fail it at (the quest's turns
    are over), and a failure the table states with end-scene is refused naming the condition met."""
    table, sid = _twelve_defeated(client)
    assert table.state(sid)["verdict"]["outcome"] == "victory"
    before = session.total(client, sid)
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "end-scene", "outcome": "failed"})
    assert refused.status_code == 409 and refused.mimetype == session.PROBLEM, refused.json
    assert "Defeat 12 Hone Bushi before turn 9." in refused.json["title"] and "L808" in refused.json["title"], refused.json
    assert session.total(client, sid) == before  # nothing appended
    title = session.end(client, sid, "defeat", status=409)
    assert "Defeat 12 Hone Bushi before turn 9." in title, title
    assert session.read(client, sid)["verdict"]["outcome"] == "victory"


def test_a_failure_stated_while_the_log_shows_the_condition_met_is_refused_without_a_verdict(client):
    """Where yōkai are left to fight, the met conditions do not end the scene yet (L753), but they cannot be failed
    (L755): the failure the table states is refused, naming the condition that holds."""
    table = Table(client)
    table.win(table.begin())  # The Matsuri Arrives won: Nonstop Rhythm (15 yōkai before turn 9, L812) keeps its board
    sid = table.begin(table.rules["rules"]["campaign"]["chain"][1])
    assert table.scene["victory"][0]["defeat"] == {"any": 15}
    table.defeat(sid, "furu-utsubo", 15)
    state = table.state(sid)
    left = {yokai: n for yokai, n in state["game"]["in_play"].items() if n}
    before = session.total(client, sid)
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "end-scene", "outcome": "failed"})
    assert refused.status_code == 409, refused.json
    assert table.scene["victory"][0]["text"] in refused.json["title"], refused.json
    assert session.total(client, sid) == before
    assert left and state["verdict"] is None  # yōkai still to fight: undecided (L753); once cleared, decided
    table.clear(sid)
    assert table.state(sid)["verdict"]["outcome"] == "victory"
