"""Descent's session state: ``fold(game, change)``, the game state after one of its changes. The fold is written in
fold.py, the combat changes' part in fold_combat.py; this is where the game skeleton (tracker/rulesets/engine/skeleton.py)
finds it, as in every game."""

from __future__ import annotations

from tracker.rulesets.descent.fold import fold

__all__ = ["fold"]
