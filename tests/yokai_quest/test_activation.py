"""A hero's activation through the API on SQLite and PostgreSQL: two actions and one basic movement, one hero at a
time, each hero once a Hero phase, action costs where the text gives them and stated by the table where the cards lost
them, quick reactions at any time; and scenes set up under 1.1.0, which kept no activations, playing on as before.

L398 "Each hero has a basic movement of up to three squares and may take up to two actions; those may be performed in
any order, but each hero's activation must be completed before a new hero is activated. Heroes can use their actions
to perform a run, a basic attack, use an ability or use an item."
"""

from __future__ import annotations

from tests.kit.yokai_quest import (
    HIT,
    MISS,
    act,
    create_campaign,
    end,
    finish_hero_phase,
    game,
    refused_saying as _refused,
    spawn,
    start,
    strike,
    verified,
    yokai_phase,
)
from tracker import rulesets

S1 = "shake-them-skeleton-bones-1"
ONE = {"attack_faces": HIT, "defense_faces": MISS}


def _scene(client):
    return start(client, create_campaign(client)["id"], S1)


def _acted(answer):
    return [e["payload"]["change"] for e in answer["events"] if e["type"] == "HeroActed"]


def test_the_published_rules_give_the_activation_and_the_costs_the_text_states(client):
    activation = client.get("/rulesets/yokai-quest").json["rules"]["hero_rules"]["activation"]
    assert (activation["actions"], activation["basic_movements"], activation["basic_movement_squares"]) == (2, 1, 3)
    costs = activation["action_costs"]
    assert (costs["run"]["actions"], costs["run"]["source"]) == (1, "L404")
    assert costs["basic-attack"]["actions"] == 1 and costs["basic-attack"]["targets"] == 1
    assert costs["ability"]["actions"] is None and costs["item"]["actions"] is None  # printed on the cards, lost (L416)
    unknowns = client.get("/rulesets/yokai-quest").json["rules"]["unknowns"]
    assert "L416" in unknowns["hero_rules.activation.action_costs.ability.actions"]
    schema = next(a for a in client.get("/rulesets/yokai-quest").json["actions"] if a["type"] == "use-ability")["schema"]
    assert schema["properties"]["actions"]["maximum"] == 2 and "L423" in schema["properties"]["actions"]["description"]


def test_two_actions_and_one_basic_movement_per_activation(client):
    """L398 "a basic movement of up to three squares and may take up to two actions"; L404 "The hero can spend one action
    to make a movement equal to their "run" attribute"."""
    sid = _scene(client)
    spawn(client, sid, {"hone-bushi": 4})
    moved = act(client, sid, {"type": "move", "hero": "ryo", "movement": "basic"})
    assert [e["type"] for e in moved["events"]][1:3] == ["ActivationBegan", "HeroMoved"]
    _refused(client, sid, {"type": "move", "hero": "ryo", "movement": "basic"}, "ryo has made the basic movement of this activation")
    ran = act(client, sid, {"type": "move", "hero": "ryo", "movement": "run"})
    assert [(c["action"], c["actions"], c["actions_used"], c["source"]) for c in _acted(ran)] == [("run", 1, 1, "L404")]
    struck = strike(client, sid, "ryo", ["hone-bushi"])
    assert [(c["action"], c["actions_used"]) for c in _acted(struck)] == [("basic-attack", 2)]
    third = _refused(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", **ONE}]}, "ryo has 0 of 2 actions left")
    assert "L398" in third["detail"] and "run and basic attack" in third["detail"]
    _refused(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "moui", "actions": 1}, "ryo has 0 of 2 actions left")
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "suchu-ryouku", "actions": 0})  # a quick reaction (L423)
    act(client, sid, {"type": "end-activation", "hero": "ryo"})
    # Ami's activation is her own: two actions and a basic movement; waiting at the entrance, she enters first (L214).
    act(client, sid, {"type": "move", "hero": "ami", "movement": "basic"})
    act(client, sid, {"type": "use-ability", "hero": "ami", "ability": "soukatsui", "actions": 2})
    act(client, sid, {"type": "attack", "attacker": "ami", "ability": "soukatsui", "targets": [{"defender": "hone-bushi", **ONE}] * 3})
    _refused(client, sid, {"type": "move", "hero": "ami", "movement": "run"}, "ami has 0 of 2 actions left")
    assert game(client, sid)["activation"] == {"hero": "ami", "actions_used": 2, "taken": ["soukatsui"], "basic_movement": True}


def test_one_hero_at_a_time_each_once_a_hero_phase_and_a_new_turn_resets(client):
    """L398 "each hero's activation must be completed before a new hero is activated"; L158 "the players decide the order
    in which the heroes activate"; L781 "the heroes are activated one by one"."""
    sid = _scene(client)
    spawn(client, sid, {"hone-bushi": 3})
    strike(client, sid, "ryo", ["hone-bushi"])
    refused = _refused(client, sid, {"type": "attack", "attacker": "ami", "targets": [{"defender": "hone-bushi", **ONE}]}, "ryo's activation is under way")
    assert '"end-activation", "hero": "ryo"' in refused["detail"]
    _refused(client, sid, {"type": "end-activation", "hero": "ami"}, "ryo's activation is under way")
    _refused(client, sid, {"type": "begin-yokai-phase"}, "ryo's activation is under way")
    ended = act(client, sid, {"type": "end-activation", "hero": "ryo"})
    assert ended["state"]["game"]["activation"] is None and ended["state"]["game"]["activated"] == ["ryo"]
    again = _refused(client, sid, {"type": "move", "hero": "ryo", "movement": "basic"}, "ryo has activated this turn")
    assert "Still to activate: Ami" in again["detail"]
    _refused(client, sid, {"type": "end-activation", "hero": "ryo"}, "ryo has activated this turn")
    waiting = _refused(client, sid, {"type": "begin-yokai-phase", "coins": {"red-blue": "red"}}, "ami has not activated this turn")
    assert waiting["errors"] == {"heroes": ["Ami"]}  # in the game's words, as the detail says it
    renounced = act(client, sid, {"type": "end-activation", "hero": "ami"})  # she renounces everything (L400)
    assert [e["type"] for e in renounced["events"]][1:3] == ["ActivationBegan", "ActivationEnded"]
    act(client, sid, {"type": "begin-yokai-phase"})
    _refused(client, sid, {"type": "attack", "attacker": "ami", "targets": [{"defender": "hone-bushi", **ONE}]}, "it belongs to the Hero phase")
    _refused(client, sid, {"type": "use-ability", "hero": "ami", "ability": "chiyute", "actions": 1, "heal": {"ryo": 1}}, "it belongs to the Hero phase")
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "suchu-ryouku", "actions": 0})  # a quick reaction, any time (L423)
    while left := game(client, sid)["appearances_left"]:
        act(client, sid, {"type": "draw-appearance", "point": left[0]})
        act(client, sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": {}})
    turned = act(client, sid, {"type": "end-turn"})["state"]
    assert turned["turn"] == 3 and turned["game"]["activated"] == [] and turned["game"]["used_this_turn"] == {}
    two = strike(client, sid, "ami", ["hone-bushi"])  # a new turn: Ami first this time, then Ryo again
    assert [(c["hero"], c["actions_used"]) for c in _acted(two)] == [("ami", 1)]
    act(client, sid, {"type": "end-activation", "hero": "ami"})
    assert [(c["hero"], c["actions_used"]) for c in _acted(strike(client, sid, "ryo", ["hone-bushi"]))] == [("ryo", 1)]
    act(client, sid, {"type": "end-scene", "outcome": "failed", "reason": "the table stops"})
    end(client, sid, "defeat")
    verified(client, sid)


def test_an_ability_or_item_cost_is_stated_and_its_attack_names_it(client):
    """L412-L416 "first you must satisfy its activation cost [...] Action: One or two of the actions available"; L408 "For
    a basic attack, the hero must have a valid target"; L419 "the attacker must throw dice for each of the affected foes"."""
    sid = _scene(client)
    spawn(client, sid, {"hone-bushi": 3})
    _refused(client, sid, {"type": "attack", "attacker": "hone-bushi", "item": "Hinote", "targets": [{"defender": "ryo", **ONE}]}, "Only a hero's attack names the item")
    missing = _refused(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "senpuu"}, "Say how many actions Senpuu costs")
    assert missing["errors"] == {"actions": ["Missing: the card's action cost is not in the rules data."]}
    several = _refused(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", **ONE}] * 2}, "A basic attack has one target")
    assert "L408" in several["detail"]
    unused = _refused(client, sid, {"type": "attack", "attacker": "ryo", "ability": "senpuu", "targets": [{"defender": "hone-bushi", **ONE}] * 2}, "ryo has not used senpuu this turn")
    assert unused["errors"] == {"ability": ["Not used this turn: senpuu"]}
    used = act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "senpuu", "actions": 2, "energy": 0})
    assert [(c["action"], c["name"], c["actions"], c["source"]) for c in _acted(used)] == [("ability", "senpuu", 2, "L412-L416")]
    swept = act(client, sid, {"type": "attack", "attacker": "ryo", "ability": "senpuu", "targets": [{"defender": "hone-bushi", **ONE}] * 3})
    assert _acted(swept) == [] and swept["state"]["game"]["in_play"] == {"hone-bushi": 0}  # the ability paid for it


def test_a_hero_defeated_in_their_activation_ends_it(client):
    """L176 "If a hero's health tokens reserve is empty [...] their miniature is removed from the game board"."""
    sid = _scene(client)
    spawn(client, sid, {"hone-bushi": 1})
    act(client, sid, {"type": "move", "hero": "ryo", "movement": "basic"})
    act(client, sid, {"type": "lose-tokens", "hero": "ryo", "health": 6, "source": "Extreme heat!"})
    state = game(client, sid)
    assert state["heroes"]["ryo"]["defeated"] and state["activation"] is None and state["activated"] == ["ryo"]
    strike(client, sid, "ami", ["hone-bushi"])  # the next hero activates
    act(client, sid, {"type": "end-activation", "hero": "ami"})
    assert act(client, sid, {"type": "begin-yokai-phase"})["state"]["game"]["phase"] == "yokai"


PIN_1_1_0 = {"id": "yokai-quest", "version": "1.1.0", "hash": "sha256:fc4499f2e10d4a39ced9082b0327f8686f0612ac6963f67775625f4fb9625613"}


def test_a_scene_set_up_under_1_1_0_plays_on_and_verifies_as_it_was_played(client, monkeypatch):
    """1.1.0 kept no activations: its data and published contract are archived (versions/yokai-quest/1.1.0*.json), and a
    scene set up under it has no activation in its state, so today's resolvers re-derive it as it was played."""
    rulesets.archived.cache_clear()
    old = rulesets.resolve(PIN_1_1_0)
    assert old is not None and old.version == "1.1.0" and old.hash == PIN_1_1_0["hash"]
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, "yokai-quest": old})  # a server from before 1.2.0
    cid = create_campaign(client)["id"]
    sid = start(client, cid, S1)
    assert "activation" not in game(client, sid)
    yokai_phase(client, sid, {"hone-bushi": 8})
    for _ in range(3):  # 1.1.0 counted no actions: three attacks, several targets, no activation
        act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", **ONE}] * 2})
    act(client, sid, {"type": "use-ability", "hero": "ryo", "ability": "moui"})
    monkeypatch.undo()  # today's server: the code's rules are 1.4.0
    rulesets.archived.cache_clear()
    refused = act(client, sid, {"type": "move", "hero": "ryo", "movement": "basic"}, status=422)
    assert "does not track the heroes' movements" in refused["title"]
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", **ONE}] * 2})
    finish_hero_phase(client, sid)  # end-activation as 1.1.0 knew it: tokens off, no activation kept
    act(client, sid, {"type": "end-scene", "outcome": "failed", "reason": "the table stops"})
    end(client, sid, "defeat")
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified", report["first_mismatch"]
    assert report["ruleset_used"] == PIN_1_1_0 and report["ruleset_in_code"]["version"] == "1.5.0"  # 1.3.0: the correct action; 1.4.0: L156, L214, L586; 1.5.0: L1082
