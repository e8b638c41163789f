"""The one shape of a game package: the same modules, with the same entry points, in every game.

A reader who knows one game knows where everything is in the others (boardgame.io gives every game one object,
``{setup, moves, turn, endIf}``; here it is one set of module names). ``load`` builds a game's ruleset from them,
so a game package's ``__init__`` is one line; tests/test_game_skeleton.py holds every game package to it. Small
modules that each answer one rule question sit beside these and are gathered by them.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from tracker.rulesets.engine import data as rules_data
from tracker.rulesets.engine.ruleset import Ruleset

# Each module of the skeleton, and the entry points it offers.
MODULES: dict[str, tuple[str, ...]] = {
    "rules": ("Rules",),  # the game's GameRules subclass, built from the rules data it judges by: Rules(data)
    "actions": ("ACTIONS",),  # the game's one ActionType list, deck actions included, in the order it publishes them
    "state": ("fold",),  # fold(game, change) -> game: the session's game state after one of the game's changes
    "events": ("CHANGES",),  # where stored events find the event classes its kinds of change declare (tracker/rulesets/engine/changes.py)
    "views": ("VIEWS",),  # the read views it keeps for its campaigns (tracker/rulesets/engine/view.py)
    "describe": ("describe",),  # describe(change) -> str | None: the change's line on the session timeline
    "verdict": ("verdict", "end_refusal"),  # the outcome the rules impose, and why an end the table asks for contradicts it
    "setup": ("SET_UP", "SCHEMA"),  # the quest set-up action (set-up-quest) and the JSON Schema of a session's "setup"
}

RULES_DATA = "ruleset.json"  # the game's pinned rules data, beside its modules
COMPONENT_PACKS = "community_components.json"  # optional: component data from outside the rulebook, labelled with its sources


def module(package: str, name: str) -> Any:
    """One module of the skeleton of the game package ``package`` (a dotted name)."""
    return importlib.import_module(f"{package}.{name}")


def component_packs(folder: Path) -> list[dict[str, Any]]:
    """The game's component packs (Ruleset.component_packs): its community_components.json, where it has one."""
    path = folder / COMPONENT_PACKS
    return [json.loads(path.read_text(encoding="utf-8"))] if path.exists() else []


def load(package: str, data: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset of the game package ``package`` over its own data, or over the data it is given (an archived
    version's, tracker/rulesets/__init__.py archived()): its rules are built from that data, so a pinned campaign is
    judged by its own version's data."""
    folder = Path(importlib.import_module(package).__file__).parent
    data = rules_data.load(folder / RULES_DATA) if data is None else data
    return Ruleset(
        data,
        list(module(package, "actions").ACTIONS),
        rules=module(package, "rules").Rules(data),
        setup=module(package, "setup").SET_UP,
        component_packs=component_packs(folder),
        views=module(package, "views").VIEWS,
    )
