"""The house's dependencies point one way, a rule per folder: entrypoints (tracker/cli.py, bootstrap.py,
settings.py) -> api -> sharding -> application -> portability -> integrity -> play -> domain and rulesets -> core,
with adapters (persistence) beside them. The README's Layout section says what each folder holds.

Read from the source with ast, every import statement counted (those inside functions too), so a
cycle cannot hide in a function body. Run this file alone to see what ties a cycle together.
"""

from __future__ import annotations

import ast
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
