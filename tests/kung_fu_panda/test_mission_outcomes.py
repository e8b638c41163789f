"""Kung Fu Panda missions through the API, on SQLite and PostgreSQL: outcomes follow each mission's text (the
verdict, the 409 on a contradicting end, failures recorded as they happen), ids checked against the set-up, and
the board rules the missions state (Fight Back on Tai Lung, Bridges, Great Walls and carts, 1.1's pause)."""

from __future__ import annotations

from tests.kit.kung_fu_panda import (
    act,
    campaign,
    game as _game,
    kinds,
    refused as _refused,
    start,
)
from tests.kit.session import total as _total
from tracker import rulesets

PAIR = {"po": "A", "tigress": "B"}


def _end_refused(client, sid, outcome, title_part):
    before = _total(client, sid)
    response = client.post(f"/sessions/{sid}/end", json={"outcome": outcome})
    assert response.status_code == 409 and response.mimetype == "application/problem+json", response.json
    assert title_part in response.json["title"], response.json
    assert _total(client, sid) == before
    return response.json


def _mission(client, mission, setup, party=("po", "tigress")):
    cid = campaign(client, {"length": "single", "mission": mission}, party=party)
    cards = {hero: f"Card {n}" for n, hero in enumerate(party)}
    return cid, start(client, cid, mission, {"special_moves": cards, **setup})


# -- outcomes follow the rules ---------------------------------------------------


def test_an_undecided_mission_ends_only_as_its_text_allows(client):
    cid, sid = _mission(client, "m1-3", {"start_tile": "d", "figures": {"wolf-boss": "q"}})
    assert client.get(f"/sessions/{sid}").json["verdict"] is None
    # "Knocking out the Wolf Boss before the end of 3 rounds" (L286)
    _end_refused(client, sid, "victory", "the Wolf Boss is not knocked out")
    _end_refused(client, sid, "defeat", "no defeat is recorded")
    refused = _end_refused(client, sid, "heroic-victory", "no heroic victory")
    assert "L189" in refused["title"]
    ruled = client.post(f"/sessions/{sid}/end", json={"outcome": "defeat", "ruling": "we stopped: dinner is ready"})
    assert ruled.status_code == 200 and ruled.json["ruling"] == "we stopped: dinner is ready"
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_a_villager_with_three_enemies_loses_mission_1_1_at_once(client):
    """'If a villager is sharing a tile with 3 enemies of any type, you lose the game immediately' (L246)."""
    cid, sid = _mission(client, "m1-1", {"start_tile": "t", "spawn_points": {"1": "n"}, "villagers": {"mei": "n"}, "enemies": {"n": {"wolf-spearman": 1, "ox-grunt": 1}}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Kick", "Kick", "Move"]})
    lost = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "spawn", "enemy": "wolf-slasher", "spawn_point": 1}]})
    assert kinds(lost)[-2:] == ["MissionLost", "QuestDecided"]
    assert lost["events"][-2]["payload"]["change"]["condition"] == "villager-overrun"
    verdict = lost["state"]["verdict"]
    assert verdict["outcome"] == "defeat" and "L246" in verdict["reason"] and verdict["position"] == lost["version"]
    _end_refused(client, sid, "victory", "the rules decided this quest")
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}).status_code == 200


def test_a_failure_the_board_does_not_show_is_refused(client):
    cid, sid = _mission(client, "m1-1", {"start_tile": "t", "villagers": {"mei": "n"}})
    _refused(client, sid, {"type": "mission-failed", "condition": "villager-overrun"}, "The board does not show 'villager-overrun'")


def test_escape_tai_lung_fight_back_on_his_tile_and_the_loss_when_he_reaches_the_end(client):
    """2.3: a Play space moves Tai Lung (L355); Fight Back on his tile costs 2 health (L356); he reaching the end
    tile first loses the mission (L353)."""
    cid, sid = _mission(client, "m2-3", {"start_tile": "t", "end_tile": "s", "figures": {"tai-lung": "m"}})
    assert _game(client, sid)["enemies"] == {"m": {"tai-lung": 1}}
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Chi", "Chi", "Move"]})
    _refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play"}]}, "Say which tile the Tai Lung moves to")
    _refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "to": "Z"}]}, "Mission 2.3 has no tile 'Z'")
    moved = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "to": "t"}]})
    assert moved["state"]["game"]["enemies"] == {"t": {"tai-lung": 1}} and moved["state"]["game"]["figures"]["tai-lung"] == "t"
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Claws", "Claws", "Kick", "Move"]})
    hit = act(client, sid, {"type": "resolve-claws", "hero": "tigress", "spaces": [{"space": "fight-back"}, {"space": "play", "to": "s"}]})
    damage = next(e for e in hit["events"] if e["type"] == "HeroDamaged")["payload"]["change"]
    assert damage["amount"] == 2 and damage["health"] == 2
    assert kinds(hit)[-2:] == ["MissionLost", "QuestDecided"] and "L353" in hit["state"]["verdict"]["reason"]
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}).status_code == 200
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_tai_lung_showdown_won_by_the_scroll_and_the_prison_cell_and_lost_by_the_scroll(client):
    """3.3: read the Dragon Scroll before Tai Lung reaches it, then push him into the Prison Cell (L415, L420)."""
    cid, won = _mission(client, "m3-3", {"start_tile": "j", "figures": {"tai-lung": "N"}})
    act(client, won, {"type": "start-round"})
    act(client, won, {"type": "roll", "hero": "po", "faces": ["Chi", "Chi", "Chi", "Chi"]})
    act(client, won, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Chi", "Punch", "Punch"]})
    _refused(client, won, {"type": "spend", "heroes": {"po": ["Chi"] * 4, "tigress": ["Chi", "Chi"]}, "for": "wound-tai-lung", "to": "T"}, "before the Dragon Scroll is read")
    act(client, won, {"type": "spend", "heroes": {"po": ["Chi"] * 4, "tigress": ["Chi", "Chi"]}, "for": "token", "token": "dragon-scroll"})
    act(client, won, {"type": "roll", "hero": "po", "faces": ["Claws", "Chi", "Chi", "Chi"]})
    act(client, won, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "to": "j"}]})  # the scroll is read: no loss
    # now on the heroes' tile, he stops there (L418)
    act(client, won, {"type": "roll", "hero": "po", "reroll": [], "faces": ["Claws"]})
    _refused(client, won, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "to": "N"}]}, "stops on j: a hero is there")
    stopped = act(client, won, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play"}]})
    assert stopped["events"][-1]["payload"]["change"]["stopped"] is True and stopped["state"]["game"]["figures"]["tai-lung"] == "j"
    act(client, won, {"type": "roll", "hero": "po", "reroll": [], "faces": ["Chi"]})
    act(client, won, {"type": "roll", "hero": "tigress", "reroll": [], "faces": ["Chi", "Chi"]})
    _refused(client, won, {"type": "mission-won"}, "Tai Lung is on Dragon Scroll (j), not Prison Cell (T)")
    act(client, won, {"type": "spend", "heroes": {"po": ["Chi"] * 3, "tigress": ["Chi", "Chi", "Punch"]}, "for": "wound-tai-lung", "to": "T"})
    decided = act(client, won, {"type": "mission-won"})
    assert decided["state"]["verdict"]["outcome"] == "victory" and "L415" in decided["state"]["verdict"]["reason"]
    assert client.post(f"/sessions/{won}/end", json={"outcome": "victory"}).status_code == 200

    cid, lost = _mission(client, "m3-3", {"start_tile": "A", "figures": {"tai-lung": "N"}})
    act(client, lost, {"type": "start-round"})
    act(client, lost, {"type": "roll", "hero": "po", "faces": ["Claws", "Chi", "Chi", "Chi"]})
    result = act(client, lost, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "to": "j"}]})
    assert result["events"][-2]["payload"]["change"]["condition"] == "tai-lung-reaches-the-scroll"
    assert "L416" in result["state"]["verdict"]["reason"]


def test_wolf_boss_attack_villagers_move_together_and_are_imprisoned(client):
    """3.2: a Play space moves ALL villagers toward the Prison Cell (L396); all there loses the mission (L394)."""
    cid, sid = _mission(client, "m3-2", {"start_tile": "a", "villagers": {"ling": "q", "bo": "R"}, "figures": {"wolf-boss": "s"}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Chi", "Chi", "Chi"]})
    _refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "villagers": {"ling": "T"}}]}, "Move ALL villagers")
    _refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "villagers": {"ling": "T", "zed": "T"}}]}, "no villager 'zed'")
    lost = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "villagers": {"ling": "T", "bo": "T"}}]})
    assert lost["events"][-2]["payload"]["change"]["condition"] == "villagers-imprisoned" and "L394" in lost["state"]["verdict"]["reason"]


# -- ids named in actions ----------------------------------------------------------


def test_tiles_villagers_and_carts_are_those_the_mission_set_up(client):
    cid = campaign(client, {"length": "single", "mission": "m1-1"})
    bad = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m1-1", "setup": {"start_tile": "T", "special_moves": PAIR}})
    assert bad.status_code == 422 and bad.json["title"] == "Mission 1.1 has no tile Prison Cell (T)" and ", Gatehouse (s)," in bad.json["detail"].replace(" and ", ", ").replace(".", ",")
    sid = start(client, cid, "m1-1", {"start_tile": "t", "villagers": {"mei": "t"}, "special_moves": PAIR})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Punch", "Chi", "Kick"]})
    refused = _refused(client, sid, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "move", "to": "E"}, "Mission 1.1 has no tile Long Bridge 1 (E)")
    assert ", Long Market (d)," in refused["detail"]
    refused = _refused(client, sid, {"type": "spend", "heroes": {"po": ["Punch", "Chi"]}, "for": "token", "token": "villager", "villager": "li"}, "no villager 'li'")
    assert "mei" in refused["detail"]
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "token", "token": "cart", "cart": "c1", "to": "a"}, "no cart 'c1'")
    _refused(client, sid, {"type": "round-summary", "moved": {"po": "Q"}}, "Mission 1.1 has no tile Monastery Bed 4 (Q)")
    _refused(client, sid, {"type": "round-summary", "figures": {"tai-lung": "n"}}, "The Tai Lung is not on the board")
    refused = _refused(client, sid, {"type": "spend", "heroes": {"po": ["Punch", "Chi"]}, "for": "token", "token": "gong"}, "Mission 1.1 has no gong")
    assert "villager" in refused["detail"] and "wall" in refused["detail"]
    _refused(client, sid, {"type": "round-summary", "tokens": [{"token": "scroll", "by": "po"}]}, "Mission 1.1 has no scroll")


# -- wrong today -----------------------------------------------------------------------


def test_a_long_bridge_costs_what_the_mission_says(client):
    """1.2: 'Bridge: 2x Chi and 1x Move to enter' (L273); E (Long Bridge 1) is its bridge."""
    cid, sid = _mission(client, "m1-2", {"start_tile": "i", "spawn_points": {"2": "l", "4": "O"}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Chi", "Chi", "Kick"]})
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "move", "to": "E"}, "does not pay")
    moved = act(client, sid, {"type": "spend", "heroes": {"po": ["Move", "Chi", "Chi"]}, "for": "move", "to": "E"})
    assert moved["state"]["game"]["heroes"]["po"]["tile"] == "E"
    doc = client.get("/rulesets/kung-fu-panda").json["rules"]
    assert doc["tiles"]["E"]["terrain"] == "bridge" and "L273" in doc["readings"]["tiles.E.terrain"]


def test_a_great_wall_is_climbed_only_where_a_cart_stands(client):
    """'a cart token on the tile they are moving from or to' (L107, L312); a cart is pushed for 4x Move and 2x Chi (L315)."""
    cid, sid = _mission(client, "m2-1", {"start_tile": "h", "end_tile": "s", "carts": {"cart-1": "h"}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Move", "Move", "Move"]})
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Chi", "Move", "Kick"]})
    _refused(client, sid, {"type": "spend", "heroes": {"tigress": ["Move"]}, "for": "move", "to": "c"}, "No cart on Great Wall 1 (c)")
    pushed = act(client, sid, {"type": "spend", "heroes": {"po": ["Move"] * 4, "tigress": ["Chi", "Chi"]}, "for": "token", "token": "cart", "cart": "cart-1", "to": "c"})
    assert kinds(pushed)[-1] == "CartPushed" and pushed["state"]["game"]["carts"] == {"cart-1": "c"}
    assert pushed["state"]["game"]["heroes"]["po"]["tile"] == "h"  # the heroes do not move with the cart (L458)
    climbed = act(client, sid, {"type": "spend", "heroes": {"tigress": ["Move"]}, "for": "move", "to": "c"})
    assert climbed["state"]["game"]["heroes"]["tigress"]["tile"] == "c"
    act(client, sid, {"type": "roll", "hero": "tigress", "reroll": ["Kick"], "faces": ["Move", "Move", "Move", "Move"]})
    # from c (cart) onto D (no cart): the cart on the tile moved from is enough (L107 'from or to')
    assert act(client, sid, {"type": "spend", "heroes": {"tigress": ["Move"]}, "for": "move", "to": "D"})["state"]["game"]["heroes"]["tigress"]["tile"] == "D"


def test_mission_1_1_pause_changes_chi_and_sends_a_rescued_villager_off(client):
    """'Any Chi rolled may be changed ... However, if players collectively roll a total of 4x Claws or more, one
    rescued villager has wandered off ... placed back on the board on spawn point 4' (L258)."""
    cid, sid = _mission(client, "m1-1", {"start_tile": "n", "spawn_points": {"4": "d"}, "villagers": {"mei": "n", "li": "O"}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Punch", "Chi", "Kick", "Kick"]})
    act(client, sid, {"type": "spend", "heroes": {"po": ["Punch", "Chi"]}, "for": "token", "token": "villager", "villager": "mei"})
    act(client, sid, {"type": "end-round"})
    paused = act(client, sid, {"type": "pause", "faces": {"po": ["Claws", "Claws", "Chi", "Chi"], "tigress": ["Claws", "Claws"]}, "convert": {"po": ["Move", "Move"]}})
    change = paused["events"][-1]["payload"]["change"]
    assert change["outcome"] == "unfavourable" and change["kept"] == {"po": ["Move", "Move"]}
    assert change["wandered_off"] == "mei" and change["wandered_to"] == "d"
    game = paused["state"]["game"]
    assert game["villagers"]["mei"] == {"tile": "d", "rescued": False}
    assert sum(v["rescued"] for v in game["villagers"].values()) == 0
    assert act(client, sid, {"type": "start-round"})["state"]["game"]["pools"] == {"po": ["Move", "Move"]}


# -- missing until now ---------------------------------------------------------------


def test_village_attacked_carts_close_spawn_points_and_win_the_mission(client):
    """3.1: 'When the cart is moved to a spawn point, no more enemies may subsequently spawn on that tile' (L377);
    'Move the cart to all the spawn points within 3 rounds' (L374); never onto a Rooftop (L377)."""
    cid, sid = _mission(client, "m3-1", {"start_tile": "n", "spawn_points": {"1": "d"}, "carts": {"cart": "n"}, "villagers": {"v": "K"}})
    act(client, sid, {"type": "start-round"})
    _refused(client, sid, {"type": "mission-won"}, "no cart has reached the spawn points on Long Market (d)")
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move"] * 4})
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Chi", "Claws", "Kick"]})
    act(client, sid, {"type": "resolve-claws", "hero": "tigress", "spaces": [{"space": "blank"}]})
    act(client, sid, {"type": "spend", "heroes": {"po": ["Move"] * 4, "tigress": ["Chi", "Chi"]}, "for": "token", "token": "cart", "cart": "cart", "to": "d"})
    act(client, sid, {"type": "roll", "hero": "tigress", "reroll": ["Kick"], "faces": ["Claws", "Punch", "Punch", "Punch"]})
    skipped = act(client, sid, {"type": "resolve-claws", "hero": "tigress", "spaces": [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 1}]})
    assert skipped["events"][-1]["payload"]["change"]["reason"] == "cart-on-spawn-point"
    won = act(client, sid, {"type": "mission-won"})
    assert won["state"]["verdict"]["outcome"] == "victory" and "L374" in won["state"]["verdict"]["reason"]


def test_spawns_in_a_round_summary_respect_the_tile_limit(client):
    """'A tile cannot contain more than 3 enemies of any type. Any further enemies ... do not spawn' (L256)."""
    cid, sid = _mission(client, "m1-1", {"start_tile": "t", "enemies": {"n": {"wolf-spearman": 1}}})
    summary = act(client, sid, {"type": "round-summary", "spawned": [{"enemy": "wolf-spearman", "tile": "n", "count": 4}, {"enemy": "ox-grunt", "tile": "n", "count": 1}]})
    assert summary["state"]["game"]["enemies"]["n"] == {"wolf-spearman": 3, "ox-grunt": 1}  # Ox Grunts do not count (L126)
    skipped = [e["payload"]["change"] for e in summary["events"] if e["type"] == "SpawnSkipped"]
    assert skipped == [{"kind": "spawn-skipped", "enemy": "wolf-spearman", "count": 2, "reason": "tile-full", "tile": "n", "cause": "summary"}]


def test_crane_replaces_any_and_all_other_results_with_one_chi(client):
    """Crane: '1x Chi ... to replace any and all other dice results ... onto a tile marked with a Hard Going symbol'
    (L163), the enemies' extra Moves included (the data's reading crane.hard_going)."""
    cid, sid = _mission(client, "m1-1", {"start_tile": "n", "enemies": {"n": {"wolf-spearman": 2}}}, party=("crane", "po"))
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "crane", "faces": ["Chi", "Kick", "Kick", "Kick"]})
    moved = act(client, sid, {"type": "spend", "heroes": {"crane": ["Chi"]}, "for": "move", "to": "I"})
    assert moved["state"]["game"]["heroes"]["crane"]["tile"] == "I"
    reading = client.get("/rulesets/kung-fu-panda").json["rules"]["readings"]["crane.hard_going"]
    assert "L163" in reading


def test_the_wolf_boss_ko_cost_comes_from_component_data_or_is_marked_unchecked(client):
    """The Wolf Boss's KO cost was printed on a reference board the text lost (L151-L153)."""
    cid, sid = _mission(client, "m1-3", {"start_tile": "q", "figures": {"wolf-boss": "q"}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Kick", "Move", "Move", "Move"]})
    ko = act(client, sid, {"type": "spend", "heroes": {"po": ["Kick"]}, "for": "knock-out", "enemy": "wolf-boss"})
    knocked = next(e for e in ko["events"] if e["type"] == "EnemyKnockedOut")["payload"]["change"]
    assert knocked["cost_known"] is False  # the table's spend, marked unchecked
    won = act(client, sid, {"type": "mission-won"})  # "Knocking out the Wolf Boss" (L286)
    assert won["state"]["verdict"]["outcome"] == "victory" and "L286" in won["state"]["verdict"]["reason"]

    supplied = {"tables": {"wolf-boss-ko-cost": {"Kick": 2, "Punch": 2}}}
    cid = campaign(client, {"length": "single", "mission": "m1-3"}, components=supplied)
    sid = start(client, cid, "m1-3", {"start_tile": "q", "figures": {"wolf-boss": "q"}, "special_moves": PAIR})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Kick", "Kick", "Punch", "Punch"]})
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Kick"]}, "for": "knock-out", "enemy": "wolf-boss"}, "does not pay")
    ko = act(client, sid, {"type": "spend", "heroes": {"po": ["Kick", "Kick", "Punch", "Punch"]}, "for": "knock-out", "enemy": "wolf-boss"})
    knocked = next(e for e in ko["events"] if e["type"] == "EnemyKnockedOut")["payload"]["change"]
    assert knocked["cost_known"] is True and "wolf-boss" not in ko["state"]["game"]["figures"]


def test_the_break_in_stairs_open_only_after_both_levers(client):
    """1.2: 'The heroes cannot gain entry to the first stairs tile until they have activated both levers – located
    on the Flagstone tiles which contain spawn points 2 and 4 ... 1x Chi and 2x Punch' (L268)."""
    cid, sid = _mission(client, "m1-2", {"tiles": {"po": "i", "tigress": "k"}, "spawn_points": {"2": "l", "4": "O"}})
    # each hero begins on a Monastery Bed (L281); the first round, summarised, takes them onto the levers' tiles
    act(client, sid, {"type": "round-summary", "moved": {"po": "l", "tigress": "O"}})
    act(client, sid, {"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Chi"]}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Chi", "Punch", "Punch", "Move"]})
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "move", "to": "m"}, "locked until both levers")
    act(client, sid, {"type": "spend", "heroes": {"po": ["Chi", "Punch", "Punch"]}, "for": "token", "token": "lever"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Chi", "Punch", "Punch"]})
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Chi", "Punch", "Punch"]}, "for": "token", "token": "lever"}, "no lever left to activate on Flagstones 1 (l)")
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "move", "to": "m"}, "locked until both levers")
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Punch", "Punch", "Kick"]})
    opened = act(client, sid, {"type": "spend", "heroes": {"tigress": ["Chi", "Punch", "Punch"]}, "for": "token", "token": "lever"})
    assert sorted(opened["state"]["game"]["levers"]) == ["O", "l"]
    assert act(client, sid, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "move", "to": "m"})["state"]["game"]["heroes"]["po"]["tile"] == "m"


def test_change_of_guard_gongs_the_guard_wall_pause_and_no_spawns_on_the_wall(client):
    """2.2: a gong moves an Ox Grunt between the guard wall and spawn point 6 (L334); each Claws in the pause moves one
    from spawn point 6 to the guard wall (L346); enemies cannot spawn on the guard wall (L343)."""
    setup = {"start_tile": "I", "end_tile": "t", "guard_wall": "c", "spawn_points": {"6": "N", "3": "c"}, "enemies": {"c": {"ox-grunt": 3, "wolf-boss": 1}}}
    cid, sid = _mission(client, "m2-2", setup)
    assert _game(client, sid)["figures"] == {"wolf-boss": "c"}
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Chi", "Punch", "Claws", "Move"]})
    skipped = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 3}]})
    assert skipped["events"][-1]["payload"]["change"]["reason"] == "guard-wall"
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Chi", "Punch"]}, "for": "token", "token": "gong", "to": "s"}, "not to Gatehouse (s)")
    struck = act(client, sid, {"type": "spend", "heroes": {"po": ["Chi", "Punch"]}, "for": "token", "token": "gong", "to": "N"})
    assert kinds(struck)[-1] == "OxGruntMoved" and struck["state"]["game"]["enemies"]["N"] == {"ox-grunt": 1}
    act(client, sid, {"type": "end-round"})
    paused = act(client, sid, {"type": "pause", "faces": {"po": ["Claws"], "tigress": ["Claws"]}})
    moved = paused["events"][-1]["payload"]["change"]
    assert moved == {"kind": "ox-grunt-moved", "from": "N", "to": "c", "count": 1, "cause": "pause"}  # only one was on 6
    assert paused["state"]["game"]["enemies"] == {"c": {"ox-grunt": 3, "wolf-boss": 1}}


def test_young_masters_may_ignore_claws_effects_but_still_use_the_play_space(client):
    """'You can also choose to ignore Claws effects and use the Play space on the Dial of Destiny if you want to' (L204)."""
    setup = {"start_tile": "n", "enemies": {"n": {"wolf-spearman": 2}}}
    cid, standard = _mission(client, "m1-1", setup)
    act(client, standard, {"type": "start-round"})
    act(client, standard, {"type": "roll", "hero": "po", "faces": ["Claws", "Kick", "Kick", "Move"]})
    _refused(client, standard, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "fight-back"}], "ignore_effects": True}, "Only Young Masters")
    young = campaign(client, {"length": "single", "mission": "m1-1", "mode": "young-masters"})
    sid = start(client, young, "m1-1", {**setup, "special_moves": PAIR})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Kick", "Kick", "Move"]})
    ignored = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "fight-back"}], "ignore_effects": True})
    assert kinds(ignored) == ["ActionTaken", "DialAdvanced"] and ignored["events"][-1]["payload"]["change"]["ignored"] is True
    assert ignored["state"]["game"]["heroes"]["po"]["health"] == 4


def test_rickshaw_chase_the_line_shifts_and_the_kitchen_is_lost(app, client):
    """1.3: the Wolf Boss moves along the line (L289); from the last tile the leftmost tile goes in front of him, its
    enemies discarded and its heroes moved forward (L290); the Kitchen reaching the beginning is lost with the
    dumplings (L291); a pause moves him back toward the beginning (L303)."""
    setup = {"start_tile": "d", "line": ["d", "J", "q", "R", "n"], "figures": {"wolf-boss": "R"}, "enemies": {"d": {"wolf-spearman": 1}}}
    cid, sid = _mission(client, "m1-3", setup)
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Claws", "Chi", "Chi"]})
    _refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "to": "q"}, {"space": "blank"}]}, "moves forward to Market 1 (n), not Market 2 (q)")
    shifted = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play"}, {"space": "play"}]})
    assert kinds(shifted) == ["ActionTaken", "DialAdvanced", "PlayEffectResolved", "DialAdvanced", "TileCycled", "KitchenLost", "PlayEffectResolved"]
    cycled = shifted["events"][4]["payload"]["change"]
    assert cycled["discarded"] == {"wolf-spearman": 1} and cycled["heroes_moved"] == {"po": "J", "tigress": "J"}
    lost = shifted["events"][5]["payload"]["change"]
    assert lost["dumplings_lost"] is True and lost["heroes_moved"] == {"po": "q", "tigress": "q"}
    game = shifted["state"]["game"]
    assert game["line"] == ["q", "R", "n", "d"] and game["figures"]["wolf-boss"] == "d" and game["enemies"] == {"d": {"wolf-boss": 1}}
    assert game["heroes"]["po"]["tile"] == "q"
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Move", "Chi", "Chi", "Kick"]})
    _refused(client, sid, {"type": "spend", "heroes": {"tigress": ["Move"]}, "for": "move", "to": "J"}, "no longer on the board")
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Chi", "Chi"]}, "for": "token", "token": "dumplings"}, "Kitchen was lost")
    act(client, sid, {"type": "end-round"})
    back = act(client, sid, {"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Chi"]}})
    assert back["state"]["game"]["figures"]["wolf-boss"] == "n" and back["state"]["game"]["enemies"] == {"n": {"wolf-boss": 1}}
    app.extensions["tracker_views"].catch_up()
    lines = [e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=1000").json["entries"]]
    assert "The Kitchen reached the beginning of the line and was lost with the dumplings" in lines
    assert "The Long Market (d) tile moved in front of the Wolf Boss; discarded Wolf Spearman 1" in lines  # names, not a dict


def test_village_attacked_all_ox_grunts_move_toward_the_villagers(client):
    """3.1: 'move ALL Ox Grunts one space closer to the villagers' (L384); an enemy on a villager's tile loses it (L375)."""
    setup = {"start_tile": "n", "villagers": {"v": "q"}, "enemies": {"s": {"ox-grunt": 2}, "R": {"ox-grunt": 1}}}
    cid, sid = _mission(client, "m3-1", setup)
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Chi", "Chi", "Kick"]})
    _refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "grunts": [{"from": "s", "to": "R", "count": 2}]}]}, "Move ALL Ox Grunts")
    lost = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "play", "grunts": [{"from": "s", "to": "R", "count": 2}, {"from": "R", "to": "q"}]}]})
    assert lost["state"]["game"]["enemies"] == {"R": {"ox-grunt": 2}, "q": {"ox-grunt": 1}}
    assert lost["events"][-2]["payload"]["change"]["condition"] == "enemy-with-villager" and "L375" in lost["state"]["verdict"]["reason"]


def test_village_attacked_overflow_keeps_selecting_tiles_toward_the_villagers(client):
    """3.1: 'Any further enemies spawn on the next square closest to the villager. Keep selecting new tiles each time
    one gets filled up' (L385); elsewhere a full tile with no room around means no spawn (L126)."""
    setup = {"start_tile": "n", "spawn_points": {"1": "d"}, "villagers": {"v": "q"}, "enemies": {"d": {"wolf-spearman": 3}, "L": {"wolf-slasher": 3}}}
    cid, sid = _mission(client, "m3-1", setup)
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Claws", "Chi", "Chi", "Kick"]})
    spawn = {"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 1}
    _refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [spawn]}, "Long Market (d) is full: name the next tile toward the villagers")
    _refused(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{**spawn, "spread_to": "L"}]}, "Shop (L) is full too")
    spread = act(client, sid, {"type": "resolve-claws", "hero": "po", "spaces": [{**spawn, "spread_to": "R"}]})
    assert spread["state"]["game"]["enemies"]["R"] == {"wolf-spearman": 1}

    cid, other = _mission(client, "m1-1", {**setup, "villagers": {}})
    act(client, other, {"type": "start-round"})
    act(client, other, {"type": "roll", "hero": "po", "faces": ["Claws", "Chi", "Chi", "Kick"]})
    skipped = act(client, other, {"type": "resolve-claws", "hero": "po", "spaces": [spawn]})
    assert skipped["events"][-1]["payload"]["change"]["reason"] == "tile-full"
    _refused(client, other, {"type": "correct", "refers_to": 1, "reason": "moved", "amend": {"tiles": {"po": "E"}}}, "Mission 1.1 has no tile Long Bridge 1 (E)")


def test_a_board_laid_out_already_failing_is_a_set_up_mistake(client):
    cid = campaign(client, {"length": "single", "mission": "m3-1"})
    setup = {"start_tile": "n", "villagers": {"v": "q"}, "enemies": {"q": {"ox-grunt": 1}}, "special_moves": PAIR}
    refused = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m3-1", "setup": setup})
    assert refused.status_code == 422 and "already fails Mission 3.1" in refused.json["title"] and "L375" in refused.json["detail"]


def test_the_tiles_a_missions_specials_act_on_are_placed_at_set_up(client):
    """1.2's levers are on the tiles of spawn points 2 and 4 (L268); 2.2's gongs and pause act on the guard wall and
    spawn point 6 (L334, L346): the lost map would show them, so the table names them before the first round."""
    cid = campaign(client, {"length": "single", "mission": "m1-2"})
    refused = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m1-2", "setup": {"start_tile": "i", "spawn_points": {"2": "l"}, "special_moves": PAIR}})
    assert refused.status_code == 422 and refused.json["title"] == "Place spawn points 4 of Mission 1.2"
    cid = campaign(client, {"length": "single", "mission": "m2-2"})
    refused = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m2-2", "setup": {"start_tile": "I", "end_tile": "t", "spawn_points": {"6": "N"}, "special_moves": PAIR}})
    assert refused.status_code == 422 and "guard wall" in refused.json["title"]


def _won(client, sid, line):
    decided = act(client, sid, {"type": "mission-won"})
    assert decided["state"]["verdict"]["outcome"] == "victory" and line in decided["state"]["verdict"]["reason"]
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory"}).status_code == 200
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


def test_adventure_two_and_wolf_boss_attack_won_in_detail(client):
    # 2.1: both heroes over the Great Wall by the cart to the end tile (L309, L312)
    cid, sid = _mission(client, "m2-1", {"start_tile": "h", "end_tile": "D", "carts": {"cart-1": "h"}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Move", "Move", "Move"]})
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Chi", "Move", "Move"]})
    act(client, sid, {"type": "spend", "heroes": {"po": ["Move"] * 4, "tigress": ["Chi", "Chi"]}, "for": "token", "token": "cart", "cart": "cart-1", "to": "c"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Move", "Kick", "Kick"]})
    for hero in ("po", "tigress"):
        act(client, sid, {"type": "spend", "heroes": {hero: ["Move"]}, "for": "move", "to": "c"})
        act(client, sid, {"type": "spend", "heroes": {hero: ["Move"]}, "for": "move", "to": "D"})
    _won(client, sid, "L309")

    # 2.2: the scroll read by both heroes, then both on the end tile (L329)
    cid, sid = _mission(client, "m2-2", {"start_tile": "t", "end_tile": "s", "guard_wall": "c", "spawn_points": {"6": "N"}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Chi", "Chi", "Chi", "Chi"]})
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Chi", "Chi", "Move", "Kick"]})
    act(client, sid, {"type": "spend", "heroes": {"po": ["Chi"] * 4, "tigress": ["Chi", "Chi"]}, "for": "token", "token": "scroll"})
    _refused(client, sid, {"type": "mission-won"}, "not on the end tile, Gatehouse (s)")
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Kick", "Kick", "Kick"]})
    for hero in ("po", "tigress"):
        act(client, sid, {"type": "spend", "heroes": {hero: ["Move"]}, "for": "move", "to": "s"})
    _won(client, sid, "L329")

    # 2.3: all players on the end tile before Tai Lung (L352)
    cid, sid = _mission(client, "m2-3", {"start_tile": "t", "end_tile": "s", "figures": {"tai-lung": "m"}})
    act(client, sid, {"type": "start-round"})
    for hero in ("po", "tigress"):
        act(client, sid, {"type": "roll", "hero": hero, "faces": ["Move", "Kick", "Kick", "Kick"]})
        act(client, sid, {"type": "spend", "heroes": {hero: ["Move"]}, "for": "move", "to": "s"})
    _won(client, sid, "L352")

    # 3.2: reach the Wolf Boss and KO him (L393); his KO cost is lost, so the table's spend stands, marked unchecked
    cid, sid = _mission(client, "m3-2", {"start_tile": "a", "villagers": {"ling": "R"}, "figures": {"wolf-boss": "q"}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Kick", "Kick", "Punch"]})
    _refused(client, sid, {"type": "spend", "heroes": {"po": ["Kick", "Kick"]}, "for": "knock-out", "enemy": "wolf-boss"}, "There are 0 Wolf Boss on Long Rooftops 2 (a)")
    act(client, sid, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "move", "to": "q"})
    act(client, sid, {"type": "spend", "heroes": {"po": ["Kick", "Kick", "Punch"]}, "for": "knock-out", "enemy": "wolf-boss"})
    _won(client, sid, "L393")


def test_a_pause_spawns_where_the_mission_text_says(client):
    """1.2: 'spawn an additional Ox Grunt on the Jade Gallery' (L280); 2.1: '2 additional Slashers on the end tile'
    (L323); 3.1: 'spawn 1x Ox Grunt on either the Rooftops or the Flagstones tile' (L387): the table names no
    other tile."""
    cid, sid = _mission(client, "m1-2", {"start_tile": "i", "spawn_points": {"2": "l", "4": "O"}})
    act(client, sid, {"type": "round-summary"})
    _refused(client, sid, {"type": "pause", "faces": {"po": ["Claws"], "tigress": ["Claws"]}, "tile": "l"}, "The Ox Grunt spawn on Jade Gallery (C), not Flagstones 1 (l)")
    grunt = act(client, sid, {"type": "pause", "faces": {"po": ["Claws"], "tigress": ["Claws"]}})
    assert grunt["state"]["game"]["enemies"] == {"C": {"ox-grunt": 1}}

    cid, sid = _mission(client, "m2-1", {"start_tile": "h", "end_tile": "R"})
    act(client, sid, {"type": "round-summary"})
    _refused(client, sid, {"type": "pause", "faces": {"po": ["Claws"], "tigress": ["Claws"]}, "tile": "s"}, "The Wolf Slasher spawn on Market 3 (R), not Gatehouse (s)")
    slashers = act(client, sid, {"type": "pause", "faces": {"po": ["Claws"], "tigress": ["Claws"]}})
    assert slashers["state"]["game"]["enemies"] == {"R": {"wolf-slasher": 2}}

    # 3.1 lists no Rooftops tile (its tiles end in GAP-31), so the Flagstones tile (O) is the one left
    cid, sid = _mission(client, "m3-1", {"start_tile": "n", "villagers": {"v": "K"}})
    act(client, sid, {"type": "round-summary"})
    _refused(client, sid, {"type": "pause", "faces": {"po": ["Claws"]}, "tile": "d"}, "The Ox Grunt spawn on Flagstones 2 (O), not Long Market (d)")
    on_flagstones = act(client, sid, {"type": "pause", "faces": {"po": ["Claws"]}})
    assert on_flagstones["state"]["game"]["enemies"] == {"O": {"ox-grunt": 1}}


def test_the_guard_wall_is_a_great_wall_tile(client):
    """2.2: 'the guard wall (the leftmost Great Wall tile)' (L334): which Great Wall is leftmost is the lost map's to
    say, but no other kind of tile can be it."""
    cid = campaign(client, {"length": "single", "mission": "m2-2"})
    setup = {"start_tile": "t", "end_tile": "s", "guard_wall": "N", "spawn_points": {"6": "l"}, "special_moves": PAIR}
    refused = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m2-2", "setup": setup})
    assert refused.status_code == 422 and refused.json["title"] == "The guard wall of Mission 2.2 is a Great Wall tile, not Dragon Statues (N)"
    assert "Great Wall 2 (D) or Great Wall 1 (c)" in refused.json["detail"] and refused.mimetype == "application/problem+json"
    assert client.get(f"/campaigns/{cid}").json["sessions"] == []


def test_levers_activated_in_a_round_summary_open_the_stairs(client):
    """1.2: 'The heroes cannot gain entry to the first stairs tile until they have activated both levers – located
    on the Flagstone tiles which contain spawn points 2 and 4 ... while on each lever's tile' (L268), entered as
    round summaries: a lever is the one where its hero stood, and the stairs stay shut until both are pulled."""
    cid, sid = _mission(client, "m1-2", {"tiles": {"po": "i", "tigress": "k"}, "spawn_points": {"2": "l", "4": "O", "5": "f"}})
    _refused(client, sid, {"type": "round-summary", "moved": {"po": "m"}}, "The stairs, Temple Steps (m), are locked until both levers are activated")
    _refused(client, sid, {"type": "round-summary", "moved": {"po": "l"}, "tokens": [{"token": "lever", "by": "tigress"}]}, "no lever left to activate where Tigress stood")
    one = act(client, sid, {"type": "round-summary", "moved": {"po": "l", "tigress": "O"}, "tokens": [{"token": "lever", "by": "po"}]})
    assert one["state"]["game"]["levers"] == ["l"]
    act(client, sid, {"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Chi"]}})
    _refused(client, sid, {"type": "round-summary", "tokens": [{"token": "lever", "by": "po"}]}, "no lever left to activate where Po stood")
    _refused(client, sid, {"type": "round-summary", "moved": {"po": "m"}}, "locked until both levers")
    # Tigress pulls hers on O, then the two climb the stairs in the same round
    both = act(client, sid, {"type": "round-summary", "moved": {"po": "m", "tigress": "m"}, "tokens": [{"token": "lever", "by": "tigress"}]})
    game = both["state"]["game"]
    assert sorted(game["levers"]) == ["O", "l"] and {h["tile"] for h in game["heroes"].values()} == {"m"}
    lever = next(e for e in both["events"] if e["type"] == "TokenCollected")["payload"]["change"]
    assert lever == {"kind": "token-collected", "token": "lever", "tile": "O", "by": "tigress", "entry": "summary"}
    act(client, sid, {"type": "pause", "faces": {"po": ["Chi"], "tigress": ["Chi"]}})
    lost = act(client, sid, {"type": "round-summary"})  # the scroll still unread: "You lose if you run out of time" (L265)
    assert lost["state"]["verdict"]["outcome"] == "defeat" and "L193" in lost["state"]["verdict"]["reason"]
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "defeat"}).status_code == 200
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"


# -- a campaign pinned to an earlier version ----------------------------------------


def test_a_campaign_pinned_to_1_0_0_is_judged_by_1_0_0_s_missions(client, monkeypatch):
    """1.0.0's missions state no win_conditions (1.1.0 added them, each checked against the board): a campaign pinned
    to 1.0.0 plays by its pinned data throughout, the game rules' verdicts and end refusals included, not by today's."""
    rulesets.archived.cache_clear()
    old = next(ruleset for ruleset in rulesets.archived("kung-fu-panda") if ruleset.version == "1.0.0")
    assert "win_conditions" not in old.quest("m1-3") and "win_conditions" in rulesets.get("kung-fu-panda").quest("m1-3")
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, "kung-fu-panda": old})  # a server from before 1.1.0
    cid, sid = _mission(client, "m1-3", {"start_tile": "d", "figures": {"wolf-boss": "q"}})
    monkeypatch.undo()  # today's server: the campaign stays pinned to 1.0.0
    rulesets.archived.cache_clear()
    assert client.get(f"/campaigns/{cid}").json["ruleset"] == old.pin
    # today's m1-3 would refuse it as "the Wolf Boss is not knocked out" (L286), a condition 1.0.0 does not state
    _end_refused(client, sid, "victory", "Mission 1.3's win is not recorded: declare it with mission-won")
    act(client, sid, {"type": "start-round"})
    decided = act(client, sid, {"type": "mission-won"})["state"]["verdict"]
    # 1.0.0 states the mission's win alone, not today's "Knocking out the Wolf Boss (L286)"
    assert decided["outcome"] == "victory" and decided["reason"] == "Mission 1.3 won in round 1: KO the Wolf Boss before the end of 3 rounds. (L282-L304)"
    assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory"}).status_code == 200
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified"
