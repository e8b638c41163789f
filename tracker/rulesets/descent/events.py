"""Descent's own session events, named in the game's words: one for each kind of change (a plain JSON dict), declared
once with its fold (fold.py and, for combat, fold_combat.py: tracker/rulesets/engine/changes.py). Stored events name each class
in this module (``tracker.rulesets.descent.events:QuestSetUp``), so each is found here by its name."""

from __future__ import annotations

from tracker.rulesets.descent import fold_combat
from tracker.rulesets.descent.fold import CHANGES

__all__ = ["CHANGES"]
assert fold_combat.CHANGES is CHANGES  # the combat kinds are declared with the rest


def __getattr__(name: str) -> type:
    return CHANGES.event_named(name)
