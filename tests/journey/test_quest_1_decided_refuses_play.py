"""Journey Quest 1, once the log decides it, takes no more turns (issue 31): "The Quest ends immediately when the
Demons in the house are removed, or when Tripitaka is defeated" (L710). A Pilgrim's action after that is refused,
appending nothing; a roll, a correction and the end still are taken; an undo of the deciding attack plays on.
"""

from __future__ import annotations

from tests.kit import decided
from tests.kit import session
from tests.kit.journey import act, campaign, start

KILL = {"faces": {"attack": ["1", "X"], "pilgrim": ["X"]}, "outcome": "kill"}


def test_after_the_last_demon_falls_a_pilgrim_action_is_refused_and_undo_plays_on(client):
    sid, _ = start(client, campaign(client), "q1-meeting")
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")
    act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-1", **KILL)
    state = act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-2", **KILL)["state"]
    assert state["verdict"]["outcome"] == "victory" and "L712" in state["verdict"]["reason"]

    problem = decided.refused(client, sid, {"type": "meditate", "hero": "monkey-king"})
    assert "a victory" in problem["detail"], problem
    decided.refused(client, sid, {"type": "end-of-turn"})
    decided.rolled(client, sid, {"d6": 1})  # a roll changes no game state
    corrected = act(client, sid, type="correct", hero="tripitaka", field="hp", should_be=9, reason="misread the dial")
    assert corrected["state"]["game"]["heroes"]["tripitaka"]["hp"] == 9

    for _ in range(2):  # the correction, the roll, then the attack that decided the quest
        decided.undone(client, sid)
    reopened = decided.undone(client, sid)
    assert reopened["verdict"] is None and "berrok-2" in reopened["game"]["demons"]
    assert reopened["allowed"], "play goes on once the deciding attack is undone"
    again = act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-2", **KILL)
    assert again["state"]["verdict"]["outcome"] == "victory"
    assert session.end(client, sid, "victory")["outcome"] == "victory"
