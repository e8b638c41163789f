"""Scene rules of Yōkai Quest that were wrong or missing, through the API on SQLite and PostgreSQL: scenario attacks
with no yōkai behind them, chiefs attacking only from the board, the Tengu's heal, hero Health stated at set-up, and
the facts the transcription lost declared as unknowns."""

from __future__ import annotations

from tests.kit.yokai_quest import (
    act,
    begin_yokai_phase,
    clear,
    create_campaign,
    end,
    game,
    refused_saying as _refused,
    start,
    verified,
    win_scene,
)

S1 = "shake-them-skeleton-bones-1"
BLOWS = {"attack_faces": {"red": ["katana", "katana"]}, "defense_faces": {"blue": []}}


def test_flames_rain_attacks_each_hero_with_no_yokai_attacker(client):
    """L936 "Flames rain through the air! Each hero receives an attack with [attack dice icon] at the end of every Yōkai phase.\""""
    cid = create_campaign(client, {"story": "rain-of-flames"})["id"]
    sid = start(client, cid, "rain-of-flames-1")
    rules = client.get("/rulesets/yokai-quest").json
    rain = next(q for q in rules["quests"] if q["id"] == "rain-of-flames-1")["scenario_attacks"]
    assert [(a["id"], a["source"]) for a in rain] == [("flames-rain", "L936")]
    refused = _refused(client, sid, {"type": "attack", "attacker": "flames-rain", "targets": [{"defender": "ryo", **BLOWS}]}, "flames-rain attacks in the Yōkai phase")
    assert "L936" in refused["detail"]
    begin_yokai_phase(client, sid)  # "at the end of every Yōkai phase"
    answer = act(client, sid, {"type": "attack", "attacker": "flames-rain", "source": "end of the Yōkai phase", "targets": [{"defender": h, **BLOWS} for h in ("ryo", "ami")]})
    resolved = [e["payload"]["change"] for e in answer["events"] if e["type"] == "AttackResolved"]
    assert [(r["attacker"], r["defender"], r["blows"]) for r in resolved] == [("flames-rain", "ryo", 2), ("flames-rain", "ami", 2)]
    heroes = game(client, sid)["heroes"]
    assert (heroes["ryo"]["health"], heroes["ami"]["health"]) == (4, 3)

    other = start(client, create_campaign(client)["id"], S1)
    _refused(client, other, {"type": "attack", "attacker": "flames-rain", "targets": [{"defender": "ryo", **BLOWS}]}, "scene attacks: none")


def test_a_chief_attacks_only_from_the_board(client):
    sid = start(client, create_campaign(client)["id"], S1)
    _refused(client, sid, {"type": "attack", "attacker": "akatsume-boss", "targets": [{"defender": "ryo", **BLOWS}]}, "chiefs on the board: none")
    cid = create_campaign(client, {"story": "the-true-culprits"})["id"]
    sid = start(client, cid, "the-true-culprits-1")
    begin_yokai_phase(client, sid)
    act(client, sid, {"type": "attack", "attacker": "akatsume-dark-champion", "targets": [{"defender": "ryo", **BLOWS, "altered_state": "tangle"}]})
    assert game(client, sid)["heroes"]["ryo"]["altered_states"]["tangle"] == 1


def _to_final_showdown(client):
    cid = create_campaign(client, {"story": "final-destination"})["id"]
    sid = start(client, cid, "final-destination-1")
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "akatsume-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 5}, "defense_faces": {"blue": []}}]})
    clear(client, sid)
    win_scene(client, sid, achievements=["champion-before-turn-12"])
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "final-destination-2", "setup": {"objectives": {"pillar-of-energy": 2}}})
    sid = started.json["id"]
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "senpuu", "actions": 1})
    act(client, sid, {"type": "attack", "attacker": "ryo", "ability": "senpuu", "targets": [{"defender": f"pillar-of-energy-{n}", "attack_faces": {"red": ["katana"] * 8}, "defense_faces": {"blue": []}} for n in (1, 2)]})
    assert win_scene(client, sid, victory_condition="destroy-pillars-before-turn-15")["next_quest"] == "final-destination-3"
    return cid, start(client, cid, "final-destination-3")


def test_the_tengu_recovers_4_health_up_to_its_30(client):
    """L1109 "At the end of the movement, the Tengu recovers 4 health points.\""""
    cid, sid = _to_final_showdown(client)
    _refused(client, sid, {"type": "foe-recovered", "foe": "tengu", "ability": "fire-blast"}, "its abilities that recover health here: march-of-the-true-lord")
    _refused(client, sid, {"type": "foe-recovered", "foe": "akatsume-boss", "ability": "march-of-the-true-lord"}, "chiefs and objectives on the board: Tengu")
    full = act(client, sid, {"type": "foe-recovered", "foe": "tengu", "ability": "march-of-the-true-lord"})
    assert full["state"]["game"]["foes"]["tengu"]["health"] == 30  # already at its Health: nothing above it
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "tengu", "attack_faces": {"red": ["katana"] * 10}, "defense_faces": {"blue": []}}]})
    healed = act(client, sid, {"type": "foe-recovered", "foe": "tengu", "ability": "march-of-the-true-lord"})
    change = next(e["payload"]["change"] for e in healed["events"] if e["type"] == "FoeRecovered")
    assert (change["amount"], change["health"], change["source"]) == (4, 24, "L1109")
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "tengu", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 10}, "defense_faces": {"blue": []}}]})
    act(client, sid, {"type": "end-activation", "hero": "ryo"})  # two basic attacks: Ryo's two actions (L398)
    act(client, sid, {"type": "attack", "attacker": "ami", "targets": [{"defender": "tengu", "attack_faces": {"red": ["katana"] * 4}, "defense_faces": {"blue": []}}]})
    won = act(client, sid, {"type": "end-scene", "outcome": "victory"})
    assert won["state"]["verdict"]["outcome"] == "victory" and "(L1097)" in won["state"]["verdict"]["reason"]
    assert end(client, sid, "victory")["next_quest"] is None
    verified(client, sid)


def test_the_table_states_each_heros_health_at_set_up(client):
    """L278-L280: "Health: the hero's maximum number of health points"; the values were lost, so the table reads them off
    the control panels when the first scene starts, recorded with the set-up."""
    cid = create_campaign(client, components={})["id"]
    missing = client.post(f"/campaigns/{cid}/sessions", json={"quest": S1, "setup": {"health": {"ryo": 6}}})
    assert missing.status_code == 422 and "Health of Ami is unknown" in missing.json["title"] and '"setup": {"health"' in missing.json["detail"]
    stranger = client.post(f"/campaigns/{cid}/sessions", json={"quest": S1, "setup": {"health": {"ryo": 6, "ami": 5, "katsu": 7}}})
    assert stranger.status_code == 422 and "Katsu is not a hero of this party" in stranger.json["title"]
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": S1, "setup": {"health": {"ryo": 6, "ami": 5}}})
    assert started.status_code == 201, started.json
    heroes = started.json["state"]["game"]["heroes"]
    assert (heroes["ryo"]["max_health"], heroes["ami"]["health"], heroes["ryo"]["max_health_source"]) == (6, 5, "stated at set-up")
    sid = started.json["id"]
    setup = client.get(f"/sessions/{sid}/events?limit=5").json["events"]
    assert any(e["payload"].get("action", {}).get("setup") == {"health": {"ryo": 6, "ami": 5}} for e in setup)
    act(client, sid, {"type": "end-scene", "outcome": "failed", "reason": "the table stops"})
    end(client, sid, "defeat")
    again = start(client, cid, S1)  # the reattempt carries the stated Health on
    assert game(client, again)["heroes"]["ryo"]["max_health"] == 6

    supplied = create_campaign(client)["id"]  # Ryo's Health 6 is component data
    contradicts = client.post(f"/campaigns/{supplied}/sessions", json={"quest": S1, "setup": {"health": {"ryo": 9}}})
    assert contradicts.status_code == 422 and "Health of Ryo is 6 by the campaign's component data" in contradicts.json["title"]


def test_lost_facts_are_unknowns_and_guesses_are_marked(client):
    rules = client.get("/rulesets/yokai-quest").json
    for character in rules["characters"]:
        if character["role"] in ("yokai", "chief"):
            assert character["behaviour"] is None and "L605" in character["unknowns"]["behaviour"], character["id"]
    ritual = next(q for q in rules["quests"] if q["id"] == "final-destination-2")
    assert ritual["losing_control_areas"] is None and "L1084" in ritual["unknowns"]["losing_control_areas"]
    assert "reward" in ritual["inferred"] and "L1085" in ritual["inferred_reward"]
    document = rules["rules"]
    for path in ("hero_rules.energy_at_first_scene", "hero_rules.revival_rounding", "classes.bushi.abilities.kiri-susumu.guaranteed_katanas"):
        assert path in document["inferred"] and path in document["inferred_notes"]
    assert "L473" in document["inferred_notes"]["hero_rules.revival_rounding"]


def test_each_hero_uses_only_the_four_abilities_chosen_at_preparation(client):
    """L145 "Choose four abilities among those suitable for the hero and place them in the appropriate spaces on the
    control panel"; a hero's own four and their class's six are suitable (L303)."""
    cid = create_campaign(client)["id"]
    unsuitable = client.post(f"/campaigns/{cid}/sessions", json={"quest": S1, "setup": {"abilities": {"ryo": ["moui", "senpuu", "kiri-susumu", "kaminari"]}}})
    assert unsuitable.status_code == 422 and "Kaminari is not an ability suitable for Ryo" in unsuitable.json["title"]
    three = client.post(f"/campaigns/{cid}/sessions", json={"quest": S1, "setup": {"abilities": {"ryo": ["moui", "senpuu", "kiri-susumu"]}}})
    assert three.status_code == 422
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": S1, "setup": {"abilities": {"ryo": ["moui", "senpuu", "kiri-susumu", "koukan"]}}})
    assert started.status_code == 201, started.json
    sid = started.json["id"]
    assert game(client, sid)["heroes"]["ryo"]["abilities"] == ["moui", "senpuu", "kiri-susumu", "koukan"]
    _refused(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "inseki"}, "Inseki is not among ryo's four chosen abilities")
    _refused(client, sid, {"type": "use-ability", "hero": "ami", "ability": "chiyute"}, 'No abilities were chosen for ami: state them when the scene starts')
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "koukan", "actions": 1})
    act(client, sid, {"type": "end-scene", "outcome": "failed", "reason": "the table stops"})
    end(client, sid, "defeat")
    again = client.post(f"/campaigns/{cid}/sessions", json={"quest": S1}).json["id"]  # the reattempt keeps the four chosen
    assert game(client, again)["heroes"]["ryo"]["abilities"] == ["moui", "senpuu", "kiri-susumu", "koukan"]


def test_reload_reduced_only_on_abilities_that_are_reloading(client):
    """Suchu-Ryouku: "gaining energy and reducing the reload of his abilities" (L314); an ability named that holds no reload
    token is refused, naming those that do."""
    sid = start(client, create_campaign(client)["id"], S1)
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "moui", "actions": 1, "reload": 2})
    _refused(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "suchu-ryouku", "actions": 1, "reduce_reload": {"senpuu": 1}}, "Abilities with reload tokens: Moui: 2")
    reduced = act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "suchu-ryouku", "actions": 1, "reduce_reload": {"moui": 1}})
    assert reduced["state"]["game"]["heroes"]["ryo"]["reload"] == {"moui": 1}
