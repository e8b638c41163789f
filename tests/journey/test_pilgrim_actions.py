"""Journey rules that the play-through tests leave out, each through the REST API on SQLite and
PostgreSQL with reported dice: the Cleanse Ritual, crushing damage, green terrain, Water Wells,
doors, closing a Gate, and an Unconscious Pilgrim's last turns."""

from __future__ import annotations

from tests.kit.journey_pure import Table
from tests.kit.journey import (
    COMPONENTS,
    DEMON_DECK,
    PILGRIMS,
    Q2_COMPONENTS,
    act,
    campaign,
    refused,
    start,
    to_monkey,
    verified,
)

BERROK = COMPONENTS["characters"]["berrok"]["stats"]  # HP 1, BKR 6, GKR 2, SP 2 (test inputs)


def _types(result):
    return [e["type"] for e in result["events"]]


def _change(result, event_type):
    return next(e["payload"]["change"] for e in result["events"] if e["type"] == event_type)


def test_cleanse_ritual_at_or_above_soul_power_gives_good_karma(client):
    sid, _ = start(client, campaign(client), "q1-meeting")
    to_monkey(client, sid)
    # Monkey King's Cleanse Ritual dice were lost from the rules: dice rolled at the table need no count.
    result = act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-1", faces={"attack": ["1", "X"], "pilgrim": ["X"]},
                  outcome="cleanse", cleanse_faces=["1", "1"])
    cleansed = _change(result, "DemonCleansed")
    assert (cleansed["roll"], cleansed["soul_power"], cleansed["gkr"]) == (2, BERROK["SP"], BERROK["GKR"])
    game = result["state"]["game"]
    assert (game["heroes"]["monkey-king"]["good"], game["heroes"]["monkey-king"]["bad"]) == (2, 0)
    assert "berrok-1" not in game["demons"]
    # Rolled by the service, the number of dice is needed and Monkey King's CR is unknown.
    problem = refused(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-2", faces={"attack": ["1"], "pilgrim": ["X"]}, outcome="cleanse")
    assert "CR is unknown" in problem["title"] and "cleanse_faces" in problem["detail"]
    verified(client, sid)


def test_cleanse_ritual_below_soul_power_leaves_the_demon_fully_recovered(client):
    sid, _ = start(client, campaign(client), "q1-meeting")
    to_monkey(client, sid)
    result = act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-1", faces={"attack": ["3"], "pilgrim": ["X"]},
                  outcome="cleanse", cleanse_faces=["1", "X"])
    backfired = _change(result, "CleanseBackfired")
    assert (backfired["roll"], backfired["soul_power"]) == (1, 2)
    game = result["state"]["game"]
    assert game["demons"]["berrok-1"] == "berrok"  # still in play, unharmed (One Hit Kill: nothing to heal)
    assert (game["heroes"]["monkey-king"]["good"], game["heroes"]["monkey-king"]["bad"]) == (0, 0)
    assert "KarmaGained" not in _types(result)
    # A cleanse bonus from a card can lift the same roll to the Soul Power.
    again = act(client, sid, type="pilgrim-attack", hero="monkey-king", target="berrok-1", faces={"attack": ["3"], "pilgrim": ["X"]},
                 outcome="cleanse", cleanse_faces=["1", "X"], cleanse_bonus=1)
    assert _change(again, "DemonCleansed")["roll"] == 2 and again["state"]["game"]["heroes"]["monkey-king"]["good"] == 2
    verified(client, sid)


def test_knock_back_blocked_squares_deal_crushing_damage_that_defence_never_reduces(client):
    sid, _ = start(client, campaign(client), "q4-the-village")
    # Borrack's Demon Die 1 is Knock Back 1 (L247): the target could not be pushed 1 square.
    result = act(client, sid, type="demon-attack", demon="borrack-1", target="monk-sha",
                  faces={"attack": ["1"], "demon": ["1"], "defense": ["3", "3"]}, knock_back_blocked=1)
    resolved = _change(result, "AttackResolved")
    assert (resolved["attack_total"], resolved["defense_total"], resolved["net_damage"], resolved["crushing_damage"]) == (1, 6, 0, 1)
    damage = [e["payload"]["change"] for e in result["events"] if e["type"] == "DamageTaken"]
    assert [(d["amount"], d["cause"]) for d in damage] == [(1, "crushing")]
    assert result["state"]["game"]["heroes"]["monk-sha"]["hp"] == 9
    # Knock Back 1 cannot be blocked for 2 squares; a face without Knock Back for none at all.
    problem = refused(client, sid, type="demon-attack", demon="borrack-1", target="monk-sha",
                       faces={"attack": ["1"], "demon": ["1"], "defense": ["3"]}, knock_back_blocked=2)
    assert "Knock Back 1" in problem["title"]
    refused(client, sid, type="demon-attack", demon="borrack-1", target="monk-sha", faces={"attack": ["1"], "demon": ["X"], "defense": ["3"]}, knock_back_blocked=1)
    verified(client, sid)


def test_green_terrain_adds_1_to_the_defence(client):
    sid, _ = start(client, campaign(client), "q4-the-village")
    faces = {"attack": ["3", "1"], "demon": ["X"], "defense": ["1", "1"]}
    open_ground = act(client, sid, type="demon-attack", demon="kogaiji-1", target="cho-hakkai", faces=faces)
    assert (_change(open_ground, "AttackResolved")["defense_total"], open_ground["state"]["game"]["heroes"]["cho-hakkai"]["hp"]) == (2, 8)
    green = act(client, sid, type="demon-attack", demon="kogaiji-1", target="cho-hakkai", faces=faces, green_terrain=True)
    resolved = _change(green, "AttackResolved")
    assert (resolved["defense_total"], resolved["net_damage"]) == (3, 1)
    assert green["state"]["game"]["heroes"]["cho-hakkai"]["hp"] == 7
    verified(client, sid)


def test_recover_at_a_water_well_restores_all_health_once_per_pilgrim_per_well(client):
    # Quest 7 has two Wells (L922).
    sid, _ = start(client, campaign(client), "q7-demon-army", {"karma_upgrades": {p: ["good"] for p in PILGRIMS}})
    act(client, sid, type="report-health", hero="monkey-king", hp=3)
    to_monkey(client, sid)
    recovered = act(client, sid, type="recover", hero="monkey-king", well="well-1")
    used = _change(recovered, "WellUsed")
    assert (used["hp_before"], used["hp_after"]) == (3, 10)
    monkey = recovered["state"]["game"]["heroes"]["monkey-king"]
    assert (monkey["hp"], monkey["wells_used"], recovered["state"]["game"]["ap"]) == (10, ["well-1"], 1)
    problem = refused(client, sid, type="recover", hero="monkey-king", well="well-1")
    assert "used well-1 this quest" in problem["title"]
    unknown = refused(client, sid, type="recover", hero="monkey-king", well="well-3")  # ids are the quest's own
    assert "No well token 'well-3'" in unknown["title"] and "well-1 and well-2" in unknown["detail"]
    act(client, sid, type="recover", hero="monkey-king", well="well-2")  # another Well is another use
    act(client, sid, type="activate-pilgrim", hero="tripitaka")
    other = act(client, sid, type="recover", hero="tripitaka", well="well-1")  # each Pilgrim has their own use
    assert other["state"]["game"]["heroes"]["tripitaka"]["wells_used"] == ["well-1"]
    verified(client, sid)


def test_a_new_quest_gives_every_well_back(client):
    cid = campaign(client, mode="linked", components=Q2_COMPONENTS)
    sid, _ = start(client, cid, "q2-rescue", initiative=None)
    to_monkey(client, sid)
    act(client, sid, type="recover", hero="monkey-king", well="well-1")
    verified(client, sid)
    _, game = start(client, cid, "q3-village-fields", initiative=["monkey-king", "cho-hakkai", "monk-sha", "tripitaka"])
    assert game["heroes"]["monkey-king"]["wells_used"] == []


def test_break_door_costs_1_ap_and_is_recorded(client):
    sid, _ = start(client, campaign(client), "q4-the-village")  # 6 Doors (L808)
    refused(client, sid, type="break-door", hero="monkey-king", door="door-1")  # not active yet
    to_monkey(client, sid)
    result = act(client, sid, type="break-door", hero="monkey-king", door="door-1")
    assert _types(result)[-1] == "DoorBroken" and _change(result, "DoorBroken")["door"] == "door-1"
    assert result["state"]["game"]["ap"] == 1
    act(client, sid, type="break-door", hero="monkey-king", door="door-2")
    problem = refused(client, sid, type="break-door", hero="monkey-king", door="door-3")
    assert "0 Action Point" in problem["title"]
    verified(client, sid)


def test_tripitaka_closes_a_gate_with_a_sutra(client):
    sid, game = start(client, campaign(client, components=Q2_COMPONENTS), "q2-rescue", initiative=None)  # 2 Gates, 3 Sutras (L731-L732)
    assert game["gates"] == {"gate-1": "active", "gate-2": "active"}
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")
    act(client, sid, type="collect-sutra", hero="monkey-king", sutra="sutra-1")
    problem = refused(client, sid, type="close-gate", hero="monkey-king", gate="gate-1", sutra="sutra-1")
    assert "Only Tripitaka" in problem["title"]
    act(client, sid, type="activate-pilgrim", hero="monk-sha")
    act(client, sid, type="activate-pilgrim", hero="tripitaka")
    act(client, sid, type="collect-sutra", hero="tripitaka", sutra="sutra-2")
    closed = act(client, sid, type="close-gate", hero="tripitaka", gate="gate-1")
    change = _change(closed, "GateClosed")
    assert (change["gate"], change["sutra"]) == ("gate-1", "sutra-2")
    game = closed["state"]["game"]
    assert game["gates"] == {"gate-1": "closed", "gate-2": "active"} and game["heroes"]["tripitaka"]["sutras"] == [] and game["ap"] == 0
    assert game["heroes"]["monkey-king"]["sutras"] == ["sutra-1"]
    verified(client, sid)


def test_an_unconscious_pilgrim_decides_quest_4_lost_at_once(client):
    """L823-L826: Quest 4 ends "when a Pilgrim is Defeated", which the data reads as reduced to 0 Health, i.e.
    Unconscious (L556-L557): the log decides the defeat at that event, and nothing more is played; no revival."""
    sid, _ = start(client, campaign(client), "q4-the-village")
    act(client, sid, type="report-health", hero="monk-sha", hp=1)
    down = act(client, sid, type="demon-attack", demon="kogaiji-1", target="monk-sha", faces={"attack": ["3"], "demon": ["X"], "defense": ["X", "X"]})
    assert down["state"]["game"]["heroes"]["monk-sha"]["status"] == "face-down"
    assert down["state"]["verdict"]["outcome"] == "defeat" and down["state"]["allowed"] == []
    assert "quest is decided" in refused(client, sid, status=409, type="maintenance")["title"]
    refused(client, sid, status=409, type="revive", hero="tripitaka", target="monk-sha", hp=1)
    verified(client, sid, outcome="defeat")


def test_an_unconscious_pilgrim_turns_face_down_side_back_and_then_dies():
    """L355: each Maintenance turns an Unconscious Pilgrim face down, on the side, on the back, then dead (the rule
    itself, on the ruleset's functions: in every quest the unconscious Pilgrim has already decided a defeat), and a
    dead Pilgrim turns no further."""
    table = Table()
    table.state["game"]["heroes"]["monk-sha"]["status"] = "face-down"
    seen = []
    for _ in range(4):
        seen += [(c["from"], c["to"]) for c in table.act(type="maintenance") if c["kind"] == "unconscious-pilgrim-turned"]
        table.act(type="demon-phase")
        table.act(type="end-of-turn")
    assert seen == [("face-down", "side"), ("side", "back"), ("back", "dead")]
    assert table.hero("monk-sha")["status"] == "dead"


Q3_ORDER = ["monkey-king", "cho-hakkai", "monk-sha", "tripitaka"]  # Tripitaka is fixed fourth in Quest 3


def _spawned(result):
    return [(e["payload"]["change"]["gate"], e["payload"]["change"]["card"], e["payload"]["change"]["outcome"]) for e in result["events"] if e["type"] == "DemonCardResolved"]


def test_quest_3_gates_start_inactive_and_spawn_once_activated(client):
    comps = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}}
    sid, game = start(client, campaign(client, components=comps), "q3-village-fields", initiative=Q3_ORDER)
    assert game["gates"] == {"gate-1": "inactive", "gate-2": "inactive", "gate-3": "inactive"}
    act(client, sid, type="maintenance")
    act(client, sid, type="demon-phase")
    refused(client, sid, type="spawn-demons", gates=["gate-1"])  # an inactive Gate draws no card
    for gate in ("gate-1", "gate-2"):
        changed = act(client, sid, type="gate-activation", gate=gate, state="active", reason="a Pilgrim stepped onto the central Map Tile")
        change = _change(changed, "GateStateChanged")
        assert (change["from"], change["to"], changed["state"]["game"]["gates"][gate]) == ("inactive", "active", "active")
    problem = refused(client, sid, type="gate-activation", gate="gate-1", state="active")
    assert "active already" in problem["title"]
    refused(client, sid, type="gate-activation", gate="gate-9", state="active")
    problem = refused(client, sid, type="spawn-demons", gates=["gate-1"])  # every active Gate draws
    assert "gate-2" in problem["detail"]
    # Borrack is unique in Quest 3 and already in play: that card is discarded and another drawn.
    spawned = act(client, sid, type="spawn-demons", gates=["gate-2", "gate-1"], drawn={"demon": ["Bull General", "Archers 1", "Archers 2"]})
    assert _spawned(spawned) == [("gate-2", "Bull General", "unique-in-play"), ("gate-2", "Archers 1", "spawned"), ("gate-1", "Archers 2", "spawned")]
    assert sorted(spawned["state"]["game"]["demons"]) == ["bharhaz-1", "bharhaz-2", "borrack-1"]
    act(client, sid, type="end-of-turn")
    act(client, sid, type="maintenance")
    act(client, sid, type="demon-phase")
    act(client, sid, type="gate-activation", gate="gate-2", state="inactive", reason="test: a quest rule")
    one = act(client, sid, type="spawn-demons", gates=["gate-1"], drawn={"demon": ["Archers 3"]})
    assert _spawned(one) == [("gate-1", "Archers 3", "spawned")]
    verified(client, sid)


def test_a_closed_gate_never_reactivates(client):
    sid, _ = start(client, campaign(client, components=Q2_COMPONENTS), "q2-rescue", initiative=None)
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")
    act(client, sid, type="activate-pilgrim", hero="monk-sha")
    act(client, sid, type="activate-pilgrim", hero="tripitaka")
    act(client, sid, type="collect-sutra", hero="tripitaka", sutra="sutra-1")
    act(client, sid, type="close-gate", hero="tripitaka", gate="gate-1")
    problem = refused(client, sid, type="gate-activation", gate="gate-1", state="active")
    assert "closed" in problem["title"]
    verified(client, sid)


def test_demon_rage_gives_every_demon_3_action_points_until_the_next_maintenance(client):
    comps = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}, "tables": {**COMPONENTS["tables"], "promotion-tree": {"berrok": []}}}
    sid, game = start(client, campaign(client, components=comps), "q1-meeting")
    assert game["demon_ap"] == 2
    act(client, sid, type="maintenance")
    act(client, sid, type="demon-phase")
    raged = act(client, sid, type="spawn-demons", gates=["gate-1"], drawn={"demon": ["Warband"]})  # 14 Berrok, 13 miniatures left
    assert _change(raged, "DemonRageStarted")["demon_action_points"] == 3
    assert (raged["state"]["game"]["rage"], raged["state"]["game"]["demon_ap"]) == (True, 3)
    act(client, sid, type="end-of-turn")
    ended = act(client, sid, type="maintenance")
    assert "DemonRageEnded" in _types(ended)
    assert (ended["state"]["game"]["rage"], ended["state"]["game"]["demon_ap"]) == (False, 2)
    verified(client, sid)
