"""One action being resolved, for every game: its changes so far, and the state they lead to.

Each step of a resolver reads the state after the steps before it (a second draw sees the first, a trade
sees the karma just gained, a spawn sees the reserve the last one emptied), so an action may roll, draw and
change the board in any order and still be a pure function of (state, request, stream).

What a change does to the working copy is the same in every game:
- a deck change (``tracker.core.decks.CHANGE_KINDS``) moves the cards of its deck;
- a roll or the end of a turn changes neither decks nor game state (the session keeps those);
- any other change is folded into the game state by the game's own ``fold``, and then the game may add what
  follows from it automatically (``follows``: Kung Fu Panda's missions are lost the moment the board shows it).
A game's working copy subclasses this one to read its state in its own words (a Pilgrim, a hero, a tile); it
never changes how changes are recorded (tests/test_working_copy.py holds every game to that).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from tracker.core import decks
from tracker.core import dice as dice_rolls
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import ActionContext, Resolved

DECK_KINDS = frozenset(decks.CHANGE_KINDS)
# Changes the session records without a game state of their own: a roll's results, a turn's end.
NOT_FOLDED = frozenset({"rolled", "turn-ended"})


class WorkingCopy:
    # The game's fold of one change. It makes a new state: a resolver may hold a part of the state it read before a
    # change and read it after (Yōkai Quest's defeat_hero reads the hand the defeat empties), so it is not folded in place.
    fold: ClassVar[Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any]]]

    def __init__(self, ctx: ActionContext, rng: Any = None, reported: Mapping[str, Sequence[str]] | None = None) -> None:
        self.ctx = ctx
        self.rng = rng  # the session's stream, for resolvers that may roll, draw or shuffle
        self.game: dict[str, Any] = copy.deepcopy(dict(ctx.game))
        self.decks: dict[str, Any] = copy.deepcopy(dict(ctx.state.get("decks", {})))
        # The changes, with the state they lead to: what the resolver returns, so nothing folds them again.
        self.changes: Resolved = Resolved([], self.game, self.decks, ctx.game)
        self.turn: int = ctx.state.get("turn", 0)
        # Cards drawn from the physical decks, reported in the request: used first, in order.
        self.reported = {deck: list(cards) for deck, cards in (reported or {}).items()}

    # -- recording ---------------------------------------------------------

    def add(self, change: dict[str, Any]) -> dict[str, Any]:
        self.changes.append(change)
        kind = change["kind"]
        if kind in DECK_KINDS:
            self.decks[change["deck"]] = decks.apply(self.decks[change["deck"]], change)
        elif kind not in NOT_FOLDED:
            self.game = self.fold(self.game, change)
            self.changes.game = self.game
            self.changes.folded = len(self.changes)
            self.follows(change)
        self.changes.folded = len(self.changes)
        return change

    def extend(self, changes: Sequence[dict[str, Any]]) -> None:
        if isinstance(changes, decks.Dealt) and changes.moved_from(self.decks):
            # a deck function's changes, with the deck state it moved the cards to: taken, not moved again
            self.changes.extend(changes)
            self.changes.folded = len(self.changes)
            self.decks[changes.deck] = changes.state
            return
        for change in changes:
            self.add(change)

    def follows(self, change: Mapping[str, Any]) -> None:
        """Add what the rules make follow from ``change`` on their own, once it is folded in. By default nothing."""

    def finish(self) -> list[dict[str, Any]]:
        """The action's changes, once every card the request reported was used."""
        leftover = {deck: cards for deck, cards in self.reported.items() if cards}
        if leftover:
            raise Unprocessable(
                "More cards were reported than the action draws",
                detail=f"Unused reported cards: {leftover}. Report exactly the cards drawn at the table.",
                errors={"drawn": [f"Unused: {leftover}"]},
            )
        return self.changes

    # -- randomness and the decks ------------------------------------------

    def roll(self, dice: Mapping[str, int], faces: Mapping[str, list[Any]] | None, purpose: str) -> dict[str, list[Any]]:
        change = dice_rolls.roll_change(self.ctx.dice, dice, faces, self.rng, purpose)
        self.add(change)
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
            self.extend(decks.resolve_reported_draw(self.decks[deck_id], cards, holder))
            return cards
        self._require_known(deck_id, spec.name, count)
        changes = decks.resolve_draw(self.decks[deck_id], spec.name, count, self.rng, holder)
        self.extend(changes)
        return [card for change in changes if change["kind"] == "drawn" for card in change["cards"]]

    def draw_until_kind(self, deck_id: str, kind: str, holder: str) -> str:
        """Draw until a card of ``kind`` comes up (Journey, L551); the others go to the discard pile. Reported: the last card is the one kept."""
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
                self.extend(decks.resolve_reported_draw(self.decks[deck_id], [card], holder))
                self.add({"kind": "discarded", "deck": deck_id, "cards": [card], "from": "held", "holder": holder})
            self.extend(decks.resolve_reported_draw(self.decks[deck_id], [right], holder))
            return right
        self._require_known(deck_id, spec.name)
        changes = decks.resolve_draw_until_kind(self.decks[deck_id], spec.name, kind, spec.kind_of, self.rng, holder)
        self.extend(changes)
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
                unknown={"deck": deck_id, "count": count},  # (an action's hint reports them: tracker/core/hints.py)
            )
