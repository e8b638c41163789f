"""What every event carries besides its payload, and what every aggregate is given by the application.

``meta`` holds who issued the event (a token id, never the token), the
request's correlation id and the ruleset version in force. Event classes
declare ``class_version`` explicitly; a change of shape bumps it and adds an
``upcast_vN_vM`` static method so stored events keep loading.

Each aggregate is given, by the application that makes or loads it (``TrackerAggregate.made``, ``give``, and the
repository on each load), the clock its new events are timed by and, for a session, the game rules of the ruleset it pinned
(``Given``): nothing is set on a class, so two applications in one process keep their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eventsourcing.domain import Aggregate, DecoratedFuncCaller, DomainEvent, decorated_funcs

# The library's clock (the time now, in its time zone): an aggregate's events are timed by it unless it was given another.
LIBRARY_CLOCK: Callable[[], datetime] = DomainEvent.create_timestamp


def _no_rules(pin: Mapping[str, str]) -> Any:
    raise RuntimeError(
        f"No game rules were given to this {pin.get('id')} session, so it cannot fold its game events: load it through "
        "the application's repository (or give it its rules: session.give(Given(rules_for=...)))"
    )


@dataclass(frozen=True)
class Given:
    """What the application gives each aggregate it makes or loads: the clock its new events record, and the game
    rules a session folds its game events with (``rules_for(pin)``: the rules of the ruleset it pinned)."""

    clock: Callable[[], datetime] = LIBRARY_CLOCK
    rules_for: Callable[[Mapping[str, str]], Any] = _no_rules

    def __deepcopy__(self, memo: dict[int, Any]) -> Given:
        return self  # shared, never copied: the library's cache deep-copies the aggregates that hold it


NOTHING_GIVEN = Given()


class Shared:
    """A value an aggregate holds beside its state (the rules it was given): its copies share it, never copy it."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class TrackerAggregate(Aggregate):
    """The base of this service's aggregates: each is given its clock (and a session its rules) when it is made or
    loaded, and holds them beside its state (in a slot: never in a snapshot, never compared, never copied)."""

    __slots__ = ("_given",)

    @classmethod
    def made(cls, given: Given, **fields: Any) -> Any:
        """A new aggregate made from ``fields`` as its constructor makes one, its first event timed by ``given.clock``."""
        aggregate = cls._create(cls.created_event(), timestamp=given.clock(), **fields)
        aggregate.give(given)
        return aggregate

    @classmethod
    def created_event(cls) -> type[Any]:
        raise NotImplementedError  # each aggregate names the event that makes it

    def give(self, given: Given) -> None:
        self._given = given

    @property
    def given(self) -> Given:
        """What this aggregate was given (nothing: the library's clock, and no game rules)."""
        return getattr(self, "_given", NOTHING_GIVEN)

    def trigger_event(self, event_class: type[Any], **kwargs: Any) -> None:
        """As the library's (``Aggregate.trigger_event``, its steps in its order, here without its calls of the ``id``
        and ``version`` properties and of its own clock, which every event of ours replaces), the event timed by the
        clock this aggregate was given."""
        if kwargs.get("timestamp") is None:
            kwargs["timestamp"] = self.given.clock()
        if _explicit_topic(type(self)):  # (the library's check of an explicit topic: none of ours has one)
            super().trigger_event(event_class, **kwargs)
            return
        kwargs["originator_id"] = self._id
        kwargs["originator_version"] = self._version + 1
        try:
            new_event = event_class(**kwargs)
        except TypeError as e:
            raise TypeError(f"Can't construct event {event_class}: {e}") from None
        new_event.mutate(self)
        self._pending_events.append(new_event)


def _explicit_topic(cls: type) -> bool:
    """Whether an aggregate class names its topic (the library's ``getattr(type(self), "TOPIC", None)``), asked once per
    class: asked of a class without one, getattr raises and discards an AttributeError, its message formatted, each time."""
    known = _EXPLICIT_TOPICS.get(cls)
    if known is None:
        known = _EXPLICIT_TOPICS[cls] = bool(getattr(cls, "TOPIC", None))
    return known


_EXPLICIT_TOPICS: dict[type, bool] = {}


class TrackerEvent(Aggregate.Event):
    class_version = 1
    meta: dict[str, Any]


class TrackerCreated(Aggregate.Created):
    class_version = 1
    meta: dict[str, Any]


class GameEvent(DecoratedFuncCaller, TrackerEvent):
    """Base of a ruleset's own events (KarmaGained, WeaponUpgraded, ...): each records one ``change`` of the game state.

    Every game declares its kinds of change in its own package (tracker/rulesets/engine/changes.py makes each event class
    there), taking this base from here, never from the aggregates, so the domain and the rulesets import each other
    not at all. The session applies them all by one ``@event`` method (``Session.change_game``): each class is entered
    in the library's table of decorated methods (``applied_by``), as the library enters a class given to ``@event``.
    """

    change: dict[str, Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _GAME_EVENT_CLASSES.append(cls)
        for method in _APPLIED_BY:
            decorated_funcs[cls] = method

    @staticmethod
    def applied_by(method: Callable[..., None]) -> None:
        """Every game event class, made now or later, is applied by ``method`` (the session's ``@event`` method)."""
        _APPLIED_BY[:] = [method]
        for cls in _GAME_EVENT_CLASSES:
            decorated_funcs[cls] = method


_GAME_EVENT_CLASSES: list[type[GameEvent]] = []
_APPLIED_BY: list[Callable[..., None]] = []


def make_meta(
    issued_by: str | None, correlation_id: str | None, ruleset_version: str | None, ruleset_id: str | None = None
) -> dict[str, Any]:
    meta = {"issued_by": issued_by, "correlation_id": correlation_id, "ruleset_version": ruleset_version}
    if ruleset_id:
        meta["ruleset_id"] = ruleset_id
    return meta
