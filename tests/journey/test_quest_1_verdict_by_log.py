"""Journey Quest 1 is decided the moment the log decides it (issue 31).

L710: "The Quest ends immediately when the Demons in the house are removed, or when Tripitaka is defeated."
L711: "Heroic Victory: The Pilgrims must (1) rescue the Villagers, (2) Tripitaka must Meditate, (3) any one Pilgrim
must play a Skill Card, (4) defeat all Demons in the Villagers' house."
L712: "Victory: The Pilgrims must defeat all Demons in the Villagers' house."

The log keeps no squares, so it cannot place a Demon in the house; but with no Demon in play at all, none is in the
house: the quest ends there, as a Victory or a Heroic Victory by what else the log shows. While Demons are in play the
state names the fact only the table sees (``house_cleared``), and the end asks for it.
"""

from __future__ import annotations

from tests.kit import session
from tests.kit.journey import act, campaign, start

KILL = {"faces": {"attack": ["1", "X"], "pilgrim": ["X"]}, "outcome": "kill"}


def _q1(client) -> str:
    sid, _ = start(client, campaign(client), "q1-meeting")
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")
    return sid


def test_the_last_demon_removed_decides_a_victory_at_that_attack(client):
    sid = _q1(client)
    first = act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-1", **KILL)
    assert "quest-decided" not in session.change_kinds(first) and first["state"]["verdict"] is None
    # A Demon is still in play: only the table sees whether it stands in the house, so the state names that fact.
    assert [fact["fact"] for fact in first["state"]["end"]["awaits"]] == ["house_cleared"]
    last = act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-2", **KILL)
    assert session.change_kinds(last)[-1] == "quest-decided"
    state = last["state"]
    assert state["game"]["demons"] == {} and state["verdict"]["outcome"] == "victory", state["verdict"]
    assert "L712" in state["verdict"]["reason"]
    # Decided: no more turns are offered; the end is.
    assert state["allowed"] == [] and state["end"]["decided"] is True and state["end"]["outcome"] == "victory"
    assert state["end"]["awaits"] == []
    # No /end names the verdict first: the end without any reported fact agrees with it.
    ended = session.end(client, sid, "victory")
    assert ended["verdict"]["outcome"] == "victory"


def test_an_end_the_log_contradicts_is_refused_after_the_house_is_cleared(client):
    sid = _q1(client)
    for berrok in ("berrok-1", "berrok-2"):
        act(client, sid, type="pilgrim-attack", hero="monkey-king", target=berrok, **KILL)
    # The Heroic Victory needs the Villager rescued (L711): the log says it was not.
    title = session.end(client, sid, "heroic-victory", status=409)
    assert "victory" in title and "L712" in title, title
    title = session.end(client, sid, "defeat", status=409)
    assert "the rules decided this quest" in title, title


def test_with_demons_in_play_the_end_asks_for_the_house_and_takes_it(client):
    sid = _q1(client)
    state = session.read(client, sid)
    assert state["verdict"] is None and state["end"]["decided"] is False
    assert state["end"]["awaits"][0]["fact"] == "house_cleared" and "house" in state["end"]["awaits"][0]["description"]
    assert session.end(client, sid, "victory", status=409)  # the house is not known clear: refused
    ended = session.end(client, sid, "victory", reported={"house_cleared": True})
    assert ended["outcome"] == "victory"
