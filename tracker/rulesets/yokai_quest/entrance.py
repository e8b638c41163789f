"""Heroes waiting at the entrance point: who still waits there, and what a waiting hero may do.

L142 "When everything is ready, place your heroes at the entrance point."
L214 "Heroes start the scene at entrance points [...] While waiting, they can perform no action except those that allow
them to enter the game. This action must be performed as follows: heroes are only allowed to make a basic movement (up
to three squares) when entering the scene. The box next to the entrance point is considered the first square for movement."
L473 Ikikaeru Rōsoku: "The hero returns with half the maximum health points at the hero entrance point."

The board's squares are the table's, but where a hero starts is the text's: every hero waits at the entrance until its
first basic movement, and a hero the candle brings back waits there again. What the text leaves open (actions after
entering, quick reactions, the candle) is read as hero_rules.entering.readings says. Scenes set up under rules data
without hero_rules.entering (1.3.0 and before) kept no entrance: there is no "at_entrance" in their state, and nothing
here applies to them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.yokai_quest.plan import Plan

# What a waiting hero may do (L214 "heroes are only allowed to make a basic movement (up to three squares) when entering
# the scene"): heroes.move enters the board with the basic movement, and require_entered refuses everything else.
PLAYED_WHILE_WAITING = ["basic movement"]


def require_playable(data: Mapping[str, Any]) -> None:
    """Refuse, at load, rules data that lets a waiting hero do more than this module plays (hero_rules.entering, from
    1.4.0 on: before it the heroes kept no entrance)."""
    entering = data["hero_rules"].get("entering")
    if entering is not None and entering["allowed_while_waiting"] != PLAYED_WHILE_WAITING:
        raise RulesDataError(
            f"hero_rules.entering.allowed_while_waiting: the service lets a hero waiting at the entrance make only "
            f"{', '.join(PLAYED_WHILE_WAITING)}, which enters the board (L214); the data allows {entering['allowed_while_waiting']}"
        )


def at_set_up(data: Mapping[str, Any], party: Sequence[str]) -> dict[str, Any]:
    """Every hero at the entrance point (L142, L214) (under the versions that keep it, versions.py)."""
    return {"at_entrance": list(party)}


def waiting(game: Mapping[str, Any], hero_id: str) -> bool:
    return hero_id in game.get("at_entrance", ())


def require_entered(plan: Plan, hero_id: str, what: str) -> None:
    """L214: a hero waiting at the entrance does nothing but the basic movement that enters the board."""
    if waiting(plan.game, hero_id):
        raise Unprocessable(
            f"{hero_id} waits at the entrance point: only a basic movement enters the board",
            detail=f"{what} comes after entering. \"While waiting, they can perform no action except those that allow them to enter "
            "the game [...] heroes are only allowed to make a basic movement (up to three squares) when entering the scene\" (L214). "
            f"Enter first: {{\"type\": \"move\", \"hero\": \"{hero_id}\", \"movement\": \"basic\"}}.",
            errors={"hero": [f"At the entrance point: {hero_id}"]},
        )
