"""One action being resolved: its changes so far, and the state they lead to.

Each step reads the state after the steps before it (a second draw sees the first, a trade
sees the karma just gained), so an action may roll, draw and trade in any order and still be
a pure function of (state, request, stream).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tracker import decks
from tracker import dice as dice_rolls
from tracker.errors import Unprocessable
from tracker.rulesets import components as component_data
from tracker.rulesets.journey import state as game_state
from tracker.rulesets.ruleset import ActionContext

GAME_PHASES = ("maintenance", "pilgrim", "demon", "end")


class Resolution:
    def __init__(self, ctx: ActionContext, rng: Any, reported: Mapping[str, Sequence[str]] | None = None) -> None:
        self.ctx = ctx
        self.rng = rng
        self.changes: list[dict[str, Any]] = []
        self.game: dict[str, Any] = copy.deepcopy(dict(ctx.game))
        self.decks: dict[str, Any] = copy.deepcopy(dict(ctx.state["decks"]))
        # Cards drawn from the physical decks, reported in the request: used first, in order.
        self.reported = {deck: list(cards) for deck, cards in (reported or {}).items()}

    # -- recording ---------------------------------------------------------

    def emit(self, change: dict[str, Any]) -> dict[str, Any]:
        self.changes.append(change)
        if change["kind"] in decks_kinds():
            self.decks[change["deck"]] = decks.apply(self.decks[change["deck"]], change)
        elif change["kind"] not in ("rolled", "turn-ended"):
            self.game = game_state.fold(self.game, change)
        return change

    def emit_all(self, changes: Sequence[dict[str, Any]]) -> None:
        for change in changes:
            self.emit(change)

    def finish(self) -> list[dict[str, Any]]:
        leftover = {deck: cards for deck, cards in self.reported.items() if cards}
        if leftover:
            raise Unprocessable(
                "More cards were reported than the action draws",
                detail=f"Unused reported cards: {leftover}. Report exactly the cards drawn at the table.",
                errors={"drawn": [f"Unused: {leftover}"]},
            )
        return self.changes

    # -- reading -----------------------------------------------------------

    def hero(self, hero_id: str) -> dict[str, Any]:
        heroes = self.game.get("heroes", {})
        if hero_id not in heroes:
            raise Unprocessable(
                f"'{hero_id}' is not a Pilgrim of this quest",
                detail=f"Pilgrims: {sorted(heroes)}.",
                errors={"hero": [f"Not in this quest: {hero_id}"]},
            )
        return heroes[hero_id]

    def character(self, character_id: str) -> dict[str, Any]:
        for character in self.ctx.ruleset.data["characters"]:
            if character["id"] == character_id:
                return character
        raise Unprocessable(f"Unknown character '{character_id}'", errors={"character": [character_id]})

    def stat(self, character_id: str, stat: str, purpose: str) -> Any:
        """A profile stat from the rules, or from the campaign's component data when the rules lost it."""
        value = self.character(character_id)["stats"].get(stat)
        if value is None:
            value = (((self.ctx.components.get("characters") or {}).get(character_id) or {}).get("stats") or {}).get(stat)
        if value is None:
            raise Unprocessable(
                f"{self.character(character_id)['name']}'s {stat} is unknown",
                detail=(
                    f"{purpose} needs it, and the rulebook transcription lost it. Supply it as component data: "
                    f'"components": {{"characters": {{"{character_id}": {{"stats": {{"{stat}": ...}}}}}}}} when creating the campaign.'
                ),
                errors={f"components.characters.{character_id}.stats.{stat}": ["Unknown; supply it as component data."]},
            )
        return value

    def table(self, table_id: str) -> Mapping[str, Any]:
        return component_data.table(self.ctx.components, table_id)

    # -- randomness --------------------------------------------------------

    def roll(self, dice: Mapping[str, int], faces: Mapping[str, list[Any]] | None, purpose: str) -> dict[str, list[Any]]:
        change = dice_rolls.roll_change(self.ctx.dice, dice, faces, self.rng, purpose)
        self.emit(change)
        return change["roll"]["results"]

    def draw(self, deck_id: str, count: int, holder: str | None) -> list[str]:
        """Draw from a deck: reported cards first, else digitally when its cards are known."""
        spec = self.ctx.deck(deck_id)
        reported = self.reported.get(deck_id) or []
        if reported:
            cards, self.reported[deck_id] = reported[:count], reported[count:]
            if len(cards) < count:
                raise Unprocessable(
                    f"Report {count} card(s) drawn from '{deck_id}'",
                    detail=f"The action draws {count}; only {len(cards)} were reported.",
                    errors={f"drawn.{deck_id}": ["Too few cards reported."]},
                )
            self.emit_all(decks.resolve_reported_draw(self.decks[deck_id], cards, holder))
            return cards
        self._require_known(deck_id, spec.name, count)
        changes = decks.resolve_draw(self.decks[deck_id], spec.name, count, self.rng, holder)
        self.emit_all(changes)
        return [card for change in changes if change["kind"] == "drawn" for card in change["cards"]]

    def draw_until_kind(self, deck_id: str, kind: str, holder: str) -> str:
        """Draw until a card of ``kind`` (L551); the others go to the discard pile. Reported: the last card is the one kept."""
        spec = self.ctx.deck(deck_id)
        reported = self.reported.get(deck_id) or []
        if reported:
            self.reported[deck_id] = []
            *wrong, right = reported
            for card in wrong:
                if spec.kind_of.get(card) == kind:
                    raise Unprocessable(
                        f"'{card}' is a {kind} card, so drawing would have stopped there",
                        detail="Report the cards in the order drawn, ending with the first card of the needed kind.",
                        errors={f"drawn.{deck_id}": [f"{card} is already {kind}"]},
                    )
            if spec.kind_of.get(right) not in (None, kind):
                raise Unprocessable(
                    f"'{right}' is not a {kind} card",
                    detail=f"Drawing goes on until a {kind} card comes up; report every card drawn, the {kind} one last.",
                    errors={f"drawn.{deck_id}": [f"{right} is {spec.kind_of.get(right)}"]},
                )
            for card in wrong:
                self.emit_all(decks.resolve_reported_draw(self.decks[deck_id], [card], holder))
                self.emit({"kind": "discarded", "deck": deck_id, "cards": [card], "from": "held", "holder": holder})
            self.emit_all(decks.resolve_reported_draw(self.decks[deck_id], [right], holder))
            return right
        self._require_known(deck_id, spec.name)
        changes = decks.resolve_draw_until_kind(self.decks[deck_id], spec.name, kind, spec.kind_of, self.rng, holder)
        self.emit_all(changes)
        return changes[-1]["cards"][-1]

    def _require_known(self, deck_id: str, name: str, count: int = 1) -> None:
        if self.decks[deck_id]["unknown"] != 0:
            raise Unprocessable(
                f"The cards of '{name}' are unknown, so the service cannot draw them",
                detail=(
                    f"Report the cards drawn from the physical deck in the request "
                    f'("drawn": {{"{deck_id}": [...]}}), or supply the card list as component data '
                    f'("components": {{"decks": {{"{deck_id}": {{"cards": [...]}}}}}}).'
                ),
                errors={f"drawn.{deck_id}": ["Cards unknown: report them or supply component data."]},
                unknown={"deck": deck_id, "count": count},
            )


def decks_kinds() -> set[str]:
    return set(decks.CHANGE_KINDS)


def skill_deck(hero_id: str) -> str:
    return f"skill-{hero_id}"
