"""Rules versions as code (tracker/rulesets/<game>/versions.py): each version of a game's rules data maps to a class
of the rules that play it, a later one overriding only what changed; today's resolvers hold no version checks."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from tracker import rulesets
from tests.kit.games import package as _package

PACKAGES = Path(rulesets.__file__).parent
GAMES = sorted(rulesets.registry())
VERSION_NUMBER = re.compile(r"^\d+\.\d+(\.\d+)?$")


def _versions(ruleset_id: str):
    return importlib.import_module(f"tracker.rulesets.{_package(ruleset_id)}.versions")


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_every_archived_version_and_the_code_s_own_plays_by_its_own_class(ruleset_id):
    versions = _versions(ruleset_id)
    played = [*rulesets.archived(ruleset_id), rulesets.get(ruleset_id)]
    assert sorted(versions.BY_VERSION) == sorted(ruleset.version for ruleset in played)
    for ruleset in played:
        assert ruleset.rules.version is versions.of(ruleset.version) and ruleset.rules.version.number == ruleset.version


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_a_later_version_is_the_one_before_with_only_what_changed(ruleset_id):
    """Each class subclasses the version before it; what it overrides is its own body, everything else inherited."""
    chain = [type(rules) for rules in sorted(_versions(ruleset_id).BY_VERSION.values(), key=lambda v: [int(p) for p in v.number.split(".")])]
    for earlier, later in zip(chain, chain[1:]):
        assert later.__bases__ == (earlier,), f"{later.__name__} does not build on {earlier.__name__}"
        assert set(vars(later)) - {"number", "__doc__", "__module__", "__qualname__", "__firstlineno__", "__static_attributes__"} <= set(dir(earlier)), (
            f"{later.__name__} adds rules its predecessor has no version of"
        )


def version_checks(source: str) -> list[str]:
    """The places in a module that ask which version of the rules is playing: a comparison with a version number or
    with the ruleset's or data's "version", and the old ways of telling from the state's or data's shape
    (_played_before, yokai_phase.tracked and kept, activation.tracked, energy.tracked)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                if isinstance(operand, ast.Constant) and isinstance(operand.value, str) and VERSION_NUMBER.match(operand.value):
                    found.append(f"line {node.lineno}: compares with version {operand.value}")
                if _is_rules_version(operand):
                    found.append(f"line {node.lineno}: compares the rules' version")
        if isinstance(node, ast.Name | ast.Attribute) and (getattr(node, "id", None) or getattr(node, "attr", None)) == "_played_before":
            found.append(f"line {node.lineno}: _played_before")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (node.attr == "tracked" or (node.value.id, node.attr) == ("yokai_phase", "kept")):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")  # the state's or data's shape telling the version
        if isinstance(node, ast.FunctionDef) and node.name in ("tracked", "_played_before"):
            found.append(f"line {node.lineno}: def {node.name}")
        found += _probes(node)
    return found


# Keys of the rules data that came with a version, whose presence once told a resolver which version was playing
# (the version classes answer now): anywhere they are probed; and the parts of the game a version records (combat,
# abilities) or a part's rules (a scene's end, the yōkai's phase), probed on the rules data or a part of it (a quest's
# own condition may still say "before_turn").
CAME_WITH_A_VERSION = {"pack_holds", "draws_per_trigger", "per_turn_recorded", "surges_buy_threat", "dodge_rerolls", "all_four_play"}
PARTS = {"combat", "abilities", "before_turn", "board_clear", "all_heroes_defeated", "acts_in"}
# Keys of the state an older version's set-up did not record: asking whether they are there tells the version (reading
# their value is the game's own question).
KEPT_FROM_A_VERSION = {"kogaiji_spell"}


def _probes(node: ast.AST) -> list[str]:
    """``"key" in x`` / ``"key" not in x`` and ``x.get("key")`` for a key above: the data's shape telling the version."""
    probed = []
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops):
        probed = [(node.left.value, node.comparators[0])]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args and isinstance(node.args[0], ast.Constant):
        probed = [(node.args[0].value, node.func.value)]
    found = [f"line {node.lineno}: probes the data for {key!r}" for key, inside in probed
             if key in CAME_WITH_A_VERSION or (key in PARTS and _is_rules_data(inside))]
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and node.left.value in KEPT_FROM_A_VERSION:
        found.append(f"line {node.lineno}: probes the state for {node.left.value!r}")
    return found


def _is_rules_data(node: ast.AST, part: bool = True) -> bool:
    """The rules data or one part of it: ``data``, ``rules``, ``<...>.data``, ``<...>.data["combat"]``,
    ``<...>.data.get("combat") or {}`` (not what lies deeper, such as a class's or a figure's abilities)."""
    if isinstance(node, ast.Name):
        return node.id in ("data", "rules")
    if isinstance(node, ast.Attribute):
        return node.attr == "data"
    if part and isinstance(node, ast.Subscript):
        return _is_rules_data(node.value, part=False)
    if part and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return _is_rules_data(node.func.value, part=False)
    if part and isinstance(node, ast.BoolOp):
        return any(_is_rules_data(value) for value in node.values)
    return False


def _is_rules_version(node: ast.AST) -> bool:
    """``ruleset.version``, ``<...>.ruleset.version`` or ``<...>.data["version"]`` (not the session's event count,
    ``state["version"]``)."""
    if isinstance(node, ast.Attribute) and node.attr == "version":
        inner = node.value
        return (isinstance(inner, ast.Name) and inner.id == "ruleset") or (isinstance(inner, ast.Attribute) and inner.attr == "ruleset")
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "version":
        inner = node.value
        return (isinstance(inner, ast.Name) and inner.id == "data") or (isinstance(inner, ast.Attribute) and inner.attr == "data")
    return False


RULES_MODULES = sorted(path for game in GAMES for path in (PACKAGES / _package(game)).rglob("*.py") if path.name != "versions.py")


@pytest.mark.parametrize("path", RULES_MODULES, ids=lambda path: str(path.relative_to(PACKAGES)))
def test_the_live_rules_ask_no_version_which_it_is(path):
    assert version_checks(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "check",
    [
        'if ctx.ruleset.data["version"] != "1.0.0":\n    pass',
        "if version == '1.0.0':\n    pass",
        "old = ctx.ruleset.version < other",
        "if _played_before(game):\n    pass",
        "counted = yokai_phase.tracked(plan.game)",
        "if activation.tracked(plan.game):\n    pass",
        "def tracked(game):\n    return 'energy_drawn' in game",
        'if "pack_holds" not in rules:\n    pass',
        'if not ambush.get("per_turn_recorded"):\n    pass',
        'if "draws_per_trigger" not in rule:\n    pass',
        'rule = ctx.ruleset.data["combat"].get("surges_buy_threat")',
        'if "dodge_rerolls" in rule:\n    pass',
        "known = rules.get('abilities')",
        'if "abilities" in ctx.ruleset.data["combat"]:\n    pass',
        'if "abilities" in (ctx.ruleset.data.get("combat") or {}):\n    pass',
        'if "combat" not in ctx.ruleset.data:\n    pass',
        'rule = ctx.ruleset.data["pilgrim_rules"].get("all_four_play")',
        'trapped = "kogaiji_spell" in res.game',
        'if "board_clear" not in plan.ctx.ruleset.data["scene_rules"]:\n    return',
        'if ctx.ruleset.data["yokai_rules"].get("acts_in"):\n    pass',
        'lost = 1 if "before_turn" in ctx.ruleset.data["scene_rules"] else None',
    ],
)
def test_a_version_check_creeping_back_is_found(check):
    assert version_checks(check)
    assert version_checks("refers_to = 1\nif refers_to > ctx.state['version']:\n    pass") == []  # the session's own version is no rules version
    assert version_checks("of_attacker = dict(attacker.get('abilities') or {})\nif 'combat' in named:\n    pass") == []  # a figure's own abilities are no version
    assert version_checks("of_class = data['classes'].get(hero['class'], {}).get('abilities', [])") == []  # nor a class's, deeper in the data
    assert version_checks("if res.game.get('kogaiji_spell'):\n    pass") == []  # whether the spell lasts is the game's question
    assert version_checks("before = condition.get('before_turn')") == []  # a scene's own turn limit is no version


def test_descent_1_0_0_words_its_verdicts_as_it_did_and_1_1_0_per_quest():
    versions = _versions("descent")
    lost = {"lost": "conquest-exhausted"}
    assert versions.of("1.0.0").verdict("the-mists-of-time", lost)["reason"] == "the heroes ran out of conquest tokens (L333, L413: the overlord's side has won)"
    assert versions.of("1.1.0").verdict("the-mists-of-time", lost) == versions.of("1.5.0").verdict("the-mists-of-time", lost)
    assert versions.of("1.1.0").verdict("the-mists-of-time", lost) != versions.of("1.0.0").verdict("the-mists-of-time", lost)


def test_journey_1_4_0_words_its_verdicts_as_it_recorded_them_and_1_5_0_in_the_players_words():
    """Quest 1 won with the house cleared: its end (L710) and its Victory (L712) both name the house. 1.4.0 recorded
    the JSON a table sends and the condition twice; 1.5.0 says it once with both lines. A Demon by its name."""
    game = {"record": {}, "heroes": {"tripitaka": {"hp": 3}}, "demons": {}}
    old, new = next(r for r in rulesets.archived("journey") if r.version == "1.4.0"), rulesets.get("journey")
    assert old.rules.verdict("q1-meeting", game, 3) == {"outcome": "victory", "reason": (
        'the quest ended (every Demon in the Villagers\' house is removed (L710) (a fact for the table to state: "reported": '
        '{"house_cleared": true or false})) with every Demon in the Villagers\' house is removed (L712) (a fact for the table '
        'to state: "reported": {"house_cleared": true or false})')}
    assert new.rules.verdict("q1-meeting", game, 3) == {"outcome": "victory", "reason": "the quest ended: every Demon in the Villagers' house is removed (L710, L712)"}
    attacked = {"record": {"attacked": ["kogaiji"]}, "heroes": {}, "demons": {"kogaiji-1": "kogaiji"}, "tokens": {"villager": ["villager-1"]}}
    assert old.rules.verdict("q4-the-village", attacked, 3)["reason"] == "the quest ended (the Pilgrims attacked kogaiji (L824)) with the Pilgrims attacked kogaiji (L826)"
    assert new.rules.verdict("q4-the-village", attacked, 3)["reason"] == "the quest ended: the Pilgrims attacked Kogaiji (L824, L826)"


def test_a_rule_a_version_does_not_record_is_refused_with_the_version_it_came_with():
    from tracker.core.errors import Unprocessable
    from tracker.rulesets.engine.ruleset import ActionContext

    old = next(r for r in rulesets.archived("descent") if r.version == "1.2.0")
    ctx = ActionContext(state={"game": {}}, ruleset=old, decks={})
    with pytest.raises(Unprocessable) as refused:
        old.rules.version.require(ctx, "abilities", "This campaign's rules data records no familiars", "Familiars are recorded", "type")
    assert refused.value.detail == "Familiars are recorded from Descent rules 1.3.0 on; this campaign pinned 1.2.0."
    rulesets.get("descent").rules.version.require(ctx, "abilities", "unused", "unused", "type")  # the code's own records them
