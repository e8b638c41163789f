"""The Tengu's "Energy drain!" (L1082): "The Tengu attacks the hero with most energy tokens, rolling [attack dice icon].
Blows from this ability only remove energy tokens from the hero." Its text and target are in the rules data again
(rules data 1.5.0), and an attack naming it must strike the hero holding the most energy tokens (with a tie, one of the
tied heroes: a reading, the text is silent) and remove energy only. Through the API on SQLite and PostgreSQL."""

from __future__ import annotations

from tests.kit.yokai_quest import act, begin_yokai_phase, clear, create_campaign, game, refused, start, win_scene

BLOWS = {"attack_faces": {"red": ["katana", "katana"]}, "defense_faces": {"blue": []}}


def _ritual(client) -> str:
    """The Final Destination's second scene, where the Tengu conducts the ritual (L1059-L1085)."""
    cid = create_campaign(client, {"story": "final-destination"})["id"]
    sid = start(client, cid, "final-destination-1")
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "akatsume-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 5}, "defense_faces": {"blue": []}}]})
    clear(client, sid)
    win_scene(client, sid, achievements=["champion-before-turn-12"])
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "final-destination-2", "setup": {"objectives": {"pillar-of-energy": 2}}})
    assert started.status_code == 201, started.json
    return started.json["id"]


def _drain(defender, **more):
    return {"type": "attack", "attacker": "tengu", "source": "Energy drain!", "targets": [{"defender": defender, **BLOWS}], **more}


def test_energy_drain_s_text_and_target_are_in_the_rules_data(client):
    doc = client.get("/rulesets/yokai-quest").json
    chief = next(q for q in doc["quests"] if q["id"] == "final-destination-2")["chief"]
    assert "Energy drain!: attacks the hero with most energy tokens; blows from this ability only remove energy tokens from the hero." in chief["abilities"]
    [drain] = chief["attacks"]
    assert (drain["name"], drain["target"], drain["blows_remove"], drain["source"]) == ("Energy drain!", "most-energy", "energy", "L1082")
    assert "table chooses" in drain["reading"]


def test_energy_drain_strikes_the_hero_with_the_most_energy_and_removes_energy_only(client):
    sid = _ritual(client)
    act(client, sid, {"type": "draw-energy", "hero": "ryo", "spheres": 3})
    act(client, sid, {"type": "draw-energy", "hero": "ami", "spheres": 1})
    heroes = game(client, sid)["heroes"]
    most, fewer = sorted(("ryo", "ami"), key=lambda h: -heroes[h]["energy"])
    assert heroes[most]["energy"] > heroes[fewer]["energy"]
    begin_yokai_phase(client, sid)
    names = {"ryo": "Ryo", "ami": "Ami"}
    wrong = refused(client, sid, _drain(fewer, blows_remove="energy"), f"Energy drain! attacks the hero with the most energy tokens: {names[most]}")
    assert "L1082" in wrong["detail"] and wrong["example"]["targets"][0]["defender"] == most
    both = refused(client, sid, {**_drain(most, blows_remove="energy"), "targets": [{"defender": most, **BLOWS}, {"defender": fewer, **BLOWS}]}, "Energy drain! attacks")
    assert both["errors"]["targets"]
    health = refused(client, sid, _drain(most), "Blows from Tengu's Energy drain! remove energy tokens only")
    assert health["example"]["blows_remove"] == "energy"
    before = game(client, sid)["heroes"][most]
    act(client, sid, _drain(most, blows_remove="energy"))
    after = game(client, sid)["heroes"][most]
    assert after["energy"] == max(0, before["energy"] - 2) and after["health"] == before["health"]
    # the Tengu's other attacks keep their own targets: Fire blast! names none the log can check (the closest hero)
    act(client, sid, {"type": "attack", "attacker": "tengu", "source": "Fire blast!", "targets": [{"defender": fewer, **BLOWS}]})


def test_with_a_tie_the_table_chooses_among_the_tied_heroes(client):
    sid = _ritual(client)
    for hero in ("ryo", "ami"):
        act(client, sid, {"type": "draw-energy", "hero": hero, "spheres": 2})
    heroes = game(client, sid)["heroes"]
    assert heroes["ryo"]["energy"] == heroes["ami"]["energy"] > 0  # the scene starts them alike
    begin_yokai_phase(client, sid)
    act(client, sid, _drain("ami", blows_remove="energy", source="energy drain"))  # either tied hero; the ability named in any case
    assert game(client, sid)["heroes"]["ami"]["energy"] < heroes["ami"]["energy"]
