"""Three rules of a Yōkai Quest turn the tracker enforces since 1.4.0, through the REST API on SQLite and PostgreSQL:
one energy card per hero, drawn first in the Hero phase (L156); a hero waiting at the entrance only enters, with the
basic movement (L214); the yōkai act from the highest initiative down (L586, L588). Scenes set up under 1.3.0 play on
as they began."""

from __future__ import annotations

from tests.kit.yokai_quest import (
    S1,
    act,
    begin_yokai_phase,
    create_campaign,
    end,
    finish_hero_phase,
    game,
    refused as _refused,
    spawn,
    start,
    yokai_phase,
)
from tracker import rulesets

MISS = {"attack_faces": {"red": ["blank"]}, "defense_faces": {"blue": []}}
HIT = {"attack_faces": {"red": ["katana"]}, "defense_faces": {"blue": []}}


def test_one_energy_card_per_hero_drawn_first_in_the_hero_phase(client):
    """L156 "First, all the heroes replenish energy. Each player takes a card of the Energy deck [...]"; L158 "Then the
    players decide the order in which the heroes activate"; L780 "Each hero draws a card from the energy deck"."""
    sid = start(client, create_campaign(client)["id"], S1)
    act(client, sid, {"type": "draw-energy", "hero": "ryo", "spheres": 2})
    twice = _refused(client, sid, {"type": "draw-energy", "hero": "ryo", "spheres": 3}, "ryo has drawn this Hero phase's energy card")
    assert "L156" in twice["detail"] and game(client, sid)["heroes"]["ryo"]["energy"] == 2
    act(client, sid, {"type": "move", "hero": "ryo", "movement": "basic"})  # Ryo's activation begins
    late = _refused(client, sid, {"type": "draw-energy", "hero": "ami", "spheres": 1}, "The heroes' activations have begun")
    assert "L156-L158" in late["detail"]
    begin_yokai_phase(client, sid)
    _refused(client, sid, {"type": "draw-energy", "hero": "ami", "spheres": 1}, "Energy cards are drawn in the Hero phase")
    yokai_phase(client, sid)  # turn 2: a new Hero phase, a card each again
    act(client, sid, {"type": "draw-energy", "hero": "ryo", "spheres": 1})
    act(client, sid, {"type": "draw-energy", "hero": "ami", "spheres": 3})
    state = game(client, sid)
    assert (state["heroes"]["ryo"]["energy"], state["heroes"]["ami"]["energy"]) == (3, 3) and state["energy_drawn"] == ["ryo", "ami"]


def test_a_hero_waiting_at_the_entrance_only_enters_with_the_basic_movement(client):
    """L214 "Heroes start the scene at entrance points [...] While waiting, they can perform no action except those that
    allow them to enter the game. [...] heroes are only allowed to make a basic movement (up to three squares) when
    entering the scene"."""
    sid = start(client, create_campaign(client)["id"], S1)
    spawn(client, sid, {"hone-bushi": 2})  # turn 2: nobody has entered yet
    assert game(client, sid)["at_entrance"] == ["ryo", "ami"]
    attack = {"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", **HIT}]}
    refused = _refused(client, sid, attack, "ryo waits at the entrance point: only a basic movement enters the board")
    assert "L214" in refused["detail"] and '"movement": "basic"' in refused["detail"]
    _refused(client, sid, {"type": "move", "hero": "ryo", "movement": "run"}, "ryo waits at the entrance point")
    _refused(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "suchu-ryouku", "actions": 0}, "ryo waits at the entrance point")
    entered = act(client, sid, {"type": "move", "hero": "ryo", "movement": "basic"})
    moved = next(e for e in entered["events"] if e["type"] == "HeroMoved")["payload"]["change"]
    assert moved["entered"] is True and moved["source"] == "L214"
    assert entered["state"]["game"]["at_entrance"] == ["ami"]
    struck = act(client, sid, attack)  # on the board: its two actions follow (hero_rules.entering.readings.after_entering)
    assert any(e["type"] == "YokaiDefeated" for e in struck["events"])
    act(client, sid, {"type": "end-activation", "hero": "ryo"})
    _refused(client, sid, {"type": "use-ability", "hero": "ami", "ability": "chiyute", "actions": 1}, "ami waits at the entrance point")


def test_the_yokai_act_from_the_highest_initiative_down(client):
    """L586 "The yōkai always activate from highest to lowest initiative"; L588 "After the group with the highest
    initiative value has acted, the group with the next highest acts, and so on until all yōkai have acted"."""
    sid = start(client, create_campaign(client)["id"], S1)
    spawn(client, sid, {"yurei": 1, "hone-bushi": 2})  # Yurei 6, Hone Bushi 2 (L643, L628)
    begin_yokai_phase(client, sid)
    first = act(client, sid, {"type": "attack", "attacker": "hone-bushi", "targets": [{"defender": "ryo", **MISS}]})
    assert next(e for e in first["events"] if e["type"] == "AttackResolved")["payload"]["change"]["initiative"] == 2
    act(client, sid, {"type": "attack", "attacker": "hone-bushi", "targets": [{"defender": "ami", **MISS}]})  # its group goes on
    late = _refused(client, sid, {"type": "attack", "attacker": "yurei", "targets": [{"defender": "ryo", **MISS}]}, "yurei (initiative 6) has had its turn")
    assert "L586" in late["detail"] and "L588" in late["detail"]
    yokai_phase(client, sid)  # the next phase starts from the top again
    finish_hero_phase(client, sid)
    begin_yokai_phase(client, sid)
    act(client, sid, {"type": "attack", "attacker": "yurei", "targets": [{"defender": "ryo", **MISS}]})
    act(client, sid, {"type": "attack", "attacker": "hone-bushi", "targets": [{"defender": "ryo", **MISS}]})
    assert game(client, sid)["initiative_acted"] == 2


PIN_1_3_0 = {"id": "yokai-quest", "version": "1.3.0", "hash": "sha256:e2efb3694f57933bd021da2e7d9a21dcd8af93215312db08ce109038ce708d25"}


def test_a_scene_set_up_under_1_3_0_plays_on_and_verifies_as_it_was_played(client, monkeypatch):
    """1.3.0 took energy cards, the entrance and the yōkai's order on trust: its data and published contract are archived
    (versions/yokai-quest/1.3.0*.json), and a scene set up under it keeps none of the three in its state."""
    rulesets.archived.cache_clear()
    old = rulesets.resolve(PIN_1_3_0)
    assert old is not None and old.version == "1.3.0" and old.hash == PIN_1_3_0["hash"]
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, "yokai-quest": old})  # a server from before 1.4.0
    sid = start(client, create_campaign(client)["id"], S1)
    assert not {"energy_drawn", "at_entrance", "initiative_acted"} & set(game(client, sid))
    spawn(client, sid, {"yurei": 1, "hone-bushi": 2})
    monkeypatch.undo()  # today's server: the code's rules are 1.4.0
    rulesets.archived.cache_clear()
    for spheres in (1, 2):  # two cards in one Hero phase, as 1.3.0 accepted them
        client_post = client.post(f"/sessions/{sid}/actions", json={"type": "draw-energy", "hero": "ryo", "spheres": spheres})
        assert client_post.status_code == 201, client_post.json
    struck = client.post(f"/sessions/{sid}/actions", json={"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", **HIT}]})
    assert struck.status_code == 201, struck.json  # no entering first
    begin_yokai_phase(client, sid)
    act(client, sid, {"type": "attack", "attacker": "hone-bushi", "targets": [{"defender": "ryo", **MISS}]})
    act(client, sid, {"type": "attack", "attacker": "yurei", "targets": [{"defender": "ryo", **MISS}]})  # no order kept
    act(client, sid, {"type": "end-scene", "outcome": "failed", "reason": "the table stops"})
    end(client, sid, "defeat")
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified", report["first_mismatch"]
    assert report["ruleset_used"] == PIN_1_3_0 and report["ruleset_in_code"]["version"] == "1.5.0"
