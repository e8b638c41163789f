"""Descent's The Thing in the Pit, once the log decides it, takes no more turns (issue 31). L333: "If the heroes ever
fall to 0 conquest points, the dark priests have won." A hero's or the overlord's action after that is refused,
appending nothing; a roll and the end are still taken; an undo of the deciding death plays on.
"""

from __future__ import annotations

from tests.kit import decided
from tests.kit import session
from tests.kit.descent import act, campaign, start


def _astarra_dies_twice(client) -> tuple[str, dict]:
    sid = start(client, campaign(client, ["runewitch-astarra", "aurim"]), "thing-in-the-pit")
    for _ in range(2):
        act(client, sid, type="gain-curses", hero="runewitch-astarra", count=2, source="chest")
        died = act(client, sid, type="hero-killed", hero="runewitch-astarra")
    return sid, died["state"]


def test_after_the_conquest_runs_out_play_is_refused_and_undo_plays_on(client):
    sid, state = _astarra_dies_twice(client)
    assert state["verdict"]["outcome"] == "defeat" and "L333" in state["verdict"]["reason"]

    problem = decided.refused(client, sid, {"type": "gain-curses", "hero": "aurim", "count": 1, "source": "chest"})
    assert "a defeat" in problem["detail"] and "L333" in problem["title"], problem
    decided.refused(client, sid, {"type": "hero-killed", "hero": "aurim"})
    decided.rolled(client, sid, {"d6": 1})

    decided.undone(client, sid)  # the roll
    reopened = decided.undone(client, sid)  # the death that decided the quest
    assert reopened["verdict"] is None and reopened["allowed"], reopened["verdict"]
    again = act(client, sid, type="hero-killed", hero="runewitch-astarra")
    assert again["state"]["verdict"]["outcome"] == "defeat"
    assert session.end(client, sid, "defeat")["outcome"] == "defeat"
