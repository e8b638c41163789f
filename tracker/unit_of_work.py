"""The write path: a command as an explicit unit of work.

Each attempt of a command is a ``UnitOfWork``: the aggregates it loads to change (from the command
cache, tracker/command_cache.py, on a first attempt; fresh on a retry), and then one transaction that
saves what it changed with its Idempotency-Key's answer. An optimistic-concurrency conflict is retried
from fresh loads (so a retry never reuses a random counter), unless the caller made the command
conditional with If-Match, which then fails with 412. Every session and campaign event is linked into
its stream's hash chain as it is saved.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.application import ProcessingEvent, project_aggregate
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError, Notification, Recording, StoredEvent

from tracker import hash_chain, inputs
from tracker.command_cache import CommandCache, Turns
from tracker.domain import Campaign, Grant, IdempotencyRecord, Session
from tracker.domain.events import make_meta
from tracker.errors import Conflict, PreconditionFailed, TrackerError, Unprocessable
from tracker.rulesets.data import content_hash
from tracker.rulesets.ruleset import Ruleset

MAX_ATTEMPTS = 25


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

    def __init__(self, app: Any, from_cache: bool) -> None:
        self.app = app
        self.from_cache = from_cache
        self.taken: list[UUID] = []

    def for_change(self, raw_id: str, cls: type, what: str) -> Any:
        """An aggregate the command is going to write: the state this process last saved it in, when it
        has one (no query, no deep copy) if this attempt may, else a fresh load. ``_execute_in_turn`` says why that is safe."""
        try:
            aggregate_id = UUID(str(raw_id))
        except ValueError:
            return self.app._load(raw_id, cls, what)  # noqa: SLF001
        kept = self.app.command_cache.take(aggregate_id) if self.from_cache else None
        if kept is None or not isinstance(kept, cls):
            return self.app._load(raw_id, cls, what)  # noqa: SLF001
        self.taken.append(aggregate_id)
        return kept

    def playing(self, session_id: str, request: Request) -> tuple[Session, Ruleset]:
        """The session a command plays on, and its pinned ruleset."""
        session = self.for_change(session_id, Session, "session")
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
        return session, self.app.rules_for_session(session)


class WritePath:
    """The Tracker's write path: commands run through ``_execute`` as units of work, and ``save``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.chain_heads = hash_chain.Heads()  # each stream's last saved hash, so a command need not read it back
        self.command_cache = CommandCache()  # the state each command starts from (tracker/command_cache.py)
        self.turns = Turns()  # one command at a time per session (or campaign) in this process

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """Every session and campaign event is linked into its stream's hash chain as it is saved.

        The library's save, less two costs: its runtime ``Protocol`` checks on each object (our commands
        save aggregates only), and its snapshots, which reload the aggregate from the store: the one
        just saved is that state already, so it is snapshotted as it is. A grant revoked here is announced
        once saved, so every worker's token check stops accepting it (tracker/grant_cache.py)."""
        revoked = [o.id for o in objs if isinstance(o, Grant) and o.revoked and o.pending_events]
        recordings = self._save(*objs, **kwargs)
        if revoked:
            self.grants.announce(revoked)
        return recordings

    def _save(self, *objs: Any, **kwargs: Any) -> Any:
        if kwargs or not all(isinstance(o, Aggregate) for o in objs):
            return super().save(*objs, **kwargs)
        chained = [o for o in objs if isinstance(o, (Session, Campaign))]
        encoded: dict[int, StoredEvent] = {}
        heads = hash_chain.link(self, chained, encoded)
        processing = ProcessingEvent[UUID]()
        for aggregate in objs:
            processing.events.extend(aggregate.collect_events())
            processing.aggregates[aggregate.id] = aggregate
        recordings = self._put(processing.events, encoded)
        self.chain_heads.saved({a.id: a.version for a in chained if str(a.id) in heads}, heads)
        self._snapshot(processing)
        self._notify(recordings)
        return recordings

    def _put(self, events: list[Any], encoded: dict[int, StoredEvent]) -> list[Recording[UUID]]:
        """The library's EventStore.put, storing the forms the hash chain already encoded."""
        stored = [encoded.get(id(event)) or self.mapper.to_stored_event(event) for event in events]
        notification_ids = self.recorder.insert_events(stored)
        if not notification_ids:
            return []
        return [
            Recording(event, Notification(originator_id=s.originator_id, originator_version=s.originator_version, topic=s.topic, state=s.state, id=n))
            for event, s, n in zip(events, stored, notification_ids, strict=True)
        ]

    def _snapshot(self, processing: ProcessingEvent[UUID]) -> None:
        """A snapshot of each aggregate whose saved events crossed a multiple of its interval."""
        if not self.snapshots:
            return
        due = {
            event.originator_id
            for event in processing.events
            if (interval := self.snapshotting_intervals.get(type(processing.aggregates[event.originator_id])))
            and event.originator_version % interval == 0
        }
        if due:
            aggregates = [processing.aggregates[aggregate_id] for aggregate_id in due]
            self.snapshots.put([getattr(type(a), "Snapshot", type(self).snapshot_class).take(a) for a in aggregates])

    def _execute(self, scope: str, command: str, body: Any, request: Request, work: Callable[[UnitOfWork], _Outcome]) -> Result:
        # Every command's values, whatever carried them: text no store can keep is refused before anything hashes it
        # (the Idempotency-Key's fingerprint) or records it (tracker/inputs.py checks each command's own bounds).
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
            uow = UnitOfWork(self, from_cache=not fresh)
            try:
                outcome = work(uow)
            except TrackerError:
                if not uow.taken:
                    raise
                fresh = True  # (what it took stays out of the cache: only a save puts it back)
                continue
            to_save = list(outcome.aggregates)
            if key:
                to_save.append(
                    IdempotencyRecord.made(
                        self.given,
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
                recordings = self.save(*to_save)
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
            return Result(outcome.status, body, log_position=max((r.notification.id for r in recordings), default=None))
        raise Conflict("The session is too busy right now", detail="Too many commands at once; retry shortly.")

    def _earlier_answer(self, scope: str, key: str, fingerprint: str) -> Result | None:
        # One query for the record's one event (the repository would first look for a snapshot).
        recorded = list(self.events.get(IdempotencyRecord.create_id(scope=scope, key=key), limit=1))
        if not recorded:
            return None
        record = project_aggregate(None, recorded)
        if record.fingerprint != fingerprint:
            raise Unprocessable(
                "This Idempotency-Key was already used for a different request",
                detail="Use a new Idempotency-Key for a new request; reuse a key only to retry the same request.",
                errors={"Idempotency-Key": ["Already used with a different body."]},
            )
        return Result(record.status, record.body, replayed=True, log_position=self.recorder.max_notification_id())


def canonical_scope(scope: str) -> str:
    """``session:<id>``/``campaign:<id>`` with the id in one spelling: upper case, no hyphens and ``urn:uuid:``
    forms of one id are one session, so they take turns and share Idempotency-Keys."""
    kind, _, raw = scope.partition(":")
    try:
        return f"{kind}:{UUID(raw)}" if raw else scope
    except ValueError:
        return scope  # not an id: the command's own load refuses it


def detached(value: Any) -> Any:
    """A copy of a JSON-shaped answer that shares no dict or list with anything else."""
    if isinstance(value, dict):
        return {k: detached(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [detached(v) for v in value]
    return value


def _back_off(attempt: int) -> None:
    """A short pause before retrying a conflict, jittered so racing writers spread out.
    (Jitter from ``secrets``: game randomness comes only from the session's stream.)"""
    ceiling = min(0.05, 0.001 * 2**attempt)
    time.sleep(ceiling * (0.5 + secrets.randbelow(1000) / 2000))
