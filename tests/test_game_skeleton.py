"""Every game package has the one game skeleton (tracker/rulesets/engine/skeleton.py): the same modules, with the same entry
points, built the same way. The packages are discovered (rulesets.games()), so a fifth game is held to it too."""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

import pytest

from tests.kit.timeline import samples_of
from tracker import rulesets
from tracker.rulesets.engine import skeleton
from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionType, GameRules

RULESETS = Path(rulesets.__file__).parent
GAMES = rulesets.games()


def lacking(package: str) -> list[str]:
    """What of the skeleton the game package ``package`` (a dotted name) lacks: a module file, or an entry point."""
    folder = Path(importlib.import_module(package).__file__).parent
    missing = []
    for name, entries in skeleton.MODULES.items():
        if not (folder / f"{name}.py").is_file():
            missing.append(f"{name}.py")
            continue
        module = skeleton.module(package, name)
        missing += [f"{name}.{entry}" for entry in entries if not hasattr(module, entry)]
    if not (folder / skeleton.RULES_DATA).is_file():
        missing.append(skeleton.RULES_DATA)
    return missing


def _package(game: str) -> str:
    return f"{rulesets.__name__}.{game}"


def test_the_games_are_found_the_four_among_them() -> None:
    assert {"descent", "journey", "kung_fu_panda", "yokai_quest"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_package_has_every_module_and_entry_point_of_the_skeleton(game: str) -> None:
    assert lacking(_package(game)) == []


@pytest.mark.parametrize("game", GAMES)
def test_each_game_is_loaded_from_its_skeleton(game: str) -> None:
    """The package's load() is the skeleton's: its rules, actions, set-up and views are those of its modules."""
    package = importlib.import_module(_package(game))
    ruleset = package.load()
    built = skeleton.load(package.__name__)
    assert ruleset.hash == built.hash == rulesets.registry()[ruleset.id].hash
    actions = skeleton.module(package.__name__, "actions").ACTIONS
    setup = skeleton.module(package.__name__, "setup")
    assert [action.name for action in ruleset.actions.values()] == [action.name for action in actions] + [SET_UP_QUEST]
    assert all(isinstance(action, ActionType) and not action.internal for action in actions)
    assert ruleset.actions[SET_UP_QUEST] is setup.SET_UP and setup.SET_UP.internal
    assert ruleset.rules.setup_schema == setup.SCHEMA
    assert tuple(ruleset.views) == tuple(skeleton.module(package.__name__, "views").VIEWS)
    assert all(callable(getattr(skeleton.module(package.__name__, m), e)) for m, e in
               [("state", "fold"), ("describe", "describe"), ("verdict", "verdict"), ("verdict", "end_refusal")])


@pytest.mark.parametrize("game", GAMES)
def test_each_game_s_rules_are_built_from_the_data_they_judge_by(game: str) -> None:
    """Rules(data), the same way in every game: the current version's rules hold its data, each archived version's its own."""
    rules_class = skeleton.module(_package(game), "rules").Rules
    assert issubclass(rules_class, GameRules)
    current = rulesets.registry()[importlib.import_module(_package(game)).load().id]
    for ruleset in (current, *rulesets.archived(current.id)):
        assert type(ruleset.rules) is rules_class
        assert ruleset.rules.data is ruleset.data


@pytest.mark.parametrize("game", GAMES)
def test_each_game_s_timeline_sentence_is_its_describe_module_s(game: str) -> None:
    ruleset = importlib.import_module(_package(game)).load()
    describe = skeleton.module(_package(game), "describe").describe
    samples = samples_of(ruleset)
    changes = [change for kind in ruleset.rules.events for change in samples.get(kind, [])]
    assert changes, f"no change of {game} recorded in tests/fixtures/timeline_samples.json nor made on a fresh quest"
    # describe(change) or describe(change, data): a sentence that names what only the rules data names (Kung Fu Panda's
    # tiles) is given the data
    data = (ruleset.data,) if len(inspect.signature(describe).parameters) > 1 else ()
    assert [ruleset.rules.describe(change) for change in changes] == [describe(change, *data) for change in changes]
    assert any(describe(change, *data) for change in changes)


def _written(game: str) -> dict[str, list]:
    """Each module of the game package, with the module-level values it holds that are actions or lists of them."""
    found = {}
    for path in sorted((RULESETS / game).glob("*.py")):
        module = importlib.import_module(f"{_package(game)}.{path.stem}" if path.stem != "__init__" else _package(game))
        values = [value for value in vars(module).values() if isinstance(value, ActionType | list | tuple)]
        found[path.stem] = [value for value in values if isinstance(value, ActionType) or (value and all(
            isinstance(item, ActionType | tuple) and (isinstance(item, ActionType) or any(callable(part) for part in item)) for item in value))]
    return found


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_one_action_list_that_gathers_every_action_it_writes(game: str) -> None:
    """Every ActionType a module of the package holds, in actions.py or a small rule module, is in actions.ACTIONS (or is
    the set-up): no action is offered by another list, and none is written as a tuple for something else to wrap."""
    gathered = {action.name for action in skeleton.module(_package(game), "actions").ACTIONS} | {SET_UP_QUEST}
    held = {module: [item for value in values for item in (value if isinstance(value, list | tuple) else [value])]
            for module, values in _written(game).items()}
    assert {module: items for module, items in held.items() if any(not isinstance(item, ActionType) for item in items)} == {}
    names = {item.name for items in held.values() for item in items}
    assert names and names - gathered == set()


def test_a_game_package_without_a_piece_of_the_skeleton_is_named_with_what_it_lacks(tmp_path: Path,
                                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a fifth game whose timeline sentence has no describe.py, and whose actions module offers
    no ACTIONS list, is told so."""
    game = tmp_path / "fifth_game"
    game.mkdir()
    source = RULESETS / "kung_fu_panda"
    for name in ("__init__", *skeleton.MODULES):
        if name != "describe":
            (game / f"{name}.py").write_text(f"from tracker.rulesets.kung_fu_panda.{name} import *\n", encoding="utf-8")
    (game / "actions.py").write_text("from tracker.rulesets.kung_fu_panda.actions import ActionType\n", encoding="utf-8")
    (game / skeleton.RULES_DATA).write_text((source / skeleton.RULES_DATA).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(rulesets, "__path__", [*rulesets.__path__, str(tmp_path)])
    try:
        assert "fifth_game" in rulesets.games()
        assert lacking(_package("fifth_game")) == ["actions.ACTIONS", "describe.py"]
    finally:
        for name in [name for name in sys.modules if name.startswith(_package("fifth_game"))]:
            sys.modules.pop(name)
