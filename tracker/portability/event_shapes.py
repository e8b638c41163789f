"""What an event read from a file must hold before anything folds it.

An import takes events from a file anyone may have edited, with every hash recomputed: a topic swapped
for another event's, a field dropped, a value of another type. The folds (the aggregates' mutators, the
deck engine, a game's rules) and the re-derivation read an event's fields as the commands recorded them,
so each event is checked here first, once, against what its type needs:
- the fields its class declares (``SessionEnded.outcome: str``), in their declared types; a field
  its ``meta.sealed`` lists may be absent (left out of a public export) or None (a seed not held);
- inside them, what the folds and the re-derivation read: a roll (tracker/core/dice.py records it), a deck
  change of the deck engine's kind for its class (tracker/core/decks.py ``apply``), a deck's state, a game
  change whose ``kind`` is the one its game records with this class, an action's type, an undo;
- where it stands: a stream's first event creates it, and no other does.
A game change's own fields (a karma amount, a hero) are the game's: an action's effects are compared
with what the rules give before they are folded (tracker/integrity/verification.py).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints
from uuid import UUID

from eventsourcing.utils import get_topic

from tracker.integrity import hiding

from tracker.core import sealing
from tracker.domain.events import GameEvent, TrackerCreated
from tracker.domain.session import DECK_EVENTS, Session
from tracker.rulesets.engine.ruleset import SET_UP_QUEST

_COUNTER_LIMIT = 1 << 64  # a random counter is sent as 8 bytes
_DECK_KIND = {cls: kind for kind, cls in DECK_EVENTS.items()}
# The library's own fields: the stored record's columns (id, version) and the timestamp every event carries.
_LIBRARY_FIELDS = {"originator_id": UUID, "originator_version": int, "timestamp": datetime}
_ZONES = ("draw", "discard", "peeked", "held", "removed")
_hints: dict[type, dict[str, Any]] = {}
# The set-up's inputs, copied from the campaign when the session started (tracker/application/commands.py start_session), so
# that re-deriving it reads them from the log alone.
_SET_UP_INPUTS = {"quest": str, "setup": dict, "campaign": dict[str, Any]}


def problem(event: Any, game_events: Mapping[str, type] | None) -> str | None:
    """What is wrong with one decoded event for a fold to take it, or None. ``game_events``: the session's game's
    change kinds and the event class that records each (None: the rules are not on this server, refused later)."""
    cls = type(event)
    state = event.__dict__
    if issubclass(cls, TrackerCreated) != (state.get("originator_version") == 1):
        return "a stream's first event starts it, and no other event does"
    sealed = state.get("meta", {}).get("sealed") if isinstance(state.get("meta"), dict) else None
    # A value hidden from a side seals its salts too (tracker/integrity/hiding.py), in an event of any type that holds one.
    salted = {hiding.SALTS} if isinstance(state.get("meta"), dict) and state["meta"].get("commitments") else set()
    if sealed is not None and not (isinstance(sealed, list) and set(sealed) <= set(sealing.SEALED.get(cls.__name__, ())) | salted):
        return f"it lists fields as sealed that a {cls.__name__} does not seal"
    for field, hint in {**_LIBRARY_FIELDS, **_declared(cls)}.items():
        if field not in state:
            if field in (sealed or ()):
                continue
            return f"it has no '{field}'"
        if not _fits(state[field], hint) and not (state[field] is None and field in (sealed or ())):
            return f"its '{field}' is not {_named(hint)}"
    if state["originator_version"] < 1:
        return "its position is not a position"
    if issubclass(cls, TrackerCreated) and not _starts(cls, state.get("originator_topic")):
        return "its 'originator_topic' does not name the aggregate its type starts"
    command = state["meta"].get("command") if isinstance(state.get("meta"), dict) else None
    if command is not None and not (_fits(command, int) and 1 <= command <= state["originator_version"]):
        return "its 'meta.command' is not the position of an event at or before it"
    if cls is Session.SessionStarted:
        return _decks_problem(state["decks"], "its decks")
    if cls is Session.DiceRolled:
        return _roll_problem(state["roll"])
    if cls is Session.ActionTaken:
        if not isinstance(state["action"].get("type"), str) or not _is_counter(state["counter_start"]):
            return "its action names no type, or its random counter is not a count"
        if state["action"]["type"] == SET_UP_QUEST and not all(_fits(state["action"].get(k), hint) for k, hint in _SET_UP_INPUTS.items()):
            return "its quest set-up lacks the quest, set-up or campaign inputs it is re-derived from"
    elif cls in _DECK_KIND:
        return _deck_change_problem(state["change"], _DECK_KIND[cls])
    elif cls is Session.QuestDecided:
        change = state["change"]
        if change.get("kind") != "quest-decided" or not all(isinstance(change.get(key), str) for key in ("outcome", "reason")):
            return "its change records no outcome and reason"
    elif issubclass(cls, GameEvent):
        return _game_change_problem(state["change"], cls, game_events)
    elif cls is Session.ActionUndone:
        return _undo_problem(state["reverses"], state["restored"], "restored.decks" in (sealed or ()))
    elif cls is Session.SessionEnded:
        if state["counter_end"] is not None and not _is_counter(state["counter_end"]):
            return "its random counter is not a count"
    elif cls is Session.TurnEnded and state["turn"] < 0:
        return "its turn is not a turn"
    return None


def _starts(cls: type, topic: Any) -> bool:
    """Whether ``topic`` names the aggregate class a created event of ``cls`` starts (Campaign for
    Campaign.CampaignCreated): mutating it would otherwise build whatever the file names, or fail. Compared as
    text: a name from a file is never imported to find out."""
    owner = getattr(sys.modules[cls.__module__], cls.__qualname__.split(".")[0], None)
    return owner is not None and topic == get_topic(owner)


def _declared(cls: type) -> dict[str, Any]:
    """The fields an event class declares (its own and its bases'), as the library builds its dataclass from them."""
    if cls not in _hints:
        hints = get_type_hints(cls)
        _hints[cls] = {name: hint for name, hint in hints.items() if name not in _LIBRARY_FIELDS and name != "originator_topic"
                       and get_origin(hint) is not ClassVar}
    return _hints[cls]


def _fits(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if origin in (Union, types.UnionType):
        return any(_fits(value, arg) for arg in get_args(hint))
    if hint is dict or origin is dict:
        args = get_args(hint)
        return isinstance(value, dict) and (not args or all(_fits(k, args[0]) and _fits(v, args[1]) for k, v in value.items()))
    if hint is list or origin is list:
        args = get_args(hint)
        return isinstance(value, list) and (not args or all(_fits(item, args[0]) for item in value))
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, hint)


def _named(hint: Any) -> str:
    return {str: "text", int: "a whole number", bool: "true or false", dict: "an object", list: "a list"}.get(get_origin(hint) or hint, str(hint))


def _is_counter(value: Any) -> bool:
    return _fits(value, int) and 0 <= value < _COUNTER_LIMIT


def _is_cards(value: Any) -> bool:
    return _fits(value, list[str])


def _roll_problem(roll: dict[str, Any]) -> str | None:
    """A roll as tracker/core/dice.py records it: reported (``dice``, ``results``) or digital (with layouts and counters)."""
    source, dice, results = roll.get("source"), roll.get("dice"), roll.get("results")
    if source not in ("digital", "reported"):
        return "its roll is neither digital nor reported"
    if not _fits(results, dict[str, list]) or not isinstance(dice, dict):
        return "its roll records no dice and results"
    if source == "reported":
        return None
    layouts = roll.get("layouts")
    if not (_is_counter(roll.get("counter_start")) and _is_counter(roll.get("counter_end"))) or roll["counter_end"] < roll["counter_start"]:
        return "its digital roll records no random counters"
    if not _fits(layouts, dict[str, list]) or roll.get("order") is not None and not _fits(roll["order"], list[str]):
        return "its digital roll records no face layouts"
    for die, count in dice.items():
        if not _is_counter(count) or not layouts.get(die) or len(results.get(die) or ()) != count:
            return f"its digital roll records no layout or not {count} results of die {die!r}"
    if set(layouts) != set(dice) or set(results) != set(dice):
        return "its digital roll records layouts or results of dice it did not roll"
    return None


def _deck_change_problem(change: dict[str, Any], kind: str) -> str | None:
    """A deck change of the kind its class records, with what tracker/core/decks.py ``apply`` reads of that kind."""
    if change.get("kind") != kind:
        return f"its change is not of the kind '{kind}' its type records"
    if not isinstance(change.get("deck"), str):
        return "its change names no deck"
    if "cards" in change and not _is_cards(change["cards"]) or not _fits(change.get("holder"), str | None):
        return "its cards are not a list of cards, or its holder is not a name"
    needs: dict[str, Any] = {
        "shuffled": {"with_discard": bool, "before": list[str], "counter_start": int, "counter_end": int},
        "drawn": {"cards": list[str], "source": str},
        "looked": {"cards": list[str]},
        "kept": {"cards": list[str], "rest": str},
        "listed": {"cards": list[str]},
        "added": {"cards": list[str]},
        "discarded": {"cards": list[str], "from": str},
        "removed": {"cards": list[str], "from": str},
        "returned": {"cards": list[str], "from": str, "position": str},
    }[kind]
    for field, hint in needs.items():
        if field not in change or not _fits(change[field], hint):
            return f"its change has no '{field}' of the type a {kind} change records"
    if kind == "shuffled":
        if not (_is_counter(change["counter_start"]) and _is_counter(change["counter_end"])):
            return "its shuffle's random counters are not counts"
        if "order" in change and not _is_cards(change["order"]):
            return "its shuffle's order is not a list of cards"
    if "from" in needs and change["from"] not in _ZONES:
        return f"its change takes cards from '{change['from']}', which is not a zone of a deck"
    return None


def _decks_problem(piles: dict[str, Any], where: str) -> str | None:
    """Each deck's state as tracker/core/decks.py ``new_deck`` makes it and ``apply`` reads it."""
    for deck_id, state in piles.items():
        if not isinstance(state, dict):
            return f"{where}: deck {deck_id!r} is not a deck"
        if not all(_is_cards(state.get(zone)) for zone in ("draw", "discard", "peeked", "removed")) or not _fits(state.get("held"), dict[str, list[str]]):
            return f"{where}: deck {deck_id!r} lacks one of its piles"
        if not (state.get("unknown") is None or _is_counter(state["unknown"])) or not isinstance(state.get("needs_shuffle"), bool):
            return f"{where}: deck {deck_id!r} lacks its count of unnamed cards or whether it needs a shuffle"
    return None


def _game_change_problem(change: dict[str, Any], cls: type, game_events: Mapping[str, type] | None) -> str | None:
    if not isinstance(change.get("kind"), str):
        return "its change names no kind"
    if game_events is not None and game_events.get(change["kind"]) is not cls:
        return f"its change of kind '{change['kind']}' is not what a {cls.__name__} records"
    if "counter_start" in change:  # a draw from the stream (Journey's initiative order), recorded as a shuffle
        shuffle = change.get("shuffle")
        if not (_is_counter(change["counter_start"]) and _is_counter(change.get("counter_end"))):
            return "its draw's random counters are not counts"
        if not isinstance(shuffle, dict) or not isinstance(shuffle.get("before"), list) or not isinstance(shuffle.get("order"), list):
            return "its draw does not record what it shuffled"
    return None


def _undo_problem(reverses: dict[str, Any], restored: dict[str, Any], decks_sealed: bool) -> str | None:
    """What tracker/core/undo.py records: the positions reverted and the state put back (its piles sealed until derived)."""
    if not (_fits(reverses.get("from"), int) and _fits(reverses.get("to"), int) and isinstance(reverses.get("events"), list)):
        return "its undo does not name the events it reverts"
    if not (_fits(restored.get("turn"), int) and _fits(restored.get("rolls"), int) and isinstance(restored.get("game"), dict)):
        return "its undo does not record the turn, rolls and game state it puts back"
    if "decks" in restored:
        return _decks_problem(restored["decks"], "the decks it puts back") if isinstance(restored["decks"], dict) else "the decks it puts back are not decks"
    return None if decks_sealed else "its undo does not record the decks it puts back"

