"""A session: one play of one quest. Its deck states, turn and random counter are derived from its events."""

from __future__ import annotations

import copy
from typing import Any

from eventsourcing.domain import decorated_func_callers, event

from tracker.core import decks
from tracker.domain.events import NOTHING_GIVEN, GameEvent, Given, Shared, TrackerAggregate, TrackerCreated, TrackerEvent

ABANDONED = "abandoned"  # the outcome a SessionEnded records for a session the table stopped without one


class Session(TrackerAggregate):
    """Every change of a session is one of its ``@event`` methods below: its own events, each kind of deck change,
    and a game's events (``change_game``, which folds them with the game rules the session was given for the
    ruleset it pinned: the domain never looks rules up itself)."""

    __slots__ = ("_rules", "_taken")

    class SessionStarted(TrackerCreated):
        campaign_id: str
        quest: str
        ruleset: dict[str, str]
        party: list[str]
        seed: str
        seed_commitment: str
        decks: dict[str, Any]

    class DiceRolled(TrackerEvent):
        roll: dict[str, Any]

    class ActionTaken(TrackerEvent):
        action: dict[str, Any]
        counter_start: int

    class DeckShuffled(TrackerEvent):
        change: dict[str, Any]

    class CardsDrawn(TrackerEvent):
        change: dict[str, Any]

    class TopCardsLooked(TrackerEvent):
        change: dict[str, Any]

    class CardsKept(TrackerEvent):
        change: dict[str, Any]

    class CardsDiscarded(TrackerEvent):
        change: dict[str, Any]

    class CardsRemovedFromGame(TrackerEvent):
        change: dict[str, Any]

    class CardsReturnedToDeck(TrackerEvent):
        change: dict[str, Any]

    class CardsAddedToDeck(TrackerEvent):
        change: dict[str, Any]

    class DeckListed(TrackerEvent):
        """A deck's card list the owner supplied in play (SessionComponentsSupplied just before): its face-down pile
        named (``change.cards``, in sorted order), to be shuffled from the session's stream before its first draw."""

        change: dict[str, Any]

    class TurnEnded(TrackerEvent):
        turn: int

    class SessionEnded(TrackerEvent):
        """The seed revealed, and where the random stream stopped: without ``counter_end`` the last
        digital roll could be relabelled as reported (no counters) and nothing after it would notice."""

        class_version = 2
        outcome: str
        seed: str
        counter_end: int | None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["counter_end"] = None  # sessions ended before it was recorded: nothing to check it against

    class QuestDecided(TrackerEvent):
        """The rules decided the quest (``change``: outcome and reason), as the action before it left the state."""

        change: dict[str, Any]

    class OutcomeRuled(TrackerEvent):
        """The owner ended the quest by a table ruling: ``ruling`` says why; ``overrules``, what the rules said."""

        outcome: str
        ruling: str
        overrules: str | None

    class FactsReported(TrackerEvent):
        """Facts the table states at the end, which the log cannot know (a figure reached a square)."""

        facts: dict[str, Any]

    class SessionAbandoned(TrackerEvent):
        """The table stopped playing without an outcome (``reason``: why). A SessionEnded follows at once and
        reveals the seed, so the session verifies like any other; the campaign counts it as not played."""

        reason: str

    class SessionComponentsSupplied(TrackerEvent):
        """Component data the owner supplied while the session was in play (``components``: only what was supplied),
        pinned here by ``components_hash``, the hash of the session's whole component data from now on."""

        components: dict[str, Any]
        components_hash: str

    class ActionUndone(TrackerEvent):
        """The last action (a command's events) reverted: ``reverses`` names them, ``restored`` is the
        state from before them. The random counter is not restored: undone numbers are never reused."""

        reverses: dict[str, Any]
        restored: dict[str, Any]

    @event(SessionStarted)
    def __init__(
        self,
        campaign_id: str,
        quest: str,
        ruleset: dict[str, str],
        party: list[str],
        seed: str,
        seed_commitment: str,
        decks: dict[str, Any],
        meta: dict[str, Any],
    ) -> None:
        self.campaign_id = campaign_id
        self.quest = quest
        self.ruleset = ruleset
        self.party = party
        self.seed = seed
        self.seed_commitment = seed_commitment
        # A copy: changes recorded in the same command as the start (the quest's set-up draws)
        # must not reach back into the SessionStarted event before it is stored.
        self.decks = copy.deepcopy(decks)
        self.counter = 0
        self.turn = 1
        self.rolls = 0
        self.outcome: str | None = None
        self.verdict: dict[str, Any] | None = None  # what the rules decided, once they do
        self.ruling: str | None = None  # why the table overruled them, if it did
        self.abandoned: dict[str, Any] | None = None  # why the table stopped without an outcome, if it did
        self.ended = False
        self.game: dict[str, Any] = {}

    @event(DiceRolled)
    def record_roll(self, roll: dict[str, Any], meta: dict[str, Any]) -> None:
        if roll["source"] == "digital":
            self.counter = roll["counter_end"]
        self.rolls += 1

    @event(ActionTaken)
    def record_action(self, action: dict[str, Any], counter_start: int, meta: dict[str, Any]) -> None:
        pass  # the action's inputs; its effects follow as their own events

    def record_changes(self, changes: list[dict[str, Any]], meta: dict[str, Any],
                       game: dict[str, Any] | None = None, decks: dict[str, Any] | None = None) -> None:
        """Record an action's changes, each by the ``@event`` method for its kind. ``game`` (and ``decks``): the state
        the resolver folded them to from this session's, which those methods take instead of folding each change a
        second time (a load folds each of their events, to the same state)."""
        self._taken = Shared((game, decks))
        try:
            for change in changes:
                self.record_change(change, meta)
        finally:
            del self._taken

    def _taken_state(self, part: int) -> Any:
        """The state the resolver folded this command's changes to (0: the game's, 1: the decks'), which the ``@event``
        method applying one of them takes; None where the session folds its changes itself (a load, a lone change)."""
        try:
            return self._taken.value[part]
        except AttributeError:
            return None

    def record_change(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        """Record one resolved change by the ``@event`` method for its kind: a deck change, the end of a turn, a roll,
        the rules' verdict, or one of the ruleset's game events."""
        kind = change["kind"]
        if kind in DECK_EVENTS:
            getattr(self, _DECK_METHODS[kind])(change=change, meta=meta)
        elif kind == "turn-ended":
            self.end_turn(turn=change["turn"], meta=meta)
        elif kind == "rolled":
            self.record_roll(roll=change["roll"], meta=meta)
        elif kind == "quest-decided":
            self.decide_quest(change=change, meta=meta)
        else:  # recorded as the event class the game declared for this kind, and applied by change_game
            self.trigger_event(self.rules.events[kind], change=change, meta=meta)

    def give(self, given: Given) -> None:
        """The clock, and the game rules of the ruleset this session pinned, looked up once, here: the copies the
        library's cache hands out share them."""
        super().give(given)
        try:
            del self._rules
        except AttributeError:
            pass
        if given is not NOTHING_GIVEN:
            self._rules = Shared(given.rules_for(self.ruleset))

    @property
    def rules(self) -> Any:
        """The game rules this session was given for the ruleset it pinned (id, version, hash)."""
        try:
            return self._rules.value
        except AttributeError:
            self._rules = Shared(self.given.rules_for(self.ruleset))
            return self._rules.value

    @event("GameChanged")
    def change_game(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        """The game's fold of one of its own changes. Each game declares an event class per kind of change
        (tracker/rulesets/engine/changes.py), and every one of them is applied by this method (GameEvent.applied_by, below);
        the library's own GameChanged class for it is never recorded."""
        taken = self._taken_state(0)
        self.game = self.rules.fold(self.game, change) if taken is None else taken
        if "counter_end" in change:  # a game change that drew from the stream (e.g. a random initiative order)
            self.counter = change["counter_end"]

    @event(QuestDecided)
    def decide_quest(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self.verdict = {"outcome": change["outcome"], "reason": change["reason"], "position": self.version + 1}

    def _change_deck(self, change: dict[str, Any]) -> None:
        taken = self._taken_state(1)
        if taken is None:
            self.decks[change["deck"]] = decks.apply(self.decks[change["deck"]], change)
        else:
            self.decks = taken
        if change["kind"] == "shuffled":
            self.counter = change["counter_end"]

    # One event for each kind of deck change tracker/core/decks.py applies (DECK_EVENTS below names each kind's).
    @event(DeckShuffled)
    def shuffle_deck(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(CardsDrawn)
    def draw_cards(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(TopCardsLooked)
    def look_at_top_cards(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(CardsKept)
    def keep_cards(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(CardsDiscarded)
    def discard_cards(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(CardsRemovedFromGame)
    def remove_cards_from_game(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(CardsReturnedToDeck)
    def return_cards_to_deck(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(CardsAddedToDeck)
    def add_cards_to_deck(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(DeckListed)
    def list_deck(self, change: dict[str, Any], meta: dict[str, Any]) -> None:
        self._change_deck(change)

    @event(TurnEnded)
    def end_turn(self, turn: int, meta: dict[str, Any]) -> None:
        self.turn = turn + 1

    @event(ActionUndone)
    def undo(self, reverses: dict[str, Any], restored: dict[str, Any], meta: dict[str, Any]) -> None:
        restored = copy.deepcopy(restored)
        self.decks = restored["decks"]
        self.turn = restored["turn"]
        self.game = restored["game"]
        self.rolls = restored["rolls"]
        self.verdict = restored.get("verdict")

    @event(OutcomeRuled)
    def rule(self, outcome: str, ruling: str, overrules: str | None, meta: dict[str, Any]) -> None:
        self.ruling = ruling

    @event(FactsReported)
    def report_facts(self, facts: dict[str, Any], meta: dict[str, Any]) -> None:
        pass  # kept in the log; the end that follows rests on them

    @event(SessionComponentsSupplied)
    def supply_components(self, components: dict[str, Any], components_hash: str, meta: dict[str, Any]) -> None:
        self.__dict__.setdefault("supplied_components", []).append(components)

    @property
    def components_supplied(self) -> list[dict[str, Any]]:
        """What the owner supplied in play, in order (sessions from before this was possible have none)."""
        return self.__dict__.get("supplied_components", [])

    @event(SessionAbandoned)
    def abandon(self, reason: str, meta: dict[str, Any]) -> None:
        self.abandoned = {"reason": reason, "position": self.version + 1}

    @event(SessionEnded)
    def end(self, outcome: str, seed: str, counter_end: int | None, meta: dict[str, Any]) -> None:
        self.outcome = None if outcome == ABANDONED else outcome
        self.ended = True

    @property
    def status(self) -> str:
        if not self.ended:
            return "in-progress"
        return "abandoned" if self.__dict__.get("abandoned") else "ended"

    def state(self) -> dict[str, Any]:
        """The session's state as the API shows it: each deck's public summary, the phase and the actions legal now."""
        state = self._fields({deck_id: decks.summary(deck) for deck_id, deck in self.decks.items()})
        return {**state, **self.rules.next_actions(state)}

    def full_state(self) -> dict[str, Any]:
        """The session's state as its rules read it (tracker/play/resolving.py): the full deck states, not their
        public summary, and not the actions legal now (a resolver has no use for them). Not ``state()`` with parts
        replaced: a command works that out once, for its answer."""
        return self._fields(self.decks)

    def _fields(self, shown_decks: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "campaign_id": self.campaign_id,
            "quest": self.quest,
            "ruleset": dict(self.ruleset),
            "party": list(self.party),
            "seed_commitment": self.seed_commitment,
            "seed": self.seed if self.ended else None,
            "status": self.status,
            "outcome": self.outcome,
            "verdict": self.__dict__.get("verdict"),
            "ruling": self.__dict__.get("ruling"),
            "abandoned": self.__dict__.get("abandoned"),
            "turn": self.turn,
            "game": self.game,
            "rolls": self.rolls,
            "random_counter": self.counter,
            "decks": shown_decks,
            "version": self.version,
        }


    @classmethod
    def created_event(cls) -> type[Any]:
        return cls.SessionStarted


__all__ = ["DECK_EVENTS", "GameEvent", "Session"]  # GameEvent lives in tracker.domain.events; named here too

# The @event method that records each kind of deck change tracker/core/decks.py applies, and the event class it records.
_DECK_METHODS = {
    "shuffled": "shuffle_deck", "drawn": "draw_cards", "looked": "look_at_top_cards", "kept": "keep_cards",
    "discarded": "discard_cards", "removed": "remove_cards_from_game", "returned": "return_cards_to_deck",
    "added": "add_cards_to_deck", "listed": "list_deck",
}
DECK_EVENTS: dict[str, type[TrackerEvent]] = {kind: decorated_func_callers[vars(Session)[method]] for kind, method in _DECK_METHODS.items()}
assert set(DECK_EVENTS) == set(decks.CHANGE_KINDS), "every kind of deck change has its event"
GameEvent.applied_by(vars(Session)["change_game"].decorated_func)
