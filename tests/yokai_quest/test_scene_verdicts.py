"""Yōkai Quest scenes are won or lost only as the text allows, through the API on SQLite and PostgreSQL.

"To progress from one scene to the next, it's necessary to achieve the victory conditions established for the
scene" (L753); "If one or more of the victory conditions cannot be achieved any longer, the scene ends and the
reattempt mechanic comes into play" (L755); "If all the heroes in the scene are defeated, the Reattempt mechanic is
engaged" (L763). The session's verdict is the scene's end; an end of the session that contradicts it is a 409.
"""

from __future__ import annotations

from tests.kit import decided
from tests.kit.session import PROBLEM, total
from tests.kit.yokai_quest import (
    act,
    begin_yokai_phase,
    clear,
    create_campaign,
    defeat,
    draw_owed,
    end,
    finish_hero_phase,
    game,
    refused_saying as _refused,
    spawn,
    start,
    strike,
    turns,
    verified,
    win_scene,
    yokai_phase,
)

S1, S2, S3 = "shake-them-skeleton-bones-1", "shake-them-skeleton-bones-2", "shake-them-skeleton-bones-3"


def _end_refused(client, sid, outcome, title_part):
    before = total(client, sid)
    refused = client.post(f"/sessions/{sid}/end", json={"outcome": outcome})
    assert refused.status_code == 409 and refused.mimetype == PROBLEM, refused.json
    assert title_part in refused.json["title"], refused.json["title"]
    assert total(client, sid) == before and client.get(f"/sessions/{sid}").json["status"] == "in-progress"
    return refused.json


def test_the_scene_won_is_the_verdict_and_a_contradicting_end_is_a_409(client):
    cid = create_campaign(client)["id"]
    sid = start(client, cid, S1)
    undecided = _end_refused(client, sid, "victory", "the scene has not ended in victory")
    assert "'Defeat 12 Hone Bushi before turn 9.' (L808)" in undecided["title"]
    _end_refused(client, sid, "defeat", "the scene has not failed")
    _end_refused(client, sid, "heroic-victory", "no heroic victory")
    defeat(client, sid, "hone-bushi", 12)  # eight miniatures: they come in two Yōkai phases
    # Met, and the next scene keeps the board (L807): the log decides the scene at the twelfth defeat (L753).
    decided = client.get(f"/sessions/{sid}").json["verdict"]
    assert decided["outcome"] == "victory" and "(L808)" in decided["reason"]
    won = act(client, sid, {"type": "end-scene", "outcome": "victory"})  # the scene's end records its rewards
    assert "QuestDecided" not in [e["type"] for e in won["events"]]
    verdict = won["state"]["verdict"]
    assert verdict == decided and verdict["position"] < won["version"]
    _end_refused(client, sid, "defeat", "the rules decided this quest")
    _end_refused(client, sid, "heroic-victory", "the rules decided this quest")
    draw_owed(client, sid)
    ended = end(client, sid, "victory")
    assert ended["verdict"] == verdict and ended["ruling"] is None
    verified(client, sid)


def test_a_turn_limit_passed_fails_the_scene_as_the_turn_begins(client):
    """L808 "Defeat 12 Hone Bushi before turn 9": when turn 9 begins with 11, it can no longer be achieved (L755)."""
    cid = create_campaign(client)["id"]
    sid = start(client, cid, S1)
    defeat(client, sid, "hone-bushi", 11)  # eight on turn 2, three on turn 3
    turns(client, sid, 5)
    assert client.get(f"/sessions/{sid}").json["turn"] == 8 and client.get(f"/sessions/{sid}").json["verdict"] is None
    ninth = yokai_phase(client, sid)
    assert ninth["state"]["turn"] == 9
    assert [e["type"] for e in ninth["events"]][-2:] == ["SceneEnded", "QuestDecided"]
    verdict = ninth["state"]["verdict"]
    assert verdict["outcome"] == "defeat" and "L808" in verdict["reason"] and "L755" in verdict["reason"]
    decided.refused(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", "attack_faces": {"red": ["katana"]}, "defense_faces": {"blue": []}}]})
    _end_refused(client, sid, "victory", "the rules decided this quest")
    assert end(client, sid, "defeat")["next_quest"] == S1  # the reattempt
    verified(client, sid)


def test_twelve_defeats_before_turn_nine_with_no_yokai_left_end_the_scene_at_once(client):
    """L753: "When the conditions are fulfilled, the appearance points stop working ... When there are no more yōkai left
    to fight, the scene ends": the twelfth Hone Bushi (L808), the last yōkai on the board, falls on turn 8 and the log
    decides the scene then, before turn 9 could begin; no phase follows, only the scene's end."""
    cid = create_campaign(client)["id"]
    sid = start(client, cid, S1)
    defeat(client, sid, "hone-bushi", 8)
    spawn(client, sid, {"hone-bushi": 4})
    strike(client, sid, "ryo", ["hone-bushi"] * 3)
    turns(client, sid, 5)
    twelfth = strike(client, sid, "ryo", ["hone-bushi"])  # turn 8
    assert twelfth["state"]["turn"] == 8 and twelfth["state"]["verdict"]["outcome"] == "victory"  # met before turn 9 (L807)
    assert [entry["type"] for entry in twelfth["state"]["allowed"]] == ["end-scene", "draw-treasure"]  # and the treasure it owes
    decided.refused(client, sid, {"type": "begin-yokai-phase"})
    assert act(client, sid, {"type": "end-scene", "outcome": "victory"})["state"]["verdict"]["outcome"] == "victory"


def _to_shake_3(client):
    cid = create_campaign(client, {"story": "shake-them-skeleton-bones"})["id"]
    for scene, yokai, count in ((S1, "hone-bushi", 12), (S2, "furu-utsubo", 15)):
        sid = start(client, cid, scene)
        defeat(client, sid, yokai, count)
        draw_owed(client, sid)
        win_scene(client, sid)
    return cid, start(client, cid, S3)


def test_the_chief_not_defeated_before_turn_15_loses_the_scene_and_the_story_restarts(client):
    """L837 "The heroes do not defeat the chief before turn 15." Penalty: "Start over the game from scene 1." (L838)"""
    cid, sid = _to_shake_3(client)
    turns(client, sid, 13)
    assert client.get(f"/sessions/{sid}").json["verdict"] is None
    fifteenth = yokai_phase(client, sid)
    kinds = [e["type"] for e in fifteenth["events"]]
    assert kinds[-3:] == ["SceneEnded", "DefeatPenaltyApplied", "QuestDecided"]
    verdict = fifteenth["state"]["verdict"]
    assert verdict["outcome"] == "defeat" and "L837" in verdict["reason"] and "turn 15" in verdict["reason"]
    decided.refused(client, sid, {"type": "end-scene", "outcome": "victory"})  # a lost scene is not won at its end
    _end_refused(client, sid, "victory", "the rules decided this quest")
    assert end(client, sid, "defeat")["next_quest"] == S1


def test_the_chief_defeated_on_turn_14_holds_past_turn_15(client):
    cid, sid = _to_shake_3(client)
    turns(client, sid, 13)
    fell = act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "undead-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 5}, "defense_faces": {"blue": []}}]})
    assert fell["state"]["turn"] == 14 and fell["state"]["verdict"]["outcome"] == "victory"  # the chief fell on turn 14: decided (L753)
    decided.refused(client, sid, {"type": "begin-yokai-phase"})  # no turn 15 to lose it in
    act(client, sid, {"type": "end-scene", "outcome": "victory"})
    assert game(client, sid)["scene_result"]["victory_conditions"] == ["undead-champion-loses-all-life"]


def test_every_hero_defeated_fails_the_scene_at_once(client):
    cid = create_campaign(client)["id"]
    sid = start(client, cid, S1)
    spawn(client, sid, {"yurei": 1})
    begin_yokai_phase(client, sid)
    blows = {"attack_faces": {"red": ["katana"] * 6}, "defense_faces": {"blue": []}}
    first = act(client, sid, {"type": "attack", "attacker": "yurei", "targets": [{"defender": "ryo", **blows}]})
    assert first["state"]["verdict"] is None
    last = act(client, sid, {"type": "attack", "attacker": "yurei", "targets": [{"defender": "ami", **blows}]})
    verdict = last["state"]["verdict"]
    assert verdict["outcome"] == "defeat" and "L763" in verdict["reason"]
    assert end(client, sid, "defeat")["next_quest"] == S1
    verified(client, sid)


def test_the_owner_may_overrule_by_a_table_ruling_and_the_campaign_follows_it(client):
    cid = create_campaign(client)["id"]
    sid = start(client, cid, S1)
    why = "we played scene 1 last week on paper and won it"
    ended = client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "ruling": why})
    assert ended.status_code == 200 and ended.json["ruling"] == why and ended.json["next_quest"] == S2
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified" and report["ruling"]["ruling"] == why and "has not ended in victory" in report["ruling"]["overrules"]


def test_several_victory_bullets_all_needed_and_facts_the_table_states(client):
    """Lair of Anger 1 (L959-L961): the data's reading is the text's, every bullet (L753, L755); reaching the purple point
    is a fact at the table, and 'the two Yurei' are those present from the beginning, which the log cannot tell apart."""
    rules = client.get("/rulesets/yokai-quest").json
    lair = next(q for q in rules["quests"] if q["id"] == "lair-of-anger-1")
    assert lair["victory_bullets"] == "all" and "L755" in lair["readings"]["victory_bullets"]
    cid = create_campaign(client, {"story": "lair-of-anger"})["id"]
    sid = start(client, cid, "lair-of-anger-1")
    strike(client, sid, "ryo", ["yoroi", "yoroi", "yurei"])
    purple = {"heroes-reach-purple": "Ryo and Ami stood on the purple point on turn 1"}
    _refused(client, sid, {"type": "end-scene", "outcome": "victory", "reported": purple}, "it needs 2 yurei defeated; the log records 1")
    strike(client, sid, "ryo", ["yurei"])
    _refused(client, sid, {"type": "end-scene", "outcome": "victory", "victory_condition": "heroes-reach-purple", "reported": purple}, "the table must state it")
    _refused(client, sid, {"type": "end-scene", "outcome": "victory", "reported": {"heroes-reach-blue": "yes"}}, "Facts the table states in The Evil Alliance: \"heroes-reach-purple\" or \"yoroi-and-two-yurei-defeated\"")
    _refused(client, sid, {"type": "end-scene", "outcome": "victory", "victory_condition": "reach-the-exit"}, "Victory conditions of The Evil Alliance: \"heroes-reach-purple\" or \"yoroi-and-two-yurei-defeated\"")
    both = {**purple, "yoroi-and-two-yurei-defeated": "the two Yurei of the set-up fell on turn 1"}
    won = act(client, sid, {"type": "end-scene", "outcome": "victory", "reported": both})
    result = won["state"]["game"]["scene_result"]
    assert result["victory_conditions"] == ["heroes-reach-purple", "yoroi-and-two-yurei-defeated"] and result["reported"] == both
    assert "(L960)" in won["state"]["verdict"]["reason"] and "(L961)" in won["state"]["verdict"]["reason"]
    draw_owed(client, sid)
    end(client, sid, "victory")
    verified(client, sid)


def _to_final_destination_2(client, setup):
    cid = create_campaign(client, {"story": "final-destination"})["id"]
    sid = start(client, cid, "final-destination-1")
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "akatsume-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 5}, "defense_faces": {"blue": []}}]})
    clear(client, sid)
    win_scene(client, sid, achievements=["champion-before-turn-12"])
    return cid, client.post(f"/campaigns/{cid}/sessions", json={"quest": "final-destination-2", **({"setup": setup} if setup is not None else {})})


def test_the_pillars_must_all_be_destroyed_before_turn_15_their_number_stated_at_set_up(client):
    """L1066 "Pillar of Energy! ... Has 8 health points": how many is lost, so the table states it; L1072 "Destroy the
    Pillars of Energy before turn 15" is not met with none destroyed, and the Tengu (L1073) is the bullets' alternative."""
    cid, refused = _to_final_destination_2(client, None)
    assert refused.status_code == 422 and "Say how many Pillar of Energy" in refused.json["title"]
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "final-destination-2", "setup": {"objectives": {"pillar-of-energy": 3}}})
    assert started.status_code == 201, started.json
    sid = started.json["id"]
    foes = game(client, sid)["foes"]
    assert {f: foes[f]["health"] for f in foes if f.startswith("pillar")} == {"pillar-of-energy-1": 8, "pillar-of-energy-2": 8, "pillar-of-energy-3": 8}
    _refused(client, sid, {"type": "end-scene", "outcome": "victory"}, "Say which victory condition was met")
    _refused(client, sid, {"type": "end-scene", "outcome": "victory", "victory_condition": "destroy-pillars-before-turn-15"}, "it needs all 3 Pillar of Energy destroyed before turn 15; the log records 0")
    smash = {"attack_faces": {"red": ["katana"] * 8}, "defense_faces": {"blue": []}}
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "senpuu", "actions": 1})
    act(client, sid, {"type": "attack", "attacker": "ryo", "ability": "senpuu", "targets": [{"defender": f"pillar-of-energy-{n}", **smash} for n in (1, 2)]})
    _refused(client, sid, {"type": "end-scene", "outcome": "victory", "victory_condition": "destroy-pillars-before-turn-15"}, "the log records 2")
    turns(client, sid, 14)
    assert client.get(f"/sessions/{sid}").json["verdict"] is None  # the pillars are out of reach, the Tengu is not ("either")
    _refused(client, sid, {"type": "end-scene", "outcome": "victory", "victory_condition": "destroy-pillars-before-turn-15"}, "the log records 2")
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "senpuu", "actions": 1})
    act(client, sid, {"type": "attack", "attacker": "ryo", "ability": "senpuu", "targets": [{"defender": "tengu", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 10}, "defense_faces": {"blue": []}}] * 2})
    won = act(client, sid, {"type": "end-scene", "outcome": "victory", "victory_condition": "defeat-the-tengu"})
    assert won["state"]["verdict"]["outcome"] == "victory" and "(L1073)" in won["state"]["verdict"]["reason"]
    draw_owed(client, sid)
    assert end(client, sid, "victory")["next_quest"] is None  # the Tengu's defeat completes the story (L1073)


def test_achievements_the_log_can_check_are_checked(client):
    """L822 "Heroes do not use any energy tokens"; L893 "Defeat both Yoroi on the same turn"."""
    cid = create_campaign(client, {"story": "shake-them-skeleton-bones"})["id"]
    sid = start(client, cid, S1)
    defeat(client, sid, "hone-bushi", 12)
    draw_owed(client, sid)
    win_scene(client, sid)
    sid = start(client, cid, S2)
    act(client, sid, {"type": "draw-energy", "hero": "ryo", "spheres": 2})
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "moui", "actions": 1, "energy": 1})
    defeat(client, sid, "furu-utsubo", 15)
    draw_owed(client, sid)
    _refused(client, sid, {"type": "end-scene", "outcome": "victory", "achievements": ["no-energy-used"]}, "the heroes spent 1 energy")

    cid = create_campaign(client, {"story": "the-true-culprits"})["id"]
    sid = start(client, cid, "the-true-culprits-1")
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "akatsume-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 2}, "defense_faces": {"blue": []}}]})
    clear(client, sid)
    win_scene(client, sid)
    sid = start(client, cid, "the-true-culprits-2")
    spawn(client, sid, {"yoroi": 2})
    strike(client, sid, "ryo", ["yoroi"])
    turns(client, sid, 2)
    strike(client, sid, "ryo", ["yoroi"])
    refused = _refused(client, sid, {"type": "end-scene", "outcome": "victory", "achievements": ["both-yoroi-same-turn"]}, "defeated on one turn")
    assert "2: Yoroi: 1; 4: Yoroi: 1" in refused["detail"]
    act(client, sid, {"type": "end-scene", "outcome": "victory"})  # the victory itself stands: two Yoroi (L892)


def test_both_yoroi_on_one_turn_earn_the_achievement(client):
    cid = create_campaign(client, {"story": "the-true-culprits"})["id"]
    sid = start(client, cid, "the-true-culprits-1")
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "akatsume-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 2}, "defense_faces": {"blue": []}}]})
    clear(client, sid)
    win_scene(client, sid)
    sid = start(client, cid, "the-true-culprits-2")
    spawn(client, sid, {"yoroi": 2})
    strike(client, sid, "ryo", ["yoroi", "yoroi"])
    won = act(client, sid, {"type": "end-scene", "outcome": "victory", "achievements": ["both-yoroi-same-turn"]})
    assert won["state"]["game"]["achievements"] == ["both-yoroi-same-turn"]
