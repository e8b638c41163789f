"""Game knowledge lives in each game's package: the registry finds the packages, and each game says
which of its action fields name the hero acting (what a player token bound to heroes may name)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit import audit_ruleset
from tracker.core import actors
from tracker import rulesets

RULESETS = Path(rulesets.__file__).parent


def test_the_registry_finds_every_game_package() -> None:
    """Each package beside the registry with its rules data is a game, known by the id that data gives (its
    ruleset.json); the engine the games are built on (rulesets/engine/) is not one."""
    packages = sorted(path.parent.name for path in RULESETS.glob("*/ruleset.json"))
    assert "engine" not in rulesets.games()
    assert rulesets.games() == packages
    ids = sorted(json.loads((RULESETS / package / "ruleset.json").read_text(encoding="utf-8"))["id"] for package in packages)
    assert sorted(rulesets.registry()) == ids and len(ids) >= 4


def test_a_fifth_game_is_found_without_naming_it_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package beside the others that offers load() is a game; nothing else is edited to add it."""
    game = tmp_path / "fifth_game"
    game.mkdir()
    (game / "__init__.py").write_text("from tests.kit.audit_ruleset import load\n", encoding="utf-8")
    (tmp_path / "not_a_game").mkdir()  # a folder without __init__.py (like versions/) is no game
    monkeypatch.setattr(rulesets, "__path__", [*rulesets.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "tracker.rulesets.fifth_game", raising=False)
    rulesets.registry.cache_clear()
    try:
        assert "fifth_game" in rulesets.games() and "not_a_game" not in rulesets.games()
        assert audit_ruleset.load().id in rulesets.registry()
    finally:
        rulesets.registry.cache_clear()
        sys.modules.pop("tracker.rulesets.fifth_game", None)


def _top_level_fields(ruleset) -> set[str]:
    return {name for action in ruleset.actions.values() for name in (action.schema.get("properties") or {})}


@pytest.mark.parametrize("ruleset_id", sorted(rulesets.registry()))
def test_each_game_declares_actor_fields_its_actions_have(ruleset_id: str) -> None:
    ruleset = rulesets.get(ruleset_id)
    assert ruleset.rules.actor_fields, f"{ruleset_id} names no field of its actions as the hero acting"
    missing = set(ruleset.rules.actor_fields) - _top_level_fields(ruleset)
    assert not missing, f"{ruleset_id} declares actor fields none of its actions has: {sorted(missing)}"


def test_actors_are_named_by_the_game_s_own_fields() -> None:
    journey, kung_fu_panda = rulesets.get("journey").rules, rulesets.get("kung-fu-panda").rules
    body = {"type": "x", "pilgrim": "sandy", "heroes": ["po"], "holder": "monkey-king"}
    assert sorted(actors.named(body, journey)) == ["monkey-king", "sandy"]
    assert sorted(actors.named(body, kung_fu_panda)) == ["monkey-king", "po"]


def test_a_player_bound_to_a_hero_may_not_name_another_in_a_journey_field(client) -> None:
    created = client.post("/campaigns", json={"ruleset": "journey", "name": "Bound", "party": ["tripitaka", "monkey-king"], "components": JOURNEY_TEST_COMPONENTS})
    assert created.status_code == 201, created.json
    cid = created.json["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}).json["id"]
    token = client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "heroes": ["tripitaka"]}).json["token"]
    as_player = {"Authorization": f"Bearer {token}"}
    before = client.get(f"/sessions/{sid}").json["version"]
    refused = client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 1, "holder": "monkey-king"}, headers=as_player)
    assert refused.status_code == 403, refused.json
    assert "Monkey King" in refused.json["title"]
    pilgrim = next(a for a in rulesets.get("journey").actions.values() if "pilgrim" in (a.schema.get("properties") or {}))
    refused = client.post(f"/sessions/{sid}/actions", json={"type": pilgrim.name, "pilgrim": "monkey-king"}, headers=as_player)
    assert refused.status_code == 403, refused.json
    assert client.get(f"/sessions/{sid}").json["version"] == before  # refused: nothing appended
