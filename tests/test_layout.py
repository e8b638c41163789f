"""Where a newcomer finds a test: each game's rules in the folder named after its package (tests/journey/, ...), each
file named after the rule it holds; the helpers the tests share in tests/kit/. No test file imports another test
file's names (its helpers belong in the kit), except to collect that file's tests again (tests/test_shards_suite.py
runs tests of tests/test_access.py on a sharded app): then it imports tests and the fixtures they take, nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

from tracker import rulesets

TESTS = Path(__file__).parent
NOT_GAMES = {"kit", "fixtures", "__pycache__"}


def _is_test_module(module: str) -> bool:
    return module.startswith("tests.") and module.rsplit(".", 1)[-1].startswith("test_")


def _fixtures_of(module: str) -> set[str]:
    """The names of the pytest fixtures a test module defines (``@pytest.fixture``, with or without arguments)."""
    path = TESTS.parent.joinpath(*module.split(".")).with_suffix(".py")
    if not path.exists():
        return set()
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(target, ast.Attribute) and target.attr == "fixture" or isinstance(target, ast.Name) and target.id == "fixture":
                    found.add(node.name)
    return found


def imports_of_test_files(source: str, fixtures_of=_fixtures_of) -> list[str]:
    """Each import in ``source`` of a name of a test module (tests/**/test_*.py), but for the tests it collects again
    and their fixtures: ``line N: module.name``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: {alias.name}" for alias in node.names if _is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if _is_test_module(node.module):
                allowed = fixtures_of(node.module)
                found += [f"line {node.lineno}: {node.module}.{alias.name}" for alias in node.names
                          if not alias.name.startswith("test_") and alias.name not in allowed]
            else:
                found += [f"line {node.lineno}: {node.module}.{alias.name}" for alias in node.names if _is_test_module(f"{node.module}.{alias.name}")]
    return found


def test_no_test_file_imports_another_test_files_names():
    offending = {}
    for path in sorted(TESTS.rglob("*.py")):
        if found := imports_of_test_files(path.read_text(encoding="utf-8")):
            offending[str(path.relative_to(TESTS.parent))] = found
    assert not offending, f"move these helpers to tests/kit/ and import them from there: {offending}"


def test_the_import_check_finds_what_it_looks_for():
    """The test above can fail: each way of reaching into a test file is found; collecting its tests again is not."""
    fixtures = {"tests.test_access": {"secret_ruleset"}}.get
    def check(source):
        return imports_of_test_files(source, lambda module: fixtures(module, set()))
    assert check("from tests.test_access import _mint\n") == ["line 1: tests.test_access._mint"]
    assert check("def f():\n    from tests.journey.test_carry_over import Q3_ORDER\n") == ["line 2: tests.journey.test_carry_over.Q3_ORDER"]
    assert check("import tests.test_server\n") == ["line 1: tests.test_server"]
    assert check("from tests.descent import test_group_play\n") == ["line 1: tests.descent.test_group_play"]
    assert check("from tests.test_access import secret_ruleset, test_roles_are_enforced_with_403\n") == []
    assert check("from tests.kit.journey import act\nfrom tests import forging\n") == []


def test_each_test_folder_is_a_game_package_and_no_game_s_tests_lie_outside_its_folder():
    packages = set(rulesets.games())
    folders = {path.name for path in TESTS.iterdir() if path.is_dir() and path.name not in NOT_GAMES}
    assert folders <= packages, f"test folders that are no game package of tracker/rulesets: {sorted(folders - packages)}"
    loose = sorted(path.name for path in TESTS.glob("test_*.py") for game in packages if path.stem.startswith(f"test_{game}"))
    assert not loose, f"a game's rule tests go in tests/<its package>/: {loose}"
    for folder in folders:
        assert (TESTS / folder / "__init__.py").exists(), f"tests/{folder} needs an __init__.py (its modules' names are then unique)"


def _helpers(source: str) -> dict[str, str]:
    """The helpers a module defines at its top level (no test, no fixture), each by what it does: its arguments and its
    body as ``ast`` reads them, without its name or docstring, so a copy under another name is the same helper."""
    found = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("test_"):
            continue
        if any("fixture" in ast.dump(decorator) for decorator in node.decorator_list):
            continue
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        if body:
            found[node.name] = ast.dump(node.args) + ast.dump(ast.Module(body=body, type_ignores=[]))
    return found


def helpers_written_again(sources: dict[str, str]) -> list[str]:
    """Each helper written in more than one of ``sources`` (path -> source), with where: ``a.py:name = b.py:name``."""
    where: dict[str, list[str]] = {}
    for path, source in sorted(sources.items()):
        for name, shape in _helpers(source).items():
            where.setdefault(shape, []).append(f"{path}:{name}")
    return sorted(" = ".join(places) for places in where.values() if len({place.split(":")[0] for place in places}) > 1)


def test_no_helper_is_written_again_in_another_test_file():
    sources = {str(path.relative_to(TESTS.parent)): path.read_text(encoding="utf-8") for path in sorted(TESTS.rglob("*.py"))}
    again = helpers_written_again(sources)
    assert not again, "one helper, in tests/kit/, imported where it is used:\n" + "\n".join(again)


def test_the_helper_check_finds_a_copy_under_another_name():
    kit = 'def total(client, sid):\n    """How many events."""\n    return client.get(f"/sessions/{sid}").json["total"]\n'
    copy = 'def _events(client, sid):\n    return client.get(f"/sessions/{sid}").json["total"]\n'
    other = 'def _events(client, sid):\n    return client.get(f"/sessions/{sid}").json["version"]\n'
    fixture = '@pytest.fixture\ndef total(client, sid):\n    return client.get(f"/sessions/{sid}").json["total"]\n'
    assert helpers_written_again({"kit.py": kit, "a.py": copy}) == ["a.py:_events = kit.py:total"]
    assert helpers_written_again({"kit.py": kit, "a.py": other, "b.py": fixture}) == []


def test_the_helpers_the_tests_share_are_in_the_kit_not_beside_the_tests():
    """tests/ holds, beside its folders, its test files and pytest's conftest.py: a module of shared helpers there
    (the contract check, the forgery kit, the throwaway clusters) belongs in tests/kit/ with the others."""
    loose = sorted(path.name for path in TESTS.glob("*.py") if not path.name.startswith("test_") and path.name not in ("__init__.py", "conftest.py"))
    assert not loose, f"move these to tests/kit/: {loose}"


def test_no_module_imports_a_name_from_conftest():
    """tests/conftest.py is pytest's: its fixtures reach each test by name. The helpers and test inputs it once held
    (the owner's client, a fresh schema, Journey's test components) are in the kit, where a test imports them."""
    importing = sorted(f"{path.relative_to(TESTS.parent)}:{node.lineno}" for path in TESTS.rglob("*.py")
                       for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                       if isinstance(node, ast.ImportFrom) and node.module == "tests.conftest")
    assert not importing, f"import these from tests/kit/ instead: {importing}"
