"""One working copy for resolving actions in every game (tracker/rulesets/engine/working_copy.py).

A game reads its state through a subclass in its own words, but what a change does to the working copy
(decks moved, rolls kept out of the state, everything else folded, then what follows from it) is the same
for all: no game's class may record changes its own way.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

import pytest

import tracker.rulesets
from tracker.core import decks
from tracker.domain.session import DECK_EVENTS
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.engine.working_copy import WorkingCopy

RECORDING = ("add", "extend", "finish", "roll", "draw", "draw_until_kind")


def _classes_in_rulesets() -> list[type]:
    found = []
    for module_info in pkgutil.walk_packages(tracker.rulesets.__path__, "tracker.rulesets."):
        module = importlib.import_module(module_info.name)
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass) if cls.__module__ == module.__name__]
    return found


def test_every_game_resolves_through_the_one_working_copy_and_none_records_its_own_way():
    classes = _classes_in_rulesets()
    copies = [cls for cls in classes if issubclass(cls, WorkingCopy) and cls is not WorkingCopy]
    assert {cls.__module__ for cls in copies} >= {
        "tracker.rulesets.journey.resolution",
        "tracker.rulesets.yokai_quest.plan",
        "tracker.rulesets.kung_fu_panda.plan",
    }
    for cls in copies:
        for method in RECORDING:
            assert getattr(cls, method) is getattr(WorkingCopy, method), f"{cls.__qualname__} records changes its own way ({method})"
    # A class elsewhere in the rulesets that keeps a list of changes and folds them is a working copy of its own.
    others = [cls for cls in classes if not issubclass(cls, WorkingCopy) and {"add", "emit"} & set(vars(cls)) and "changes" in inspect.getsource(cls)]
    assert others == []


def test_the_deck_kinds_the_working_copy_moves_are_those_the_session_records_as_deck_events():
    assert set(decks.CHANGE_KINDS) == set(DECK_EVENTS)


class Tally(WorkingCopy):
    """A game whose state counts the changes folded into it, and for which a third fold brings a verdict."""

    @staticmethod
    def fold(game: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
        return {**game, "folded": [*game.get("folded", []), change["kind"]]}

    def follows(self, change):
        if len(self.game["folded"]) == 3 and change["kind"] != "verdict":
            self.add({"kind": "verdict"})


def _ctx() -> ActionContext:
    deck = {"draw": ["a", "b", "c"], "discard": [], "peeked": [], "held": {}, "removed": [], "unknown": 0, "needs_shuffle": False}
    state = {"game": {"folded": [], "nested": {"kept": 1}}, "decks": {"fortune": deck}, "turn": 4}
    return ActionContext(state=state, ruleset=None, decks={})


def test_each_change_is_seen_by_the_next_step_and_the_session_state_is_left_as_it_was():
    ctx = _ctx()
    copy = Tally(ctx)
    assert copy.turn == 4
    copy.add({"kind": "drawn", "deck": "fortune", "cards": ["a"], "holder": "hero"})
    assert copy.decks["fortune"]["held"] == {"hero": ["a"]} and copy.decks["fortune"]["draw"] == ["b", "c"]
    copy.extend([{"kind": "rolled", "roll": {}}, {"kind": "turn-ended", "turn": 4}])
    assert copy.game["folded"] == []  # the session keeps rolls and turns; the game state does not fold them
    copy.add({"kind": "moved"})
    copy.game["nested"]["kept"] = 2
    assert copy.game["folded"] == ["moved"]
    assert ctx.state["decks"]["fortune"]["draw"] == ["a", "b", "c"] and ctx.game == {"folded": [], "nested": {"kept": 1}}


def test_what_follows_a_change_is_added_after_it_once_it_is_folded():
    copy = Tally(_ctx())
    copy.extend([{"kind": "one"}, {"kind": "drawn", "deck": "fortune", "cards": ["a"], "holder": "hero"}, {"kind": "two"}, {"kind": "three"}])
    assert [change["kind"] for change in copy.finish()] == ["one", "drawn", "two", "three", "verdict"]
    assert copy.game["folded"] == ["one", "two", "three", "verdict"]


def test_cards_reported_but_never_drawn_are_refused():
    copy = Tally(_ctx(), reported={"fortune": ["a"]})
    with pytest.raises(Unprocessable, match="More cards were reported than the action draws"):
        copy.finish()
