"""Where a mission's text says the heroes start, a set-up starting them elsewhere is refused, naming the tiles allowed.

L218 (Lesson 1) and L226 (Lesson 2): "your heroes must start on the Training Grounds scene tile".
Before, any of the mission's scene tiles was taken as the start, silently.
"""

from __future__ import annotations

from tests.kit.kung_fu_panda import campaign, game, start


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
