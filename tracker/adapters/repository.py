"""The library's Repository, giving each aggregate it loads what the application gives it, less its runtime
Protocol check on every event it replays.

Each aggregate read here is given the application's clock and, for a session, the game rules of the ruleset it
pinned (``Given``, tracker/domain/events.py), before its second event is applied: a session's game events are
folded by those rules. Nothing is set on the aggregate classes, so two applications in one process keep their own.

The library's projector (``eventsourcing.application.project_aggregate``) asks
``isinstance(event, CanMutateProtocol)`` of each event before mutating with it: a runtime ``Protocol``
check that walks the protocol's attributes each time, 89% of replaying one event (bench/RESULTS.md,
"In-process pieces of one roll"), and gone only under ``python -O``. Every event this repository
reads was made by the mapper from a topic of our own domain, whose classes all have ``mutate``, so
the check can never fail here; the mutation is the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eventsourcing.application import Repository

from tracker.domain.events import NOTHING_GIVEN, Given


def mutate_each(aggregate: Any, events: Iterable[Any], given: Given = NOTHING_GIVEN) -> Any:
    """The library's project_aggregate without its assert: each event mutates the aggregate in turn, the aggregate
    given ``given`` as soon as it exists (a snapshot's, a cached copy's, or the one its first event made)."""
    events = iter(events)
    if aggregate is None:
        first = next(events, None)
        if first is None:
            return None
        aggregate = first.mutate(None)
    if aggregate.given is not given:  # (a cached copy keeps what it was given)
        aggregate.give(given)
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class TrackerRepository(Repository):
    def __init__(self, *args: Any, given: Given = NOTHING_GIVEN, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.given = given

    def get(self, aggregate_id: Any, *, projector_func: Any = None, **kwargs: Any) -> Any:
        if projector_func is None:
            given = self.given

            def projector_func(aggregate: Any, events: Iterable[Any]) -> Any:
                return mutate_each(aggregate, events, given)

        return super().get(aggregate_id, projector_func=projector_func, **kwargs)
