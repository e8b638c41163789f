"""Kung Fu Panda's Lesson 1 is decided by the log when the sand runs out on its one round (issue 31).

L218: "In this mission, your heroes must start on the Training Grounds scene tile and if you do not end on the Hot
Springs scene tile within 1 round, you lose."
L193: "Time's Up! [...] If players have not won the mission by the time the sand timer runs out on the final round,
Tai Lung has out-foxed them and the game is lost."

Before, the round's end recorded a time's-up loss whenever the table had not declared the win first, even with both
heroes standing on the Hot Springs: the log contradicted its own verdict. Now the round's end decides a win there.
"""

from __future__ import annotations

from tests.kit import session
from tests.kit.kung_fu_panda import act, campaign, start

HOT_SPRINGS = "r"  # Lesson 1's end tile in the rules data ("end_tile", the Hot Springs)


def _lesson_1(client) -> str:
    cid = campaign(client, {"length": "single", "mission": "lesson-1"})
    # L218: "your heroes must start on the Training Grounds scene tile" (t, the Training Ground)
    return start(client, cid, "lesson-1", {"start_tile": "t"})


def _on_the_hot_springs(client, sid) -> None:
    rules = client.get("/rulesets/kung-fu-panda").json
    assert next(q for q in rules["quests"] if q["id"] == "lesson-1")["end_tile"] == HOT_SPRINGS
    act(client, sid, {"type": "start-round"})
    # The figures were moved at the table without their spends entered: the table corrects the board, as agreed.
    act(client, sid, {"type": "correct", "refers_to": 1, "reason": "both heroes reached the Hot Springs", "agreed_by": ["po", "tigress"],
                      "amend": {"tiles": {"po": HOT_SPRINGS, "tigress": HOT_SPRINGS}}})


def test_the_heroes_on_the_hot_springs_when_the_round_ends_win_lesson_1(client):
    sid = _lesson_1(client)
    _on_the_hot_springs(client, sid)
    ended_round = act(client, sid, {"type": "end-round"})
    state = ended_round["state"]
    assert state["verdict"] is not None and state["verdict"]["outcome"] == "victory", state["verdict"]
    assert "L218" in state["verdict"]["reason"]
    assert "MissionLost" not in [e["type"] for e in ended_round["events"]]
    assert state["allowed"] == [] and state["end"]["decided"] is True
    assert session.end(client, sid, "victory")["verdict"]["outcome"] == "victory"  # no declaration, no /end naming it first


def test_a_defeat_stated_for_lesson_1_won_by_the_log_is_refused(client):
    sid = _lesson_1(client)
    _on_the_hot_springs(client, sid)
    act(client, sid, {"type": "end-round"})
    title = session.end(client, sid, "defeat", status=409)
    assert "L218" in title, title


def test_the_heroes_away_from_the_hot_springs_lose_lesson_1_when_the_round_ends(client):
    sid = _lesson_1(client)
    act(client, sid, {"type": "start-round"})
    state = act(client, sid, {"type": "end-round"})["state"]
    assert state["verdict"]["outcome"] == "defeat" and "L193" in state["verdict"]["reason"]
