"""A tiny ruleset with a game event of its own, so audit tests cover GameEvent subclasses as rulesets add them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.engine import reported_facts
from tracker.rulesets.engine.changes import Changes
from tracker.rulesets.engine.ruleset import ActionContext, ActionType, GameRules, Ruleset
from tracker.rulesets.engine.state_schema import INTEGER, game_state

CHANGES = Changes(__name__)


@CHANGES("marker-moved", "MarkerMoved")
def _marker_moved(game: dict[str, Any], change: Mapping[str, Any]) -> None:
    game["marker"] = game.get("marker", 0) + change["steps"]


MarkerMoved = CHANGES.event_named("MarkerMoved")


class MarkerRules(GameRules):
    changes = CHANGES
    state_schema = game_state("marker-race", "Marker race", {"marker": INTEGER}, set_up=(), description="How far the marker has moved.")

    def reported_schema(self, quest: str) -> dict[str, Any]:
        """The fact the audit tests' race states at its end (its reported_schema, checked like any game's)."""
        return reported_facts.schema({"house_cleared": {"type": "boolean", "description": "the race's finish is clear (a test fact)"}})


def move(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rolled = dice.roll_change(ctx.dice, {"d6": 1}, None, rng, "move")
    return [rolled, {"kind": "marker-moved", "steps": rolled["roll"]["results"]["d6"][0]}]


def load(data: dict[str, Any] | None = None, version: str = "1") -> Ruleset:
    """Like a game package's load(data=None): over the data given (an archived version's), else its own at ``version``."""
    data = data if data is not None else {
        "id": "marker-race",
        "name": "Marker race (test ruleset)",
        "version": version,
        "unknowns": {},
        "quests": [{"id": "race", "name": "Race", "unknowns": {}}],
        "characters": [{"id": "runner", "name": "Runner", "unknowns": {}}],
    }
    schema = {"type": "object", "properties": {"type": {"type": "string"}}, "required": ["type"], "additionalProperties": False}
    return Ruleset(data, [ActionType("move", "Roll a d6 and move the marker that far.", schema, move, random=True)], MarkerRules())

