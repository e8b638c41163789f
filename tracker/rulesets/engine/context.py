"""What a resolver reads (``ActionContext``: the session's state, the campaign's rules, its decks and dice) and what it
hands back (``Resolved``: its changes, with the state they fold to)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tracker.core import wording
from tracker.core.dice import DieSpec
from tracker.core.errors import Unprocessable


@dataclass(frozen=True)
class DeckSpec:
    id: str
    name: str
    size: int | None
    cards: list[str] | None
    kind_of: dict[str, str | None]
    shuffled: bool


@dataclass(frozen=True)
class ActionContext:
    """What a resolver may read: the session's state and the campaign's rules."""

    state: Mapping[str, Any]
    ruleset: Any  # the campaign's Ruleset (tracker/rulesets/engine/ruleset.py), whose rules and data it reads
    decks: Mapping[str, DeckSpec]
    dice: Mapping[str, DieSpec] = field(default_factory=dict)
    components: Mapping[str, Any] = field(default_factory=dict)  # the campaign's pinned component data

    @property
    def game(self) -> Mapping[str, Any]:
        """The ruleset's own part of the session state (folded from its game events)."""
        return self.state.get("game", {})

    def die(self, die_id: str) -> DieSpec:
        try:
            return self.dice[die_id]
        except KeyError:
            raise Unprocessable(
                f"Unknown die '{die_id}'",
                detail=f"Dice of {self.ruleset.name}: {wording.choices(sorted(self.dice), {k: v.name for k, v in self.dice.items()}, most=64)}.",
                errors={"dice": [f"Unknown die: {die_id}"]},
            ) from None

    def deck(self, deck_id: str) -> DeckSpec:
        try:
            return self.decks[deck_id]
        except KeyError:
            raise Unprocessable(
                f"Unknown deck '{deck_id}'",
                detail=f"Decks of {self.ruleset.name}: {wording.choices(sorted(self.decks), {k: v.name for k, v in self.decks.items()}, most=64)}.",
                errors={"deck": [f"Unknown deck: {deck_id}"]},
            ) from None


class Resolved(list):
    """An action's changes, with the game state they fold to from the session's (``game``), and its deck states where
    the resolver moved the cards itself (``decks``; None: the session moves them). A working copy's ``changes`` is one,
    kept up to date as it folds (``folded``: how many of the changes it has folded); ``Ruleset.resolve`` returns one,
    so neither the verdict nor the session folds a change a second time."""

    def __init__(self, changes: Sequence[dict[str, Any]] = (), game: dict[str, Any] | None = None,
                 decks: dict[str, Any] | None = None, start: Mapping[str, Any] | None = None) -> None:
        super().__init__(changes)
        self.game = game
        self.decks = decks
        self.start = start  # the game state the changes were folded from
        self.folded = len(self) if game is not None else 0

    def whole(self, start: Mapping[str, Any]) -> bool:
        """Whether ``game`` is the state every change here leads to from ``start`` (folded from it, and nothing added
        to the list past the working copy)."""
        return self.game is not None and self.folded == len(self) and self.start is start
