"""The write path: a command as an explicit unit of work.

Each attempt of a command is a ``UnitOfWork``: the aggregates it loads to change (from the command
cache, tracker/application/command_cache.py, on a first attempt; fresh on a retry), and then one transaction that
saves what it changed with its Idempotency-Key's answer. An optimistic-concurrency conflict is retried
from fresh loads (so a retry never reuses a random counter), unless the caller made the command
conditional with If-Match, which then fails with 412. (The save links every session and campaign event into its
stream's hash chain: tracker/application/service.py.)
"""

from __future__ import annotations

import secrets
import time
from functools import lru_cache
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.application import project_aggregate
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from tracker.application import authorization

from tracker.core import inputs
from tracker.application.command_cache import CommandCache, Turns
from tracker.domain import Campaign, IdempotencyRecord, Session
from tracker.domain.idempotency import KEPT_TEXT, canonical_scope
from tracker.domain.events import make_meta
from tracker.core.errors import Conflict, PreconditionFailed, TrackerError, Unprocessable
from tracker.application.loading import Loading
from tracker.rulesets.engine.data import content_hash
from tracker.rulesets.engine.ruleset import Ruleset

MAX_ATTEMPTS = 25

Loader = Callable[[str, type, str], Any]  # (raw id, aggregate class, what it is called in a refusal) -> the aggregate


@dataclass(frozen=True)
class Request:
    """Who asked, and how: carried into every event's metadata and the idempotency record."""

    issued_by: str | None = None
    correlation_id: str | None = None
    idempotency_key: str | None = None
    if_match: int | None = None
    # The issuing token's role and bindings; None: the owner or an operator, who may do everything.
    role: str | None = None
    heroes: tuple[str, ...] = ()
    side: str | None = None


@dataclass(frozen=True)
class Result:
    status: int
    body: dict[str, Any]
    replayed: bool = False
    # The notification log position the command's events reached (a read with ?min_position= waits for the views
    # to get there); for an answer replayed or an import, the log's end once it was written.
    log_position: int | None = None


@dataclass
class _Outcome:
    status: int
    body: dict[str, Any]
    aggregates: list[Aggregate] = field(default_factory=list)
    shown_once: tuple[str, ...] = ()  # body fields (new tokens) never stored with the Idempotency-Key's answer


class UnitOfWork:
    """One attempt at one command. ``from_cache``: whether it may start from the state this process last
    saved (a first attempt) or must load fresh (a retry); ``taken`` lists what it took from the cache, which
    a failed attempt leaves out of the cache until a save puts it back."""

    def __init__(self, load: Loader, cache: CommandCache, pinned: Callable[[Session], Ruleset], from_cache: bool) -> None:
        """``load`` reads an aggregate fresh (NotFound for an unknown id); ``cache`` holds the state this process
        last saved; ``pinned`` gives a session its pinned ruleset."""
        self.load = load
        self.cache = cache
        self.pinned = pinned
        self.from_cache = from_cache
        self.taken: list[UUID] = []
        self.rules: Ruleset | None = None  # the game the command plays: its refusals are said in its words

    def speaking(self, ruleset: Ruleset) -> Ruleset:
        """The command plays ``ruleset``: a refusal it meets is said in that game's words (Ruleset.said)."""
        self.rules = ruleset
        return ruleset

    def said(self, refusal: TrackerError) -> TrackerError:
        return self.rules.said(refusal) if self.rules is not None else refusal

    def for_change(self, raw_id: str, cls: type, what: str) -> Any:
        """An aggregate the command is going to write: the state this process last saved it in, when it
        has one (no query, no deep copy) if this attempt may, else a fresh load. ``WritePath._execute_in_turn`` says why that is safe."""
        try:
            raw = str(raw_id)
            aggregate_id = _aggregate_id(raw) if len(raw) <= KEPT_TEXT else UUID(raw)
        except ValueError:
            return self.load(raw_id, cls, what)
        kept = self.cache.take(aggregate_id) if self.from_cache else None
        if kept is None or not isinstance(kept, cls):
            return self.load(raw_id, cls, what)
        self.taken.append(aggregate_id)
        return kept

    def playing(self, session_id: str, request: Request, body: Mapping[str, Any] | None = None, acting: str | None = None) -> tuple[Session, Ruleset]:
        """The session a command plays on, and its pinned ruleset: ``authorized``, then ``in_play``."""
        session, ruleset = self.authorized(session_id, request, body, acting)
        self.in_play(session, request)
        return session, ruleset

    def authorized(self, session_id: str, request: Request, body: Mapping[str, Any] | None = None, acting: str | None = None) -> tuple[Session, Ruleset]:
        """The session and its pinned ruleset, once the request's token may play it: a player's ``body`` names only
        its heroes and, where ``acting`` says what it is, is taken for its side (tracker/application/authorization.py)."""
        session = self.for_change(session_id, Session, "session")
        ruleset = self.speaking(self.pinned(session))
        authorization.refuse(request, "player", body, ruleset.rules, session.party, acting)
        return session, ruleset

    def in_play(self, session: Session, request: Request) -> None:
        """Conflict for a session that has ended; PreconditionFailed where the request's If-Match names another version."""
        if request.if_match is not None and request.if_match != session.version:
            raise PreconditionFailed(
                f"The session is at version {session.version}, not {request.if_match}",
                detail="Someone else changed the session first: reload it and decide again.",
            )
        if session.ended:
            raise Conflict(
                "The session was abandoned" if session.status == "abandoned" else "The session has ended",
                detail=f"It {'was abandoned' if session.status == 'abandoned' else f'ended in {session.outcome}'}; start a new session to play on.",
            )


class WritePath:
    """The Tracker's write path: each command run through ``execute`` as units of work over the ``loading`` it is
    given, saved with the ``store``'s save (the Tracker's: hash-chained, tracker/application/service.py), whose events and
    recorder it reads an Idempotency-Key's earlier answer from."""

    def __init__(self, store: Any, loading: Loading) -> None:
        self.store = store
        self.loading = loading
        self.command_cache = CommandCache()  # the state each command starts from (tracker/application/command_cache.py)
        self.turns = Turns()  # one command at a time per session (or campaign) in this process

    def execute(self, scope: str, command: str, body: Any, request: Request, work: Callable[[UnitOfWork], _Outcome]) -> Result:
        # Every command's values, whatever carried them: text no store can keep is refused before anything hashes it
        # (the Idempotency-Key's fingerprint) or records it (tracker/core/inputs.py checks each command's own bounds).
        inputs.storable(body, "request")
        scope = canonical_scope(scope)
        if scope == "campaigns":  # a new campaign: nothing to wait for
            return self._execute_in_turn(scope, command, body, request, work)
        with self.turns(scope):
            return self._execute_in_turn(scope, command, body, request, work)

    def _execute_in_turn(self, scope: str, command: str, body: Any, request: Request, work: Callable[[UnitOfWork], _Outcome]) -> Result:
        """Run a command's work and save what it changed, with its Idempotency-Key's answer, in one transaction.

        A first attempt may start from the command cache. If the save then conflicts, or the work refuses,
        the aggregates it took from there are dropped from it and the command runs again from fresh loads:
        a conflict may only mean another process wrote first, and a refusal must not rest on an old state.
        Conflicts on fresh loads are real races: retried after a jittered pause, up to MAX_ATTEMPTS."""
        key = request.idempotency_key
        fingerprint = content_hash({"command": command, "request": body}) if key else ""
        # A key is the token's own: another token reusing it gets its own answer, never this one's.
        scope = f"{scope}|{request.issued_by}"
        if key:
            earlier = self._earlier_answer(scope, key, fingerprint)
            if earlier:
                return earlier
        fresh = False  # once an attempt from the command cache fails, every later one loads fresh
        for attempt in range(MAX_ATTEMPTS):
            uow = UnitOfWork(self.loading.load, self.command_cache, self.loading.rules_for_session, from_cache=not fresh)
            try:
                outcome = work(uow)
            except TrackerError as refusal:
                if not uow.taken:
                    uow.said(refusal)
                    raise
                fresh = True  # (what it took stays out of the cache: only a save puts it back)
                continue
            to_save = list(outcome.aggregates)
            if key:
                to_save.append(
                    IdempotencyRecord.made(
                        self.store.given,
                        scope=scope,
                        key=key,
                        fingerprint=fingerprint,
                        status=outcome.status,
                        # a token is shown once: the recorded answer leaves it out
                        body={**outcome.body, **{name: None for name in outcome.shown_once}},
                        meta=make_meta(request.issued_by, request.correlation_id, None),
                    )
                )
            try:
                recordings = self.store.save(*to_save)
            except IntegrityError:
                if key:
                    earlier = self._earlier_answer(scope, key, fingerprint)
                    if earlier:
                        return earlier
                if uow.taken:  # perhaps only this process's copy was behind: decide again on fresh loads
                    fresh = True
                    continue
                if request.if_match is not None:
                    raise PreconditionFailed(
                        "The session changed while this command was being saved",
                        detail="Someone else changed the session first: reload it and decide again.",
                    ) from None
                _back_off(attempt + 1)
                continue
            body = detached(outcome.body)  # the saved aggregates go on to the next command; the answer must not change with them
            for aggregate in outcome.aggregates:
                if isinstance(aggregate, (Session, Campaign)):
                    self.command_cache.put(aggregate)
            position = None
            for recording in recordings:  # the last notification id (a loop: a generator is two calls more)
                if position is None or recording.notification.id > position:
                    position = recording.notification.id
            return Result(outcome.status, body, log_position=position)
        raise Conflict("The session is too busy right now", detail="Too many commands at once; retry shortly.")

    def _earlier_answer(self, scope: str, key: str, fingerprint: str) -> Result | None:
        # One query for the record's one event (the repository would first look for a snapshot).
        recorded = list(self.store.events.get(IdempotencyRecord.create_id(scope=scope, key=key), limit=1))
        if not recorded:
            return None
        record = project_aggregate(None, recorded)
        if record.fingerprint != fingerprint:
            raise Unprocessable(
                "This Idempotency-Key was already used for a different request",
                detail="Use a new Idempotency-Key for a new request; reuse a key only to retry the same request.",
                errors={"Idempotency-Key": ["Already used with a different body."]},
            )
        return Result(record.status, record.body, replayed=True, log_position=self.store.recorder.max_notification_id())


@lru_cache(maxsize=4096)
def _aggregate_id(raw: str) -> UUID:
    """An id as a command names it, parsed once per process (every command on a session sends the same text; text
    that is not an id is not kept: it is parsed, and refused, each time)."""
    return UUID(raw)


def detached(value: Any) -> Any:
    """A copy of a JSON-shaped answer that shares no dict or list with anything else (only containers are copied, so
    only they are recursed into: a roll's answer is mostly numbers and strings)."""
    if isinstance(value, dict):
        copy = {}
        for k, v in value.items():  # (a loop, not a comprehension: one call less per dict before Python 3.12)
            copy[k] = detached(v) if isinstance(v, _CONTAINERS) else v
        return copy
    if isinstance(value, (list, tuple)):
        return [detached(v) if isinstance(v, _CONTAINERS) else v for v in value]
    return value


_CONTAINERS = (dict, list, tuple)


def _back_off(attempt: int) -> None:
    """A short pause before retrying a conflict, jittered so racing writers spread out.
    (Jitter from ``secrets``: game randomness comes only from the session's stream.)"""
    ceiling = min(0.05, 0.001 * 2**attempt)
    time.sleep(ceiling * (0.5 + secrets.randbelow(1000) / 2000))
