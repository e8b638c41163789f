"""Today's resolvers hold no version condition (issue 33): what an older rules version played otherwise lives in the
version classes of the game's versions.py, a later version overriding only what changed, and a resolver calls the one
method that answers for every version. Every rules module of every game package but versions.py is read with ``ast``
for the three shapes such a condition takes:

- a flag of the version tested: ``if ctx.ruleset.rules.version.limits_the_pack:``;
- a value the version gave, tested for which version it came from: ``known = version.abilities(...)`` then ``if known:``,
  ``rule = version.surges_buying_threat(...)`` then ``if rule is None:`` (a step the version object carries out, such as
  ``steps.ignores_range(...)``, is the version's own answer and no branch of the resolver's);
- a version number written into the code's strings (a refusal saying "from Descent rules 1.5.0 on" names what
  versions.py knows). The published texts, docstrings and the contract's descriptions, may name the version a rule came
  with: they describe, they do not decide.
tests/test_rule_versions.py holds the comparisons with version numbers and the probes of the data's shape."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tracker import rulesets

PACKAGES = Path(rulesets.__file__).parent
VERSION_NUMBER = re.compile(r"\b\d+\.\d+\.\d+\b")
RULES_MODULES = sorted(path for game in rulesets.games() for path in (PACKAGES / game).rglob("*.py") if path.name != "versions.py")


def _reads_the_version(node: ast.AST) -> bool:
    """Whether ``node`` reads a part of a version object: ``<...>.version.<name>``."""
    return any(isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute) and sub.value.attr == "version" for sub in ast.walk(node))


def _the_version_s(value: ast.AST) -> bool:
    """Whether an assigned value is what the version gave: its flag or a method's answer, alone or in a condition
    (``not foe and version.counts_in_play``), not a list of changes a version's method added to."""
    if isinstance(value, ast.UnaryOp):
        return _the_version_s(value.operand)
    if isinstance(value, ast.BoolOp):
        return any(_the_version_s(part) for part in value.values)
    if isinstance(value, ast.Call):
        value = value.func
    return isinstance(value, ast.Attribute) and _reads_the_version(value)


def _values_read(test: ast.AST) -> set[str]:
    """The names a condition reads as values, not those it only calls a method on."""
    receivers = {id(call.func.value) for call in ast.walk(test) if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)}
    return {name.id for name in ast.walk(test) if isinstance(name, ast.Name) and id(name) not in receivers}


def _conditions(function: ast.AST) -> list[ast.AST]:
    found: list[ast.AST] = []
    for node in ast.walk(function):
        if isinstance(node, ast.If | ast.IfExp | ast.While):
            found.append(node.test)
        elif isinstance(node, ast.comprehension):
            found += node.ifs
        elif isinstance(node, ast.BoolOp):
            found += node.values
    return found


def version_branches(source: str) -> list[str]:
    tree = ast.parse(source)
    found = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        given = {target.id for node in ast.walk(function) if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
                 and _the_version_s(node.value) for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                 if isinstance(target, ast.Name)}
        for test in _conditions(function):
            flag = next((sub for sub in ast.walk(test) if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute)
                         and sub.value.attr == "version" and not _called(sub, test)), None)
            if flag is not None:
                found.add(f"line {test.lineno}: tests the version's {flag.attr}")
            for name in sorted(_values_read(test) & given):
                found.add(f"line {test.lineno}: tests {name!r}, a value the version gave")
    return sorted(found) + _version_numbers(tree)


def _called(attribute: ast.Attribute, test: ast.AST) -> bool:
    return any(isinstance(call, ast.Call) and call.func is attribute for call in ast.walk(test))


def _version_numbers(tree: ast.AST) -> list[str]:
    """Version numbers in the code's strings, but for docstrings and what the contract publishes (an ActionType's
    description, a schema's "description")."""
    published: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            published.add(id(body[0].value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ActionType" and len(node.args) > 1:
            published |= {id(part) for part in ast.walk(node.args[1])}
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "description":
                    published |= {id(part) for part in ast.walk(value)}
    return [f"line {node.lineno}: names version {VERSION_NUMBER.search(node.value).group()}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in published and VERSION_NUMBER.search(node.value)]


def test_every_game_s_rules_modules_are_read():
    assert {path.parent.name for path in RULES_MODULES} == set(rulesets.games())
    assert all((PACKAGES / game / "versions.py").exists() for game in rulesets.games())


@pytest.mark.parametrize("path", RULES_MODULES, ids=lambda path: str(path.relative_to(PACKAGES)))
def test_no_resolver_branches_on_the_version(path):
    assert version_branches(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "branch",
    [
        "def f(ctx):\n    if not ctx.ruleset.rules.version.limits_the_pack:\n        return []",
        "def f(plan):\n    counted = not foe and plan.ctx.ruleset.rules.version.counts_in_play",
        "def f(ctx, rules):\n    known = ctx.ruleset.rules.version.abilities(rules)\n    if known:\n        pass",
        "def f(ctx, rules):\n    known = ctx.ruleset.rules.version.abilities(rules)\n    x = g(known) if known else None",
        "def f(ctx):\n    rule = ctx.ruleset.rules.version.surges_buying_threat(ctx.ruleset.data)\n    if rule is None:\n        return []",
        "def f(ctx):\n    return [s for s in ctx.steps if ctx.ruleset.rules.version.records]",
        "def f(ctx):\n    if 'abilities' in ctx.ruleset.rules.version.records:\n        pass",
        "def f(ctx):\n    raise refuse('No spirit', f'as figures from Descent rules 1.5.0 on; pinned {ctx.ruleset.version}.', 'monsters')",
    ],
)
def test_a_version_branch_creeping_back_is_found(branch):
    assert version_branches(branch)


@pytest.mark.parametrize(
    "asked",
    [
        "def f(ctx, rules):\n    steps = ctx.ruleset.rules.version.attack_abilities(rules)\n    if steps.ignores_range(p, a):\n        pass",
        "def f(ctx):\n    ctx.ruleset.rules.version.require(ctx, 'combat', 'title', 'what', 'type')",
        "def f(ctx):\n    return ctx.ruleset.rules.version.stow_potion(ctx, params, 1, 'chest')",
        "def f(ctx):\n    changes = [made] + ctx.ruleset.rules.version.surges_to_threat(ctx)\n    if any(c['kind'] == 'x' for c in changes):\n        pass",
        "def f(ctx):\n    if params['version'] > ctx.state['version']:\n        pass",  # the session's event count is no rules version
        "def f():\n    '''Rules 1.3.0 on (versions.py).'''",
        "ACTIONS = [ActionType('gain-threat', 'Threat gained (rules 1.5.0 on).', {}, f)]",
        "SCHEMA = {'abilities': {'type': 'object', 'description': 'Abilities (rules 1.3.0 on).'}}",
    ],
)
def test_asking_the_version_and_describing_a_rule_s_version_pass(asked):
    assert version_branches(asked) == []
