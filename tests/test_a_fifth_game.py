"""A fifth game is its own package and nothing else: in a copy of the project, a small game package is added beside
the four (tracker/rulesets/lantern_race/: its data, rules, events and one action), and the registry, OpenAPI and
timeline tests run there as they are, finding it, without a line edited outside the package.

What today's registry asks of a package (tracker/rulesets/__init__.py): an ``__init__.py`` whose ``load(data=None)``
returns a ``Ruleset`` over its ``ruleset.json`` (validated by tracker/rulesets/engine/data.py: ``id``, ``name``, ``version``,
``unknowns``, entity lists with ids and ``unknowns``); the registry tests then ask for ``GameRules.actor_fields`` that
its actions have, and the timeline tests for a sentence from ``GameRules.describe`` for each of its ``events``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "lantern_race"
SKIPPED = shutil.ignore_patterns(".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache", "var", "*.sqlite3", "*.pyc")

# The tests that must find the fifth game with no edit of theirs: the registry, OpenAPI and timeline tests, and the two
# others that go through every game (the missing facts, the export format).
SUITES = ["tests/test_game_skeleton.py", "tests/test_game_registry.py", "tests/test_openapi.py", "tests/test_timeline_sentences.py", "tests/test_missing_facts.py", "tests/test_export_format.py"]

RULESET = {
    "id": "lantern-race",
    "name": "Lantern Race (a test's fifth game)",
    "version": "1.0.0",
    "unknowns": {},
    "characters": [{"id": "moth", "name": "Moth", "source": ["test"], "unknowns": {}},
                   {"id": "firefly", "name": "Firefly", "source": ["test"], "unknowns": {}}],
    "quests": [{"id": "the-long-night", "name": "The Long Night", "source": ["test"], "unknowns": {}}],
}

FILES = {
    "ruleset.json": json.dumps(RULESET, indent=2) + "\n",
    "__init__.py": '''"""Lantern Race: each runner rolls a d6 and carries its lantern that far (a test's fifth game)."""

from __future__ import annotations

from typing import Any

from tracker.rulesets.engine import skeleton
from tracker.rulesets.engine.ruleset import Ruleset


def load(data: dict[str, Any] | None = None) -> Ruleset:
    return skeleton.load(__name__, data)
''',
    "state.py": '''"""How far each lantern has been carried: the one kind of change, declared with its fold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine.changes import Changes

CHANGES = Changes("tracker.rulesets.lantern_race.events")
fold = CHANGES.fold


@CHANGES("lantern-carried", "LanternCarried")
def _lantern_carried(game: dict[str, Any], change: Mapping[str, Any]) -> None:
    carried = game.setdefault("carried", {})
    carried[change["runner"]] = carried.get(change["runner"], 0) + change["spaces"]
''',
    "events.py": '''"""Where stored events find Lantern Race's event classes."""

from __future__ import annotations

from tracker.rulesets.lantern_race.state import CHANGES

__all__ = ["CHANGES"]


def __getattr__(name: str) -> type:
    return CHANGES.event_named(name)
''',
    "rules.py": '''"""Lantern Race's rules: how far each lantern has been carried."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.lantern_race import describe, setup, state
from tracker.rulesets.engine.ruleset import GameRules


class Rules(GameRules):
    changes = state.CHANGES
    setup_schema = setup.SCHEMA
    actor_fields = ("runner",)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe.describe(change)
''',
    "describe.py": '''"""Lantern Race's timeline lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NAMES = {"moth": "Moth", "firefly": "Firefly"}


def describe(change: Mapping[str, Any]) -> str | None:
    if change.get("kind") == "lantern-carried":
        return f"{NAMES.get(change['runner'], change['runner'])} carried the lantern {change['spaces']} spaces"
    return None
''',
    "verdict.py": '''"""Lantern Race imposes no outcome: the table says who won."""

from __future__ import annotations


def verdict(game: object) -> None:
    return None


def end_refusal(game: object, outcome: str) -> None:
    return None
''',
    "setup.py": '''"""Lantern Race's set-up: nothing to lay out."""

from __future__ import annotations

from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionType

SCHEMA = {"type": "object", "additionalProperties": False}
SET_UP = ActionType(SET_UP_QUEST, "Quest set-up: nothing to lay out.", {"type": "object"}, lambda ctx, params, rng: [], internal=True)
''',
    "views.py": '''"""Lantern Race keeps no read views of its own."""

VIEWS: list = []
''',
    "actions.py": '''"""Lantern Race's one action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

SCHEMA = {
    "type": "object",
    "properties": {"type": {"const": "carry"}, "runner": {"type": "string", "enum": ["moth", "firefly"]}},
    "required": ["type"],
    "additionalProperties": False,
}


def carry(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rolled = dice.roll_change(ctx.dice, {"d6": 1}, None, rng, "carry")
    spaces = rolled["roll"]["results"]["d6"][0]
    return [rolled, {"kind": "lantern-carried", "runner": params.get("runner", "moth"), "spaces": spaces}]


ACTIONS = [ActionType("carry", "A runner (the Moth unless named) rolls a d6 and carries its lantern that far.", SCHEMA, carry, random=True)]
''',
}


@pytest.fixture(scope="module")
def copy_with_a_fifth_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("project") / "project"
    shutil.copytree(ROOT, copy, ignore=SKIPPED)
    package = copy / "tracker" / "rulesets" / PACKAGE
    package.mkdir()
    for name, text in FILES.items():
        (package / name).write_text(text, encoding="utf-8")
    return copy


def _pytest(copy: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=900)


def test_the_copy_finds_the_fifth_game_beside_the_four(copy_with_a_fifth_game: Path):
    found = subprocess.run([sys.executable, "-c", "from tracker import rulesets; print(sorted(rulesets.registry()))"],
                           cwd=copy_with_a_fifth_game, env={**os.environ, "PYTHONPATH": str(copy_with_a_fifth_game)},
                           capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr
    assert "lantern-race" in found.stdout and "journey" in found.stdout


def test_the_registry_openapi_and_timeline_tests_pass_with_a_fifth_game_and_no_other_edit(copy_with_a_fifth_game: Path):
    """On SQLite (the package is the same on both databases): every test of the three files passes, and the tests
    that go through the games each have a case of the fifth, run and passed. One pytest run does both (the summary
    lists each test passed, -rp): collecting the suites first in a run of their own cost a second start of pytest and
    import of the project in the copy, a third of this test's time."""
    # The fifth game's own cases and every case that goes through all games; another game's own cases hold no fifth
    ran = _pytest(copy_with_a_fifth_game, "-rp", "-k", "not postgres and (lantern or not (journey or descent or yokai or kung))", *SUITES)
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]
    passed = [line for line in ran.stdout.splitlines() if line.startswith("PASSED ") and "lantern-race" in line]
    assert any("test_game_registry.py" in line for line in passed), ran.stdout[-2000:]
    assert any("test_timeline_sentences.py" in line and "lantern-race-lantern-carried" in line for line in passed), ran.stdout[-2000:]
