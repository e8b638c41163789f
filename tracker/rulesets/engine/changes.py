"""A game's kinds of change, each declared once: where it is folded into the game state.

``@CHANGES("glyph-placed", "GlyphPlaced")`` on the function that applies a change of that kind to the game state
registers that fold and makes the event class a session records the change with. The class is named as stored
events name it (``<the game's events module>:GlyphPlaced``, the library's topic, registered here), so every event
recorded before keeps loading; no empty class, no map from kinds to classes, no branch on the kind is written by
hand. A session applies every game event by its one ``@event`` method for them (``Session.change_game``), which
hands the change to its game's ``fold``: ``Changes.fold`` here.

A fold takes the game state (a copy of its own to change) and the change, and changes the state in place; one that
sets up a whole new state may instead return it. Kinds folded alike are declared on one function, one decorator each.
A kind declared without a fold (``declare``) is recorded and changes nothing of its own: a record the log keeps for its
own sake, or a change wholly done by what the game does with every change (``every``: Journey's Pilgrim sheets).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from eventsourcing.utils import register_topic

from tracker.domain.events import GameEvent

Fold = Callable[[dict[str, Any], Mapping[str, Any]], "dict[str, Any] | None"]


def _unchanged(game: dict[str, Any], change: Mapping[str, Any]) -> None:
    """A record the log keeps for its own sake: the game state stays as it was."""


class Changes:
    """The kinds of change one game declares: kind -> fold, kind -> event class (``events``), name -> event class."""

    def __init__(self, events_module: str, every: Fold | None = None) -> None:
        self.module = events_module  # where stored events name the classes: tracker.rulesets.<game>.events
        self.every = every  # what every change of the game does before its own fold (Journey: the Pilgrim's sheet)
        self.events: dict[str, type[GameEvent]] = {}
        self.folds: dict[str, Fold] = {}
        self.named: dict[str, type[GameEvent]] = {}

    def __call__(self, kind: str, name: str, doc: str | None = None) -> Callable[[Fold], Fold]:
        """Declare ``kind``, recorded as event ``name``, folded by the function decorated."""

        def declare(fold: Fold) -> Fold:
            self.declare(kind, name, fold, doc)
            return fold

        return declare

    def declare(self, kind: str, name: str, fold: Fold = _unchanged, doc: str | None = None) -> type[GameEvent]:
        if kind in self.events or name in self.named:
            raise ValueError(f"{self.module}: the kind {kind!r} or the event {name!r} is declared twice")
        attributes = {"__module__": self.module, "__qualname__": name, "class_version": 1, "__doc__": doc}
        event_class = type(name, (GameEvent,), attributes)
        register_topic(f"{self.module}:{name}", event_class)
        self.events[kind], self.folds[kind], self.named[name] = event_class, fold, event_class
        return event_class

    def otherwise(self, folds: Mapping[str, Fold]) -> Changes:
        """The same kinds of change and event classes, the kinds in ``folds`` folded as it says: an earlier rules
        version's fold of a change its code recorded otherwise (a game's versions.py), every other as declared."""
        unknown = set(folds) - set(self.folds)
        if unknown:
            raise ValueError(f"{self.module}: no kind {sorted(unknown)} to fold otherwise")
        other = Changes(self.module, self.every)
        other.events, other.named, other.folds = self.events, self.named, {**self.folds, **folds}
        return other

    def fold(self, game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """The game state after ``change``: a copy of ``game`` with the fold of the change's kind applied."""
        return self.fold_into(copy.deepcopy(dict(game)), change)

    def fold_into(self, game: dict[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """``game`` (the caller's own) changed in place by ``change``, or the new state a set-up makes. The fold reads
        a copy of the change, so the state never shares a list or a dict with an event that records it."""
        try:
            fold = self.folds[change["kind"]]
        except KeyError:
            raise ValueError(f"no game event of kind {change.get('kind')!r} in this ruleset") from None
        change = copy.deepcopy(change)
        if self.every is not None:
            self.every(game, change)
        made = fold(game, change)
        return game if made is None else made

    def event_named(self, name: str) -> type[GameEvent]:
        """For the events module's ``__getattr__``: the class a stored topic names, when its module is imported."""
        try:
            return self.named[name]
        except KeyError:
            raise AttributeError(f"module {self.module!r} has no attribute {name!r}") from None
