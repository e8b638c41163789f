"""The house's dependencies point one way, a rule per folder: entrypoints (tracker/cli.py, bootstrap.py,
settings.py) -> api -> sharding -> application -> portability -> integrity -> play -> domain and rulesets -> core,
with adapters (persistence) beside them. The README's Layout section says what each folder holds.

Read from the source with ast, every import statement counted (those inside functions too), so a
cycle cannot hide in a function body. Run this file alone to see what ties a cycle together.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tracker", "api", "projections")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def _imports(name: str, path: Path, known: dict[str, Path]) -> dict[str, int]:
    """The project modules ``name`` imports, each with the line of its first import there."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        if target in known and target != name:
            found.setdefault(target, line)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                add(submodule if submodule in known else base, node.lineno)
    return found


def import_graph() -> dict[str, dict[str, int]]:
    known = _modules()
    return {name: _imports(name, path, known) for name, path in known.items()}


def _cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _within(module: str, *places: str) -> bool:
    return any(module == place or module.startswith(place + ".") for place in places)


def _crossings(graph: dict[str, dict[str, int]], source: tuple[str, ...], forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    return [
        f"{module} imports {target} (line {line})"
        for module, targets in sorted(graph.items())
        if _within(module, *source)
        for target, line in sorted(targets.items())
        if _within(target, *forbidden) and not _within(target, *allowed)
    ]


GRAPH = import_graph()


def test_the_graph_sees_imports_inside_functions_and_ties_cycles(tmp_path: Path) -> None:
    """A test of the walk: an import inside a function body is an edge, relative imports resolve, and a
    cycle through such an edge is found."""
    (tmp_path / "a.py").write_text("def f():\n    from tracker import b\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("from .a import f\nimport tracker.c\n", encoding="utf-8")
    known = {"tracker.a": tmp_path / "a.py", "tracker.b": tmp_path / "b.py", "tracker.c": tmp_path / "c.py"}
    graph = {name: _imports(name, path, known) for name, path in known.items() if path.exists()}
    assert graph == {"tracker.a": {"tracker.b": 2}, "tracker.b": {"tracker.a": 1, "tracker.c": 2}}
    assert _cycles({**graph, "tracker.c": {}}) == [["tracker.a", "tracker.b"]]


def test_no_import_cycles() -> None:
    cycles = _cycles(GRAPH)
    ties = [
        "; ".join(f"{m} -> {t} (line {line})" for m in cycle for t, line in GRAPH[m].items() if t in cycle)
        for cycle in cycles
    ]
    assert not cycles, "import cycles:\n" + "\n".join(ties)


def test_no_imports_hidden_in_functions() -> None:
    """An import of the project's own modules inside a function hides an edge from a reader of the module's
    head, and is how cycles were worked around. (A third-party driver loaded only when needed is not one.)"""
    hidden = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        target = (inner.module or "") if isinstance(inner, ast.ImportFrom) else inner.names[0].name
                        if target and _within(target, *PACKAGES):
                            hidden.append(f"{name}:{inner.lineno} imports {target} inside {node.name}()")
    assert not hidden, "\n".join(hidden)


@pytest.mark.parametrize(
    ("layer", "source", "forbidden", "allowed"),
    [
        ("projections read events, never the application or the API",
         ("projections",), ("tracker.application", "tracker.sharding", "tracker.bootstrap", "tracker.cli", "api"), ()),
        ("below the entrypoints, the application knows neither the API nor the views",
         ("tracker",), ("api", "projections"), ()),
        ("the command line builds the views through the bootstrap; of the API it knows only create_app and the front",
         ("tracker.cli",), ("projections", "api.wsgi", "api.routes", "api.pages"), ()),
    ],
)
def test_dependencies_point_one_way(layer: str, source: tuple[str, ...], forbidden: tuple[str, ...], allowed: tuple[str, ...]) -> None:
    # The entrypoints (tracker/cli.py; tracker/bootstrap.py, which builds the views) sit above everything.
    entrypoints = ("tracker.cli ", "tracker.bootstrap ") if source == ("tracker",) else ("tracker.bootstrap ",)
    crossings = [c for c in _crossings(GRAPH, source, forbidden, allowed) if not c.startswith(entrypoints)]
    assert not crossings, f"{layer}:\n" + "\n".join(crossings)


# What each folder of tracker/ may import besides itself: the folders below it, never one above.
CORE = ("tracker.core",)
MAY_IMPORT = {
    "tracker.core": (),  # pure values and checks: errors, inputs, dice, decks, randomness, sealing, wording
    "tracker.adapters": (*CORE, "tracker.domain"),  # persistence: the store's settings, PostgreSQL, the repository
    "tracker.rulesets": (*CORE, "tracker.domain.events"),  # the games: pure, over the event bases alone
    "tracker.domain": CORE,  # the aggregates, given their rules, never importing a game
    "tracker.play": (*CORE, "tracker.domain", "tracker.rulesets"),  # a session in play: resolving, who plays
    "tracker.integrity": (*CORE, "tracker.domain", "tracker.rulesets", "tracker.play"),  # hashes, secrets, verification, signatures
    "tracker.portability": (*CORE, "tracker.adapters", "tracker.domain", "tracker.rulesets", "tracker.play", "tracker.integrity"),
    "tracker.application": (*CORE, "tracker.adapters", "tracker.domain", "tracker.rulesets", "tracker.play", "tracker.integrity",
                            "tracker.portability"),
    "tracker.sharding": (*CORE, "tracker.adapters", "tracker.domain", "tracker.portability", "tracker.application", "tracker.settings"),
}


@pytest.mark.parametrize("folder", sorted(MAY_IMPORT))
def test_each_folder_imports_only_the_folders_below_it(folder: str) -> None:
    crossings = _crossings(GRAPH, (folder,), ("tracker",), (folder, *MAY_IMPORT[folder]))
    assert not crossings, f"{folder} may import only {MAY_IMPORT[folder] or 'itself'}:\n" + "\n".join(crossings)


def test_every_module_of_tracker_is_in_a_folder_but_the_entrypoints() -> None:
    """tracker/ holds its layers' folders and, beside them, only the entrypoints and their settings."""
    loose = sorted(path.name for path in (ROOT / "tracker").glob("*.py") if path.name != "__init__.py")
    assert loose == ["bootstrap.py", "cli.py", "settings.py"]
    folders = sorted(path.name for path in (ROOT / "tracker").iterdir() if path.is_dir() and (path / "__init__.py").exists())
    assert folders == sorted(name.removeprefix("tracker.") for name in MAY_IMPORT)


def test_the_command_line_names_no_wsgi_module() -> None:
    """`tracker serve` hands create_app to the bootstrap's gunicorn (api/wsgi.py is the Procfile's door)."""
    assert "api.wsgi" not in (ROOT / "tracker" / "cli.py").read_text(encoding="utf-8")


# tracker/rulesets/ inside: the engine every game is built on, and one package per game, each its own.
GAMES = sorted(path.parent.name for path in (ROOT / "tracker" / "rulesets").glob("*/__init__.py") if path.parent.name != "engine")


def ruleset_crossings(graph: dict[str, dict[str, int]], games: list[str]) -> list[str]:
    """Each import that breaks the rulesets' own rules: the engine imports no game, a game no other game, and nothing
    outside tracker/rulesets/ imports a game (the registry, tracker/rulesets/__init__.py, finds them)."""
    def game_of(module: str) -> str | None:
        return next((game for game in games if _within(module, f"tracker.rulesets.{game}")), None)

    found = []
    for module, targets in sorted(graph.items()):
        for target, line in sorted(targets.items()):
            reached = game_of(target)
            if reached is None or game_of(module) == reached:
                continue
            if _within(module, "tracker.rulesets.engine"):
                found.append(f"the engine's {module} imports the game {target} (line {line})")
            elif game_of(module):
                found.append(f"the game {module} imports another game's {target} (line {line})")
            elif module != "tracker.rulesets":
                found.append(f"{module} imports the game {target} (line {line}): ask the registry for it")
    return found


def test_the_engine_imports_no_game_and_a_game_no_other() -> None:
    assert {"descent", "journey", "kung_fu_panda", "yokai_quest"} <= set(GAMES)
    crossings = ruleset_crossings(GRAPH, GAMES)
    assert not crossings, "\n".join(crossings)


def test_the_rulesets_rules_find_each_crossing() -> None:
    graph = {
        "tracker.rulesets.engine.ruleset": {"tracker.rulesets.journey.state": 3},
        "tracker.rulesets.descent.combat": {"tracker.rulesets.journey.attack": 4, "tracker.rulesets.descent.harm": 5},
        "api.routes.descent": {"tracker.rulesets.descent.hidden": 6},
        "tracker.rulesets": {"tracker.rulesets.journey": 7},
    }
    assert ruleset_crossings(graph, ["descent", "journey"]) == [
        "api.routes.descent imports the game tracker.rulesets.descent.hidden (line 6): ask the registry for it",
        "the game tracker.rulesets.descent.combat imports another game's tracker.rulesets.journey.attack (line 4)",
        "the engine's tracker.rulesets.engine.ruleset imports the game tracker.rulesets.journey.state (line 3)",
    ]


# The README's Layout section draws the folders: each is named there, and each path it names is there, from the root
# (a path in backquotes too: `rulesets/changes.py` names no file a reader finds).
PATH = re.compile(r"(?<![\w./-])((?:tracker|api|projections|tests|bench)/[\w./<>-]*[\w/>])")
QUOTED_PATH = re.compile(r"`([\w.<>-]+/[\w./<>-]*)`")


def _layout() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]


def layout_faults(layout: str, root: Path, folders: list[str], games: list[str]) -> list[str]:
    """What the Layout text gets wrong: a folder it does not name, or a path it names that is not there (``<game>``
    standing for every game package)."""
    faults = [f"{folder}/ is not in the Layout" for folder in folders if f"{folder}/" not in layout]
    for path in sorted(set(PATH.findall(layout)) | set(QUOTED_PATH.findall(layout))):
        for each in ([path.replace("<game>", game) for game in games] if "<game>" in path else [path]):
            there = root / each.split("<", 1)[0]  # (another placeholder: its folder, e.g. templates/kinds/<kind>.html)
            if not there.exists():
                faults.append(f"{each} is named in the Layout but is not there")
    return faults


def test_the_readme_layout_names_every_folder_and_every_path_it_names_is_there() -> None:
    folders = [f"tracker/{path.parent.name}" for path in sorted((ROOT / "tracker").glob("*/__init__.py"))]
    folders += ["tracker/rulesets/engine", "api", "projections", "tests/kit", *(f"tests/{game}" for game in GAMES)]
    assert not layout_faults(_layout(), ROOT, folders, GAMES), "\n".join(layout_faults(_layout(), ROOT, folders, GAMES))


def test_the_layout_check_finds_a_folder_left_out_and_a_path_moved(tmp_path: Path) -> None:
    (tmp_path / "tracker" / "core").mkdir(parents=True)
    (tmp_path / "tracker" / "rulesets" / "dice_game").mkdir(parents=True)
    (tmp_path / "tracker" / "rulesets" / "dice_game" / "views.py").write_text("", encoding="utf-8")
    layout = "tracker/core/ the values; `tracker/rulesets/changes.py` declares, `rulesets/dice_game/views.py` shows; tracker/rulesets/<game>/views.py"
    assert layout_faults(layout, tmp_path, ["tracker/core", "tracker/play"], ["dice_game"]) == [
        "tracker/play/ is not in the Layout", "rulesets/dice_game/views.py is named in the Layout but is not there",
        "tracker/rulesets/changes.py is named in the Layout but is not there"]
