"""Kung Fu Panda's own session events, named in the game's words: one for each kind of change, declared once with
its fold (state.py, tracker/rulesets/engine/changes.py). Stored events name each class in this module
(``tracker.rulesets.kung_fu_panda.events:RoundStarted``), so each is found here by its name."""

from __future__ import annotations

from tracker.rulesets.kung_fu_panda.state import CHANGES

__all__ = ["CHANGES"]


def __getattr__(name: str) -> type:
    return CHANGES.event_named(name)
