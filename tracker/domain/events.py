"""What every event carries besides its payload.

``meta`` holds who issued the event (a token id, never the token), the
request's correlation id and the ruleset version in force. Event classes
declare ``class_version`` explicitly; a change of shape bumps it and adds an
``upcast_vN_vM`` static method so stored events keep loading.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from eventsourcing.domain import Aggregate, DomainEvent

# The clock every event's timestamp is read from: the library's (the time now, in its time zone) unless
# the application is given another (Tracker(clock=...), tracker/bootstrap.py Settings.clock).
LIBRARY_CLOCK: Callable[[], datetime] = DomainEvent.create_timestamp
_clock: list[Callable[[], datetime]] = [LIBRARY_CLOCK]


def given_clock(clock: Callable[[], datetime]) -> None:
    _clock[0] = clock


def _now() -> datetime:
    return _clock[0]()


class TrackerEvent(Aggregate.Event):
    class_version = 1
    meta: dict[str, Any]
    create_timestamp = staticmethod(_now)


class TrackerCreated(Aggregate.Created):
    class_version = 1
    meta: dict[str, Any]
    create_timestamp = staticmethod(_now)


class GameEvent(TrackerEvent):
    """Base of a ruleset's own events (KarmaGained, WeaponUpgraded, ...): the session folds them with its game rules.

    Subclasses live in their ruleset's package, each with its own class_version. Rulesets take this
    base from here, never from the aggregates, so the domain and the rulesets import each other not at all.
    """

    change: dict[str, Any]

    def apply(self, aggregate: Any) -> None:
        aggregate._apply_game_change(self.change)  # noqa: SLF001


def make_meta(
    issued_by: str | None, correlation_id: str | None, ruleset_version: str | None, ruleset_id: str | None = None
) -> dict[str, Any]:
    meta = {"issued_by": issued_by, "correlation_id": correlation_id, "ruleset_version": ruleset_version}
    if ruleset_id:
        meta["ruleset_id"] = ruleset_id
    return meta
