"""Journey played as pure functions (no database, no API): a quest set up and its actions resolved by
``Ruleset.resolve`` on rules data a test may change, to show that the data, not a copy in the code, decides a rule."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS
from tracker import rulesets
from tracker.core import decks
from tracker.core.randomness import RandomStream
from tracker.rulesets import journey
from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionContext


def data(change: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    """Journey's live rules data, a copy, changed by ``change`` (which edits it in place)."""
    copied = copy.deepcopy(rulesets.get("journey").data)
    if change is not None:
        change(copied)
    return copied


class Table:
    """One quest's session state, advanced by the ruleset's own resolve."""

    def __init__(self, quest: str = "q1-meeting", rules_data: dict[str, Any] | None = None, components=COMPONENTS, setup=None,
                 options=None, progress=None, initiative=ORDER) -> None:
        """``options`` and ``progress``: the campaign's; ``initiative``: the order drawn at the table (None: no set-up
        choice of it, as Q10 Part 2 takes none)."""
        self.ruleset = journey.load(rules_data if rules_data is not None else data())
        self.components = components
        specs = self.ruleset.decks(components)
        self.state: dict[str, Any] = {
            "quest": quest,
            "turn": 1,
            "game": {},
            "decks": {d.id: decks.new_deck(d.id, d.cards, d.size, d.shuffled) for d in specs.values()},
        }
        self.rng = RandomStream(b"journey pure rules test seed")
        self.act(type=SET_UP_QUEST, quest=quest, setup={**({"initiative": initiative} if initiative else {}), **(setup or {})},
                 campaign={"party": PILGRIMS, "options": options or {}, "progress": progress or {}, "components": components})

    def _ctx(self) -> ActionContext:
        return ActionContext(self.state, self.ruleset, self.ruleset.decks(self.components), self.ruleset.dice(self.components), self.components)

    def act(self, **action: Any) -> list[dict[str, Any]]:
        """The action's changes; the state moves on to where they lead."""
        changes = self.ruleset.resolve(self._ctx(), action, self.rng)
        self.state = {**self.state, "game": changes.game, "decks": changes.decks}
        for change in changes:
            if change.get("kind") == "turn-ended":
                self.state["turn"] = change["turn"] + 1
        return list(changes)

    @property
    def game(self) -> dict[str, Any]:
        return self.state["game"]

    def hero(self, hero: str) -> dict[str, Any]:
        return self.state["game"]["heroes"][hero]
