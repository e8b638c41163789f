"""A command folds each change once (issue 33): the resolver returns its changes with the state it folded them to, so
neither the verdict nor the session folds them again, and no state is deep-copied per change; one Descent attack looks
its action type up once and its pinned rules once, and works out the actions legal now once (for its answer)."""

from __future__ import annotations

import copy as copy_module
from collections import Counter
from uuid import UUID

import pytest

from tests.kit.descent import SHEETS
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker import rulesets
from tracker.core import decks
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.domain import Session
from tracker.rulesets.engine.changes import Changes
from tracker.core.randomness import RandomStream
from tracker.rulesets.engine.ruleset import ActionContext, DeckSpec, GameRules, Resolved, Ruleset
from tracker.rulesets.engine.working_copy import WorkingCopy

ATTACK = {"type": "attack", "attacker": "tahlia", "attack_type": "melee", "faces": {"red": ["3D 1R 1S", "4D 0R"]},
          "surges": [{"ability": "+1 Damage and Pierce 1", "count": 1, "damage": 1, "pierce": 1}]}


class Trace:
    """What one command does, counted: action look-ups, pinned-rules look-ups, and for each change it records, how
    often it is folded in place and how often the whole game state is copied to fold it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.actions: Counter[str] = Counter()
        self.pins = 0
        self.folded: Counter[int] = Counter()  # by the change's identity
        self.copied: Counter[int] = Counter()
        self.recorded: list[dict] = []
        self.next_actions = 0  # the phase and the actions legal now, worked out for a session's state
        self.states = 0  # the session's state as the API shows it, worked out (Session.state)
        self.moved: list[tuple[str, ...]] = []  # each deck change applied to a deck state: its kind and cards
        action, pinned, record_change, next_actions = Ruleset.action, rulesets.pinned, Session.record_change, GameRules.next_actions
        fold_into, fold, state, apply = Changes.fold_into, Changes.fold, Session.state, decks.apply

        def counted_action(ruleset: Ruleset, name: str):
            self.actions[name] += 1
            return action(ruleset, name)

        def counted_pin(pin):
            self.pins += 1
            return pinned(pin)

        def counted_fold_into(changes, game, change):
            self.folded[id(change)] += 1
            return fold_into(changes, game, change)

        def counted_fold(changes, game, change):
            self.copied[id(change)] += 1
            return fold(changes, game, change)

        def counted_next_actions(rules, state):
            self.next_actions += 1
            return next_actions(rules, state)

        def counted_state(session, *args, **kwargs):
            self.states += 1
            return state(session, *args, **kwargs)

        def counted_apply(deck, change, **how):
            self.moved.append((change["kind"], *change.get("cards", [])))
            return apply(deck, change, **how)

        def traced_record(session, change, meta):
            self.recorded.append(change)
            return record_change(session, change, meta)

        monkeypatch.setattr(Ruleset, "action", counted_action)
        monkeypatch.setattr(rulesets, "pinned", counted_pin)
        monkeypatch.setattr(Changes, "fold_into", counted_fold_into)
        monkeypatch.setattr(Changes, "fold", counted_fold)
        monkeypatch.setattr(Session, "record_change", traced_record)
        monkeypatch.setattr(GameRules, "next_actions", counted_next_actions)
        monkeypatch.setattr(Session, "state", counted_state)
        monkeypatch.setattr(decks, "apply", counted_apply)  # (the deck functions' own moves included: a module global)

    def game_changes(self) -> list[dict]:
        kinds = set(rulesets.get("descent").rules.events)
        return [change for change in self.recorded if change["kind"] in kinds]


def _descent_session(tracker: Tracker) -> tuple[str, str]:
    campaign = tracker.create_campaign("descent", "Traced", party=["tahlia", "aurim"]).body["id"]
    session = tracker.start_session(campaign, "mists-of-time", setup={"hero_sheets": SHEETS}).body["id"]
    assert tracker.act(session, {"type": "start-hero-turn", "hero": "tahlia"}).status == 201  # she attacks in her turn
    placed = tracker.act(session, {"type": "place-monsters", "monsters": [{"monster": "troll", "wounds": 9, "armor": 2}], "source": "zone 1 revealed"})
    troll = next(e for e in placed.body["events"] if e["type"] == "MonstersPlaced")["payload"]["change"]["figures"][0]["id"]
    return session, troll


@pytest.mark.parametrize("kept", [True, False], ids=["the session kept by the process", "the session loaded afresh"])
def test_one_descent_attack_looks_up_its_action_and_rules_once_and_folds_each_change_once(tmp_path, monkeypatch, kept):
    url = f"sqlite:///{tmp_path}/trace.sqlite3"
    first = Tracker(env=persistence_env(url))
    session, troll = _descent_session(first)
    tracker = first if kept else Tracker(env=persistence_env(url))  # a new process: nothing kept, the session is loaded
    try:
        trace = Trace(monkeypatch)
        result = tracker.act(session, {**ATTACK, "target": troll})
        assert result.status == 201
        assert [e["type"] for e in result.body["events"]][:3] == ["ActionTaken", "DiceRolled", "AttackMade"]
        assert result.body["state"]["game"]["monsters"][troll]["wounds"] == 2  # 9 less 7 wounds (the test above, by the API)
        assert trace.actions == {"attack": 1}
        assert trace.pins == (0 if kept else 1)  # (kept: the session holds the rules it was given when it was loaded)
        changes = trace.game_changes()
        assert [c["kind"] for c in changes] == ["attack-made"]
        assert all(trace.folded[id(c)] == 1 for c in changes)  # once, in place on the action's one copy of the state
        assert not any(trace.copied[id(c)] for c in changes)  # never a copy of the whole state for a change
        assert trace.next_actions == 1  # for the answer's state: the resolver reads the state without them
        assert trace.states == 1  # the answer's: what the resolver reads is the session's full state, not this one
        assert tracker.repository.get(UUID(session)).game == result.body["state"]["game"]  # what a load folds, the same
    finally:
        first.close()
        if tracker is not first:
            tracker.close()


def test_a_working_copy_hands_the_session_the_state_it_folded(tmp_path, monkeypatch):
    """Journey's maintenance, on its working copy (Resolution): each game change folds once, there, and the session
    takes the state the working copy reached; a load of the session from the store folds to the same state."""
    url = f"sqlite:///{tmp_path}/copy.sqlite3"
    tracker = Tracker(env=persistence_env(url))
    try:
        campaign = tracker.create_campaign("journey", "x", party=["tripitaka"], components=JOURNEY_TEST_COMPONENTS).body["id"]
        session = tracker.start_session(campaign, "q1-meeting").body["id"]
        trace = Trace(monkeypatch)
        result = tracker.act(session, {"type": "maintenance"})
        game_changes = [c for c in trace.recorded if c["kind"] in rulesets.get("journey").rules.events]
        assert game_changes
        # (each change is folded once, in place on the working copy's one copy of the state, and by nothing else)
        assert all(trace.folded[id(c)] == 1 for c in game_changes)
        assert not any(trace.copied[id(c)] for c in game_changes)
        assert trace.actions == {"maintenance": 1}
        assert trace.states == 1
        loaded = Tracker(env=persistence_env(url))
        try:
            assert loaded.get_session(session)["game"] == result.body["state"]["game"]
        finally:
            loaded.close()
    finally:
        tracker.close()


def test_a_resolution_is_taken_only_whole_and_from_the_state_it_was_folded_from():
    start: dict = {}
    resolved = Resolved([{"kind": "x"}], {"a": 1}, None, start)
    assert resolved.whole(start) and not resolved.whole({})  # folded from another state: the session folds itself
    resolved.append({"kind": "y"})  # a change added past the working copy: its state no longer covers them all
    assert not resolved.whole(start)
    assert rulesets.get("kung-fu-panda").rules.ruleset is rulesets.get("kung-fu-panda")


def _journey_session(tracker: Tracker) -> str:
    campaign = tracker.create_campaign("journey", "x", party=["tripitaka"], components=JOURNEY_TEST_COMPONENTS).body["id"]
    return tracker.start_session(campaign, "q1-meeting").body["id"]


def test_a_draw_moves_each_card_once(tmp_path, monkeypatch):
    """The deck engine moves the cards as it draws them (the second from the pile the first left, a shuffle first when
    the deck needs one): the session takes the deck state it reached, and moves none of them again; a load of the
    session folds its events to the same deck."""
    url = f"sqlite:///{tmp_path}/draw.sqlite3"
    tracker = Tracker(env=persistence_env(url))
    try:
        session = _journey_session(tracker)
        trace = Trace(monkeypatch)
        drawn = tracker.draw(session, "fortune", count=2, holder="tripitaka").body
        assert [e["type"] for e in drawn["events"]] == ["DeckShuffled", "CardsDrawn"]
        first, second = drawn["cards"]
        assert trace.moved == [("shuffled",), ("drawn", first), ("drawn", second)]  # one pass, card by card
        assert trace.states == 0  # a draw answers with its cards, not the session's state
        trace.moved.clear()
        looked = tracker.act(session, {"type": "look", "deck": "fortune", "count": 1})  # an action of the deck engine's
        assert looked.status == 201
        assert len(trace.moved) == 1 and trace.moved[0][0] == "looked"
        assert trace.states == 1
        kept = tracker.repository.get(UUID(session)).decks["fortune"]
        assert kept["held"] == {"tripitaka": [first, second]} and kept["peeked"] == [trace.moved[0][1]]
        loaded = Tracker(env=persistence_env(url))
        try:
            assert loaded.repository.get(UUID(session)).decks == tracker.repository.get(UUID(session)).decks
        finally:
            loaded.close()
    finally:
        tracker.close()


class _Pile(WorkingCopy):
    fold = staticmethod(lambda game, change: dict(game))


def test_a_working_copy_takes_the_deck_state_its_draw_reached(monkeypatch):
    """A resolver's draw on its working copy (WorkingCopy.draw): the deck engine moves the cards, the working copy takes
    the pile it left, and the action's changes carry it to the session (Resolved.decks)."""
    deck = decks.new_deck("fortune", ["a", "b", "c"], None, shuffled=True)
    spec = DeckSpec("fortune", "Fortune", 3, ["a", "b", "c"], {}, shuffled=True)
    ctx = ActionContext(state={"game": {}, "decks": {"fortune": deck}, "turn": 1}, ruleset=None, decks={"fortune": spec})
    trace = Trace(monkeypatch)
    copy = _Pile(ctx, RandomStream(b"\0" * 32))
    drawn = copy.draw("fortune", 2, "tripitaka")
    assert trace.moved == [("shuffled",), *(("drawn", card) for card in drawn)]  # the engine's one pass, and no other
    assert copy.finish().decks["fortune"]["held"] == {"tripitaka": drawn}
    assert deck == decks.new_deck("fortune", ["a", "b", "c"], None, shuffled=True)  # the session's deck left as it was


def test_a_draw_copies_its_deck_once_not_once_a_card(monkeypatch):
    """The deck engine copies the deck it draws from once, and moves each card on that copy: a draw of five (a shuffle
    first) deep-copies one deck state, not one per card; the deck it was given is left as it was."""
    deck = decks.new_deck("fortune", [f"Fortune {n}" for n in range(1, 21)], None, shuffled=True)
    copies = []
    deepcopy = copy_module.deepcopy
    monkeypatch.setattr(copy_module, "deepcopy", lambda value, *rest: copies.append(value) or deepcopy(value, *rest))
    dealt = decks.resolve_draw(deck, "Fortune", 5, RandomStream(b"\0" * 32), "tripitaka")
    assert [c["kind"] for c in dealt] == ["shuffled", "drawn"] and len(dealt[1]["cards"]) == 5
    assert len(copies) == 1
    assert dealt.state["held"] == {"tripitaka": dealt[1]["cards"]} and len(dealt.state["draw"]) == 15
    assert deck == decks.new_deck("fortune", [f"Fortune {n}" for n in range(1, 21)], None, shuffled=True)


def _descent(tracker: Tracker, quest: str, setup: dict, components: dict | None = None) -> str:
    campaign = tracker.create_campaign("descent", "Traced", party=["tahlia", "aurim"], components=components).body["id"]
    return tracker.start_session(campaign, quest, setup=setup).body["id"]


def _placed(tracker: Tracker, session: str, *monsters: dict, source: str) -> list[str]:
    placed = tracker.act(session, {"type": "place-monsters", "monsters": list(monsters), "source": source})
    return [f["id"] for f in next(e for e in placed.body["events"] if e["type"] == "MonstersPlaced")["payload"]["change"]["figures"]]


def _turns(tracker: Tracker, session: str, *steps: dict) -> None:
    """The turn moved on (Descent 1.7.0 on: each hero's turn, then the overlord's) to the moment an action belongs to."""
    for step in steps:
        assert tracker.act(session, step).status == 201


HEROES_HAVE_HAD_THEIR_TURNS = [{"type": kind, "hero": hero} for hero in ("tahlia", "aurim") for kind in ("start-hero-turn", "end-hero-turn")]


def _assert_folded_once(trace: Trace, result) -> list[str]:
    assert result.status == 201, result.body
    changes = trace.game_changes()
    assert all(trace.folded[id(c)] == 1 for c in changes), {c["kind"]: trace.folded[id(c)] for c in changes}
    assert not any(trace.copied[id(c)] for c in changes)
    return [c["kind"] for c in changes]


def test_a_named_monsters_death_reads_the_state_after_the_kill_and_folds_each_change_once(tmp_path, monkeypatch):
    """L496-L498: the second Monkey King's death brings the award; the award reads the state after the kill on the
    attack's own working copy, so the attack, the kill and the award are each folded once."""
    tracker = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/kings.sqlite3"))
    try:
        session = _descent(tracker, "hall-of-the-monkey-kings", {"hero_sheets": SHEETS})
        king = {"monster": "blood ape", "named": "monkey-king", "wounds": 5, "armor": 1}
        first, second = _placed(tracker, session, king, dict(king), source="zone 7 revealed")
        _turns(tracker, session, {"type": "start-hero-turn", "hero": "tahlia"})  # she attacks in her turn
        attack = {"type": "attack", "attacker": "tahlia", "attack_type": "melee", "faces": {"red": ["4D 0R", "2D 0R"]}}
        trace = Trace(monkeypatch)
        kinds = _assert_folded_once(trace, tracker.act(session, {**attack, "target": first}))
        assert "monster-killed" in kinds and "conquest-changed" not in kinds  # one king is not both
        trace.folded.clear()
        trace.recorded.clear()
        result = tracker.act(session, {**attack, "target": second})
        kinds = _assert_folded_once(trace, result)
        assert kinds[:2] == ["attack-made", "monster-killed"] and "conquest-changed" in kinds
        assert result.body["state"]["verdict"]["outcome"] == "victory"
        assert tracker.repository.get(UUID(session)).game == result.body["state"]["game"]
    finally:
        tracker.close()


def test_zoreks_gaze_that_kills_a_hero_folds_each_change_once(tmp_path, monkeypatch):
    """L685: the gaze's curse and wounds, then the hero's death reckoned on the state after them: each folded once."""
    from tracker.rulesets import descent

    tracker = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/gaze.sqlite3"))
    try:
        sheets = {**SHEETS, "aurim": {**SHEETS["aurim"], "wounds": 6}}  # the gaze's 6 wounds bring him to 0
        session = _descent(tracker, "altar-of-despair", {"hero_sheets": sheets}, components=descent.community_components()["components"])
        _turns(tracker, session, *HEROES_HAVE_HAD_THEIR_TURNS, {"type": "start-overlord-turn"})  # the gaze starts the overlord's turn
        trace = Trace(monkeypatch)
        result = tracker.act(session, {"type": "zorek-gaze", "face": "0D 3R", "heroes_hit": ["aurim"], "deaths": {"aurim": {"conquest_value": 2}}})
        kinds = _assert_folded_once(trace, result)
        assert kinds[0] == "zorek-gazed" and "hero-killed" in kinds
        assert tracker.repository.get(UUID(session)).game == result.body["state"]["game"]
    finally:
        tracker.close()


def test_the_power_glyphs_second_draw_moves_each_card_once(tmp_path, monkeypatch):
    """L125: a draw of two per trigger; the draw's cards are moved as dealt, once, and the trigger it used is recorded."""
    from tests.kit.descent import TEST_OVERLORD_DECK

    tracker = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/power.sqlite3"))
    try:
        session = _descent(tracker, "altar-of-despair", {"dark_glyphs": [{"glyph": "power"}]}, components=TEST_OVERLORD_DECK)
        _turns(tracker, session, {"type": "start-hero-turn", "hero": "tahlia"})  # a hero activates the glyph in a hero's turn
        for action in ({"type": "place-glyph", "glyph": "power"}, {"type": "activate-glyph", "glyph": "power", "conquest": 3}):
            assert tracker.act(session, action).status == 201
        trace = Trace(monkeypatch)
        result = tracker.act(session, {"type": "power-glyph-draw"})
        assert result.status == 201, result.body
        looked = [move for move in trace.moved if move[0] == "looked"]
        assert len(looked) == 2 and len({card for _, card in looked}) == 2, trace.moved  # two cards looked at, each moved once
        assert result.body["events"][-1]["payload"]["change"] == {"kind": "power-glyph-used", "draws_left": 0}
        assert trace.folded[id(trace.game_changes()[-1])] == 1
        loaded = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/power.sqlite3"))  # a load folds the events to the same decks
        try:
            assert loaded.repository.get(UUID(session)).decks == tracker.repository.get(UUID(session)).decks
        finally:
            loaded.close()
    finally:
        tracker.close()
