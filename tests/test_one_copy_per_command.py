"""One copy of the game state per command, in every game (issue 33): the working copy (tracker/rulesets/engine/working_copy.py)
copies the session's game state once when the action starts and folds each change in place on it; the session takes
the state it reached. A command of several changes copies the state once, not once a change, and a load of the session
folds its events to the same state."""

from __future__ import annotations

import copy as copy_module
from collections.abc import Callable, Mapping
from uuid import UUID

import pytest

from tests.kit.descent import SHEETS
from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tests.kit.yokai_quest import LOADOUTS, S1, YOKAI_TEST_COMPONENTS
from tracker import rulesets
from tracker.adapters.config import persistence_env
from tracker.application.service import Tracker

KFP_SETUP = {
    "start_tile": "t",
    "spawn_points": {"1": "n", "2": "q", "3": "R", "4": "d", "5": "L", "6": "O"},
    "enemies": {"n": {"wolf-slasher": 1, "wolf-spearman": 2}, "t": {"wolf-spearman": 1}, "F": {}},
    "special_moves": {"po": "Card A", "tigress": "Card B"},
}


def _journey(tracker: Tracker) -> tuple[str, dict]:
    campaign = tracker.create_campaign("journey", "Copied", party=PILGRIMS, components=COMPONENTS).body["id"]
    session = tracker.start_session(campaign, "q1-meeting", setup={"initiative": ORDER}).body["id"]
    tracker.act(session, {"type": "maintenance"})
    tracker.act(session, {"type": "activate-pilgrim", "hero": "monkey-king"})
    # Monkey King kills a Berrok: the attack, the kill, the Bad Karma and what it buys, on his Pilgrim sheet.
    return session, {"type": "pilgrim-attack", "hero": "monkey-king", "target": "berrok-1", "faces": {"attack": ["1", "X"], "pilgrim": ["X"]}, "outcome": "kill"}


def _descent(tracker: Tracker) -> tuple[str, dict]:
    campaign = tracker.create_campaign("descent", "Copied", party=["tahlia", "aurim"]).body["id"]
    session = tracker.start_session(campaign, "mists-of-time", setup={"hero_sheets": SHEETS}).body["id"]
    placed = tracker.act(session, {"type": "place-monsters", "monsters": [{"monster": "troll", "wounds": 9, "armor": 2}], "source": "zone 1 revealed"})
    troll = next(e for e in placed.body["events"] if e["type"] == "MonstersPlaced")["payload"]["change"]["figures"][0]["id"]
    assert tracker.act(session, {"type": "start-hero-turn", "hero": "tahlia"}).status == 201  # she attacks in her turn
    # A killing blow: the attack, the kill and what follows it, each a change of the one command.
    return session, {"type": "attack", "attacker": "tahlia", "target": troll, "attack_type": "melee", "faces": {"red": ["4D 0R", "4D 0R", "4D 0R"]}}


def _yokai_quest(tracker: Tracker) -> tuple[str, dict]:
    campaign = tracker.create_campaign("yokai-quest", "Copied", party=["ryo", "ami"], components=YOKAI_TEST_COMPONENTS).body["id"]
    session = tracker.start_session(campaign, S1, setup={"abilities": LOADOUTS}).body["id"]
    tracker.act(session, {"type": "move", "hero": "ryo", "movement": "basic"})
    # Ryo falls: the health lost, the defeat (reading the hand the defeat empties), the activation it ends.
    return session, {"type": "lose-tokens", "hero": "ryo", "health": 6, "source": "Extreme heat!"}


def _kung_fu_panda(tracker: Tracker) -> tuple[str, dict]:
    campaign = tracker.create_campaign("kung-fu-panda", "Copied", party=["po", "tigress"], options={"length": "single", "mission": "m1-1"}).body["id"]
    session = tracker.start_session(campaign, "m1-1", setup=KFP_SETUP).body["id"]
    tracker.act(session, {"type": "start-round"})
    tracker.act(session, {"type": "roll", "hero": "po", "faces": ["Claws", "Claws", "Punch", "Chi"]})
    # Po's Claws: the dial advances, a Spearman spawns, the dial advances again, the enemies on his tile fight back,
    # each change folded before the next is worked out (and the mission's failure checked after each, plan.py).
    return session, {"type": "resolve-claws", "hero": "po", "spaces": [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 1, "spread_to": "t"},
                                                                  {"space": "fight-back"}]}


GAMES: dict[str, Callable[[Tracker], tuple[str, dict]]] = {
    "journey": _journey,
    "descent": _descent,
    "yokai-quest": _yokai_quest,
    "kung-fu-panda": _kung_fu_panda,
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_command_of_several_changes_copies_the_game_state_once(game, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path}/copies.sqlite3"
    tracker = Tracker(env=persistence_env(url))
    try:
        session, action = GAMES[game](tracker)
        before = tracker.repository.get(UUID(session)).game
        keys = set(before)
        assert len(keys) >= 3  # a state with parts of its own: a copy of it is told from a copy of one change
        copied: list[Mapping] = []
        deepcopy = copy_module.deepcopy

        def counted(value, *rest):
            if isinstance(value, Mapping) and keys <= set(value):
                copied.append(value)
            return deepcopy(value, *rest)

        monkeypatch.setattr(copy_module, "deepcopy", counted)
        result = tracker.act(session, action)
        monkeypatch.setattr(copy_module, "deepcopy", deepcopy)
        assert result.status == 201, result.body
        kinds = set(rulesets.get(game).rules.events)
        changes = [e["payload"]["change"] for e in result.body["events"] if "change" in e["payload"] and e["payload"]["change"]["kind"] in kinds]
        assert len(changes) >= 2, [c["kind"] for c in changes]  # several changes: once a change would be several copies
        assert len(copied) == 1, f"{game}: {len(copied)} copies of the game state for {len(changes)} changes"
        assert tracker.repository.get(UUID(session)).game == result.body["state"]["game"] != before
        loaded = Tracker(env=persistence_env(url))  # a new process folds the stored events: the state the command reached
        try:
            assert loaded.repository.get(UUID(session)).game == tracker.repository.get(UUID(session)).game
        finally:
            loaded.close()
    finally:
        tracker.close()
