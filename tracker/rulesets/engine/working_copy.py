"""One action being resolved, for every game: its changes so far, and the state they lead to.

Each step of a resolver reads the state after the steps before it (a second draw sees the first, a trade
sees the karma just gained, a spawn sees the reserve the last one emptied), so an action may roll, draw and
change the board in any order and still be a pure function of (state, request, stream).

What a change does to the working copy is the same in every game:
- a deck change (``tracker.core.decks.CHANGE_KINDS``) moves the cards of its deck;
- a roll or the end of a turn changes neither decks nor game state (the session keeps those);
- any other change is folded into the game state by the game's own fold (its rules' ``fold_into``), and then the game
  may add what follows from it automatically (``follows``: Kung Fu Panda's missions are lost the moment the board shows it).

The working copy copies the session's game state once, when the action starts, and folds every change in place on that
copy (a deck is copied the first time a change moves its cards): nothing is copied per change, and the changes it hands
back (``changes``, a ``Resolved``) carry the state they fold to, so neither the verdict nor the session folds them again.
A step that reads a part of the state after adding a change reads it as that change left it; a step that needs what was
there before (Yōkai Quest's defeat discards the hand the defeat empties) reads it before adding the change.

Every game's resolvers build on it: those that resolve step by step make one (a game's subclass reads its state in its
own words: a Pilgrim, a hero, a tile), and the changes of a resolver that returns a plain list are folded on one by
``Ruleset.resolve`` (``fold_returned``). No subclass changes how changes are recorded (tests/test_working_copy.py holds
every game to that).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from tracker.core import decks
from tracker.core import dice as dice_rolls
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.context import ActionContext, Resolved

DECK_KINDS = frozenset(decks.CHANGE_KINDS)
# Changes the session records without a game state of their own: a roll's results, a turn's end, the rules' verdict.
NOT_FOLDED = frozenset({"rolled", "turn-ended", "quest-decided"})


class WorkingCopy:
    def __init__(self, ctx: ActionContext, rng: Any = None, reported: Mapping[str, Sequence[str]] | None = None) -> None:
        self.ctx = ctx
        self.rng = rng  # the session's stream, for resolvers that may roll, draw or shuffle
        self.game: dict[str, Any] = copy.deepcopy(dict(ctx.game))  # the action's one copy of the game state
        self._session_decks: Mapping[str, Any] = ctx.state.get("decks", {})
        # The deck states: the session's own until a change moves a deck's cards (then that deck's copy, its own).
        self.decks: dict[str, Any] = dict(self._session_decks)
        self._own_decks: set[str] = set()
        # The changes, with the state they lead to: what the resolver returns, so nothing folds them again.
        self.changes: Resolved = Resolved([], self.game, self.decks, ctx.game)
        self.turn: int = ctx.state.get("turn", 0)
        # Cards drawn from the physical decks, reported in the request: used first, in order.
        self.reported = {deck: list(cards) for deck, cards in (reported or {}).items()}

    def fold(self, game: dict[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """The game's fold of ``change``, on this copy in place (or the new state a set-up makes)."""
        return self.ctx.ruleset.rules.fold_into(game, change)

    # -- recording ---------------------------------------------------------

    def add(self, change: dict[str, Any]) -> dict[str, Any]:
        self.changes.append(change)
        kind = change["kind"]
        if kind in DECK_KINDS:
            decks.apply(self._deck(change["deck"]), change, in_place=True)
        elif kind not in NOT_FOLDED:
            self.game = self.fold(self.game, change)
            self.changes.game = self.game
            self.changes.folded = len(self.changes)
            self.follows(change)
        self.changes.folded = len(self.changes)
        return change

    def extend(self, changes: Sequence[dict[str, Any]]) -> None:
        if isinstance(changes, decks.Dealt) and self._dealt_here(changes):
            # a deck function's changes, with the deck state it moved the cards to: taken, not moved again
            self.changes.extend(changes)
            self.changes.folded = len(self.changes)
            self.decks[changes.deck] = changes.state
            self._own_decks.add(changes.deck)  # (the Dealt's state is a copy of its own)
            return
        for change in changes:
            self.add(change)

    def catch_up(self, changes: Sequence[dict[str, Any]]) -> Resolved:
        """This copy with the changes of ``changes`` past those it holds folded in: a resolver that grows one list of
        changes and asks the state after them on the way (a named monster's award after the kill) folds each change
        once, here, and returns what this gives (so nothing folds them again)."""
        held = len(self.changes)
        if len(changes) < held or any(mine is not theirs for mine, theirs in zip(self.changes, changes)):
            raise ValueError("a working copy catches up only with the changes it holds, and more after them")
        self.extend(list(changes[held:]))
        return self.changes

    def _deck(self, deck_id: str) -> dict[str, Any]:
        """This copy's own state of a deck, to move its cards in place: copied from the session's the first time."""
        if deck_id not in self._own_decks:
            self.decks[deck_id] = copy.deepcopy(dict(self.decks[deck_id]))
            self._own_decks.add(deck_id)
        return self.decks[deck_id]

    def _dealt_here(self, dealt: decks.Dealt) -> bool:
        """Whether a deck function dealt from this deck as it stands here: the copy's own state, or the session's
        while no change of this action has moved it."""
        return dealt.moved_from(self.decks) or (dealt.deck not in self._own_decks and dealt.moved_from(self._session_decks))

    @classmethod
    def fold_returned(cls, ctx: ActionContext, returned: Sequence[dict[str, Any]]) -> Resolved:
        """The changes a resolver returned as a plain list (or a deck function's ``Dealt``), folded once on a working
        copy: the game's changes in place on its one copy of the state, the cards moved once (a Dealt's taken as
        dealt). Those the game does not record are kept as they are (a resolver's own record among them)."""
        working = cls(ctx)
        working.extend(returned)
        return working.changes

    def reading(self) -> ActionContext:
        """What a resolver reads once the changes so far are made: the action's context with this copy's game state (the
        copy itself, no other: a step that asks what the state would be, before its changes are returned)."""
        return dataclasses.replace(self.ctx, state={**self.ctx.state, "game": self.game})

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
        self.require_known(deck_id, spec.name, count)
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
        self.require_known(deck_id, spec.name)
        changes = decks.resolve_draw_until_kind(self.decks[deck_id], spec.name, kind, spec.kind_of, self.rng, holder)
        self.extend(changes)
        return changes[-1]["cards"][-1]

    def require_known(self, deck_id: str, name: str, count: int = 1) -> None:
        """Refuse a digital draw or look at a deck whose cards are unknown, saying how to report or supply them."""
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
