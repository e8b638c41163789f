"""Resolving on a session: what a resolver reads of it (its full state, its random stream at its
counter) and how the changes it returns are recorded. Commands (tracker/application/service.py) and
verification (tracker/integrity/verification.py) read a session the same way through here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.domain import Session
from tracker.core import decks
from tracker.core.errors import Conflict
from tracker.core.randomness import RandomStream
from tracker.rulesets.engine.ruleset import ActionContext, Resolved, Ruleset


def action_context(session: Session, ruleset: Ruleset, components: Mapping[str, Any]) -> ActionContext:
    return ActionContext(session_state(session), ruleset, ruleset.decks(components), ruleset.dice(components), components)


class _SeedNotHeld:
    """The stream of a session imported from a public export while in play: this server never had its seed."""

    def __init__(self, counter: int) -> None:
        self.counter = counter

    def _refuse(self, *_: Any) -> Any:
        raise Conflict(
            "This session's seed is not on this server, so it cannot roll, draw or shuffle digitally",
            detail="It was imported from a public export while in play. Report rolls and draws made at the table, "
            "or import the campaign's backup (tracker export --backup on the server it came from).",
        )

    uniform = roll = shuffle = _refuse


def session_stream(session: Session) -> Any:
    """The session's HMAC stream at its current counter."""
    if session.seed is None:
        return _SeedNotHeld(session.counter)
    return RandomStream(bytes.fromhex(session.seed), session.counter)


def session_state(session: Session) -> dict[str, Any]:
    """What resolvers read: the full deck states (not just the public summary); not the actions legal now."""
    return session.full_state()


def apply_changes(session: Session, changes: list[dict[str, Any]], meta: dict[str, Any]) -> None:
    """Record the changes on the session; those a resolver returned with the state they fold to from the session's
    (``Ruleset.resolve``), or a deck function with the deck state it moved the cards to (``decks.Dealt``: a draw),
    are not folded again."""
    if isinstance(changes, decks.Dealt) and changes.moved_from(session.decks):
        session.record_changes(changes, meta, None, {**session.decks, changes.deck: changes.state})
        return
    whole = isinstance(changes, Resolved) and changes.whole(session.game)
    session.record_changes(changes, meta, changes.game if whole else None, changes.decks if whole else None)
