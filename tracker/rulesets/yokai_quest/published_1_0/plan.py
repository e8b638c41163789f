"""A plan of changes being resolved: each change is folded into a working state as it is added,
so the next step of a resolver sees what the previous steps did."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tracker import decks
from tracker.errors import Unprocessable
from tracker.rulesets.ruleset import ActionContext
from tracker.rulesets.yokai_quest.published_1_0 import state

DECK_KINDS = {"shuffled", "drawn", "looked", "kept", "discarded", "removed", "returned"}


class Plan:
    def __init__(self, ctx: ActionContext) -> None:
        self.ctx = ctx
        self.game: dict[str, Any] = copy.deepcopy(dict(ctx.game))
        self.decks: dict[str, Any] = dict(ctx.state["decks"])
        self.turn: int = ctx.state["turn"]
        self.changes: list[dict[str, Any]] = []

    def add(self, change: dict[str, Any]) -> None:
        self.changes.append(change)
        if change["kind"] in DECK_KINDS:
            self.decks[change["deck"]] = decks.apply(self.decks[change["deck"]], change)
        elif change["kind"] not in ("rolled", "turn-ended"):
            self.game = state.fold(self.game, change)

    def extend(self, changes: list[dict[str, Any]]) -> None:
        for change in changes:
            self.add(change)

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
                detail=f"Heroes playing: {sorted(heroes)}.",
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
