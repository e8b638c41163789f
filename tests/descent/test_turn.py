"""Descent's turn (rules 1.7.0 on, tracker/rulesets/descent/turn.py): the heroes' turns, then the overlord's (L264, L273,
L345), each hero once a turn; ``phase`` and ``allowed`` say whose turn it is and what may happen now, and who; an action
out of its moment is a 409 that says whose turn it is, in names, and what may happen now. Campaigns pinned to 1.5.0 play
as they were played: no turn, every action at any time."""

from __future__ import annotations

import re

import pytest

from tests.kit import session
from tests.kit.descent import SHEETS, campaign, placed, start
from tracker import rulesets

REPR = re.compile(r"[\[\]{}]|\bNone\b|\bTrue\b|\bFalse\b")


def _entries(state: dict, action_type: str) -> list[dict]:
    return [e for e in state["allowed"] if e["type"] == action_type]


def _who(state: dict, action_type: str) -> list[tuple]:
    return [(e["heroes"], e["side"]) for e in _entries(state, action_type)]


def _out_of_moment(client, sid: str, action: dict) -> dict:
    """A 409 problem, nothing appended, whose words hold no Python repr and no hero id where the game names him."""
    problem = session.refused(client, sid, action, status=409)
    said = " ".join([problem["title"], problem["detail"], *problem["errors"]["type"]])
    assert not REPR.search(said), said
    assert not re.search(r"(?<![\w-])(sir-valadir|tahlia|aurim)(?![\w-])", said), said  # names, never ids
    return problem


def _state(client, sid: str) -> dict:
    return session.read(client, sid)


def test_a_quest_opens_in_the_heroes_turns_and_the_overlords_start_of_turn_rules_wait_for_his(client):
    sid = start(client, campaign(client, ["tahlia", "sir-valadir"]), "thing-in-the-pit")
    state = _state(client, sid)
    assert state["phase"] == "heroes" and state["game"]["active"] is None and state["game"]["turns_taken"] == []
    # The table chooses which hero goes first: each of them may start his turn; no hero acts before his turn is under way.
    assert _who(state, "start-hero-turn") == [(["tahlia", "sir-valadir"], "heroes")]
    assert not _entries(state, "open-cell") and not _entries(state, "start-overlord-turn") and not _entries(state, "sacrifice-clock")
    # L345: the sacrifice clock runs "at the start of each of your turns", the overlord's, after the heroes' turns.
    problem = _out_of_moment(client, sid, {"type": "sacrifice-clock"})
    assert problem["title"].startswith("It is the heroes' turns of turn 1") and "the overlord's turn" in problem["title"]
    assert "Tahlia and Sir Valadir" in problem["title"] and "Tahlia and Sir Valadir may take “start hero turn”" in problem["detail"]
    assert problem["example"] == {"type": "start-hero-turn", "hero": "tahlia"}
    refused = _out_of_moment(client, sid, {"type": "open-cell", "cell": "cell-1", "hero": "sir-valadir"})
    assert "“open cell” by Sir Valadir is taken in the turn of the hero it names" in refused["title"]
    stranger = session.refused(client, sid, {"type": "start-hero-turn", "hero": "aurim"})
    assert stranger["title"] == "Aurim is not a hero in this quest" and stranger["detail"] == "The heroes: Tahlia and Sir Valadir."
    session.act(client, sid, refused["example"])  # the example is a body accepted now
    assert _state(client, sid)["game"]["active"] == "tahlia"


def test_each_hero_has_his_turn_then_the_overlord_his_and_the_turn_ends_with_the_overlords(app, client):
    sid = start(client, campaign(client, ["tahlia", "aurim"]), "mists-of-time", {"hero_sheets": SHEETS})
    session.act(client, sid, {"type": "start-hero-turn", "hero": "tahlia"})
    state = _state(client, sid)
    assert state["phase"] == "heroes" and state["game"]["active"] == "tahlia"
    assert _who(state, "ready") == [(["tahlia"], "heroes")] and _who(state, "end-hero-turn") == [(["tahlia"], "heroes")]
    assert not _entries(state, "start-hero-turn")  # one hero's turn at a time
    # Aurim waits for his own turn; the 409 names whose turn it is, and how it moves on.
    waiting = _out_of_moment(client, sid, {"type": "ready", "hero": "aurim", "half_actions": ["order", "move"], "order": "rest"})
    assert waiting["title"].startswith("It is Tahlia's turn (turn 1)") and "Tahlia's turn ends with “end hero turn”" in waiting["detail"]
    assert waiting["example"] == {"type": "end-hero-turn", "hero": "tahlia"}
    _out_of_moment(client, sid, {"type": "start-hero-turn", "hero": "aurim"})
    session.act(client, sid, {"type": "ready", "hero": "tahlia", "half_actions": ["order", "move"], "order": "rest"})
    session.act(client, sid, {"type": "end-hero-turn", "hero": "tahlia"})
    state = _state(client, sid)
    assert state["game"]["turns_taken"] == ["tahlia"] and _who(state, "start-hero-turn") == [(["aurim"], "heroes")]
    again = _out_of_moment(client, sid, {"type": "start-hero-turn", "hero": "tahlia"})  # each hero once a turn
    assert "Aurim still to have a turn" in again["title"]
    _out_of_moment(client, sid, {"type": "start-overlord-turn"})  # not before every hero has had his turn
    session.act(client, sid, {"type": "start-hero-turn", "hero": "aurim"})
    session.act(client, sid, {"type": "end-hero-turn", "hero": "aurim"})
    state = _state(client, sid)
    assert _who(state, "start-overlord-turn") == [(None, "overlord")] and not _entries(state, "start-hero-turn")
    session.act(client, sid, {"type": "start-overlord-turn"})
    state = _state(client, sid)
    assert state["phase"] == "overlord" and _who(state, "move-fissures") == [(None, "overlord")] and _who(state, "end-turn") == [(None, "overlord")]
    assert not _entries(state, "ready") and not _entries(state, "open-chest")
    assert not _entries(state, "sacrifice-clock") and not _entries(state, "zorek-gaze")  # other quests' start-of-turn rules
    hero_now = _out_of_moment(client, sid, {"type": "open-chest", "chest": "copper-2", "opener": "aurim"})
    assert hero_now["title"].startswith("It is the overlord's turn (turn 1)") and hero_now["example"] == {"type": "end-turn"}
    session.act(client, sid, {"type": "move-fissures", "faces": ["0D 2R", "1D 1R"]})  # L596: at the start of his turn
    ended = session.act(client, sid, {"type": "end-turn"})
    assert [e["type"] for e in ended["events"]][-2:] == ["OverlordTurnEnded", "TurnEnded"]
    state = ended["state"]
    assert state["turn"] == 2 and state["phase"] == "heroes" and state["game"]["turns_taken"] == [] and state["game"]["active"] is None
    assert _who(state, "start-hero-turn") == [(["tahlia", "aurim"], "heroes")]
    app.extensions["tracker_views"].catch_up()  # the timeline reads the turn in words (tests/test_timeline_sentences.py: every kind)
    lines = [e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=1000").json["entries"]]
    assert "Turn 1: Tahlia's turn began" in lines and "Turn 1: the overlord's turn ended, and with it the turn" in lines
    session.ruled_and_verified(client, sid)  # verification re-runs every action, its moment checked as it was played


def test_the_prolonged_order_token_goes_at_the_end_of_the_heros_turn(client):
    sid = start(client, campaign(client, ["tahlia", "aurim"]), "mists-of-time", {"hero_sheets": SHEETS})
    session.act(client, sid, {"type": "start-hero-turn", "hero": "aurim"})
    readied = session.act(client, sid, {"type": "ready", "hero": "aurim", "half_actions": ["order", "move"], "order": "prolonged"})
    assert "prolonged" in readied["state"]["game"]["heroes"]["aurim"]["orders"]
    # L144: "The prolonged order action is removed from the hero at the end of your turn."
    ended = session.act(client, sid, {"type": "end-hero-turn", "hero": "aurim"})
    assert session.change(ended, "HeroTurnEnded")["orders_removed"] == ["prolonged"]
    assert "prolonged" not in ended["state"]["game"]["heroes"]["aurim"]["orders"]
    session.act(client, sid, {"type": "start-hero-turn", "hero": "tahlia"})
    plain = session.act(client, sid, {"type": "end-hero-turn", "hero": "tahlia"})
    assert session.change(plain, "HeroTurnEnded")["orders_removed"] == []


def test_a_guard_order_lets_a_hero_attack_in_the_overlords_turn_and_monsters_attack_in_any(client):
    sid = start(client, campaign(client, ["tahlia", "aurim"]), "mists-of-time", {"hero_sheets": SHEETS})
    [troll] = placed(client, sid, {"monster": "troll", "wounds": 30, "armor": 1})  # monsters enter play whenever a zone is revealed
    swing = {"type": "attack", "attack_type": "melee", "faces": {"red": ["2D 1R"]}}
    session.act(client, sid, {**swing, "attacker": troll, "target": "tahlia"})  # a monster attacks in any moment (L577-L579)
    _out_of_moment(client, sid, {**swing, "attacker": "tahlia", "target": troll})  # no hero's turn under way
    session.act(client, sid, {"type": "start-hero-turn", "hero": "tahlia"})
    session.act(client, sid, {"type": "ready", "hero": "tahlia", "half_actions": ["order", "move"], "order": "guard"})
    session.act(client, sid, {"type": "end-hero-turn", "hero": "tahlia"})
    session.act(client, sid, {"type": "start-hero-turn", "hero": "aurim"})
    session.act(client, sid, {**swing, "attacker": "aurim", "target": troll})  # his own turn
    session.act(client, sid, {"type": "end-hero-turn", "hero": "aurim"})
    session.act(client, sid, {"type": "start-overlord-turn"})
    state = _state(client, sid)
    # L579: the ambush interrupts a hero's turn "in the same way that a guard order interrupts your turn"
    assert _who(state, "attack") == [(["tahlia"], "heroes"), (None, "overlord")]
    unguarded = _out_of_moment(client, sid, {**swing, "attacker": "aurim", "target": troll})
    assert "“attack” by Aurim" in unguarded["title"] and "a hero with a guard order" in unguarded["title"]
    session.act(client, sid, {**swing, "attacker": "tahlia", "target": troll})
    session.act(client, sid, {**swing, "attacker": troll, "target": "aurim"})


def test_table_records_and_corrections_stay_open_in_every_moment_and_undo_steps_back_through_the_turn(client):
    sid = start(client, campaign(client, ["tahlia"]), "mists-of-time", {"hero_sheets": {"tahlia": SHEETS["tahlia"]}})
    moments = [None, {"type": "start-hero-turn", "hero": "tahlia"}, {"type": "end-hero-turn", "hero": "tahlia"}, {"type": "start-overlord-turn"}]
    for coins, step in enumerate(moments, start=5):
        if step:
            session.act(client, sid, step)
        session.act(client, sid, {"type": "gain-threat", "source": "other", "amount": 1})
        session.act(client, sid, {"type": "correct", "hero": "tahlia", "field": "coins", "should_be": coins, "reason": "miscounted"})
        session.act(client, sid, {"type": "gain-curses", "hero": "tahlia", "count": 1, "source": "a trap"})
    assert _state(client, sid)["phase"] == "overlord"
    # An undo reverts the last action; the turn steps back with the state it restores.
    for _ in range(3):
        assert client.post(f"/sessions/{sid}/undo").status_code == 201
    assert client.post(f"/sessions/{sid}/undo").status_code == 201  # the start of the overlord's turn
    state = _state(client, sid)
    assert state["phase"] == "heroes" and state["game"]["turns_taken"] == ["tahlia"] and _who(state, "start-overlord-turn") == [(None, "overlord")]


def test_the_turns_actions_are_published_with_their_schemas(client):
    document = client.get("/rulesets/descent").json
    actions = {a["type"]: a for a in document["actions"]}
    assert document["version"] == "1.8.0"
    assert actions["start-hero-turn"]["schema"]["required"] == ["type", "hero"] and actions["end-hero-turn"]["schema"]["required"] == ["type", "hero"]
    assert "start-overlord-turn" in actions and "overlord's turn" in actions["end-turn"]["description"]


@pytest.fixture(params=["1.5.0", "1.6.0"])
def pinned_before_the_turn(request, monkeypatch):
    """A server from before the turn: new Descent campaigns pin 1.5.0 or 1.6.0 (its archived data and contract)."""
    rulesets.archived.cache_clear()
    old = next(r for r in rulesets.archived("descent") if r.version == request.param)
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, "descent": old})
    return old


def test_a_campaign_pinned_before_the_turn_keeps_no_turn_and_plays_every_action_at_any_time(client, pinned_before_the_turn):
    cid = campaign(client, ["tahlia", "sir-valadir"])
    sid = start(client, cid, "thing-in-the-pit")
    state = _state(client, sid)
    assert state["phase"] is None and "phase" not in state["game"] and "active" not in state["game"]
    listed = {e["type"] for e in state["allowed"]}
    assert {"sacrifice-clock", "open-cell", "end-turn"} <= listed and not listed & {"start-hero-turn", "end-hero-turn", "start-overlord-turn"}
    session.act(client, sid, {"type": "sacrifice-clock"})  # the overlord's rule first, as 1.5.0 let a table play it
    session.act(client, sid, {"type": "open-cell", "cell": "cell-1", "hero": "sir-valadir"})
    assert session.act(client, sid, {"type": "end-turn"})["state"]["turn"] == 2
    refused = session.refused(client, sid, {"type": "start-hero-turn", "hero": "tahlia"})
    assert refused["title"] == "This campaign's rules data records no turns" and "1.7.0" in refused["detail"] and pinned_before_the_turn.version in refused["detail"]
    session.ruled_and_verified(client, sid)


def test_a_campaign_pinned_to_descent_1_5_0_still_resolves_to_its_published_contract():
    """1.7.0 brought the turn's actions and end-turn's new meaning: 1.5.0's data and contract are archived."""
    rulesets.archived.cache_clear()
    pin = {"id": "descent", "version": "1.5.0", "hash": "sha256:0b78484c03ec2f0b6ddef7a3b14ae3bfd872b8391e98fec4fc0b0ff6a645598b"}
    old = rulesets.resolve(pin)
    assert old is not None and old.version == "1.5.0" and old.pin == pin
    assert old.rules.version.number == "1.5.0" and rulesets.get("descent").hash != pin["hash"]


def test_every_descent_action_has_its_moment_of_the_turn():
    """A new action must be placed in a hero's turn, the overlord's, or any time (turn.py), or the gate refuses it always."""
    from tracker.rulesets.descent import turn
    from tracker.rulesets.engine.deck_actions import NAMES

    placed = [*turn.HERO_TURN, *turn.OVERLORD_TURN, *turn.ANYTIME, *turn.TURN_ACTIONS, *NAMES, turn.ATTACK]
    assert len(placed) == len(set(placed))  # each in one moment
    assert set(rulesets.get("descent").rules.client_actions) == set(placed)


def test_an_action_out_of_its_moment_is_said_in_words_not_action_ids(client):
    """Issue 32: the 409 listed what may happen now as ids, each with its hero ("ready (Tahlia), stunned-half-action
    (Tahlia), ... end-hero-turn (Tahlia)"), and sent the table to "the session's allowed list": the actions now said as
    words, grouped by who takes them, and what the table records at any time said as what it is."""
    sid = start(client, campaign(client, ["tahlia", "aurim"]), "mists-of-time", {"hero_sheets": SHEETS})
    session.act(client, sid, {"type": "start-hero-turn", "hero": "tahlia"})
    problem = _out_of_moment(client, sid, {"type": "start-overlord-turn"})
    said = " ".join([problem["title"], problem["detail"], *problem["errors"]["type"]])
    action_ids = {a["type"] for a in client.get("/rulesets/descent").json["actions"] if "-" in a["type"]}
    assert not [i for i in action_ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", said)], said
    assert "allowed list" not in said and "(Tahlia)" not in said
    assert problem["title"] == "It is Tahlia's turn (turn 1): “start overlord turn” is taken once every hero has had a turn"
    assert problem["detail"].startswith("Now Tahlia may take “ready”, “stunned half action”,") and problem["detail"].count("Tahlia may take") == 1
    assert "the overlord's monsters may take “attack”" in problem["detail"] and "the overlord's cards and threat" in problem["detail"]
    assert problem["detail"].endswith("Next, Tahlia's turn ends with “end hero turn”.") and problem["example"] == {"type": "end-hero-turn", "hero": "tahlia"}
