"""Nothing in the rules data is decoration (issue 31): every rule field of every game's live rules data is a field some
code of the service names, or is marked as the table's with why.

A field is named when its key is written in the code that may read the game's data (tracker/, api/, projections/, but
the other games' packages: a string constant, or an attribute of that name), read with ``ast`` from the sources, no suite run, so this takes a second or two. Naming is
not proof of reading (a key spelled elsewhere for another purpose counts as named), so the test finds the fields no code
could read at all. What is not a rule field, by the data's own marks: the provenance of a fact (``source``, a
``reading``, a ``note``, ``unknowns``, ``inferred``, ...), a lost fact (``null`` explained in its entity's
``unknowns``: the table supplies it), and a map's keys that are ids of the data's entities.

Every other field no code names is in tests/fixtures/rules_data_table_only.json, the one reviewed list: under
``table_only`` with why the table keeps it (words printed for the players, the box's contents, a rule the table applies
with its own eyes), or under ``unanswered`` where it is not yet known whether it is the table's or a rule the service
should read (many of these hold a rule the code keeps a copy of its own: the data's value is then not what decides).
``maps`` names the keys whose value is a map by name (a monster's name and a count), whose keys are no fields. A new
field nobody reads fails here until it is read or listed; a listed field that code comes to read must leave the list.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import pytest

from tracker import rulesets
from tests.kit.games import package as _package

ROOT = Path(__file__).parents[1]
LIST = Path(__file__).parent / "fixtures" / "rules_data_table_only.json"
CODE = ("tracker", "api", "projections")
# A key of a record (snake_case, or one plain word), not a value such as an id or a die face used as a map key.
FIELD = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$|^[a-z]{2,}$")
# The provenance of a fact, by the data's own naming (tracker/rulesets/README.md: source line references, unknowns,
# inferred paths, readings): people read them, no rule does.
PROVENANCE = re.compile(r"(^|_)(source|sources|reading|readings|note|notes|why|text|rulebook|unknowns)$|^inferred")


PACKAGES = ROOT / "tracker" / "rulesets"


@cache
def _names(path: Path) -> frozenset[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return frozenset(names)


@cache
def named_in_code(ruleset_id: str) -> frozenset[str]:
    """What the code that may read a game's data names: the service's code but the other games' packages."""
    own = PACKAGES / _package(ruleset_id)
    others = [PACKAGES / game for game in rulesets.games() if PACKAGES / game != own]
    paths = [path for folder in CODE for path in (ROOT / folder).rglob("*.py") if not any(other in path.parents for other in others)]
    return frozenset().union(*(_names(path) for path in paths))


def _ids(value, found: set[str]) -> set[str]:
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            found.add(value["id"])
        for item in value.values():
            _ids(item, found)
    elif isinstance(value, list):
        for item in value:
            _ids(item, found)
    return found


def _explained_nulls(entity: dict) -> set[str]:
    """The keys of an entity's null facts its ``unknowns`` explain (a lost fact: the table supplies it)."""
    unknowns = entity.get("unknowns") if isinstance(entity.get("unknowns"), dict) else {}
    return {key for key, value in entity.items() if value is None and key in unknowns}


def unnamed_fields(data: dict, named: frozenset[str], maps: frozenset[str] = frozenset()) -> set[str]:
    """The rule fields of ``data`` no code names: the topmost such key on each path (what lies under it goes with it).
    ``maps``: keys whose value is a map by name (the list's ``maps``, each reviewed), whose own keys are no fields."""
    ids = _ids(data, set())
    found: set[str] = set()

    def walk(value, by_name: bool = False) -> None:
        if isinstance(value, dict):
            lost = _explained_nulls(value)
            for key, item in value.items():
                if by_name or PROVENANCE.search(key) or key in lost or key in ids or not FIELD.match(key):
                    if not PROVENANCE.search(key):
                        walk(item)
                    continue
                if key not in named:
                    found.add(key)
                    continue
                walk(item, key in maps)
        elif isinstance(value, list):
            for item in value:
                walk(item, by_name)

    walk(data)
    return found


def unread(ruleset_id: str) -> set[str]:
    return unnamed_fields(rulesets.get(ruleset_id).data, named_in_code(ruleset_id), frozenset(_listed()["maps"].get(ruleset_id) or {}))


def _listed() -> dict:
    return json.loads(LIST.read_text(encoding="utf-8"))


GAMES = sorted(rulesets.registry())


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_every_rule_field_is_read_by_code_or_marked_the_table_s(ruleset_id):
    listed = _listed()
    known = set((listed["table_only"].get(ruleset_id) or {})) | set(listed["unanswered"].get(ruleset_id) or [])
    assert sorted(unread(ruleset_id) - known) == [], f"{ruleset_id}: rule fields no code reads; read them, or list them with why in {LIST.name}"


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_the_list_holds_only_fields_no_code_reads(ruleset_id):
    """An honest list: every field it names is in the data and still read by no code."""
    listed = _listed()
    names = set((listed["table_only"].get(ruleset_id) or {})) | set(listed["unanswered"].get(ruleset_id) or [])
    assert sorted(names - unread(ruleset_id)) == [], f"{ruleset_id}: listed in {LIST.name} but read by code, or gone from the data"
    assert not set(listed["table_only"].get(ruleset_id) or {}) & set(listed["unanswered"].get(ruleset_id) or [])


def test_each_table_only_field_and_map_says_why():
    listed = _listed()
    for section in ("table_only", "maps"):
        for ruleset_id, fields in listed[section].items():
            assert ruleset_id in GAMES
            for field, why in fields.items():
                assert isinstance(why, str) and len(why.split()) >= 6, f"{ruleset_id}.{field}: say why"


def test_the_walk_finds_a_field_no_code_names_and_passes_what_the_data_marks():
    data = {"quests": [{"id": "q1", "name": "Q", "made_up_decoration_rule": 3, "villager_att_bonus": 1, "lost_stat": None,
                        "unknowns": {"lost_stat": "lost"}, "odd_source": "L1", "readings": {"x": "y"},
                        "by_quest": {"q1": {"spawn_gates": 2}}}]}
    named = frozenset({"quests", "id", "name", "villager_att_bonus", "by_quest", "spawn_gates"})
    assert unnamed_fields(data, named) == {"made_up_decoration_rule"}
    assert unnamed_fields(data, named | {"made_up_decoration_rule"}) == set()
    spawns = {"turns": [{"monsters": {"ogre": 1, "razor_wing": 2}}]}
    assert unnamed_fields(spawns, frozenset({"turns", "monsters"})) == {"ogre", "razor_wing"}
    assert unnamed_fields(spawns, frozenset({"turns", "monsters"}), frozenset({"monsters"})) == set()


def test_no_field_is_left_unanswered():
    """Issue 31: every rule field is read by code or marked the table's with why; "not yet known" is no answer."""
    listed = json.loads(LIST.read_text(encoding="utf-8"))
    assert not any(listed.get("unanswered", {}).values()), listed.get("unanswered")
