"""An Idempotency-Key's first answer, saved in the same transaction as the events it answered for."""

from __future__ import annotations

import uuid
from functools import lru_cache
from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from tracker.domain.events import TrackerAggregate, TrackerCreated

_NAMESPACE = uuid.UUID("6b0f5a52-3c1e-4d0b-9d5e-8f2d1a7c4e90")


class IdempotencyRecord(TrackerAggregate):
    class Recorded(TrackerCreated):
        scope: str
        key: str
        fingerprint: str
        status: int
        body: dict[str, Any]

    @staticmethod
    def create_id(scope: str, key: str, **_: Any) -> uuid.UUID:
        return uuid.uuid5(_NAMESPACE, f"{scope}\n{key}")

    @classmethod
    def created_event(cls) -> type[Any]:
        return cls.Recorded

    @event(Recorded)
    def __init__(self, scope: str, key: str, fingerprint: str, status: int, body: dict[str, Any], meta: dict[str, Any]) -> None:
        self.scope = scope
        self.key = key
        self.fingerprint = fingerprint
        self.status = status
        self.body = body


def canonical_scope(scope: str) -> str:
    """``session:<id>``/``campaign:<id>`` with the id in one spelling: upper case, no hyphens and ``urn:uuid:``
    forms of one id are one session, so they take turns and share Idempotency-Keys."""
    # Every command on a session names it the same way, so its spelling is worked out once; only text as short as
    # an id's spellings is kept (UUID() also takes any number of hyphens).
    return _kept_scope(scope) if len(scope) <= KEPT_TEXT else _scope(scope)


KEPT_TEXT = 64  # "campaign:urn:uuid:" and a hyphenated id are 54 characters


def _scope(scope: str) -> str:
    kind, _, raw = scope.partition(":")
    try:
        return f"{kind}:{UUID(raw)}" if raw else scope
    except ValueError:
        return scope  # not an id: the command's own load refuses it


_kept_scope = lru_cache(maxsize=4096)(_scope)
