"""A game's words for the timeline, gathered once per ruleset rather than looked up for every event.

A timeline line names the game's characters, quests, decks and dice as its rules data names them
(projections/timeline.py). Those names, the rules that say a change in the game's words and the side a
secret belongs to were looked up in the ruleset and turned into dicts again for each event, which a
rebuild of a long log repeats hundreds of thousands of times. ``words_of`` gathers them once per
ruleset (again should the registry hold another ruleset object or data under that id, as a test that
registers a game of its own does).

A line said plainly (``wording.plain``: literals in words, ids by name) depends only on the line and the
game's names, so each distinct line is said once and kept: a rebuild meets the same few thousand lines
("Rolled 3, 5 on 2d6") again and again.
"""

from __future__ import annotations

import re
from typing import Any

from tracker import rulesets
from tracker.core import wording
from tracker.rulesets.engine.ruleset import GameRules

MAX_LINES = 20_000  # lines kept per game; past that many, the cache starts again


class TimelineWords:
    """The names and rules of one ruleset (or of none: an event whose ruleset this code does not know)."""

    __slots__ = ("ruleset", "data", "rules", "names", "characters", "decks", "dice", "field_names", "secret_rules", "keeps_secrets", "_lines")

    def __init__(self, ruleset: Any) -> None:
        self.ruleset = ruleset
        self.data = data = ruleset.data if ruleset is not None else {}
        self.rules = rules = ruleset.rules if ruleset is not None else None
        self.names = names_of(ruleset) if ruleset is not None else {}  # what a line's ids are said as
        self.characters = {c["id"]: c.get("name") for c in data.get("characters", [])}  # a hero or demon a line names
        self.decks = {d["id"]: d.get("name") for d in data.get("decks", [])}
        # a die whose id is no word ("action-die") by its name, less "Die" ("Action Die": Action)
        self.dice = {d["id"]: re.sub(r"\s+Dic?e$", "", d.get("name") or d["id"]) for d in data.get("dice", []) if "-" in d["id"]}
        self.field_names = rules.field_names() if rules is not None else {}
        # the rules a secret roll is judged by, where the game has more than one side (dice statistics seal those rolls)
        self.secret_rules = rules if rules is not None and len(rules.sides) > 1 else None
        # whether the rules say any change is secret: GameRules' own secret_to says none is (Journey's, Kung Fu Panda's)
        self.keeps_secrets = rules is not None and getattr(rules.secret_to, "__func__", None) is not GameRules.secret_to
        self._lines: dict[str, str] = {}

    def said(self, line: str) -> str:
        """The line said plainly in this game's words, its first letter capitalised (timeline.describe)."""
        found = self._lines.get(line)
        if found is None:
            if len(self._lines) >= MAX_LINES:
                self._lines.clear()
            plain = wording.plain(line, self.names)
            found = self._lines[line] = plain[:1].upper() + plain[1:]
        return found

    def deck(self, deck: str) -> str:
        return self.decks.get(deck) or deck.replace("-", " ")

    def character(self, character: str) -> str:
        return self.characters.get(character) or character

    def secret_to(self, recorded: dict[str, Any]) -> str | None:
        return self.rules.secret_to(recorded) if self.keeps_secrets else None

    def describe_change(self, change: dict[str, Any]) -> str | None:
        return self.rules.describe(change) if self.rules is not None else None


def names_of(ruleset: Any) -> dict[str, str]:
    """The game's ids to its names: characters and quests (deck and die ids are named where their lines say them)."""
    found = {c["id"]: c.get("name") or c["id"] for c in ruleset.data.get("characters", [])}
    found.update({q["id"]: q.get("name") or q["id"] for q in ruleset.data.get("quests", [])})
    return found


_GATHERED: dict[str, TimelineWords] = {}


def words_of(ruleset_id: str | None) -> TimelineWords:
    """The words of the ruleset the registry holds under this id (no ruleset's, for an id it does not hold)."""
    key = ruleset_id or ""
    ruleset = rulesets.registry().get(key)
    found = _GATHERED.get(key)
    if found is None or found.ruleset is not ruleset or (ruleset is not None and (found.data is not ruleset.data or found.rules is not ruleset.rules)):
        found = _GATHERED[key] = TimelineWords(ruleset)
    return found


def of_event(event: Any) -> TimelineWords:
    """The words of the ruleset an event's meta names."""
    return words_of((getattr(event, "meta", None) or {}).get("ruleset_id"))
