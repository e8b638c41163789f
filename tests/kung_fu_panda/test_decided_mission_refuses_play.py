"""Kung Fu Panda's Lesson 1, once the log decides it, plays no more rounds (issue 31). L218: "if you do not end on the
Hot Springs scene tile within 1 round, you lose"; on it when the round ends, the heroes win. A round or a hero's roll
after that is refused, appending nothing; a correction of the board, a roll of the table's dice and the end are still
taken; an undo of the round's end that decided it plays on.
"""

from __future__ import annotations

from tests.kit import decided
from tests.kit import session
from tests.kit.kung_fu_panda import act, campaign, start

HOT_SPRINGS = "r"  # Lesson 1's end tile in the rules data ("end_tile", the Hot Springs)


def test_after_lesson_1_is_won_a_round_is_refused_and_undo_plays_on(client):
    sid = start(client, campaign(client, {"length": "single", "mission": "lesson-1"}), "lesson-1", {"start_tile": "t"})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "correct", "refers_to": 1, "reason": "both heroes reached the Hot Springs", "agreed_by": ["po", "tigress"],
                      "amend": {"tiles": {"po": HOT_SPRINGS, "tigress": HOT_SPRINGS}}})
    state = act(client, sid, {"type": "end-round"})["state"]
    assert state["verdict"]["outcome"] == "victory" and "L218" in state["verdict"]["reason"]

    problem = decided.refused(client, sid, {"type": "start-round"})
    assert "a victory" in problem["detail"], problem
    decided.refused(client, sid, {"type": "roll", "hero": "po"})
    decided.rolled(client, sid, {"d6": 1})

    decided.undone(client, sid)  # the roll
    reopened = decided.undone(client, sid)  # the round's end that decided the mission
    assert reopened["verdict"] is None and reopened["allowed"], reopened["verdict"]
    again = act(client, sid, {"type": "end-round"})
    assert again["state"]["verdict"]["outcome"] == "victory"
    assert session.end(client, sid, "victory")["outcome"] == "victory"
