"""One way to change a session, one declaration per kind of change, and what each aggregate is given (issue 33).

- Every event a session records, its own and every game's, is applied by one of the session's ``@event`` methods
  (the library's DecoratedFuncCaller), never by an ``apply`` of the event's own.
- A game's kind of change is declared once, with its fold: the declaration makes the event class under the name
  stored events give it, registers the fold, and the ruleset's ``events`` and ``fold`` come from it.
- The clock and the game rules are given to each aggregate by the application that makes or loads it, so two
  applications in one process keep their own.
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.domain import CommandMethodDecorator, DecoratedFuncCaller, decorated_funcs
from eventsourcing.utils import get_topic, resolve_topic

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tracker import rulesets
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.domain import Session
from tracker.domain.events import GameEvent, Given, TrackerCreated, TrackerEvent
from tracker.adapters.repository import mutate_each
from tracker.rulesets.engine.changes import Changes

TRACKER = Path(__file__).resolve().parents[1] / "tracker"


def _session_methods() -> dict[object, str]:
    """The functions of the session's @event methods, by the method's name."""
    return {value.decorated_func: name for name, value in vars(Session).items() if isinstance(value, CommandMethodDecorator)}


def _game_event_classes() -> list[type]:
    return [cls for ruleset in rulesets.registry().values() for cls in ruleset.rules.events.values()]


def test_every_session_event_is_applied_by_one_of_its_event_methods():
    own = [cls for cls in vars(Session).values() if isinstance(cls, type) and issubclass(cls, (TrackerEvent, TrackerCreated))]
    games = _game_event_classes()
    assert len(games) == 210  # Descent 83 (its turn's four among them), Journey 62, Kung Fu Panda 28, Yōkai Quest 37
    methods = _session_methods()
    for cls in own + games:
        if issubclass(cls, TrackerCreated):
            continue  # the SessionStarted event makes the session by its decorated __init__
        assert cls.apply is DecoratedFuncCaller.apply, f"{cls.__qualname__} applies itself"
        assert decorated_funcs[cls] in methods, f"{cls.__qualname__} is not applied by an @event method of Session"
    assert {methods[decorated_funcs[cls]] for cls in games} == {"change_game"}


def test_no_event_class_in_the_service_defines_its_own_apply():
    offenders = [
        f"{path.relative_to(TRACKER.parent)}:{number}"
        for path in TRACKER.rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("        def apply(self") or ".apply = " in line
    ]
    assert offenders == []


@pytest.mark.parametrize("game", rulesets.games())
def test_each_game_event_keeps_the_topic_stored_events_name_and_is_found_by_it(game):
    package = f"tracker.rulesets.{game}"
    events_module = importlib.import_module(f"{package}.events")
    ruleset = next(r for r in rulesets.registry().values() if type(r.rules).__module__.startswith(package))
    assert ruleset.rules.changes is events_module.CHANGES
    for kind, cls in ruleset.rules.events.items():
        topic = f"{package}.events:{cls.__name__}"
        assert get_topic(cls) == topic
        assert resolve_topic(topic) is cls
        assert getattr(events_module, cls.__name__) is cls  # found by importing the module, as the library does first time
        assert ruleset.rules.events_by_name[cls.__name__] is cls
        assert cls.class_version == 1 and issubclass(cls, GameEvent)
        assert kind in ruleset.rules.changes.folds


def test_a_declaration_makes_the_event_registers_its_fold_and_refuses_a_second():
    changes = Changes("tests.test_one_declaration_per_change")

    @changes("gold-found", "GoldFound")
    def _gold_found(game, change):
        game["gold"] = game.get("gold", 0) + change["amount"]

    changes.declare("noted", "Noted")
    game = {"gold": 1, "nested": {"kept": [1]}}
    after = changes.fold(game, {"kind": "gold-found", "amount": 2})
    assert after == {"gold": 3, "nested": {"kept": [1]}} and game["gold"] == 1  # the state folded is a copy
    assert changes.fold(after, {"kind": "noted"}) == after
    cls = changes.events["gold-found"]
    assert (cls.__name__, get_topic(cls), resolve_topic(get_topic(cls))) == ("GoldFound", "tests.test_one_declaration_per_change:GoldFound", cls)
    assert decorated_funcs[cls] is vars(Session)["change_game"].decorated_func
    with pytest.raises(ValueError, match="declared twice"):
        changes.declare("gold-found", "GoldFoundAgain")
    with pytest.raises(ValueError, match="no game event of kind 'lost'"):
        changes.fold(game, {"kind": "lost"})


def _played(tracker: Tracker) -> str:
    campaign = tracker.create_campaign("journey", "Given", party=["tripitaka"], components=JOURNEY_TEST_COMPONENTS).body["id"]
    session = tracker.start_session(campaign, "q1-meeting").body["id"]
    tracker.roll(session, dice={"d6": 1})
    return session


def test_two_applications_in_one_process_keep_their_own_clock_and_rules(tmp_path):
    """The clock and the rules were once set on the classes by the last Tracker built: the first one's sessions then
    recorded the second one's time. Each aggregate is now given them by the application that makes or loads it."""
    first_moment, second_moment = datetime(2031, 1, 1, tzinfo=timezone.utc), datetime(2032, 2, 2, tzinfo=timezone.utc)
    asked: list[str] = []

    def counting_rules(pin):
        asked.append(pin["id"])
        return rulesets.pinned(pin).rules

    first = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/first.sqlite3"), clock=lambda: first_moment, rules_for=counting_rules)
    second = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/second.sqlite3"), clock=lambda: second_moment)
    try:
        in_first = _played(first)  # made after the second application was built
        in_second = _played(second)
        first.roll(in_first, dice={"d6": 1})
        for tracker, session, moment in ((first, in_first, first_moment), (second, in_second, second_moment)):
            events = tracker.session_events(session)["events"]
            assert {event["timestamp"] for event in events} == {moment.isoformat()}
            campaign = tracker.get_session(session)["campaign_id"]
            assert {e.timestamp for e in tracker.events.get(UUID(campaign))} == {moment}
        assert asked and set(asked) == {"journey"}  # the first application's sessions used its rules, the second's did not ask them
        loaded = first.repository.get(UUID(in_first))
        assert loaded.given is first.given and loaded.rules is rulesets.pinned(loaded.ruleset).rules
        assert copy.deepcopy(loaded).rules is loaded.rules  # the library's cache copies sessions; the rules are shared
    finally:
        first.close()
        second.close()


def test_a_session_folded_outside_an_application_is_given_its_rules_explicitly(tmp_path):
    tracker = Tracker(env=persistence_env(f"sqlite:///{tmp_path}/t.sqlite3"))
    try:
        session_id = _played(tracker)
        events = list(tracker.events.get(UUID(session_id)))
        alone = None
        for event in events:
            alone = event.mutate(alone)
            break
        with pytest.raises(RuntimeError, match="No game rules were given"):
            for event in events[1:]:
                alone = event.mutate(alone)
        given = mutate_each(None, events, Given(rules_for=lambda pin: rulesets.pinned(pin).rules))
        assert given.state() == tracker.repository.get(UUID(session_id)).state()
    finally:
        tracker.close()


def _names_the_kind(node: ast.AST) -> bool:
    """``kind``, ``change["kind"]`` or ``change.get("kind")``."""
    if isinstance(node, ast.Name):
        return node.id == "kind"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "kind"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "kind")


def _is_string_literal(node: ast.AST) -> bool:
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_is_string_literal(e) for e in node.elts)
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _asks_the_kind(test: ast.AST) -> bool:
    """Whether a condition compares the change's kind against string literals (==, !=, in, not in)."""
    for node in ast.walk(test):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_the_kind(o) for o in operands) and any(_is_string_literal(o) for o in operands):
                return True
    return False


def kind_chains(source: str) -> list[int]:
    """The lines where an if/elif chain over the kind of change starts: an ``if`` asking the kind whose ``elif`` asks
    it again (a dispatch on the kind written by hand, where a declaration per kind belongs)."""
    starts, inner = [], set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.If) or id(node) in inner:
            continue
        branch, asked = node, 0
        while True:
            asked += _asks_the_kind(branch.test)
            if len(branch.orelse) == 1 and isinstance(branch.orelse[0], ast.If):
                branch = branch.orelse[0]
                inner.add(id(branch))
            else:
                break
        if asked >= 2:
            starts.append(node.lineno)
    return starts


def _fold_modules() -> list[Path]:
    """Every module that folds a game's changes: each game's state module, the modules of its declared folds and of
    what it does with every change, and Journey's hero progress (which folds the Pilgrims' sheets with the same folds)."""
    modules = {TRACKER / "rulesets" / game / "state.py" for game in rulesets.games()}
    for ruleset in rulesets.registry().values():
        changes = ruleset.rules.changes
        for fold in [*changes.folds.values(), *([changes.every] if changes.every else [])]:
            modules.add(Path(inspect.getsourcefile(fold)).resolve())
    modules.add(TRACKER / "rulesets" / "journey" / "progress.py")
    return sorted(path for path in modules if path.exists())


@pytest.mark.parametrize("module", [pytest.param(path, id=str(path.relative_to(TRACKER))) for path in _fold_modules()])
def test_no_fold_module_dispatches_on_the_kind_by_an_if_elif_chain(module):
    assert kind_chains(module.read_text(encoding="utf-8")) == [], f"{module.relative_to(TRACKER.parent)}: declare each kind with its own fold"


def test_the_scan_finds_a_chain_over_the_kind_and_passes_what_is_not_one():
    planted = '''
def fold_hero(h, change):
    kind = change["kind"]
    if kind == "karma-gained":
        h["good"] += 1
    elif kind in ("damage-taken", "health-restored"):
        h["hp"] = change["hp_after"]

def fold(g, change):
    if change["kind"] == "a":
        pass
    else:
        if change.get("kind") != "b":
            pass
        elif g:
            if change["kind"] == "c":
                pass
            elif change["kind"] == "d":
                pass
'''
    assert kind_chains(planted) == [4, 10, 16]  # an else holding only an if is an elif; a chain inside a branch counts too
    one_question = 'def f(g, change):\n    if change["kind"] == "meditated" and g:\n        pass\n    elif g:\n        pass\n'
    assert kind_chains(one_question) == []
    assert kind_chains('def f(change, kinds):\n    if change["kind"] in kinds:\n        pass\n    elif change["kind"] in kinds:\n        pass\n') == []


def _self_writes(function: ast.AST) -> list[str]:
    """The attributes of ``self`` a function assigns or changes in place: ``self.game = ...``, ``self.decks[d] = ...``,
    ``self.rolls += 1``."""
    written = []
    for node in ast.walk(function):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                written.append(target.attr)
    return written


def _is_event_method(function: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "event" for d in function.decorator_list)


def writes_outside_event_methods(source: str) -> list[str]:
    """Where an aggregate's state is written outside its ``@event`` methods: ``Class.method writes self.attr``. What it
    holds beside its state (its ``__slots__``: what it was given) is not its state, and a private helper called only
    by ``@event`` methods is part of them."""
    found = []
    for cls in ast.walk(ast.parse(source)):
        if not isinstance(cls, ast.ClassDef):
            continue
        slots = {value.value for node in cls.body if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)
                 for value in ast.walk(node.value) if isinstance(value, ast.Constant)}
        methods = {node.name: node for node in cls.body if isinstance(node, ast.FunctionDef)}
        events = {name for name, method in methods.items() if _is_event_method(method)}
        callers: dict[str, set[str]] = {}
        for name, method in methods.items():
            for call in ast.walk(method):
                if isinstance(call, ast.Attribute) and isinstance(call.value, ast.Name) and call.value.id == "self" and call.attr in methods:
                    callers.setdefault(call.attr, set()).add(name)
        for name, method in methods.items():
            if name in events or (name.startswith("_") and callers.get(name) and callers[name] <= events):
                continue
            found += [f"{cls.name}.{name} writes self.{attr}" for attr in _self_writes(method) if attr not in slots]
    return found


@pytest.mark.parametrize("module", sorted((TRACKER / "domain").glob("*.py")), ids=lambda path: path.name)
def test_an_aggregate_s_state_changes_only_in_its_event_methods(module):
    """A session records an action's changes with the state its resolver folded them to (no change folded twice): the
    ``@event`` methods take that state as they apply the changes, so a load, which applies the same events, folds to it."""
    assert writes_outside_event_methods(module.read_text(encoding="utf-8")) == []


def test_the_write_scan_finds_state_set_beside_the_events():
    planted = '''
class Session(TrackerAggregate):
    __slots__ = ("_taken",)

    @event(Rolled)
    def roll(self, n):
        self.rolls += 1
        self._move(n)

    def _move(self, n):
        self.decks["a"] = n

    def record(self, changes, game):
        self._taken = game
        for change in changes:
            self.roll(change)
        self.game = game
        self.decks[0] = game
'''
    assert writes_outside_event_methods(planted) == ["Session.record writes self.game", "Session.record writes self.decks"]
