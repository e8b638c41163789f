"""A quest played as pure functions, with no database: a game's resolvers over a ruleset built from the rules data
a test gives (``<game>.load(data)``), so a test can show that the data's value, not a copy in the code, decides a rule.

Each action is resolved the way a session resolves it (``Ruleset.resolve``: the resolver, then the verdict) and its
changes' game state kept; the deck states follow where the resolver moved the cards itself. The request schemas are
not checked here (the API does that before a resolver runs)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from tracker.core import decks
from tracker.core.randomness import RandomStream
from tracker.rulesets.engine.context import ActionContext
from tracker.rulesets.engine.ruleset import SET_UP_QUEST


def edited(load: Callable[[dict[str, Any]], Any], data: Mapping[str, Any], edit: Callable[[dict[str, Any]], None]) -> Any:
    """The game's ruleset over a copy of ``data`` that ``edit`` changed in place."""
    changed = copy.deepcopy(dict(data))
    edit(changed)
    return load(changed)


class PureTable:
    def __init__(self, ruleset: Any, quest: str, party: list[str], setup: Mapping[str, Any] | None = None,
                 options: Mapping[str, Any] | None = None, progress: Mapping[str, Any] | None = None,
                 components: Mapping[str, Any] | None = None) -> None:
        self.ruleset = ruleset
        self.stream = RandomStream(b"\x07" * 32)
        specs = ruleset.decks({})
        self.state: dict[str, Any] = {
            "game": {}, "turn": 1, "quest": quest, "verdict": None,
            "decks": {d.id: decks.new_deck(d.id, d.cards, d.size, d.shuffled) for d in specs.values()},
        }
        self.act({"type": SET_UP_QUEST, "quest": quest, "setup": dict(setup or {}),
                  "campaign": {"party": list(party), "options": dict(options or {}), "progress": dict(progress or {}),
                               **({"components": dict(components)} if components else {})}})

    @property
    def game(self) -> dict[str, Any]:
        return self.state["game"]

    def act(self, body: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The action's changes (a refusal raises ``Unprocessable`` and keeps the state as it was)."""
        ctx = ActionContext(self.state, self.ruleset, self.ruleset.decks({}), self.ruleset.dice({}), {})
        changes = self.ruleset.resolve(ctx, dict(body), self.stream)
        turn = self.state["turn"]
        for change in changes:
            if change.get("kind") == "turn-ended":
                turn = change["turn"] + 1
        self.state = {**self.state, "game": changes.game, "turn": turn,
                      "decks": changes.decks if changes.decks is not None else self.state["decks"]}
        return list(changes)


def kinds(changes) -> list[str]:
    """The kinds of a resolver's changes, in order."""
    return [c["kind"] for c in changes]
