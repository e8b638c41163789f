"""Core Journey rules the quests lean on, through the REST API on SQLite and PostgreSQL (line numbers: the seed's):
repeated Karma trades, a reported Demon Die, Red Line damage, special Demon cards at Maintenance, the promotion
tree, and the four Pilgrims that always play."""

from __future__ import annotations

import json

from tests.test_journey_play import COMPONENTS, DEMON_DECK, ORDER, PILGRIMS, _act, _campaign, _refused, _start
from tracker.rulesets.journey import state as journey_state


def _kinds(result):
    return [e["payload"]["change"]["kind"] for e in result["events"] if "change" in e["payload"]]


def _playing(client, quest="q1-meeting", components=COMPONENTS, setup=None):
    sid, _ = _start(client, _campaign(client, components=components), quest, setup)
    _act(client, sid, type="maintenance")
    _act(client, sid, type="activate-pilgrim", hero="monkey-king")
    return sid


def test_a_wheel_at_20_trades_twice_as_the_data_says(client):
    """L550: mandatory trades are made when the level is met or exceeded; L553: 'each time'."""
    document = client.get("/rulesets/journey").json
    assert document["rules"]["karma"]["repeated_trades_at_20_or_more"] is True
    assert "karma.repeated_trades_at_20_or_more" not in document["rules"]["unknowns"]
    sid = _playing(client)
    hand = client.get(f"/sessions/{sid}").json["game"]["heroes"]["monkey-king"]["skills"]
    gained = _act(client, sid, type="play-card", hero="monkey-king", deck="skill-monkey-king", card=hand[0]["name"], keep=True, effects={"good_karma": 20})
    trades = [e["payload"]["change"] for e in gained["events"] if e["type"] == "KarmaTraded"]
    assert [(t["trade"], t["before"], t["after"]) for t in trades] == [("permanent-skill", 20, 10), ("permanent-skill", 10, 0)]


def test_a_reported_demon_die_is_recorded_and_used_for_a_demon_whose_sheet_was_lost(client):
    comps = {**COMPONENTS, "tables": {**COMPONENTS["tables"], "demon-dice": {"berrok": {"2": {"damage": 2}}}}}
    sid, _ = _start(client, _campaign(client, components=comps), "q1-meeting")
    _act(client, sid, type="report-health", hero="monk-sha", hp=10)
    hit = _act(client, sid, type="demon-attack", demon="berrok-1", target="monk-sha", faces={"attack": ["1"], "demon": ["2"], "defense": ["X", "X"]})
    rolled = [json.dumps(e["payload"]) for e in hit["events"] if e["type"] == "DiceRolled"]
    assert len(rolled) == 3 and any('"demon": ["2"]' in r for r in rolled), rolled
    attack = next(e["payload"]["change"] for e in hit["events"] if e["type"] == "AttackResolved")
    assert attack["demon_die"] == {"damage": 2} and attack["attack_total"] == 3
    assert hit["state"]["game"]["heroes"]["monk-sha"]["hp"] == 7
    # A face the component data does not give is asked for, not dropped.
    problem = _refused(client, sid, type="demon-attack", demon="berrok-2", target="monk-sha", faces={"attack": ["1"], "demon": ["3"], "defense": ["X"]})
    assert "Demon Die for face 3 is unknown" in problem["title"]


def test_red_line_squares_damage_pilgrims_and_need_the_health_to_enter(client):
    sid = _playing(client)
    _act(client, sid, type="report-health", hero="monkey-king", hp=2)
    hurt = _act(client, sid, type="red-line-damage", hero="monkey-king", squares=1)
    change = next(e["payload"]["change"] for e in hurt["events"] if e["type"] == "DamageTaken")
    assert (change["amount"], change["hp_after"], change["cause"]) == (1, 1, "red-line (entered)")  # L571
    problem = _refused(client, sid, type="red-line-damage", hero="monkey-king", squares=2)
    assert "cannot enter 2 Red Line" in problem["title"] and "L566" in problem["detail"]
    down = _act(client, sid, type="red-line-damage", hero="monkey-king", squares=1, how="stationary")
    assert down["state"]["game"]["heroes"]["monkey-king"]["status"] == "face-down"  # 0 HP: Unconscious (L557)


def _q7(client):
    comps = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}}
    sid, game = _start(client, _campaign(client, components=comps), "q7-demon-army", {"karma_upgrades": {p: ["good"] for p in PILGRIMS}})
    gates = sorted(game["gates"])
    _act(client, sid, type="maintenance")
    _act(client, sid, type="demon-phase")
    return sid, gates


def test_special_demon_cards_are_discarded_at_the_next_maintenance_unless_they_last(client):
    """L355-L358: special Demon cards stay face up until the next Maintenance Phase unless they state a duration."""
    sid, gates = _q7(client)
    spawned = _act(client, sid, type="spawn-demons", gates=gates, drawn={"demon": ["Spawn Demon Lord", "Archers 1", "Bull General", "Archers 2"]})
    assert spawned["state"]["game"]["special_cards"] == ["Spawn Demon Lord"]
    _act(client, sid, type="end-of-turn")
    kept = _act(client, sid, type="maintenance", special_cards_lasting=["Spawn Demon Lord"])
    assert kept["state"]["game"]["special_cards"] == ["Spawn Demon Lord"] and "special-demon-cards-discarded" not in _kinds(kept)
    for gate in gates[1:]:
        _act(client, sid, type="gate-activation", gate=gate, state="inactive", reason="test: one Gate left to draw for")
    _act(client, sid, type="demon-phase")
    _act(client, sid, type="spawn-demons", gates=gates[:1], drawn={"demon": ["Bull General"]})
    _act(client, sid, type="end-of-turn")
    gone = _act(client, sid, type="maintenance")
    assert gone["state"]["game"]["special_cards"] == [] and "Spawn Demon Lord" in gone["state"]["decks"]["demon"]["discard_pile"]


def test_a_supplied_promotion_tree_promotes_instead_of_raging(client):
    """L604-L606: out of miniatures, a Demon is promoted along the tree; only with nothing to promote, Demon Rage."""
    comps = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}, "tables": {**COMPONENTS["tables"], "promotion-tree": {"berrok": ["bharhaz"]}}}
    sid, _ = _start(client, _campaign(client, components=comps), "q1-meeting")
    _act(client, sid, type="maintenance")
    _act(client, sid, type="demon-phase")
    warband = _act(client, sid, type="spawn-demons", gates=["gate-1"], drawn={"demon": ["Warband"]})  # 14 Berrok, 13 miniatures left
    promoted = [e["payload"]["change"] for e in warband["events"] if e["type"] == "DemonSpawned" and e["payload"]["change"]["promoted_from"]]
    assert [(p["character"], p["promoted_from"]) for p in promoted] == [("bharhaz", "berrok")]
    assert warband["state"]["game"]["rage"] is False and list(warband["state"]["game"]["demons"].values()).count("berrok") == 15


def test_all_four_pilgrims_play_whatever_the_party(client):
    """L73: 'all 4 Pilgrims are always in play'; with fewer Players each controls more than one (L216-L220)."""
    document = client.get("/rulesets/journey").json
    assert document["rules"]["pilgrim_rules"]["all_four_play"]["line"] == "L73, L216-L220"
    cid = client.post("/campaigns", json={"ruleset": "journey", "name": "Two players", "party": ["tripitaka", "monkey-king"], "components": COMPONENTS}).json["id"]
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": ORDER}})
    assert started.status_code == 201 and sorted(started.json["state"]["game"]["heroes"]) == sorted(PILGRIMS)
    set_up = next(e for e in client.get(f"/sessions/{started.json['id']}/events?limit=5").json["events"] if e["type"] == "QuestSetUp")
    assert "L73" in set_up["payload"]["change"]["pilgrims_in_play"]


def test_a_promotion_the_rulebook_lost_is_said_by_the_table_for_that_spawn(client):
    """L604-L606: the promotion tree was a figure lost from the rulebook. With no tree supplied, the spawn that runs
    out of miniatures is refused naming both ways on (supply the tree, or say how it reads for this spawn); said,
    the promotion is recorded with the action as the table stated it."""
    comps = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}}
    assert "promotion-tree" not in comps["tables"]
    sid, _ = _start(client, _campaign(client, components=comps), "q1-meeting")
    _act(client, sid, type="maintenance")
    _act(client, sid, type="demon-phase")
    before = client.get(f"/sessions/{sid}/events?limit=1000").json["events"]
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "spawn-demons", "gates": ["gate-1"], "drawn": {"demon": ["Warband"]}})
    assert refused.status_code == 422 and "promotion tree is unknown" in refused.json["title"]
    assert "promotion_said.berrok" in refused.json["errors"] and "components.tables.promotion-tree.berrok" in refused.json["errors"]
    assert client.get(f"/sessions/{sid}/events?limit=1000").json["events"] == before
    said = _act(client, sid, type="spawn-demons", gates=["gate-1"], drawn={"demon": ["Warband"]}, promotion_said={"berrok": ["bharhaz"]})
    promoted = [e["payload"]["change"] for e in said["events"] if e["type"] == "DemonSpawned" and e["payload"]["change"]["promoted_from"]]
    assert [(p["character"], p["promoted_from"]) for p in promoted] == [("bharhaz", "berrok")]
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "pending"  # every event follows from the ones before


def test_a_state_set_up_as_1_0_0_recorded_it_takes_every_change_later_code_makes():
    """A quest set up under rules data 1.0.0 keeps 1.0.0's state (no banished Lords, no Turn Tokens, no replaced
    Villagers: setup.PUBLISHED_1_0_0), while today's resolvers may still record those changes for its session:
    the fold starts each part as it is first needed instead of failing (a KeyError was a 500)."""
    set_up = {"kind": "quest-set-up", "quest": "q1-meeting", "mode": "individual", "initiative": ["tripitaka"],
              "demons": {"berrok-1": "berrok"}, "gates": {"gate-1": "active"}}
    game = journey_state.fold({}, set_up)
    assert not {"banished", "villager_turn_tokens", "gate_turn_tokens", "villagers_replaced"} & set(game)
    for change in (
        {"kind": "demon-lord-banished", "character": "kogaiji", "turn_tokens": 2},
        {"kind": "demon-lord-turn-token-removed", "character": "kogaiji", "left": 1},
        {"kind": "villager-turn-token-removed", "villager": "villager-1", "left": 4},
        {"kind": "gate-turn-token-removed", "gate": "gate-1", "left": 1},
        {"kind": "villager-token-replaced", "villager": "villager-1"},
    ):
        game = journey_state.fold(game, change)
    assert game["banished"] == {"kogaiji": 1} and game["villager_turn_tokens"] == {"villager-1": 4}
    assert game["gate_turn_tokens"] == {"gate-1": 1} and game["villagers_replaced"] == ["villager-1"]
    assert journey_state.fold(game, {"kind": "demon-lord-returned", "character": "kogaiji"})["banished"] == {}
