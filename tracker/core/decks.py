"""One deck engine for every game.

A deck's state is a plain JSON value derived only from deck events. The
``resolve_*`` functions are pure: given a state, a request and a random stream
(for shuffles) they return the event payloads that carry the request out (those
that move the cards as they go, a draw, a look, return the state they reached
with them: ``Dealt``); ``apply`` folds one payload into a state. Cards are names; copies of a card are
the same name repeated, so conservation is a multiset property: every card is
in exactly one of the zones draw, discard, peeked, held or removed.

A deck whose card list the rules lost is tracked with ``unknown``: the number
of face-down cards whose names nobody has told us (``None`` when even the size
is unknown). Such a deck can only be drawn from physically (reported cards).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from tracker.core import inputs
from tracker.core.errors import Unprocessable

TABLE = "table"  # holder of drawn cards when no hero is named


class Shuffler(Protocol):
    counter: int

    def shuffle(self, items: Sequence[str]) -> list[str]: ...


def new_deck(deck_id: str, cards: Sequence[str] | None, size: int | None, shuffled: bool) -> dict[str, Any]:
    """The state of a deck at the start of a session, before any shuffle."""
    known = cards is not None
    return {
        "id": deck_id,
        "draw": list(cards) if known else [],
        "unknown": 0 if known else size,
        "needs_shuffle": bool(shuffled and known),
        "discard": [],
        "peeked": [],
        "held": {},
        "removed": [],
    }


def all_cards(state: Mapping[str, Any]) -> Counter[str]:
    """Every named card in every zone (the conservation invariant)."""
    counter: Counter[str] = Counter(state["draw"]) + Counter(state["discard"])
    counter += Counter(state["peeked"]) + Counter(state["removed"])
    for cards in state["held"].values():
        counter += Counter(cards)
    return counter


def summary(state: Mapping[str, Any]) -> dict[str, Any]:
    """What players may see of a deck: counts, the discard pile, who holds what."""
    unknown = state["unknown"]
    return {
        "draw_pile": None if unknown is None else len(state["draw"]) + unknown,
        "discard_pile": list(state["discard"]),
        "held": {holder: list(cards) for holder, cards in state["held"].items() if cards},
        "looking_at": list(state["peeked"]),
        "removed_from_game": list(state["removed"]),
    }


# -- applying events -------------------------------------------------------


def _take(zone: list[str], cards: Iterable[str]) -> None:
    for card in cards:
        if card not in zone:
            raise ValueError(f"{card!r} is not there to take")
        zone.remove(card)


def _take_from_draw(state: dict[str, Any], cards: Sequence[str]) -> None:
    for card in cards:
        if card in state["draw"]:
            state["draw"].remove(card)
        elif state["unknown"] is None:
            continue  # a deck of unknown size: any unnamed card may come up
        elif state["unknown"] > 0:
            state["unknown"] -= 1
        else:
            raise ValueError(f"deck {state['id']!r} has no {card!r} in its draw pile")


def _take_from(state: dict[str, Any], zone: str, holder: str, cards: Sequence[str]) -> None:
    if zone == "held":
        _take(state["held"].get(holder, []), cards)  # cards a holder does not hold: ValueError, as for any zone
    elif zone == "draw":
        _take_from_draw(state, cards)
    else:
        _take(state[zone], cards)


# The kinds of deck change apply() knows; a session records each as its own event (Session's DECK_EVENTS).
CHANGE_KINDS = ("shuffled", "drawn", "looked", "kept", "discarded", "removed", "returned", "added", "listed")


def apply(state: Mapping[str, Any], payload: Mapping[str, Any], *, in_place: bool = False) -> dict[str, Any]:
    """The deck state after ``payload``: a new one, or ``state`` itself changed (``in_place``: a state the caller copied
    once for the payloads it makes, tracker/core/decks.py's _Plan, rather than once per payload)."""
    new = state if in_place else copy.deepcopy(dict(state))
    kind = payload["kind"]
    cards = payload.get("cards", [])
    holder = payload.get("holder") or TABLE
    if kind == "shuffled":
        if payload["with_discard"]:
            new["discard"] = []
        if "order" in payload:
            new["draw"] = list(payload["order"])
        else:  # imported without its seed (tracker/portability/unsealing.py): the cards are face down in an order nobody knows.
            # ``before`` is the whole draw pile (face-down cards included: the server that shuffled knew them all), with
            # the discards when they went in: those are the face-down cards now, and no others.
            new["unknown"] = None if new["unknown"] is None else len(payload["before"])
            new["draw"] = []
        new["needs_shuffle"] = False
    elif kind == "drawn":
        _take_from_draw(new, cards)
        new["held"].setdefault(holder, []).extend(cards)
    elif kind == "looked":
        _take_from_draw(new, cards)
        new["peeked"].extend(cards)
    elif kind == "kept":
        _take(new["peeked"], cards)
        new["held"].setdefault(holder, []).extend(cards)
        rest = list(new["peeked"])
        new["peeked"] = []
        where = payload["rest"]
        if where == "discard":
            new["discard"].extend(rest)
        elif where == "top":
            new["draw"][:0] = rest
        else:
            new["draw"].extend(rest)
    elif kind == "listed":  # the card list supplied in play: the face-down pile is named, shuffled before its first draw
        new["draw"] = list(payload["cards"])
        new["unknown"] = 0
        new["needs_shuffle"] = True
    elif kind == "added":  # cards that join the deck from outside it (e.g. bought for the session)
        new["draw"].extend(cards)
    elif kind in ("discarded", "removed", "returned"):
        _take_from(new, payload["from"], holder, cards)
        if kind == "discarded":
            new["discard"].extend(cards)
        elif kind == "removed":
            new["removed"].extend(cards)
        elif payload["position"] == "top":
            new["draw"][:0] = list(cards)
        else:
            new["draw"].extend(cards)
    else:  # pragma: no cover - payload kinds are produced here only
        raise ValueError(f"unknown deck event kind {kind!r}")
    return new


# -- resolving requests ----------------------------------------------------


def _shuffle(state: dict[str, Any], rng: Shuffler, *, with_discard: bool, reason: str) -> dict[str, Any]:
    # The cards go in sorted, not in the order they lay: ``before`` is public while the new order is sealed
    # (tracker/core/sealing.py), and a pile's old order may still be secret (an undo can put it back).
    source = sorted(list(state["draw"]) + (list(state["discard"]) if with_discard else []))
    start = rng.counter
    order = rng.shuffle(source)
    return {
        "kind": "shuffled",
        "deck": state["id"],
        "with_discard": with_discard,
        "reason": reason,
        "input": "sorted",
        "before": source,
        "order": order,
        "counter_start": start,
        "counter_end": rng.counter,
    }


class Dealt(list):
    """A deck function's payloads, with the state of their deck they lead to (``state``) from the one it was given
    (``start``): the function moved the cards as it resolved them (a second card is drawn from the pile the first
    left), so whoever records them takes ``state`` instead of moving the cards a second time."""

    def __init__(self, payloads: Sequence[dict[str, Any]], start: Mapping[str, Any], state: dict[str, Any]) -> None:
        super().__init__(payloads)
        self.deck: str = start["id"]
        self.start = start
        self.state = state

    def moved_from(self, states: Mapping[str, Any]) -> bool:
        """Whether ``state`` is where these payloads lead from this deck's state among ``states`` (the very one)."""
        return states.get(self.deck) is self.start


class _Plan:
    """Payloads being resolved, each applied to a working state as it is made."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.start = state
        self.state = copy.deepcopy(dict(state))  # the plan's own, copied once: each payload moves its cards in place
        self.payloads: list[dict[str, Any]] = []

    def add(self, payload: dict[str, Any]) -> None:
        self.payloads.append(payload)
        apply(self.state, payload, in_place=True)

    def dealt(self, payloads: Sequence[dict[str, Any]]) -> Dealt:
        return Dealt(payloads, self.start, self.state)


def _require_digital(state: Mapping[str, Any], name: str, count: int = 1) -> None:
    if state["unknown"] != 0:
        raise Unprocessable(
            f"The card list of {name} is unknown, so it cannot be drawn digitally",
            detail=(
                f"The rulebook transcription lost the cards of {name}. Supply them as component data "
                f'("components": {{"decks": {{"{state["id"]}": {{"cards": [...]}}}}}}) when creating the campaign or '
                'later with POST /campaigns/{cid}/components (a session in play gets them too), or report the cards drawn '
                'from the physical deck with "cards": [...].'
            ),
            unknown={"deck": state["id"], "count": count},
        )


def _top_card(plan: _Plan, rng: Shuffler) -> str:
    state = plan.state
    if state["needs_shuffle"]:
        plan.add(_shuffle(state, rng, with_discard=False, reason="first-draw"))
    if not plan.state["draw"]:
        if not plan.state["discard"]:
            raise Unprocessable(
                f"Deck '{state['id']}' is empty",
                detail="Its draw pile and discard pile are both empty: discard or return cards before drawing.",
            )
        plan.add(_shuffle(plan.state, rng, with_discard=True, reason="draw-pile-empty"))
    return plan.state["draw"][0]


def resolve_draw(state: Mapping[str, Any], name: str, count: int, rng: Shuffler, holder: str | None = None) -> Dealt:
    """Draw ``count`` cards from the top, reshuffling the discard pile when the draw pile runs out."""
    inputs.count(count, "count", 0, inputs.MOST_CARDS, what="cards to draw")  # bounded whoever asks (a request, a resolver)
    _require_digital(state, name, count)
    _require_available(state, count)
    plan = _Plan(state)
    for _ in range(count):
        card = _top_card(plan, rng)
        plan.add({"kind": "drawn", "deck": state["id"], "cards": [card], "source": "digital", "holder": holder})
    return plan.dealt(_merge_runs(plan.payloads))


def resolve_draw_until_kind(
    state: Mapping[str, Any], name: str, kind: str, kind_of: Mapping[str, str | None], rng: Shuffler, holder: str | None = None
) -> Dealt:
    """Draw until a card of ``kind`` comes up; every other card drawn goes to the discard pile."""
    _require_digital(state, name)
    if kind not in {kind_of.get(card) for card in all_cards(state)}:
        raise Unprocessable(
            f"Deck '{state['id']}' has no card of kind '{kind}'",
            detail=f"Kinds in this deck: {sorted({k for k in kind_of.values() if k})}.",
        )
    plan = _Plan(state)
    available = Counter(plan.state["draw"]) + Counter(plan.state["discard"])
    if not any(kind_of.get(card) == kind for card in available):
        raise Unprocessable(
            f"No card of kind '{kind}' is left in deck '{state['id']}'",
            detail="Every card of that kind is held, looked at or removed from the game.",
        )
    while True:
        card = _top_card(plan, rng)
        if kind_of.get(card) == kind:
            plan.add({"kind": "drawn", "deck": state["id"], "cards": [card], "source": "digital", "holder": holder})
            return plan.dealt(plan.payloads)
        plan.add({"kind": "drawn", "deck": state["id"], "cards": [card], "source": "digital", "holder": holder})
        plan.add({"kind": "discarded", "deck": state["id"], "cards": [card], "from": "held", "holder": holder})


def _merge_runs(payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive single-card draws (or looks) become one payload; a reshuffle between them stays between them."""
    merged: list[dict[str, Any]] = []
    for payload in payloads:
        if merged and payload["kind"] in ("drawn", "looked") and merged[-1]["kind"] == payload["kind"]:
            merged[-1] = {**merged[-1], "cards": merged[-1]["cards"] + payload["cards"]}
        else:
            merged.append(payload)
    return merged


def resolve_reported_draw(state: Mapping[str, Any], cards: Sequence[str], holder: str | None = None) -> list[dict[str, Any]]:
    """Cards drawn from the physical deck, checked against what the draw pile can still hold."""
    pile = Counter(state["draw"])
    unknown = state["unknown"]
    for card, wanted in Counter(cards).items():
        have = pile[card]
        if wanted > have:
            extra = wanted - have
            if unknown is not None and extra > unknown:
                raise Unprocessable(
                    f"Deck '{state['id']}' cannot hold {wanted} × '{card}' in its draw pile",
                    detail=_pile_detail(state),
                )
            if unknown is not None:
                unknown -= extra
    return [{"kind": "drawn", "deck": state["id"], "cards": list(cards), "source": "reported", "holder": holder}]


def _pile_detail(state: Mapping[str, Any]) -> str:
    known = sorted(Counter(state["draw"]).items())
    parts = [f"{n} × {card}" for card, n in known]
    if state["unknown"]:
        parts.append(f"{state['unknown']} unnamed card(s)")
    return "The draw pile holds: " + (", ".join(parts) if parts else "nothing") + "."


def _require_available(state: Mapping[str, Any], count: int) -> None:
    available = len(state["draw"]) + len(state["discard"])
    if count > available:
        raise Unprocessable(
            f"Deck '{state['id']}' has only {available} card(s) left to draw",
            detail=(
                f"Its draw pile holds {len(state['draw'])} and its discard pile {len(state['discard'])} "
                "(reshuffled when the draw pile runs out); draw fewer, or discard or return cards first."
            ),
        )


def resolve_look(state: Mapping[str, Any], name: str, count: int, rng: Shuffler) -> Dealt:
    """Look at the top ``count`` cards; they stay out of the draw pile until some are kept."""
    if state["peeked"]:
        raise Unprocessable(
            f"Cards of deck '{state['id']}' are already being looked at",
            detail=f"Keep some of {state['peeked']} first.",
        )
    _require_digital(state, name, count)
    _require_available(state, count)
    plan = _Plan(state)
    for _ in range(count):
        card = _top_card(plan, rng)
        plan.add({"kind": "looked", "deck": state["id"], "cards": [card]})
    return plan.dealt(_merge_runs(plan.payloads))


def resolve_keep(state: Mapping[str, Any], cards: Sequence[str], rest: str, holder: str | None = None) -> list[dict[str, Any]]:
    if not state["peeked"]:
        raise Unprocessable(f"No cards of deck '{state['id']}' are being looked at", detail="Look at the top cards first.")
    _require_subset(state["id"], cards, state["peeked"], "being looked at")
    return [{"kind": "kept", "deck": state["id"], "cards": list(cards), "rest": rest, "holder": holder}]


def resolve_move(state: Mapping[str, Any], kind: str, cards: Sequence[str], source: str, holder: str | None = None, position: str = "top") -> list[dict[str, Any]]:
    """Discard, remove from the game, or return cards to the draw pile."""
    if not cards:
        raise Unprocessable(f"Name the cards of deck '{state['id']}' to move", detail="Send at least one card.")
    if source == "held":
        zone = state["held"].get(holder or TABLE, [])
        where = f"held by {holder or TABLE}"
    elif source == "draw":
        return _move_from_draw(state, kind, cards, holder, position)
    else:
        zone = state[source]
        where = f"in the {source} pile"
    _require_subset(state["id"], cards, zone, where)
    payload = {"kind": kind, "deck": state["id"], "cards": list(cards), "from": source, "holder": holder}
    if kind == "returned":
        payload["position"] = position
    return [payload]


def _move_from_draw(state, kind, cards, holder, position):
    resolve_reported_draw(state, cards)  # same check: the draw pile must be able to hold them
    payload = {"kind": kind, "deck": state["id"], "cards": list(cards), "from": "draw", "holder": holder}
    if kind == "returned":
        payload["position"] = position
    return [payload]


def _require_subset(deck_id: str, cards: Sequence[str], zone: Sequence[str], where: str) -> None:
    missing = Counter(cards) - Counter(zone)
    if missing:
        raise Unprocessable(
            f"Deck '{deck_id}' has no {', '.join(sorted(missing))} {where}",
            detail=f"Cards {where}: {sorted(zone) or 'none'}.",
        )


def resolve_add(state: Mapping[str, Any], cards: Sequence[str], reason: str) -> list[dict[str, Any]]:
    """Cards that join a deck from outside it for this session (bought, gained); shuffle before drawing."""
    if not cards:
        raise Unprocessable(f"Name the cards to add to deck '{state['id']}'", detail="Send at least one card.")
    return [{"kind": "added", "deck": state["id"], "cards": list(cards), "reason": reason}]


def resolve_shuffle(state: Mapping[str, Any], name: str, rng: Shuffler, with_discard: bool) -> list[dict[str, Any]]:
    _require_digital(state, name)
    return [_shuffle(dict(state), rng, with_discard=with_discard, reason="requested")]


def resolve_listing(state: Mapping[str, Any], listed: Sequence[str]) -> list[dict[str, Any]]:
    """The deck's card list, supplied while the session is in play: the face-down pile becomes the listed cards not
    seen in any zone (a reported draw named them), so the deck is drawn digitally from then on. The pile is
    shuffled before its first digital draw, from the session's stream like every shuffle (``needs_shuffle``).
    Nothing when the deck's cards were known already."""
    if state["unknown"] == 0:
        return []
    seen = all_cards(state) - Counter(state["draw"])
    missing = seen - Counter(listed)
    if missing:
        raise Unprocessable(
            f"The card list of deck '{state['id']}' lacks cards this session already saw: {sorted(missing.elements())}",
            detail="Cards reported drawn from the physical deck must be in its list; correct the list and supply it again.",
            errors={f"components.decks.{state['id']}.cards": [f"Missing: {sorted(missing.elements())}"]},
        )
    pile = sorted((Counter(listed) - seen).elements())
    if state["unknown"] is not None and len(pile) != state["unknown"] + len(state["draw"]):
        raise Unprocessable(
            f"The card list of deck '{state['id']}' leaves {len(pile)} card(s) face down, but the deck has {state['unknown'] + len(state['draw'])}",
            detail="The list must name every card of the deck, those already drawn included.",
            errors={f"components.decks.{state['id']}.cards": [f"{len(listed)} card(s) listed."]},
        )
    return [{"kind": "listed", "deck": state["id"], "cards": pile}]


def listings(states: Mapping[str, Mapping[str, Any]], specs: Mapping[str, Any], supplied: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``listed`` changes component data supplied in play makes: one per deck of the session it names cards for."""
    changes: list[dict[str, Any]] = []
    for deck_id in sorted(supplied.get("decks") or {}):
        spec = specs.get(deck_id)
        if deck_id in states and spec is not None and spec.cards is not None:
            changes += resolve_listing(states[deck_id], spec.cards)
    return changes
