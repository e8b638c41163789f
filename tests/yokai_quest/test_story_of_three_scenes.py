"""A story of three scenes played through the API on both databases: a failed scene and its
successful reattempt, a defeated hero returning, treasure drawn at five tokens; the standing the
rules imply at the end, every session verified, and the views rebuilt to the same digest."""

from __future__ import annotations

import contextlib
import io
import json

from tests.kit.yokai_quest import (
    act,
    begin_yokai_phase,
    clear,
    create_campaign,
    defeat,
    draw_owed,
    end,
    game,
    spawn,
    start,
    strike,
    verified,
    yokai_phase,
)
from tracker.cli import main as tracker_cli

SHAKE = ["shake-them-skeleton-bones-1", "shake-them-skeleton-bones-2", "shake-them-skeleton-bones-3"]


def test_shake_them_skeleton_bones_with_a_reattempt(client, app, database_url):
    campaign = create_campaign(client)
    assert campaign["chain"][:3] == SHAKE and campaign["next_quest"] == SHAKE[0]
    cid = campaign["id"]

    # Scene 1: twelve Hone Bushi before turn 9; Ami falls on the way and returns for scene 2.
    s1 = start(client, cid, SHAKE[0])
    state = game(client, s1)
    assert state["heroes"]["ryo"]["health"] == 6 and state["heroes"]["ami"]["health"] == 5
    act(client, s1, {"type": "draw-energy", "hero": "ryo", "spheres": 3})
    act(client, s1, {"type": "draw-energy", "hero": "ami", "spheres": 2})
    spawn(client, s1, {"hone-bushi": 8})  # turn 1's Yōkai phase: the card at the red point places eight (the table reads it)
    strike(client, s1, "ryo", ["hone-bushi"] * 6)
    state = game(client, s1)
    assert state["treasure_reserve"] == 1  # the fifth token paid out; the sixth starts the next five
    assert [o["hero"] for o in state["treasure_owed"]] == ["ami", "ryo"]
    act(client, s1, {"type": "draw-treasure", "hero": "ryo", "card": "Hibana"})
    act(client, s1, {"type": "draw-treasure", "hero": "ami", "card": "Mochi"})
    act(client, s1, {"type": "equip", "hero": "ryo", "card": "Hibana"})
    begin_yokai_phase(client, s1)  # the Hone Bushi act (L192)
    hit = act(
        client,
        s1,
        {"type": "attack", "attacker": "hone-bushi", "targets": [{"defender": "ami", "attack_faces": {"red": ["katana"] * 3, "blue": ["katana"] * 2}, "defense_faces": {"blue": ["blank"]}}]},
    )
    ami = hit["state"]["game"]["heroes"]["ami"]
    assert ami["defeated"] and ami["health"] == 0 and ami["energy"] == 0 and ami["hand"] == [] and ami["defeats"] == 1
    yokai_phase(client, s1)
    strike(client, s1, "ryo", ["hone-bushi"] * 2)
    spawn(client, s1, {"hone-bushi": 4})
    strike(client, s1, "ryo", ["hone-bushi"] * 4)
    state = game(client, s1)
    assert state["treasure_reserve"] == 2
    act(client, s1, {"type": "draw-treasure", "hero": "ryo", "card": "Tenpura"})
    act(client, s1, {"type": "draw-treasure", "hero": "ami", "card": "Gyoza"})
    act(client, s1, {"type": "end-scene", "outcome": "victory"})
    state = game(client, s1)
    assert state["heroes"]["ami"]["health"] == 2  # back with 1 health, plus the scene's 1
    assert state["heroes"]["ryo"]["health"] == 6
    assert end(client, s1, "victory")["next_quest"] == SHAKE[1]
    verified(client, s1)

    # Scene 2, first attempt: Ryo is wounded and spends energy, then the scene fails.
    s2 = start(client, cid, SHAKE[1])
    state = game(client, s2)
    assert state["board_kept"] is True and state["treasure_reserve"] == 2 and state["attempt"] == 1
    spawn(client, s2, {"furu-utsubo": 1})
    begin_yokai_phase(client, s2)
    act(client, s2, {"type": "attack", "attacker": "furu-utsubo", "targets": [{"defender": "ryo", "attack_faces": {"red": ["katana", "katana"]}, "defense_faces": {"blue": ["helmet"]}}]})
    yokai_phase(client, s2)
    act(client, s2, {"type": "use-ability", "hero": "ryo", "ability": "kiri-susumu", "actions": 1, "energy": 2, "reload": 2})
    assert game(client, s2)["heroes"]["ryo"]["health"] == 5
    act(client, s2, {"type": "end-scene", "outcome": "failed", "reason": "15 yōkai can no longer be defeated before turn 9"})
    assert end(client, s2, "defeat")["next_quest"] == SHAKE[1]
    verified(client, s2)

    # Scene 2, the reattempt: the heroes stand as they began the scene; the reserve is empty.
    s2b = start(client, cid, SHAKE[1])
    state = game(client, s2b)
    assert state["attempt"] == 2 and state["treasure_reserve"] == 0
    assert state["heroes"]["ryo"]["health"] == 6 and state["heroes"]["ryo"]["energy"] == 3 and state["heroes"]["ryo"]["reload"] == {}
    defeat(client, s2b, "furu-utsubo", 15)
    state = game(client, s2b)
    assert state["treasure_reserve"] == 0 and len(state["treasure_owed"]) == 6
    for card in ("Onigiri", "Nigiri", "Dango"):
        act(client, s2b, {"type": "draw-treasure", "hero": "ryo", "card": card})
    for card in ("Soba", "Magatama", "Hinote"):
        act(client, s2b, {"type": "draw-treasure", "hero": "ami", "card": card})
    act(client, s2b, {"type": "end-scene", "outcome": "victory"})
    owed = end(client, s2b, "victory", status=422)  # the reward's treasure is still owed, to the heroes by name
    assert owed["title"] == "Treasure cards are still owed to Ami and Ryo", owed
    assert "[" not in owed["detail"] and "'ryo'" not in owed["detail"]
    over = act(client, s2b, {"type": "draw-treasure", "hero": "ryo", "card": "Maki sushi"}, status=422)
    assert "more than 4" in over["title"]
    act(client, s2b, {"type": "draw-treasure", "hero": "ryo", "card": "Maki sushi", "discard": "Nigiri"})
    act(client, s2b, {"type": "draw-treasure", "hero": "ami", "card": "Uro", "discard": "Hinote"})
    end(client, s2b, "victory")
    verified(client, s2b)

    # Scene 3: the Undead Dark Champion (Health 15) loses all his life points.
    s3 = start(client, cid, SHAKE[2])
    assert game(client, s3)["foes"] == {"undead-dark-champion": {"character": "undead-dark-champion", "health": 15}}
    act(client, s3, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "undead-dark-champion", "attack_faces": {"red": ["katana"] * 10}, "defense_faces": {"blue": ["helmet", "blank"]}}]})
    assert game(client, s3)["foes"]["undead-dark-champion"]["health"] == 6
    act(client, s3, {"type": "attack", "attacker": "ryo", "guaranteed_katanas": 1, "targets": [{"defender": "undead-dark-champion", "attack_faces": {"red": ["katana"] * 5}, "defense_faces": {"blue": []}}]})
    act(client, s3, {"type": "end-scene", "outcome": "victory"})
    act(client, s3, {"type": "draw-treasure", "hero": "ryo", "card": "Akatsuki", "discard": "Onigiri"})
    act(client, s3, {"type": "draw-treasure", "hero": "ami", "card": "Omamori", "discard": "Soba"})
    ended = end(client, s3, "victory")
    assert ended["next_quest"] == "the-true-culprits-1"
    verified(client, s3)

    progress = client.get(f"/campaigns/{cid}").json["progress"]
    ryo, ami = progress["heroes"]["ryo"], progress["heroes"]["ami"]
    assert ryo["health"] == 6 and ami["health"] == 4  # scene 3's reward: two health each
    assert ryo["energy"] == 3 and ami["energy"] == 0  # a defeat discards every energy token
    assert ryo["equipped"] == {"charm": None, "enchantment": "Hibana"}
    assert sorted(ryo["hand"]) == ["Akatsuki", "Dango", "Maki sushi", "Tenpura"]
    assert sorted(ami["hand"]) == ["Gyoza", "Magatama", "Omamori", "Uro"]
    assert ryo["treasures_drawn"] == 2 + 4 + 1 and ami["treasures_drawn"] == 2 + 4 + 1
    assert (ryo["defeats"], ami["defeats"], ami["revivals"]) == (0, 1, 0)
    shake = progress["stories"]["shake-them-skeleton-bones"]
    assert shake["status"] == "completed"
    assert shake["scenes"][SHAKE[1]] == {"attempts": 2, "reattempts_used": 1, "result": "victory"}
    assert progress["treasure_reserve"] == 1

    # The True Culprits, scene 1, failed: its penalty discards the items in hand the heroes began the scene with.
    t1 = start(client, cid, "the-true-culprits-1")
    failed = act(client, t1, {"type": "end-scene", "outcome": "failed", "reason": "the champion escaped"})
    penalty = next(e for e in failed["events"] if e["type"] == "DefeatPenaltyApplied")["payload"]["change"]
    assert penalty["penalty"] == "discard-hand"
    assert sorted(penalty["discarded"]["ryo"]) == ["Akatsuki", "Dango", "Maki sushi", "Tenpura"]
    assert sorted(penalty["discarded"]["ami"]) == ["Gyoza", "Magatama", "Omamori", "Uro"]
    end(client, t1, "defeat")
    t1b = start(client, cid, "the-true-culprits-1")
    heroes = game(client, t1b)["heroes"]
    assert heroes["ryo"]["hand"] == [] and heroes["ami"]["hand"] == []
    assert heroes["ryo"]["equipped"]["enchantment"] == "Hibana"  # the hand is gone, the equipment stays
    verified(client, t1)  # the failed attempt verifies like any other session

    # Scenes 1 and 2 won; scene 3 failed: its penalty discards the objects equipped at the scene's start.
    act(client, t1b, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "akatsume-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 2}, "defense_faces": {"blue": []}}]})
    clear(client, t1b)
    act(client, t1b, {"type": "end-scene", "outcome": "victory"})
    draw_owed(client, t1b)
    end(client, t1b, "victory")
    t2 = start(client, cid, "the-true-culprits-2")
    defeat(client, t2, "yoroi", 2)
    act(client, t2, {"type": "end-scene", "outcome": "victory"})
    draw_owed(client, t2)
    end(client, t2, "victory")
    t3 = start(client, cid, "the-true-culprits-3")
    equipped = {hero: [card for card in sheet["equipped"].values() if card] for hero, sheet in game(client, t3)["heroes"].items()}
    assert equipped["ryo"] == ["Hibana"]
    failed = act(client, t3, {"type": "end-scene", "outcome": "failed", "reason": "the boss stands"})
    penalty = next(e for e in failed["events"] if e["type"] == "DefeatPenaltyApplied")["payload"]["change"]
    assert penalty["penalty"] == "discard-equipped" and penalty["discarded"] == equipped
    end(client, t3, "defeat")
    t3b = start(client, cid, "the-true-culprits-3")
    assert all(card is None for sheet in game(client, t3b)["heroes"].values() for card in sheet["equipped"].values())

    runner = app.extensions["tracker_views"]
    runner.catch_up()
    before = runner.store.digest()
    assert runner.rebuild() == before
    # `tracker rebuild`, the operator's command, rebuilds every view from the log to the same digest and the same views.
    standing, timeline = client.get(f"/campaigns/{cid}/standing").json, client.get(f"/sessions/{s1}/timeline").json
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert tracker_cli(["--database-url", database_url, "rebuild"]) == 0
    assert json.loads(out.getvalue())["digest"] == before
    assert client.get(f"/campaigns/{cid}/standing").json == standing and client.get(f"/sessions/{s1}/timeline").json == timeline


def test_the_standing_view_follows_the_log_and_rebuilds_the_same(client, app):
    from tests.kit.yokai_quest import create_campaign

    cid = create_campaign(client)["id"]
    s1 = start(client, cid, SHAKE[0])
    act(client, s1, {"type": "draw-energy", "hero": "ami", "spheres": 3})
    spawn(client, s1, {"hone-bushi": 8})
    strike(client, s1, "ryo", ["hone-bushi"] * 5)
    act(client, s1, {"type": "draw-treasure", "hero": "ami", "card": "Mochi"})
    runner = app.extensions["tracker_views"]
    runner.catch_up()
    view = client.get(f"/campaigns/{cid}/standing").json
    # the view equals the aggregate's state, each naming its ruleset in it
    assert view["latest_session"]["game"] == game(client, s1)
    assert view["latest_session"]["ruleset"] == client.get(f"/sessions/{s1}").json["ruleset"]
    assert view["latest_session"]["game"]["heroes"]["ami"]["hand"] == ["Mochi"]
    act(client, s1, {"type": "draw-treasure", "hero": "ryo", "card": "Hibana"})
    strike(client, s1, "ryo", ["hone-bushi"] * 3)
    defeat(client, s1, "hone-bushi", 4)  # ten tokens: a second payout
    act(client, s1, {"type": "draw-treasure", "hero": "ami", "card": "Gyoza"})
    act(client, s1, {"type": "draw-treasure", "hero": "ryo", "card": "Uro"})
    act(client, s1, {"type": "end-scene", "outcome": "victory"})
    end(client, s1, "victory")
    runner.catch_up()
    view = client.get(f"/campaigns/{cid}/standing").json
    assert view["progress"] == client.get(f"/campaigns/{cid}").json["progress"]
    assert view["progress"]["heroes"]["ryo"]["hand"] == ["Hibana", "Uro"] and view["progress"]["next_scene"] == SHAKE[1]
    before = runner.store.digest()
    assert runner.rebuild() == before
    assert client.get(f"/campaigns/{cid}/standing").json["progress"] == view["progress"]
