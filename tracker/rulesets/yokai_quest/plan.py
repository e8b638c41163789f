"""A Yōkai Quest action being resolved: the one working copy (tracker/rulesets/engine/working_copy.py), each change
folded as it is added so the next step sees what the previous steps did, read in the game's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.working_copy import WorkingCopy


class Plan(WorkingCopy):

    def require_scene(self) -> None:
        if not self.game.get("scene"):
            raise Unprocessable("The scene is not set up", detail="Start a session of a scene: POST /campaigns/{cid}/sessions.")
        if self.game.get("scene_result"):
            raise Unprocessable(
                "The scene has ended",
                detail=f"It ended in {self.game['scene_result']['outcome']}; draw what is owed, then end the session.",
            )

    def hero(self, hero_id: str, *, standing: bool = True) -> dict[str, Any]:
        heroes = self.game.get("heroes", {})
        if hero_id not in heroes:
            raise Unprocessable(
                f"'{hero_id}' is not a hero of this party",
                detail=f"Heroes playing: {wording.listed(sorted(heroes))}.",
                errors={"hero": [f"Not in the party: {hero_id}"]},
            )
        hero = heroes[hero_id]
        if standing and hero["defeated"]:
            raise Unprocessable(
                f"{hero_id} is defeated",
                detail="A defeated hero waits until revived by an ally's Ikikaeru Rōsoku, or until the scene ends.",
            )
        return hero


def by_id(entities: list[Mapping[str, Any]], entity_id: str) -> Mapping[str, Any] | None:
    return next((entity for entity in entities if entity["id"] == entity_id), None)
