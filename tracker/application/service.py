"""The tracker application: its public methods are the commands and queries.

Composed of collaborators, each in its own module and each handed what it needs: the commands
(tracker/application/commands.py), the queries (tracker/application/queries.py), what both load and the facts a process keeps of a
session (tracker/application/loading.py), and the write path (tracker/application/unit_of_work.py): each attempt at a command is an
explicit unit of work that starts from the aggregates as this process last saved them
(tracker/application/command_cache.py) or loads them, and saves the resulting events together with the Idempotency-Key's
answer in one transaction. An optimistic-concurrency conflict is retried from a fresh load (so a retry never
reuses a random counter), unless the caller made the command conditional with If-Match, which then fails with
412. This module builds them, saves every session and campaign event into its stream's hash chain, and gives
each aggregate it makes or loads its clock (a session, its rules).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import JSONTranscoder, Notification, Recording, StoredEvent, Transcoder
from eventsourcing.utils import Environment, EnvType, strtobool

from tracker.integrity import hash_chain

from tracker import rulesets
from tracker.application.command_cache import CommandCache, Turns
from tracker.application.commands import OUTCOMES, Commands, _meta
from tracker.domain import Campaign, Grant, Session
from tracker.domain.events import LIBRARY_CLOCK, Given
from tracker.core.errors import TrackerError
from tracker.application.loading import Loading
from tracker.application.queries import Queries, grant_cache
from tracker.core.randomness import new_seed
from tracker.adapters.repository import TrackerRepository
from tracker.adapters.stored_json import StoredJSON
from tracker.integrity.signing import KeyRing
from tracker.play.resolving import action_context, apply_changes, session_state, session_stream
from tracker.application.unit_of_work import MAX_ATTEMPTS, Request, Result, UnitOfWork, WritePath, canonical_scope, detached


def _through(part: str, method: Callable[..., Any]) -> Any:
    """``method`` of the collaborator the Tracker keeps as ``part``, reached on the Tracker (``tracker.roll(...)`` is
    ``tracker.commands.roll(...)``), with the collaborator's signature and docstring."""
    name = method.__name__

    @functools.wraps(method)
    def forwarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(getattr(self, part), name)(*args, **kwargs)

    return forwarded


class Tracker(Application[UUID]):
    """The application: the eventsourcing library's Application, its saves hash-chained, composed of the loads and
    memos (``loading``, tracker/application/loading.py), the write path that runs each command as units of work (``write_path``,
    tracker/application/unit_of_work.py), the commands (``commands``, tracker/application/commands.py) and the queries (``queries``,
    tracker/application/queries.py). Their public methods are the Tracker's, each named once below."""

    name = "tracker"
    snapshotting_intervals = {Session: 100, Campaign: 100}

    def __init__(
        self,
        *args: Any,
        seed_source: Callable[[], bytes] = new_seed,
        rules_for: Callable[[Mapping[str, str]], Any] | None = None,
        clock: Callable[[], datetime] | None = None,
        signing: KeyRing | None = None,
        public_url: str | None = None,
        **kwargs: Any,
    ) -> None:
        """``seed_source`` makes each new session's secret seed (a bench gives fixed ones); ``rules_for``
        gives sessions the game rules of the ruleset they pinned (by default this server's rulesets);
        ``clock`` is what events record as their time (by default the library's, the time now); ``signing``: the
        keys exports and receipts are signed with (tracker/integrity/signing.py; tracker/bootstrap.py gives the settings' file);
        ``public_url``: where this service is reached, which exports name so a verifier can fetch its key set
        (a request's own address is used where there is one)."""
        # What each aggregate this application makes or loads is given: the clock, and a session's game rules.
        self.given = Given(clock=clock or LIBRARY_CLOCK, rules_for=rules_for or pinned_rules)
        super().__init__(*args, **kwargs)
        self.seed_source = seed_source
        self.signing = signing or KeyRing()
        self.public_url = public_url
        self.chain_heads = hash_chain.Heads()  # each stream's last saved hash, so a command need not read it back
        self.grants = grant_cache(self.recorder)  # the grants this process may answer from memory
        self.loading = Loading(self.repository)
        self.write_path = WritePath(self, self.loading)
        self.commands = Commands(self, self.loading, self.write_path, seed_source, self.grants)
        self.queries = Queries(self, self.loading, self.grants, self.signing, public_url)

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        """The library's settings from the ``env`` this application is given (tracker/adapters/config.py's persistence_env, from
        tracker/settings.py's Settings) over the class's own, as the library builds them less one source: the process
        environment, which tracker/settings.py alone reads (the library would read its names there, and each one
        again with a TRACKER_ prefix)."""
        settings = dict(type(self).env)
        if type(self).is_snapshotting_enabled or type(self).snapshotting_intervals:
            settings["IS_SNAPSHOTTING_ENABLED"] = "y"
        settings.update(env or {})
        return Environment(name, settings)

    def construct_transcoder(self) -> Transcoder:
        """The library's transcoder, with its transcodings; the default one (JSONTranscoder) encoding by msgspec where
        that writes the same bytes (tracker/adapters/stored_json.py)."""
        transcoder = self.factory.transcoder()
        if type(transcoder) is JSONTranscoder:
            transcoder = StoredJSON()
        if isinstance(transcoder, JSONTranscoder):
            self.register_transcodings(transcoder)
        return transcoder

    def construct_repository(self) -> TrackerRepository:
        """The library's repository, configured from the env as the library does, without its per-event
        Protocol check (tracker/adapters/repository.py)."""
        maxsize = self.env.get(self.AGGREGATE_CACHE_MAXSIZE)
        return TrackerRepository(
            event_store=self.events,
            snapshot_store=self.snapshots,
            cache_maxsize=int(maxsize) if maxsize else None,
            fastforward=strtobool(self.env.get(self.AGGREGATE_CACHE_FASTFORWARD, "y")),
            fastforward_skipping=strtobool(self.env.get(self.AGGREGATE_CACHE_FASTFORWARD_SKIPPING, "n")),
            deepcopy_from_cache=strtobool(self.env.get(self.DEEPCOPY_FROM_AGGREGATE_CACHE, "y")),
            given=self.given,
        )

    def close(self) -> None:
        self.grants.close()
        super().close()

    @property
    def command_cache(self) -> CommandCache:
        return self.write_path.command_cache

    @property
    def turns(self) -> Turns:
        return self.write_path.turns

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """Every session and campaign event is linked into its stream's hash chain as it is saved.

        The library's save, less two costs: its runtime ``Protocol`` checks on each object (our commands
        save aggregates only), and its snapshots, which reload the aggregate from the store: the one
        just saved is that state already, so it is snapshotted as it is. A grant revoked here is announced
        once saved, so every worker's token check stops accepting it (tracker/adapters/grant_cache.py)."""
        # (loops, not comprehensions, here and below: each comprehension is one more call before Python 3.12, and
        # every command passes through)
        revoked = []
        for o in objs:
            if isinstance(o, Grant) and o.revoked and o.pending_events:
                revoked.append(o.id)
        recordings = self._save(*objs, **kwargs)
        if revoked:
            self.grants.announce(revoked)
        return recordings

    def _save(self, *objs: Any, **kwargs: Any) -> Any:
        chained = []
        ours = not kwargs  # aggregates only, saved as they are: else the library's save, which checks what it is given
        for o in objs:
            if not isinstance(o, Aggregate):
                ours = False
                break
            if isinstance(o, (Session, Campaign)):
                chained.append(o)
        if not ours:
            return super().save(*objs, **kwargs)
        encoded: dict[int, StoredEvent] = {}
        linked: dict[UUID, tuple[int, str]] = {}
        hash_chain.link(self, chained, encoded, linked)
        processing: ProcessingEvent[UUID] = ProcessingEvent()  # (not ProcessingEvent[UUID](): typing's alias call is slow)
        for aggregate in objs:
            processing.events.extend(aggregate.collect_events())
            processing.aggregates[aggregate.id] = aggregate
        recordings = self._put(processing.events, encoded)
        self.chain_heads.saved(linked)
        self._snapshot(processing)
        self._notify(recordings)
        return recordings

    def _put(self, events: list[Any], encoded: dict[int, StoredEvent]) -> list[Recording[UUID]]:
        """The library's EventStore.put, storing the forms the hash chain already encoded."""
        stored = []
        for event in events:
            stored.append(encoded.get(id(event)) or self.mapper.to_stored_event(event))
        notification_ids = self.recorder.insert_events(stored)
        if not notification_ids:
            return []
        recordings = []
        for event, s, n in zip(events, stored, notification_ids, strict=True):
            recordings.append(Recording(event, Notification(originator_id=s.originator_id, originator_version=s.originator_version, topic=s.topic, state=s.state, id=n)))
        return recordings

    def _snapshot(self, processing: ProcessingEvent[UUID]) -> None:
        """A snapshot of each aggregate whose saved events crossed a multiple of its interval."""
        if not self.snapshots:
            return
        due = set()
        for event in processing.events:
            interval = self.snapshotting_intervals.get(type(processing.aggregates[event.originator_id]))
            if interval and event.originator_version % interval == 0:
                due.add(event.originator_id)
        if due:
            aggregates = [processing.aggregates[aggregate_id] for aggregate_id in due]
            self.snapshots.put([getattr(type(a), "Snapshot", type(self).snapshot_class).take(a) for a in aggregates])

    # -- the commands (tracker/application/commands.py) --
    create_campaign = _through("commands", Commands.create_campaign)
    supply_components = _through("commands", Commands.supply_components)
    mint_token = _through("commands", Commands.mint_token)
    revoke_token = _through("commands", Commands.revoke_token)
    start_session = _through("commands", Commands.start_session)
    roll = _through("commands", Commands.roll)
    draw = _through("commands", Commands.draw)
    act = _through("commands", Commands.act)
    end_session = _through("commands", Commands.end_session)
    abandon_session = _through("commands", Commands.abandon_session)
    undo = _through("commands", Commands.undo)
    import_campaign = _through("commands", Commands.import_campaign)

    # -- the queries (tracker/application/queries.py) --
    authenticate = _through("queries", Queries.authenticate)
    list_tokens = _through("queries", Queries.list_tokens)
    get_campaign = _through("queries", Queries.get_campaign)
    campaign_state_at = _through("queries", Queries.campaign_state_at)
    missing_facts = _through("queries", Queries.missing_facts)
    has_secrets_in_play = _through("queries", Queries.has_secrets_in_play)
    export_campaign = _through("queries", Queries.export_campaign)
    feed = _through("queries", Queries.feed)
    prime = _through("queries", Queries.prime)
    get_session = _through("queries", Queries.get_session)
    session_state_at = _through("queries", Queries.session_state_at)
    session_events = _through("queries", Queries.session_events)
    session_history = _through("queries", Queries.session_history)
    session_receipt = _through("queries", Queries.session_receipt)
    jwks = _through("queries", Queries.jwks)
    verify = _through("queries", Queries.verify)

    # -- what a session and its campaign keep fixed (tracker/application/loading.py): the access checks ask these --
    campaign_of_session = _through("loading", Loading.campaign_of_session)
    rules_of_campaign = _through("loading", Loading.rules_of_campaign)
    party_of_campaign = _through("loading", Loading.party_of_campaign)
    rules_for_session = _through("loading", Loading.rules_for_session)
    # (the aggregates themselves, for tests and the bench that read them)
    _campaign = _through("loading", Loading.campaign)
    _session = _through("loading", Loading.session)
    _ruleset = _through("loading", Loading.ruleset)


def pinned_rules(pin: Mapping[str, str]) -> Any:
    """The game rules of a pinned ruleset: this server's copy of that version (else its current one)."""
    return rulesets.pinned(pin).rules


__all__ = [
    "MAX_ATTEMPTS", "OUTCOMES", "Request", "Result", "Tracker", "TrackerError", "UnitOfWork",
    "_meta", "action_context", "apply_changes", "canonical_scope", "detached", "session_state", "session_stream",
]
