"""The pages show each game's views by their kind, never by the game: nothing under api/ compares a game's id to a
literal, and a fifth game's view of a known kind shows on the campaign page in the game's own words, on SQLite and
PostgreSQL, with no line of api/ edited for it."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from projections import store as view_store, views as registered_views
from tests.kit import contract
from tests.kit import audit_ruleset
from tracker import rulesets
from tracker.rulesets.engine.view import At, CampaignFold

API = Path(__file__).resolve().parent.parent / "api"
NO_AUTH = {"Authorization": ""}


def _game_ids() -> set[str]:
    return set(rulesets.registry())


def _literals(node: ast.AST) -> list[str]:
    """The string literals an operand of a comparison is or holds ("journey", ("journey", "descent"), {...})."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [value for element in node.elts for value in _literals(element)]
    return []


def _comparisons_with_a_game(source: str) -> list[str]:
    games = _game_ids()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            named = {value for operand in (node.left, *node.comparators) for value in _literals(operand)} & games
            if named:
                found.append(f"line {node.lineno}: compares with {sorted(named)}")
        elif isinstance(node, ast.Dict):  # a table keyed by game ({"journey": ...}) is the same branch in disguise
            named = {value for key in node.keys if key is not None for value in _literals(key)} & games
            if named:
                found.append(f"line {node.lineno}: a table keyed by {sorted(named)}")
    return found


def test_no_module_under_api_compares_a_game_to_a_literal() -> None:
    found = {str(path.relative_to(API)): hits for path in sorted(API.rglob("*.py")) if (hits := _comparisons_with_a_game(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_walk_finds_a_comparison_with_a_game() -> None:
    """The check above can fail: the branches it forbids are found."""
    assert _comparisons_with_a_game('if game == "journey":\n    pass\n') == ["line 1: compares with ['journey']"]
    assert _comparisons_with_a_game('if ruleset.id in ("descent", "other"):\n    pass\n') == ["line 1: compares with ['descent']"]
    assert _comparisons_with_a_game('WORDS = {"yokai-quest": 1}\n') == ["line 1: a table keyed by ['yokai-quest']"]
    assert _comparisons_with_a_game('if view.kind == "standing":\n    pass\n') == []


def test_no_page_template_compares_a_game_to_a_literal() -> None:
    games = "|".join(re.escape(game) for game in _game_ids())
    branch = re.compile(rf"""(==|!=|\bin\b)\s*[(\[]?\s*['"]({games})['"]|['"]({games})['"]\s*(==|!=|\bin\b)""")
    found = {str(path.relative_to(API)): branch.findall(path.read_text(encoding="utf-8")) for path in sorted(API.rglob("*.html"))}
    assert {path: hits for path, hits in found.items() if hits} == {}
    assert branch.search("{% if ruleset.id == 'journey' %}")  # the pattern finds what it forbids


# -- a fifth game -------------------------------------------------------------------------------------------------


class _MarkerMoves(CampaignFold):
    """The fake fifth game's views keep each move's steps."""

    game = "marker-race"
    handles = (audit_ruleset.MarkerMoved,)

    def keep(self, event: Any, at: At) -> dict[str, Any] | None:
        return {"steps": event.change["steps"]}


class RaceStanding(_MarkerMoves):
    """The fake fifth game's standing: how often the marker moved and how far, in all."""

    name = "marker-race-standing"
    kind = "standing"

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> dict[str, Any]:
        return {"moves": len(records), "steps": sum(r["steps"] for r in records)} if records else {}

    def said(self, answer: Any, names: Mapping[str, str], progress: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        return [{"title": "The race", "sentences": [f"The marker moved {answer['moves']} times, {answer['steps']} steps in all."],
                 "tables": [{"caption": "Race so far", "headers": ["Moves", "Steps"], "rows": [[answer["moves"], answer["steps"]]]}]}]


class RunnerProgress(_MarkerMoves):
    """The fake fifth game's hero progress: the one runner's moves, with no sheet layout of its own on the pages."""

    name = "marker-race-runner-progress"
    kind = "hero-progress"

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> dict[str, Any]:
        return {"runner": {"moves_made": len(records), "steps_run": sum(r["steps"] for r in records)}} if records else {}

    def hero_said(self, sheet: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
        return [f"Moved {sheet['moves_made']} times"]


@pytest.fixture
def fifth_game(monkeypatch: pytest.MonkeyPatch):
    """A fifth game package's ruleset with its own standing view, registered before the application is built (as a
    package beside the others would be when the server starts: the view store declares its tables at import)."""
    ruleset = audit_ruleset.load()
    ruleset.views = (RunnerProgress(), RaceStanding())
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, ruleset.id: ruleset})
    registered_views.registered.cache_clear()
    monkeypatch.setattr(view_store, "TABLES", registered_views.tables())
    for name, attribute in (("_WRITES", "writes"), ("_SUMMED", "summed"), ("_LATEST", "latest"), ("_COPIED", "copied")):
        monkeypatch.setattr(view_store, name, registered_views.statements(attribute))
    monkeypatch.setattr(view_store, "_CREATING", registered_views.creating())
    monkeypatch.setattr(view_store, "VIEWS_VERSION", registered_views.schema_version())
    yield ruleset
    registered_views.registered.cache_clear()


def test_a_fifth_games_standing_view_shows_on_the_campaign_page(fifth_game, client, app) -> None:
    contract.with_ruleset(app, fifth_game)  # its state among GameState's branches, whichever document was served first
    made = client.post("/campaigns", json={"ruleset": fifth_game.id, "name": "Race", "party": ["runner"]})
    assert made.status_code == 201, made.json
    cid, owner = made.json["id"], made.json["owner_token"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "race"}).json["id"]
    for _ in range(3):
        moved = client.post(f"/sessions/{sid}/actions", json={"type": "move"})
        assert moved.status_code == 201, moved.json
    events = client.get(f"/sessions/{sid}/events?limit=100").json["events"]
    steps = sum(e["payload"]["change"]["steps"] for e in events if e["payload"].get("change", {}).get("kind") == "marker-moved")
    assert steps >= 3  # three moves of a d6
    app.extensions["tracker_views"].catch_up()
    assert client.post("/pages/sign-in", data={"token": owner}, headers=NO_AUTH).status_code == 303
    html = client.get(f"/pages/campaigns/{cid}", headers=NO_AUTH).get_data(as_text=True)
    section = re.search(r'<section aria-labelledby="standing">(.*?)</section>', html, re.DOTALL)
    assert section, html[:2000]
    assert "<h3>The race</h3>" in section.group(1)
    assert f"The marker moved 3 times, {steps} steps in all." in section.group(1)
    assert "<caption>Race so far</caption>" in section.group(1)


def test_a_fifth_games_hero_progress_shows_its_heroes_and_their_sheets(fifth_game, client, app) -> None:
    contract.with_ruleset(app, fifth_game)  # its state among GameState's branches, whichever document was served first
    made = client.post("/campaigns", json={"ruleset": fifth_game.id, "name": "Race", "party": ["runner"]}).json
    sid = client.post(f"/campaigns/{made['id']}/sessions", json={"quest": "race"}).json["id"]
    for _ in range(2):
        assert client.post(f"/sessions/{sid}/actions", json={"type": "move"}).status_code == 201
    app.extensions["tracker_views"].catch_up()
    assert client.post("/pages/sign-in", data={"token": made["owner_token"]}, headers=NO_AUTH).status_code == 303
    page = client.get(f"/pages/campaigns/{made['id']}", headers=NO_AUTH).get_data(as_text=True)
    heroes = re.search(r'<section aria-labelledby="heroes">(.*?)</section>', page, re.DOTALL)
    assert heroes and "Runner</a>" in heroes.group(1) and "<span>Moved 2 times</span>" in heroes.group(1), page[:3000]
    sheet = client.get(f"/pages/campaigns/{made['id']}/heroes/runner", headers=NO_AUTH)
    assert sheet.status_code == 200
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", sheet.get_data(as_text=True)))
    assert "Moves made 2" in words and "Steps run" in words and "Karma" not in words
