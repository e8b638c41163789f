"""Kung Fu Panda: The Board Game: rules as pure functions, then play through the API on SQLite and PostgreSQL."""

from __future__ import annotations

from tests.kit import session
from tests.kit.kung_fu_panda import (
    TEST_COMPONENTS,
    act,
    campaign as _campaign,
    game as _game,
    kinds as _kinds,
    refused,
    start,
)
from tracker import rulesets
from tracker.rulesets.kung_fu_panda import costs, standing, state as game_state

# A face layout a group might supply as component data, to exercise digital rolls (a test input, not a fact).
KFP = rulesets.get("kung-fu-panda")


# -- rules as pure functions ---------------------------------------------------


def test_spends_pay_exactly_and_chi_counts_as_the_heroes_result():
    data = KFP.data
    assert costs.pays(data, {"po": ["Kick", "Kick"]}, {"Kick": 2})
    assert not costs.pays(data, {"po": ["Kick", "Kick", "Punch"]}, {"Kick": 2})  # all at once, exactly
    assert not costs.pays(data, {"po": ["Chi", "Kick"]}, {"Kick": 2})  # Po's Chi is not a Kick
    assert costs.pays(data, {"monkey": ["Chi", "Kick"]}, {"Kick": 2})  # Monkey's is
    assert costs.pays(data, {"tigress": ["Chi", "Chi"], "po": ["Kick", "Kick"]}, {"Kick": 2, "Punch": 2})
    assert costs.pays(data, {"po": ["Chi", "Chi"], "tigress": ["Kick", "Punch"]}, {"Chi": 2, "Punch": 1, "Kick": 1})  # the wall example
    assert not costs.pays(data, {"viper": ["Chi"]}, {"Move": 1, "Chi": 1})


def test_the_reserve_is_the_miniatures_not_on_the_board():
    game = {"enemies": {"a": {"wolf-spearman": 2, "ox-grunt": 1}, "b": {"wolf-spearman": 10}}}
    assert game_state.reserve(game, KFP.data) == {"wolf-spearman": 0, "wolf-slasher": 8, "ox-grunt": 3}
    assert game_state.limit_count(game, "a", ["ox-grunt", "wolf-boss", "tai-lung"]) == 2


def test_standing_counts_corrections_and_keeps_cards_until_the_mission_is_won():
    records = [
        {"session_id": "s1", "change": {"kind": "mission-set-up", "mission": "m1-1", "special_moves": {"po": "Card A"}}},
        {"session_id": "s1", "change": {"kind": "round-started", "round": 1, "entry": "detail"}},
        {"session_id": "s1", "change": {"kind": "enemy-knocked-out", "enemy": "wolf-slasher", "tile": "a", "count": 2}},
        {"session_id": "s1", "change": {"kind": "entry-corrected", "refers_to": 5, "reason": "x", "amend": {"knocked_out": {"wolf-slasher": -1}}}},
        {"session_id": "s1", "change": {"kind": "mission-lost", "loss": "times-up", "round": 1}},
    ]
    result = standing.standing(records)
    assert result["enemies_knocked_out"] == {"wolf-slasher": 1}
    assert result["lost"] == {"times-up": 1} and result["special_moves_held"] == {"po": "Card A"}
    assert result["missions"][0]["rounds_used"] == 1


# -- through the API ------------------------------------------------------------


SETUP_1_1 = {
    "start_tile": "t",
    "spawn_points": {"1": "n", "2": "q", "3": "R", "4": "d", "5": "L", "6": "O"},
    "enemies": {"n": {"wolf-slasher": 1, "wolf-spearman": 2}, "t": {"wolf-spearman": 1}, "F": {}},
    "special_moves": {"po": "Card A", "tigress": "Card B"},
}


def test_the_rules_data_says_what_the_book_says_and_what_it_lost(client):
    got = client.get("/rulesets/kung-fu-panda")
    assert got.status_code == 200
    doc = got.json
    die = doc["dice"][0]
    assert die["results"] == ["Punch", "Kick", "Claws", "Chi", "Move"] and die["per_player"] == 4
    assert die["faces"] is None and "faces" in die["unknowns"]
    enemies = {c["id"]: c for c in doc["characters"] if c["role"] == "enemy"}
    assert enemies["wolf-spearman"]["ko_cost"] == {"Punch": 1} and enemies["wolf-slasher"]["ko_cost"] == {"Kick": 2}
    assert enemies["ox-grunt"]["ko_cost"] == {"Kick": 2, "Punch": 2}
    assert {e: enemies[e]["fight_back_damage"] for e in enemies} == {
        "wolf-spearman": 1, "wolf-slasher": 1, "ox-grunt": 2, "wolf-boss": 2, "tai-lung": 2,
    }
    assert enemies["wolf-boss"]["ko_cost"] is None and "ko_cost" in enemies["wolf-boss"]["unknowns"]
    assert enemies["tai-lung"]["affect_cost_by_players"]["3"] == {"Chi": 8, "Punch": 1}
    heroes = {c["id"] for c in doc["characters"] if c["role"] == "hero"}
    assert heroes == {"po", "tigress", "viper", "monkey", "mantis", "crane"}
    destiny = doc["rules"]["destiny"]
    assert set(destiny["space_types"]) == {"play", "blank", "spawn", "fight-back"}
    assert destiny["dials"]["3"]["awesome_spaces"] is None and "destiny.dials.3.awesome_spaces" in doc["rules"]["unknowns"]
    deck = doc["decks"][0]
    assert deck["size"] == 12 and deck["cards"] is None and "cards" in deck["unknowns"]
    quests = {q["id"]: q for q in doc["quests"]}
    assert set(quests) == {"lesson-1", "lesson-2", "m1-1", "m1-2", "m1-3", "m2-1", "m2-2", "m2-3", "m3-1", "m3-2", "m3-3"}
    assert quests["m2-1"]["round_limit"] == 2 and quests["m2-3"]["no_round_limit"] is True
    assert quests["m1-2"]["pause"]["unfavourable"] == {"when": "claws-more-than-chi", "effect": "spawn", "enemy": "ox-grunt", "count": 1, "tile": "C"}
    assert quests["m3-3"]["tokens"]["dragon-scroll"] == {"Chi": 6}
    assert set(doc["rules"]["modes"]) == {"standard", "young-masters", "awesome"}
    assert {a["type"] for a in doc["actions"]} >= {"start-round", "roll", "resolve-claws", "spend", "end-round", "round-summary", "pause", "correct"}


def test_a_round_in_detail_claws_first_spawns_fight_back_and_spends(client):
    cid = _campaign(client, {"length": "single", "mission": "m1-1"})
    sid = start(client, cid, "m1-1", SETUP_1_1)
    game = _game(client, sid)
    assert game["heroes"]["po"] == {"tile": "t", "health": 4, "ko": False, "dial": 0, "dial_number": 1}
    assert game["special_moves"] == {"po": "Card A", "tigress": "Card B"}
    refused(client, sid, {"type": "roll", "hero": "po", "faces": ["Punch"] * 4}, "No round is under way")
    act(client, sid, {"type": "start-round"})
    refused(client, sid, {"type": "roll", "hero": "po", "faces": ["Punch"]}, "report 4 faces")
    rolled = act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Claws", "Punch", "Chi"]})
    assert _kinds(rolled) == ["ActionTaken", "DiceRolled", "DicePoolRolled"]
    # Claws must be resolved before anything else is spent
    refused(client, sid, {"type": "spend", "heroes": {"po": ["Punch"]}, "for": "knock-out", "enemy": "wolf-spearman"}, "resolve the Claws")
    refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "blank"}]}, "name 2 dial spaces")
    # a Spearman spawns at spawn point 1 (tile n has 3 that count: full, so it spreads), then the enemies on t fight back
    refused(
        client, sid,
        {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 2, "spread_to": "L"}, {"space": "blank"}]},
        "is not full",
    )
    resolved = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [
        {"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 1, "spread_to": "t"},
        {"space": "fight-back"},
    ]})
    assert _kinds(resolved) == ["ActionTaken", "DialAdvanced", "EnemySpawned", "DialAdvanced", "HeroDamaged"]
    game = _game(client, sid)
    assert game["enemies"]["t"] == {"wolf-spearman": 2} and game["heroes"]["po"]["health"] == 2 and game["heroes"]["po"]["dial"] == 2
    assert game["pools"]["po"] == ["Punch", "Chi"]
    # Tigress rolls; Po and Tigress are on one tile and KO a Spearman together? A Spearman costs exactly 1 Punch.
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Kick", "Move", "Move"]})
    refused(client, sid, {"type": "spend", "heroes": {"po": ["Punch"], "tigress": ["Chi"]}, "for": "knock-out", "enemy": "wolf-spearman"}, "does not pay")
    ko = act(client, sid, {"type": "spend", "heroes": {"tigress": ["Chi"]}, "for": "knock-out", "enemy": "wolf-spearman"})  # her Chi is a Punch
    assert _kinds(ko) == ["ActionTaken", "DiceSpent", "EnemyKnockedOut"]
    refused(client, sid, {"type": "spend", "heroes": {"po": ["Chi"], "tigress": ["Chi"]}, "for": "knock-out", "enemy": "wolf-spearman"}, "does not hold")
    # a Special Move is never paid by a group
    refused(client, sid, {"type": "spend", "heroes": {"po": ["Chi"], "tigress": ["Kick"]}, "for": "special-move", "card": "Card A"}, "own dice only")
    # Po's heal: 1 Chi, one health
    healed = act(client, sid, {"type": "spend", "heroes": {"po": ["Chi"]}, "for": "heal"})
    assert healed["state"]["game"]["heroes"]["po"]["health"] == 3
    # moving off a tile with one enemy costs 2 Move
    refused(client, sid, {"type": "spend", "heroes": {"tigress": ["Move"]}, "for": "move", "to": "n"}, "does not pay")
    act(client, sid, {"type": "spend", "heroes": {"tigress": ["Move", "Move"]}, "for": "move", "to": "n"})
    # rerolling: the spent dice plus the saved ones named
    rerolled = act(client, sid, {"type": "roll", "hero": "tigress", "reroll": ["Kick"], "faces": ["Punch", "Punch", "Punch", "Punch"]})
    assert rerolled["state"]["game"]["pools"]["tigress"] == ["Punch"] * 4
    ended = act(client, sid, {"type": "end-round"})
    assert ended["state"]["game"]["pools"] == {} and ended["state"]["game"]["phase"] == "pause"
    assert [e["type"] for e in ended["events"]] == ["ActionTaken", "RoundEnded"]


def test_ko_revival_full_ko_and_a_digital_roll(client):
    cid = _campaign(client, {"length": "single", "mission": "m2-1"}, components=TEST_COMPONENTS)
    sid = start(client, cid, "m2-1", {"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}})
    act(client, sid, {"type": "start-round"})
    digital = act(client, sid, {"type": "roll", "hero": "tigress"})
    roll = next(e for e in digital["events"] if e["type"] == "DiceRolled")["payload"]["roll"]
    assert roll["source"] == "digital" and len(roll["results"]["action-die"]) == 4
    # Ox Grunt hits for 2 and the Mountain Path adds 1: 3 damage; twice KOs Po
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Claws", "Chi", "Chi"]})
    hit = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "fight-back"}, {"space": "fight-back"}]})
    assert _kinds(hit) == ["ActionTaken", "DialAdvanced", "HeroDamaged", "DialAdvanced", "HeroDamaged", "HeroKnockedOut"]
    assert hit["state"]["game"]["heroes"]["po"]["ko"] is True
    refused(client, sid, {"type": "roll", "hero": "po", "faces": ["Chi"] * 4}, "KO'd")
    pool = _game(client, sid)["pools"]["tigress"]
    if "Claws" in pool:
        act(client, sid, {"type": "resolve-claws", "hero": "tigress", "spaces": [{"space": "blank"}] * pool.count("Claws")})
    act(client, sid, {"type": "roll", "hero": "tigress", "reroll": [r for r in pool if r != "Claws"], "faces": ["Chi", "Chi", "Claws", "Move"]})
    refused(client, sid, {"type": "spend", "heroes": {"tigress": ["Chi", "Chi"]}, "for": "revive", "hero": "po"}, "resolve the Claws")
    act(client, sid, {"type": "resolve-claws", "hero": "tigress", "spaces": [{"space": "blank"}]})
    revived = act(client, sid, {"type": "spend", "heroes": {"tigress": ["Chi", "Chi"]}, "for": "revive", "hero": "po"})
    assert revived["state"]["game"]["heroes"]["po"] == {**revived["state"]["game"]["heroes"]["po"], "ko": False, "health": 4}
    # now both fall: a full KO loses the mission
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Claws", "Kick", "Kick"]})
    act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "fight-back"}, {"space": "fight-back"}]})
    act(client, sid, {"type": "roll", "hero": "tigress", "reroll": ["Move"], "faces": ["Claws", "Claws", "Claws", "Kick"]})
    lost = act(client, sid, {"type": "resolve-claws", "hero": "tigress", "spaces": [{"space": "fight-back"}] * 3})
    assert [e["type"] for e in lost["events"]][-2:] == ["MissionLost", "QuestDecided"] and lost["events"][-2]["payload"]["change"]["loss"] == "full-ko"
    assert lost["state"]["verdict"]["outcome"] == "defeat" and "L194" in lost["state"]["verdict"]["reason"]
    bad_end = client.post(f"/sessions/{sid}/end", json={"outcome": "victory"})
    assert bad_end.status_code == 409 and "full KO" in bad_end.json["title"] and "L194" in bad_end.json["title"]
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}).status_code == 200
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_summary_rounds_pauses_corrections_and_times_up(client):
    cid = _campaign(client, {"length": "single", "mission": "m1-2"})
    sid = start(client, cid, "m1-2", {
        "tiles": {"po": "i", "tigress": "k"}, "spawn_points": {"2": "l", "4": "O", "5": "f"},
        "enemies": {"l": {"wolf-slasher": 1, "wolf-spearman": 2}, "C": {"ox-grunt": 1}},
        "special_moves": {"po": "A", "tigress": "B"},
    })
    summary = act(client, sid, {
        "type": "round-summary",
        "knocked_out": [{"enemy": "wolf-spearman", "tile": "l", "count": 2}],
        "spawned": [{"enemy": "ox-grunt", "tile": "C", "count": 4}],
        "damage": {"po": 1}, "moved": {"po": "l"}, "claws": {"tigress": 3},
    })
    kinds = _kinds(summary)
    assert kinds[:3] == ["ActionTaken", "RoundStarted", "RoundSummarised"] and kinds[-1] == "RoundEnded"
    assert "SpawnSkipped" in kinds  # only 3 Ox Grunts were left in the reserve
    game = summary["state"]["game"]
    assert game["rounds"] == [{"round": 1, "entry": "summary"}] and game["knocked_out"] == {"wolf-spearman": 2}
    assert game["enemies"]["C"] == {"ox-grunt": 4} and game["heroes"]["tigress"]["dial"] == 3
    refused(client, sid, {"type": "round-summary", "knocked_out": [{"enemy": "wolf-slasher", "tile": "l", "count": 2}]}, "not 2")
    # the pause: Chi against Claws over the table; Chi kept as chosen results for the next round
    refused(client, sid, {"type": "pause", "faces": {"po": ["Chi"]}}, "Tigress must roll")
    paused = act(client, sid, {"type": "pause", "faces": {"po": ["Chi", "Chi"], "tigress": ["Claws"]}, "convert": {"po": ["Punch", "Kick"]}})
    change = paused["events"][-1]["payload"]["change"]
    assert (change["chi"], change["claws"], change["outcome"], change["kept"]) == (2, 1, "favourable", {"po": ["Punch", "Kick"]})
    refused(client, sid, {"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Chi"]}}, "already resolved")
    started = act(client, sid, {"type": "start-round"})
    assert started["state"]["game"]["pools"] == {"po": ["Punch", "Kick"]}
    rolled = act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Chi"]})
    assert rolled["state"]["game"]["pools"]["po"] == ["Punch", "Kick", "Move", "Chi"]
    # a correction amends the board and the knock-outs, and deletes nothing
    total = client.get(f"/sessions/{sid}/events?limit=1").json["total"]
    refused(client, sid, {"type": "correct", "refers_to": 3, "reason": "r", "amend": {"enemies": {"l": {"wolf-spearman": 13}}}}, "more enemies than there are miniatures")
    corrected = act(client, sid, {"type": "correct", "refers_to": 3, "reason": "only one Spearman was knocked out", "agreed_by": ["po", "tigress"],
                                   "amend": {"knocked_out": {"wolf-spearman": -1}, "enemies": {"l": {"wolf-slasher": 1, "wolf-spearman": 1}}}})
    assert _kinds(corrected) == ["ActionTaken", "EntryCorrected"]
    assert corrected["state"]["game"]["knocked_out"] == {"wolf-spearman": 1}
    assert client.get(f"/sessions/{sid}/events?limit=1").json["total"] == total + 2
    act(client, sid, {"type": "end-round"})
    act(client, sid, {"type": "pause", "faces": {"po": ["Claws"], "tigress": ["Claws"]}, "tile": "C"})  # 2 Claws > 0 Chi: an Ox Grunt, none left
    act(client, sid, {"type": "start-round", "entry": "summary"})
    refused(client, sid, {"type": "round-summary", "tokens": [{"token": "lever", "by": "tigress"}]}, "There is no lever left to activate where Tigress stood")
    last = act(client, sid, {"type": "round-summary", "tokens": [{"token": "wall", "by": "po"}]})
    assert last["events"][-2]["payload"]["change"] == {"kind": "mission-lost", "loss": "times-up", "round": 3}
    assert last["state"]["verdict"]["outcome"] == "defeat" and "L193" in last["state"]["verdict"]["reason"]
    session.refused(client, sid, {"type": "start-round"}, "The quest is decided: ", status=409)  # no round after the verdict
    events = client.get(f"/sessions/{sid}/events?limit=200").json["events"]
    entries = [e["payload"]["change"]["entry"] for e in events if e["type"] == "RoundStarted"]
    assert entries == ["summary", "detail", "summary"]
    ended = [e for e in events if e["type"] == "RoundEnded"]
    assert [e["payload"]["change"]["entry"] for e in ended] == ["summary", "detail", "summary"]
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}).status_code == 200
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_an_adventure_with_a_retried_failure_ends_with_the_standing_the_rules_imply(app, client):
    cid = _campaign(client, {"length": "adventure", "adventure": 1, "mode": "standard"})
    campaign = client.get(f"/campaigns/{cid}").json
    assert campaign["chain"] == ["m1-1", "m1-2", "m1-3"] and campaign["next_quest"] == "m1-1"
    base = {"start_tile": "J", "spawn_points": {"1": "J"}, "enemies": {"J": {"wolf-spearman": 2, "wolf-slasher": 1}}}
    _refused_start = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m1-1", "setup": {**base, "special_moves": {"po": "A", "tigress": "B"}}})
    assert _refused_start.status_code == 422 and "No Special Move cards" in _refused_start.json["title"]

    # Mission 1.1 in detail: the villager rescued, dumplings collected on the Kitchen, enemies knocked out, both heroes
    # on the gatehouse (s): won in round 1 (L245)
    s1 = start(client, cid, "m1-1", {**base, "enemies": {"J": {"wolf-spearman": 1, "wolf-slasher": 1}}, "villagers": {"mei": "J"}})
    act(client, s1, {"type": "start-round"})
    act(client, s1, {"type": "roll", "hero": "po", "faces": ["Chi", "Punch", "Kick", "Kick"]})
    rescued = act(client, s1, {"type": "spend", "heroes": {"po": ["Punch", "Chi"]}, "for": "token", "token": "villager", "villager": "mei"})
    assert _kinds(rescued)[-1] == "VillagerRescued" and rescued["state"]["game"]["villagers"]["mei"] == {"tile": None, "rescued": True}
    act(client, s1, {"type": "spend", "heroes": {"po": ["Kick", "Kick"]}, "for": "knock-out", "enemy": "wolf-slasher"})
    act(client, s1, {"type": "roll", "hero": "po", "faces": ["Chi", "Chi", "Move", "Move"]})
    act(client, s1, {"type": "spend", "heroes": {"po": ["Chi", "Chi"]}, "for": "token", "token": "dumplings"})
    act(client, s1, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Move", "Claws", "Punch"]})
    act(client, s1, {"type": "resolve-claws", "hero": "tigress", "spaces": [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 1}]})
    act(client, s1, {"type": "spend", "heroes": {"tigress": ["Punch"]}, "for": "knock-out", "enemy": "wolf-spearman"})
    act(client, s1, {"type": "spend", "heroes": {"tigress": ["Chi"]}, "for": "knock-out", "enemy": "wolf-spearman"})  # her Chi is a Punch
    refused(client, s1, {"type": "mission-won"}, "not on the end tile, Gatehouse (s)")
    act(client, s1, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "move", "to": "s"})
    act(client, s1, {"type": "spend", "heroes": {"tigress": ["Move"]}, "for": "move", "to": "s"})
    act(client, s1, {"type": "mission-won"})
    early = client.post(f"/sessions/{s1}/end", json={"outcome": "defeat"})
    assert early.status_code == 409 and "victory" in early.json["title"]
    assert client.post(f"/sessions/{s1}/end", json={"outcome": "victory"}).json["next_quest"] == "m1-2"
    assert client.get(f"/campaigns/{cid}").json["progress"]["earned_special_moves"] is True

    beds = {"start_tile": "i"}  # "each hero begins on a Monastery Bed tile of their player's choosing" (L281)
    # Mission 1.2: the earned cards are drawn (reported) before it; it is lost when time runs out
    missing = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m1-2", "setup": {**base, **beds, "spawn_points": {"1": "J", "2": "l", "4": "O"}}})
    assert missing.status_code == 422 and "reported" in missing.json["title"]
    levers = {"spawn_points": {"1": "J", "2": "l", "4": "O"}}  # the levers' tiles (L268)
    s2 = start(client, cid, "m1-2", {**base, **beds, **levers, "special_moves": {"po": "Crane Kick", "tigress": "Tiger Claw"}})
    assert _game(client, s2)["special_moves"] == {"po": "Crane Kick", "tigress": "Tiger Claw"}
    for round_no in (1, 2, 3):
        result = act(client, s2, {"type": "round-summary", "knocked_out": [{"enemy": "wolf-spearman", "tile": "J"}]} if round_no == 1 else {"type": "round-summary", "damage": {"tigress": 1}})
        if round_no < 3:
            act(client, s2, {"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Move"]}})
    assert result["state"]["game"]["result"] == {"result": "lost", "loss": "times-up", "condition": None, "round": 3}
    assert client.post(f"/sessions/{s2}/end", json={"outcome": "defeat"}).json["next_quest"] == "m1-2"

    # the retry keeps the cards held; won with a Special Move and round summaries plus one detailed round
    s3 = start(client, cid, "m1-2", {**base, **beds, "spawn_points": {"1": "J", "2": "l", "4": "O", "5": "J"}})
    assert _game(client, s3)["special_moves"] == {"po": "Crane Kick", "tigress": "Tiger Claw"}
    # round 1 takes both heroes from their Monastery Bed to the Kitchen (spawn point 5, the scroll's tile)
    act(client, s3, {"type": "round-summary", "knocked_out": [{"enemy": "wolf-slasher", "tile": "J"}], "moved": {"po": "J", "tigress": "J"}})
    act(client, s3, {"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Chi"]}})
    act(client, s3, {"type": "start-round"})
    act(client, s3, {"type": "roll", "hero": "po", "faces": ["Chi", "Chi", "Chi", "Punch"]})
    act(client, s3, {"type": "spend", "heroes": {"po": ["Chi", "Chi", "Chi"]}, "for": "special-move", "card": "Crane Kick"})
    act(client, s3, {"type": "spend", "heroes": {"po": ["Punch"]}, "for": "knock-out", "enemy": "wolf-spearman"})
    act(client, s3, {"type": "round-summary", "knocked_out": [{"enemy": "wolf-spearman", "tile": "J"}]})  # the rest of round 2
    # round 3: the scroll tile (spawn point 5) is clear; the scroll is read with 6 Chi from both heroes (L264, L267)
    act(client, s3, {"type": "start-round"})
    refused(client, s3, {"type": "mission-won"}, "the scroll is not read")
    act(client, s3, {"type": "roll", "hero": "po", "faces": ["Chi", "Chi", "Chi", "Chi"]})
    act(client, s3, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Chi", "Kick", "Move"]})
    act(client, s3, {"type": "spend", "heroes": {"po": ["Chi"] * 4, "tigress": ["Chi", "Chi"]}, "for": "token", "token": "scroll"})
    act(client, s3, {"type": "mission-won"})
    assert client.post(f"/sessions/{s3}/end", json={"outcome": "victory"}).json["next_quest"] == "m1-3"

    # Mission 1.3: no dumplings this time, so no cards earned; it fails by a full KO entered as a summary
    s4 = start(client, cid, "m1-3", base)
    assert _game(client, s4)["special_moves"] == {}
    ko = act(client, s4, {"type": "round-summary", "knocked_out": [{"enemy": "wolf-spearman", "tile": "J", "count": 2}], "damage": {"po": 4, "tigress": 4}})
    assert ko["state"]["game"]["result"]["loss"] == "full-ko"
    client.post(f"/sessions/{s4}/end", json={"outcome": "defeat"})
    s5 = start(client, cid, "m1-3", {**base, "figures": {"wolf-boss": "q"}})
    act(client, s5, {"type": "round-summary", "knocked_out": [{"enemy": "wolf-slasher", "tile": "J"}]})
    act(client, s5, {"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Chi"]}, "to": "d"})  # Wolf Boss one tile back (L303)
    refused(client, s5, {"type": "mission-won"}, "Wolf Boss is not knocked out")
    act(client, s5, {"type": "round-summary", "knocked_out": [{"enemy": "wolf-boss", "tile": "d"}]})
    act(client, s5, {"type": "mission-won"})
    ended = client.post(f"/sessions/{s5}/end", json={"outcome": "victory"}).json
    assert ended["next_quest"] is None
    assert client.get(f"/campaigns/{cid}").json["completed"] is True

    for sid in (s1, s2, s3, s4, s5):
        assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"

    runner = app.extensions["tracker_views"]
    runner.catch_up()
    standing_view = client.get(f"/campaigns/{cid}/standing").json["standing"]
    assert [(m["mission"], m["result"], m["loss"]) for m in standing_view["missions"]] == [
        ("m1-1", "won", None), ("m1-2", "lost", "times-up"), ("m1-2", "won", None), ("m1-3", "lost", "full-ko"), ("m1-3", "won", None),
    ]
    assert standing_view["won"] == ["m1-1", "m1-2", "m1-3"] and standing_view["lost"] == {"times-up": 1, "full-ko": 1}
    assert standing_view["enemies_knocked_out"] == {"wolf-boss": 1, "wolf-slasher": 3, "wolf-spearman": 7}
    assert standing_view["rounds_per_mission"] == {"m1-1": 1, "m1-2": 6, "m1-3": 3}
    assert [r["entry"] for r in standing_view["missions"][2]["rounds"]] == ["summary", "mixed", "detail"]
    assert standing_view["special_moves_held"] == {}
    assert standing_view["dice_faces"] == {"reported": {"Chi": 13, "Claws": 1, "Kick": 3, "Move": 4, "Punch": 3}}
    dice = client.get(f"/campaigns/{cid}/dice-statistics").json["faces"]
    assert {(f["face"], f["count"]) for f in dice if f["die"] == "action-die" and f["source"] == "reported"} >= {("Kick", 3)}

    digest = runner.store.digest()
    assert runner.rebuild() == digest
    assert client.get(f"/campaigns/{cid}/standing").json["standing"] == standing_view


def test_game_lengths_and_modes(client):
    story = _campaign(client, {"length": "story", "mode": "awesome"})
    assert client.get(f"/campaigns/{story}").json["chain"] == ["m1-1", "m1-2", "m1-3", "m2-1", "m2-2", "m2-3", "m3-1", "m3-2", "m3-3"]
    sid = start(client, story, "m1-1", {"start_tile": "t"})
    game = _game(client, sid)
    assert game["dial_side"] == "awesome" and game["special_moves"] == {}  # cards are earned in multi-mission play
    bad = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "x", "party": ["po", "tigress"], "options": {"length": "adventure"}})
    assert bad.status_code == 422 and "options" in bad.json["title"]  # an adventure names which one
    enemy = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "x", "party": ["po", "wolf-boss"]})
    assert enemy.status_code == 422 and "Only heroes are played" in enemy.json["title"]  # refused as it is created (L46)

    # Young Masters: no round limit, pause actions during a round, earned cards chosen by name
    young = _campaign(client, {"length": "single", "mission": "m2-1", "mode": "young-masters"}, party=("monkey", "viper", "crane"))
    sid = start(client, young, "m2-1", {"start_tile": "t", "end_tile": "s", "special_moves": {"monkey": "A", "viper": "B", "crane": "C"}})
    assert _game(client, sid)["heroes"]["crane"]["dial_number"] == 3
    for _ in range(3):
        result = act(client, sid, {"type": "round-summary"})
    assert result["state"]["game"]["result"] is None and result["state"]["game"]["round"] == 3
    act(client, sid, {"type": "start-round"})
    paused = act(client, sid, {"type": "pause", "faces": {"monkey": ["Claws"], "viper": ["Claws"], "crane": ["Chi"]}, "tile": "s"})
    assert [e["type"] for e in paused["events"]][-2:] == ["PauseResolved", "EnemySpawned"]
    assert paused["state"]["game"]["enemies"]["s"] == {"wolf-slasher": 2}
