"""Journey campaigns through the REST API on SQLite and PostgreSQL: linked and individual quests,
Q10 Part 1 -> Part 2 as one quest, hero progress reads, and `tracker rebuild`."""

from __future__ import annotations

import json

from tests.kit.journey import (
    ORDER,
    PILGRIMS,
    Q2_COMPONENTS,
    Q3_ORDER,
    act,
    campaign,
    play_q1,
    start,
)
from tests.kit.session import end
from tracker.cli import main as tracker_cli


def test_a_linked_campaign_q1_to_q3_carries_karma_weapons_and_corruption(client, database_url):
    cid = campaign(client, mode="linked", components=Q2_COMPONENTS)  # Q2 hands out named cards in linked play too (L741)
    q1, ended = play_q1(client, cid)
    assert ended["next_quest"] == "q2-rescue"
    q1_monkey = client.get(f"/sessions/{q1}").json["game"]["heroes"]["monkey-king"]

    q2 = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q2-rescue"})
    assert q2.status_code == 201, q2.json
    q2_id, heroes = q2.json["id"], q2.json["state"]["game"]["heroes"]
    monkey = heroes["monkey-king"]
    assert (monkey["bad"], monkey["weapon_level"], monkey["corruption"]) == (2, 2, q1_monkey["corruption"])
    assert monkey["skills"] == q1_monkey["skills"] and (monkey["hp"], monkey["chi"]) == (10, 10)
    assert heroes["tripitaka"]["good"] == 3 and heroes["cho-hakkai"]["status"] == "face-down"
    assert "Shining Seal" in [card["name"] for card in heroes["tripitaka"]["skills"]]  # L741, carried Tripitaka too
    assert client.get(f"/sessions/{q2_id}").json["decks"]["corruption"]["held"] == {"monkey-king": q1_monkey["corruption"]}
    act(client, q2_id, type="maintenance")
    act(client, q2_id, type="activate-pilgrim", hero="monkey-king")
    act(client, q2_id, type="rescue-villager", hero="monkey-king", villager="villager-1")
    # Damage and conditions stay behind: the next quest refills Health and discards conditions.
    act(client, q2_id, type="demon-attack", demon="berrok-1", target="monk-sha", faces={"attack": ["3", "3"], "defense": ["X", "X"]})
    # This test is about what carries over, not Q2's conditions: the owner ends Q2 by a table ruling.
    assert end(client, q2_id, "victory", ruling="test: carry-over only")["next_quest"] == "q3-village-fields"

    q3_id, game = start(client, cid, "q3-village-fields", initiative=Q3_ORDER)
    assert game["heroes"]["monk-sha"]["hp"] == 10 and game["heroes"]["monkey-king"]["good"] == 3

    # Hero progress is a view: read it once the views hold the log as far as the last command wrote it.
    written = client.get("/health").json["notifications"]
    heroes = client.get(f"/campaigns/{cid}/heroes?min_position={written}")
    assert heroes.status_code == 200 and heroes.json["projected_to"] >= written
    monkey = client.get(f"/campaigns/{cid}/heroes/monkey-king").json
    assert (monkey["good_karma"], monkey["bad_karma"], monkey["weapon_level"]) == (3, 2, 2)
    assert monkey["corruption"] == q1_monkey["corruption"]
    assert monkey["quests_played"] == ["q1-meeting", "q2-rescue", "q3-village-fields"]
    assert monkey["quests_won"] == ["q1-meeting", "q2-rescue"]
    assert [(h["quest"], h["level"], h["event"]) for h in monkey["weapon_history"]] == [("q1-meeting", 1, "PilgrimSetUp"), ("q1-meeting", 2, "WeaponUpgraded")]
    assert [(h["session_id"], h["event"], h["reason"]) for h in monkey["corruption_history"]] == [(q1, "CorruptionDrawn", "weapon-upgrade")]
    assert monkey["karma_thresholds"][0]["value"] == 12 and len(monkey["skills"]["one-time"] + monkey["skills"]["permanent"]) == 2
    assert heroes.json["heroes"]["tripitaka"]["good_karma"] == 3
    assert client.get(f"/campaigns/{cid}/heroes/kei-lun").status_code == 404

    # The views rebuild from the log to the same digest, and the hero reads do not change.
    runner = client.application.extensions["tracker_views"]
    runner.catch_up()
    digest = runner.store.digest()
    before = client.get(f"/campaigns/{cid}/heroes").json
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert tracker_cli(["--database-url", database_url, "rebuild"]) == 0
    assert json.loads(out.getvalue())["digest"] == digest
    assert client.get(f"/campaigns/{cid}/heroes").json == before


def test_individual_quests_start_fresh(client):
    cid = campaign(client, mode="individual")
    play_q1(client, cid)
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q2-rescue"})
    assert sid.status_code == 422 and "Shining Seal" in sid.json["title"]  # fresh set-up deals Q2's named cards
    q3_id, game = start(client, cid, "q3-village-fields", initiative=Q3_ORDER)
    monkey = game["heroes"]["monkey-king"]
    assert (monkey["good"], monkey["bad"], monkey["weapon_level"], monkey["corruption"], len(monkey["skills"])) == (0, 0, 1, [], 2)
    refused = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q3-village-fields", "setup": {"initiative": ORDER}})
    assert refused.status_code == 422 and "Initiative Token 4" in refused.json["title"]


def test_q10_part_2_continues_part_1_with_the_sutras_given_to_tripitaka(client):
    cid = campaign(client, mode="individual")
    refused = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q10-part-2-seal-the-gate"})
    assert refused.status_code == 422 and "continues Part 1" in refused.json["title"]
    upgrades = {p: ["good", "bad"] for p in PILGRIMS}
    sid, _ = start(client, cid, "q10-part-1-the-lair", {"karma_upgrades": upgrades})
    act(client, sid, type="maintenance")
    act(client, sid, type="activate-pilgrim", hero="monkey-king")
    act(client, sid, type="collect-sutra", hero="monkey-king", sutra="sutra-1")
    act(client, sid, type="collect-sutra", hero="monkey-king", sutra="sutra-2")
    act(client, sid, type="activate-pilgrim", hero="tripitaka")
    act(client, sid, type="collect-sutra", hero="tripitaka", sutra="sutra-3")
    act(client, sid, type="rescue-villager", hero="tripitaka", villager="villager-1")
    act(client, sid, type="activate-pilgrim", hero="cho-hakkai")
    act(client, sid, type="collect-sutra", hero="cho-hakkai", sutra="sutra-4")
    end_of_part_1 = client.get(f"/sessions/{sid}").json["game"]["heroes"]
    # L1061: all 4 Sutras held, then a Pilgrim steps onto the Fiery Bridge, which the table states.
    assert end(client, sid, "heroic-victory", reported={"fiery_bridge_reached": True})["next_quest"] == "q10-part-2-seal-the-gate"

    part_2, game = start(client, cid, "q10-part-2-seal-the-gate", initiative=None)
    assert game["initiative"] == ORDER
    tripitaka = game["heroes"]["tripitaka"]
    assert sorted(tripitaka["sutras"]) == ["sutra-1", "sutra-2", "sutra-3", "sutra-4"] and tripitaka["villagers"] == []
    assert game["heroes"]["monkey-king"]["sutras"] == []
    for hero in PILGRIMS:
        for key in ("good", "bad", "weapon_level", "skills", "corruption", "hp", "chi"):
            assert game["heroes"][hero][key] == end_of_part_1[hero][key], (hero, key)
    assert tripitaka["good"] == end_of_part_1["tripitaka"]["good"]
    act(client, part_2, type="maintenance")
    act(client, part_2, type="activate-pilgrim", hero="monkey-king")
    allowed = {entry["type"]: entry for entry in act(client, part_2, type="activate-pilgrim", hero="tripitaka")["state"]["allowed"]}
    assert allowed["sealing-ritual"]["heroes"] == ["tripitaka"]  # the quest that has it lists it (L1096)
    end(client, part_2, "heroic-victory", ruling="test: the continuation only; tests/journey/test_quest_outcomes.py plays the Sealing Ritual")
