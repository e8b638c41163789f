"""Descent's first quest, The Thing in the Pit, decided by the log (issue 31): once the rules decide it, the session
offers no more hero or overlord actions, only the end, and an end the log contradicts is refused.

L333: "If the heroes ever fall to 0 conquest points, the dark priests have won." The Thing in the Pit starts the
heroes at 8 conquest; a hero's death costs its conquest value plus its curses (Astarra: 2 + 2).
"""

from __future__ import annotations

from tests.kit import session
from tests.kit.descent import act, campaign, start


def test_conquest_run_out_decides_the_thing_in_the_pit_and_only_the_end_is_offered(client):
    cid = campaign(client, ["runewitch-astarra", "aurim"])
    sid = start(client, cid, "thing-in-the-pit")
    undecided = session.read(client, sid)
    assert undecided["verdict"] is None and undecided["allowed"] and undecided["end"]["decided"] is False
    assert undecided["end"]["awaits"] == []  # The Altar of Despair's quests need no fact from the table (their events decide)
    for _ in range(2):
        act(client, sid, type="gain-curses", hero="runewitch-astarra", count=2, source="chest")
        died = act(client, sid, type="hero-killed", hero="runewitch-astarra")
    state = died["state"]
    assert state["verdict"]["outcome"] == "defeat" and "L333" in state["verdict"]["reason"]
    assert state["allowed"] == [], state["allowed"]  # no more turns for either side
    assert state["end"] == {"decided": True, "outcome": "defeat", "reason": state["verdict"]["reason"], "awaits": [], "facts": []}
    title = session.end(client, sid, "victory", status=409)
    assert "L333" in title, title
    assert session.end(client, sid, "defeat")["outcome"] == "defeat"
