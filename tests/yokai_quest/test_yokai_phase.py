"""The Yōkai phase through the API on SQLite and PostgreSQL: the yōkai-wind coins, appearance cards at matching points,
the miniature cap, scripted spawns and the refill, yōkai in play, initiative, and paralysis and champion tokens."""

from __future__ import annotations

from tests.kit.yokai_quest import (
    act,
    begin_yokai_phase,
    clear,
    create_campaign,
    enter,
    finish_hero_phase,
    game,
    refused_saying as _refused,
    spawn,
    start,
    strike,
    yokai_phase,
)

S1 = "shake-them-skeleton-bones-1"
HIT = {"attack_faces": {"red": ["katana"]}, "defense_faces": {"blue": []}}


def _phase(client, sid, **body):
    finish_hero_phase(client, sid)
    return act(client, sid, {"type": "begin-yokai-phase", **body})["state"]["game"]


def test_the_red_blue_coin_turns_every_phase_and_its_lost_first_face_is_stated_once(client):
    """L166: "the Red/Blue yōkai winds coin is turned every time"; the scenes do not give the starting faces."""
    sid = start(client, create_campaign(client)["id"], S1)
    finish_hero_phase(client, sid)
    _refused(client, sid, {"type": "begin-yokai-phase"}, "Say which face the red-blue coin shows")
    first = _phase(client, sid, coins={"red-blue": "red"})
    assert first["coins"]["red-blue"] == "red" and first["appearances_left"] == ["red"] and first["phase"] == "yokai"
    _refused(client, sid, {"type": "begin-yokai-phase"}, "The Yōkai phase of turn 1 has begun")
    act(client, sid, {"type": "draw-appearance", "point": "red"})
    act(client, sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": {}})
    act(client, sid, {"type": "end-turn"})
    finish_hero_phase(client, sid)
    _refused(client, sid, {"type": "begin-yokai-phase", "coins": {"red-blue": "red"}}, "The red-blue coin shows blue")
    second = _phase(client, sid)
    assert second["coins"]["red-blue"] == "blue" and second["appearances_left"] == ["blue"]


def test_the_green_yellow_coin_turns_where_the_scene_says(client):
    """The True Culprits 1: "Green/yellow coin is turned every turn" (L866); scene 2: "Every time a yōkai is defeated" (L890)."""
    cid = create_campaign(client, {"story": "the-true-culprits"})["id"]
    sid = start(client, cid, "the-true-culprits-1")
    finish_hero_phase(client, sid)
    _refused(client, sid, {"type": "begin-yokai-phase", "coins": {"red-blue": "red"}}, "Say which face the green-yellow coin shows")
    first = _phase(client, sid, coins={"red-blue": "red", "green-yellow": "green"})
    assert first["coins"] == {"red-blue": "red", "green-yellow": "green"} and first["appearances_left"] == ["red", "green"]
    for point in ("red", "green"):
        act(client, sid, {"type": "draw-appearance", "point": point})
        act(client, sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": {}})
    act(client, sid, {"type": "end-turn"})
    assert _phase(client, sid)["coins"] == {"red-blue": "blue", "green-yellow": "yellow"}

    sid = start(client, create_campaign(client, {"story": "the-true-culprits"})["id"], "the-true-culprits-1")
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "akatsume-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 2}, "defense_faces": {"blue": []}}]})
    clear(client, sid)
    act(client, sid, {"type": "end-scene", "outcome": "victory"})
    cid = client.get(f"/sessions/{sid}").json["campaign_id"]
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory"})
    evil = start(client, cid, "the-true-culprits-2")
    spawn(client, evil, {"yoroi": 1})  # the phase states green for the green/yellow coin (blue, yellow, green points)
    struck = strike(client, evil, "ryo", ["yoroi"])
    turned = next(e["payload"]["change"] for e in struck["events"] if e["type"] == "CoinTurned")
    assert turned["face"] == "yellow" and "L890" in turned["reason"]


def test_appearance_cards_place_yokai_up_to_the_miniatures(client):
    """L166: a card per matching point; "If you find there are no more miniatures ... discard the new apparitions"."""
    sid = start(client, create_campaign(client)["id"], S1)
    _refused(client, sid, {"type": "draw-appearance", "point": "red"}, "happens in the Yōkai phase")
    _phase(client, sid, coins={"red-blue": "red"})
    _refused(client, sid, {"type": "draw-appearance", "point": "blue"}, "Cards due this Yōkai phase, one per point matching a coin: red")
    _refused(client, sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": {"hone-bushi": 1}}, "No appearance card waits")
    drawn = act(client, sid, {"type": "draw-appearance", "point": "red"})
    card = next(e["payload"]["change"]["card"] for e in drawn["events"] if e["type"] == "AppearanceDrawn")
    assert card in {f"A{n}" for n in range(1, 9)}  # the scene's cards, A1 to A8 (L803)
    _refused(client, sid, {"type": "end-turn"}, "An appearance card waits to be placed")
    _refused(client, sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": {"tengu": 1}}, "Tengu is not a yōkai")
    placed = act(client, sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": {"hone-bushi": 10}})
    change = next(e["payload"]["change"] for e in placed["events"] if e["type"] == "YokaiAppeared")
    assert change["yokai"] == {"hone-bushi": 8} and change["discarded"] == {"hone-bushi": 2}  # eight miniatures (L88-L128)
    assert placed["state"]["game"]["in_play"] == {"hone-bushi": 8}
    assert placed["state"]["decks"]["appearance"]["discard_pile"] == [card] and placed["state"]["decks"]["appearance"]["held"] == {}
    act(client, sid, {"type": "end-turn"})


def test_scripted_spawns_come_on_their_turns_in_their_number(client):
    """L806 "During turns 2, 5 and 7 appear Hone Bushi by the purple point in number half the heroes represented.\""""
    sid = start(client, create_campaign(client)["id"], S1)
    first = _phase(client, sid, coins={"red-blue": "red"})
    assert first["spawns_left"] == []
    _refused(client, sid, {"type": "yokai-appear", "by": "hone-bushi-on-turns-2-5-7", "yokai": {"hone-bushi": 1}}, "is not an appearance due now")
    act(client, sid, {"type": "draw-appearance", "point": "red"})
    act(client, sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": {}})
    act(client, sid, {"type": "end-turn"})
    assert _phase(client, sid)["spawns_left"] == ["hone-bushi-on-turns-2-5-7"]
    _refused(client, sid, {"type": "yokai-appear", "by": "hone-bushi-on-turns-2-5-7", "yokai": {"hone-bushi": 2}}, "places 1 Hone Bushi")
    placed = act(client, sid, {"type": "yokai-appear", "by": "hone-bushi-on-turns-2-5-7", "yokai": {"hone-bushi": 1}})
    assert placed["state"]["game"]["in_play"] == {"hone-bushi": 1} and "L806" in placed["events"][-1]["payload"]["change"]["reason"]
    ended = act(client, sid, {"type": "end-turn"})  # the blue card was not drawn: the log says so
    phase_end = next(e["payload"]["change"] for e in ended["events"] if e["type"] == "YokaiPhaseEnded")
    assert phase_end["not_placed"] == {"appearance_points": ["blue"]}


def test_the_obake_dono_refill_of_rain_of_flames(client):
    """L935 "if there is no Obake Dono or only one on the board, place one\""""
    sid = start(client, create_campaign(client, {"story": "rain-of-flames"})["id"], "rain-of-flames-1")
    assert game(client, sid)["in_play"] == {"obake-dono": 2}
    assert _phase(client, sid, coins={"red-blue": "red", "green-yellow": "green"})["refill_left"] == 0
    _refused(client, sid, {"type": "yokai-appear", "by": "refill", "yokai": {"obake-dono": 1}}, "No refill is due")
    for point in game(client, sid)["appearances_left"]:
        act(client, sid, {"type": "draw-appearance", "point": point})
        act(client, sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": {}})
    act(client, sid, {"type": "end-turn"})
    strike(client, sid, "ryo", ["obake-dono"])  # in turn 2's Hero phase: one Obake Dono is left
    assert _phase(client, sid)["refill_left"] == 1
    refilled = act(client, sid, {"type": "yokai-appear", "by": "refill", "yokai": {"obake-dono": 1}})
    assert refilled["state"]["game"]["in_play"]["obake-dono"] == 2


def test_only_yokai_in_play_attack_or_are_defeated(client):
    sid = start(client, create_campaign(client)["id"], S1)
    enter(client, sid, "ryo")  # on the board (L214)
    _refused(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", **HIT}]}, "No Hone Bushi is in play")
    _refused(client, sid, {"type": "attack", "attacker": "yurei", "targets": [{"defender": "ryo", **HIT}]}, "No yurei is in play")
    spawn(client, sid, {"hone-bushi": 2})
    strike(client, sid, "ryo", ["hone-bushi", "hone-bushi"])
    refused = _refused(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "hone-bushi", **HIT}]}, "No Hone Bushi is in play")
    assert "Yōkai in play: none" in refused["detail"]


def test_paralysis_and_champion_tokens_last_to_the_end_of_the_yokai_phase(client):
    """L612-L614: "At the end of the Yōkai phase in each turn, all paralysis and empowerment tokens are removed."; a yōkai
    acts in the Yōkai phase only (L192), not while paralysed (L610)."""
    sid = start(client, create_campaign(client)["id"], S1)
    spawn(client, sid, {"hone-bushi": 2})
    _refused(client, sid, {"type": "yokai-token", "yokai": "yurei", "token": "paralysis"}, "not in play")
    act(client, sid, {"type": "yokai-token", "yokai": "hone-bushi", "token": "paralysis", "count": 2, "source": "Fubuki no Majo"})
    _refused(client, sid, {"type": "yokai-token", "yokai": "hone-bushi", "token": "paralysis"}, "already holding a paralysis token")
    strike(client, sid, "ryo", ["hone-bushi"])
    assert game(client, sid)["yokai_tokens"]["paralysis"] == {"hone-bushi": 1}  # the token left with the defeated yōkai
    smash = {"type": "attack", "attacker": "hone-bushi", "targets": [{"defender": "ami", **HIT}]}
    _refused(client, sid, smash, "Hone Bushi attacks in the Yōkai phase")  # L192: "only once per turn, during the Yōkai phase"
    begin_yokai_phase(client, sid)
    paralysed = _refused(client, sid, smash, "Every Hone Bushi in play is paralysed")  # L610 "preventing their activation"
    assert "L610" in paralysed["detail"]
    ended = yokai_phase(client, sid)
    phase_end = next(e["payload"]["change"] for e in ended["events"] if e["type"] == "YokaiPhaseEnded")
    assert phase_end["tokens_removed"] == {"paralysis": {"hone-bushi": 1}} and ended["state"]["game"]["yokai_tokens"] == {"paralysis": {}, "champion": {}}
    begin_yokai_phase(client, sid)  # the token is gone: the Hone Bushi acts in the next Yōkai phase
    act(client, sid, smash)


def test_initiative_orders_the_yokai_in_play_and_the_chief(client):
    """L168, L582-L588: highest initiative first; ties are the players' to order. Lair of Anger 1 starts with two Yoroi
    (1) and two Yurei (6); Shake 3's Undead Dark Champion has initiative 6 (L839)."""
    sid = start(client, create_campaign(client, {"story": "lair-of-anger"})["id"], "lair-of-anger-1")
    finish_hero_phase(client, sid)
    began = act(client, sid, {"type": "begin-yokai-phase", "coins": {"red-blue": "red", "green-yellow": "green"}})
    change = next(e["payload"]["change"] for e in began["events"] if e["type"] == "YokaiPhaseBegan")
    assert change["initiative"] == [["yurei"], ["yoroi"]]
    assert change["spawns_due"] == ["obake-every-turn", "yurei-every-turn"]


def test_a_scene_ends_when_no_yokai_are_left_unless_the_next_keeps_the_board(client):
    """L753 "When there are no more yōkai left to fight, the scene ends"; Shake 1 goes on "immediately, keeping the board
    and miniatures on it" (L807): its yōkai stay in play in scene 2, and a reattempt restores them (L772)."""
    cid = create_campaign(client, {"story": "the-true-culprits"})["id"]
    sid = start(client, cid, "the-true-culprits-1")
    assert game(client, sid)["in_play"] == {"akatsume-ninja": 2}
    act(client, sid, {"type": "attack", "attacker": "ryo", "targets": [{"defender": "akatsume-dark-champion", "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 2}, "defense_faces": {"blue": []}}]})
    _refused(client, sid, {"type": "end-scene", "outcome": "victory"}, "Yōkai are still left to fight")
    strike(client, sid, "ryo", ["akatsume-ninja"] * 2)
    assert act(client, sid, {"type": "end-scene", "outcome": "victory"})["state"]["verdict"]["outcome"] == "victory"

    cid = create_campaign(client)["id"]
    sid = start(client, cid, S1)
    spawn(client, sid, {"hone-bushi": 8})
    strike(client, sid, "ryo", ["hone-bushi"] * 8)
    spawn(client, sid, {"hone-bushi": 7})
    strike(client, sid, "ryo", ["hone-bushi"] * 4)
    act(client, sid, {"type": "end-scene", "outcome": "victory"})  # three Hone Bushi still dance: scene 2 follows at once
    while owed := game(client, sid)["treasure_owed"]:
        act(client, sid, {"type": "draw-treasure", "hero": owed[0]["hero"], "card": "Nigiri"})
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory"})
    second = start(client, cid, "shake-them-skeleton-bones-2")
    assert game(client, second)["board_kept"] is True and game(client, second)["in_play"] == {"hone-bushi": 3}
    strike(client, second, "ryo", ["hone-bushi"])
    act(client, second, {"type": "end-scene", "outcome": "failed", "reason": "the table stops"})
    client.post(f"/sessions/{second}/end", json={"outcome": "defeat"})
    again = start(client, cid, "shake-them-skeleton-bones-2")
    assert game(client, again)["in_play"] == {"hone-bushi": 3}  # "All elements are restored to the starting points" (L772)


def test_the_chief_a_scene_brings_in_arrives_on_its_turn_once(client):
    """Frozen Tracks 2, L1014 "On turn 5 an Undead Dark Champion and two Hone Bushi appear on the Hero entrance point";
    the Crystal Sphere is there from the beginning (L1015), and scripted appearances come in the Yōkai phase (L166)."""
    from tests.kit.yokai_quest_table import Table

    table = Table(client)
    sid = table.reach("frozen-tracks-2")
    assert table.scene["chief"]["arrives"]["turn"] == 5 and table.scene["chief"]["arrives"]["source"] == "L1014"
    early = _refused(client, sid, {"type": "foe-appeared", "foe": "undead-dark-champion"}, "arrives in the Yōkai phase of turn 5")
    assert "This is turn 1, hero phase" in early["detail"]
    _refused(client, sid, {"type": "foe-appeared", "foe": "crystal-sphere"}, "Crystal Sphere is on the board from the beginning")
    while table.state(sid)["turn"] < 5:
        table.yokai_phase(sid)
    finish_hero_phase(client, sid)
    _refused(client, sid, {"type": "foe-appeared", "foe": "undead-dark-champion"}, "This is turn 5, hero phase")
    began = _phase(client, sid)
    assert "hone-bushi-on-turn-5" in began["spawns_left"]
    arrived = act(client, sid, {"type": "foe-appeared", "foe": "undead-dark-champion"})
    assert arrived["state"]["game"]["foes"]["undead-dark-champion"] == {"character": "undead-dark-champion", "health": 8}
    _refused(client, sid, {"type": "foe-appeared", "foe": "undead-dark-champion"}, "arrives in the Yōkai phase of turn 5, once")


def test_minions_stop_them_places_a_yoroi_and_an_obake_dono(client):
    """Final Destination 2, L1081 "Minions! Stop them!: A Yoroi and an Obake Dono appear on the blue and red appearance
    points respectively": the Tengu's call, whose timing its lost flowchart decided, is due in every Yōkai phase."""
    from tests.kit.yokai_quest_table import Table

    table = Table(client)
    sid = table.reach("final-destination-2")
    finish_hero_phase(client, sid)
    began = act(client, sid, {"type": "begin-yokai-phase", "coins": {"red-blue": "red", "green-yellow": "green"}})["state"]["game"]
    assert began["spawns_left"] == ["minions-stop-them"]
    _refused(client, sid, {"type": "yokai-appear", "by": "minions-stop-them", "yokai": {"yoroi": 2, "obake-dono": 1}}, "places 1 yoroi")
    _refused(client, sid, {"type": "yokai-appear", "by": "minions-stop-them", "yokai": {"yoroi": 1}}, "places 1 yoroi")
    placed = act(client, sid, {"type": "yokai-appear", "by": "minions-stop-them", "yokai": {"yoroi": 1, "obake-dono": 1}})
    change = next(e["payload"]["change"] for e in placed["events"] if e["type"] == "YokaiAppeared")
    assert change["at"] == "blue and red" and "L1081" in change["reason"] and change["yokai"] == {"obake-dono": 1, "yoroi": 1}
    assert placed["state"]["game"]["spawns_left"] == []
