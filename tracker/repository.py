"""The library's Repository, less its runtime Protocol check on every event it replays.

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


def mutate_each(aggregate: Any, events: Iterable[Any]) -> Any:
    """The library's project_aggregate without its assert: each event mutates the aggregate in turn."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class TrackerRepository(Repository):
    def get(self, aggregate_id: Any, *, projector_func: Any = mutate_each, **kwargs: Any) -> Any:
        return super().get(aggregate_id, projector_func=projector_func, **kwargs)
