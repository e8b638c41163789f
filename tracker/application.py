"""The tracker application: its public methods are the commands and queries.

Split by responsibility, each in its own module: the commands (tracker/commands.py), the queries
(tracker/queries.py), what both load and the facts a process keeps of a session (tracker/loading.py),
and the write path (tracker/unit_of_work.py): each attempt at a command is an explicit unit of work
that starts from the aggregates as this process last saved them (tracker/command_cache.py) or loads
them, and saves the resulting events together with the Idempotency-Key's answer in one transaction.
An optimistic-concurrency conflict is retried from a fresh load (so a retry never reuses a random
counter), unless the caller made the command conditional with If-Match, which then fails with 412.
This module builds the one class from them, and what it gives each aggregate it makes or loads (its clock, a session's rules).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.utils import strtobool

from tracker import rulesets
from tracker.commands import OUTCOMES, Commands, _meta
from tracker.domain import Campaign, Session
from tracker.domain.events import LIBRARY_CLOCK, Given
from tracker.errors import TrackerError
from tracker.queries import Queries
from tracker.randomness import new_seed
from tracker.repository import TrackerRepository
from tracker.signing import KeyRing
from tracker.resolving import action_context, apply_changes, session_state, session_stream
from tracker.unit_of_work import MAX_ATTEMPTS, Request, Result, UnitOfWork, WritePath, canonical_scope, detached


class Tracker(Commands, Queries, WritePath, Application[UUID]):
    """The application: commands (tracker/commands.py), queries (tracker/queries.py), each command's write
    path as a unit of work (tracker/unit_of_work.py), over the eventsourcing library's Application."""

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
        keys exports and receipts are signed with (tracker/signing.py; by default TRACKER_SIGNING_KEYS's file);
        ``public_url``: where this service is reached, which exports name so a verifier can fetch its key set
        (a request's own address is used where there is one)."""
        # What each aggregate this application makes or loads is given: the clock, and a session's game rules.
        self.given = Given(clock=clock or LIBRARY_CLOCK, rules_for=rules_for or pinned_rules)
        super().__init__(*args, **kwargs)
        self.seed_source = seed_source
        self.signing = signing or KeyRing()
        self.public_url = public_url

    def construct_repository(self) -> TrackerRepository:
        """The library's repository, configured from the env as the library does, without its per-event
        Protocol check (tracker/repository.py)."""
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


def pinned_rules(pin: Mapping[str, str]) -> Any:
    """The game rules of a pinned ruleset: this server's copy of that version (else its current one)."""
    return rulesets.pinned(pin).rules


__all__ = [
    "MAX_ATTEMPTS", "OUTCOMES", "Request", "Result", "Tracker", "TrackerError", "UnitOfWork",
    "_meta", "action_context", "apply_changes", "canonical_scope", "detached", "session_state", "session_stream",
]
