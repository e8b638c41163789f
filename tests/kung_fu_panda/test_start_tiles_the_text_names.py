"""Where a mission's text says the heroes start, a set-up starting them elsewhere is refused, naming the tiles allowed.

L218 (Lesson 1) and L226 (Lesson 2): "your heroes must start on the Training Grounds scene tile"; L281 (Mission 1.2,
from rules data 1.2.0 on): "each hero begins on a Monastery Bed tile of their player's choosing". Before, any of the
mission's scene tiles was taken as the start, silently; a campaign pinned to 1.1.0 still is, so its sessions replay.
"""

from __future__ import annotations

from tracker import rulesets
from tests.kit.kung_fu_panda import campaign, game, start

PAIR = {"special_moves": {"po": "Crane Kick", "tigress": "Tiger Claw"}}
LEVERS = {"spawn_points": {"2": "l", "4": "O"}}  # the levers' tiles, named at set-up (L268)


def _set_up(client, quest, setup):
    cid = campaign(client, {"length": "single", "mission": quest})
    return cid, client.post(f"/campaigns/{cid}/sessions", json={"quest": quest, "setup": setup})


def test_lesson_1_refuses_a_start_off_the_training_ground(client):
    cid, refused = _set_up(client, "lesson-1", {"start_tile": "A"})
    assert refused.status_code == 422, refused.json
    assert refused.content_type == "application/problem+json"
    assert refused.json["title"] == "In Mission Lesson 1 the heroes start on Training Ground (t), not Training Room (A)"
    assert "L218" in refused.json["detail"]
    assert set(refused.json["errors"]) == {"setup.tiles.po", "setup.tiles.tigress"}
    assert client.get(f"/campaigns/{cid}").json["sessions"] == []  # nothing recorded
    sid = start(client, cid, "lesson-1", {"start_tile": "t"})
    assert {h["tile"] for h in game(client, sid)["heroes"].values()} == {"t"}


def test_lesson_2_refuses_one_hero_started_elsewhere(client):
    _, refused = _set_up(client, "lesson-2", {"start_tile": "t", "tiles": {"tigress": "O"},
                                              "enemies": {"O": {"wolf-slasher": 1, "wolf-spearman": 1}}})
    assert refused.status_code == 422, refused.json
    assert "not Flagstones 2 (O)" in refused.json["title"]
    assert list(refused.json["errors"]) == ["setup.tiles.tigress"]


def test_the_break_in_refuses_a_hero_started_off_the_monastery_beds(client):
    cid, refused = _set_up(client, "m1-2", {"start_tile": "l", **LEVERS, **PAIR})
    assert refused.status_code == 422, refused.json
    assert refused.content_type == "application/problem+json"
    assert refused.json["title"] == ("In Mission 1.2 the heroes start on Monastery Bed 1 (i), Monastery Bed 2 (k), "
                                     "Monastery Bed 3 (P) or Monastery Bed 4 (Q), not Flagstones 1 (l)")
    assert "L281" in refused.json["detail"]
    assert set(refused.json["errors"]) == {"setup.tiles.po", "setup.tiles.tigress"}
    assert client.get(f"/campaigns/{cid}").json["sessions"] == []  # nothing recorded
    one_off = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m1-2", "setup": {"tiles": {"po": "P", "tigress": "J"}, **LEVERS, **PAIR}})
    assert one_off.status_code == 422 and one_off.json["title"].endswith("not Kitchen (J)"), one_off.json
    assert list(one_off.json["errors"]) == ["setup.tiles.tigress"]
    # each hero on a bed of their player's choosing, not all on one
    sid = start(client, cid, "m1-2", {"tiles": {"po": "P", "tigress": "k"}, **LEVERS, **PAIR})
    assert {hero: h["tile"] for hero, h in game(client, sid)["heroes"].items()} == {"po": "P", "tigress": "k"}


def test_a_campaign_pinned_to_1_1_0_still_starts_where_the_table_said(client, monkeypatch):
    """1.1.0's Mission 1.2 named no start tiles: its campaigns keep playing (and replaying) a start on the Flagstones."""
    rulesets.archived.cache_clear()
    old = next(ruleset for ruleset in rulesets.archived("kung-fu-panda") if ruleset.version == "1.1.0")
    assert "start_tiles" not in old.quest("m1-2") and "start_tiles" in rulesets.get("kung-fu-panda").quest("m1-2")
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, "kung-fu-panda": old})  # a server from before 1.2.0
    cid = campaign(client, {"length": "single", "mission": "m1-2"})
    monkeypatch.undo()  # today's server: the campaign stays pinned to 1.1.0
    rulesets.archived.cache_clear()
    assert client.get(f"/campaigns/{cid}").json["ruleset"] == old.pin
    sid = start(client, cid, "m1-2", {"start_tile": "l", **LEVERS, **PAIR})
    assert {h["tile"] for h in game(client, sid)["heroes"].values()} == {"l"}
    for _ in range(3):  # played to time's up (L193), and verified under its pinned rules
        assert client.post(f"/sessions/{sid}/actions", json={"type": "round-summary"}).status_code == 201
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}).status_code == 200
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"
