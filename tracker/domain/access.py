"""Access grants: who may read or change a campaign. A token is shown once; only its hash is stored.

A Grant's id is derived from the token's SHA-256, so a request's token is
looked up in one read without ever storing the token itself.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from typing import Any

from eventsourcing.domain import event

from tracker.domain.events import TrackerAggregate, TrackerCreated, TrackerEvent

_NAMESPACE = uuid.UUID("2f7c1d8e-5a94-4b6e-9c1f-3e8a0d6b7f21")

ROLES = ("owner", "player", "viewer", "integration")
TOKEN_BYTES = 32  # 256-bit tokens


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Grant(TrackerAggregate):
    class GrantIssued(TrackerCreated):
        campaign_id: str
        token_id: str
        token_hash: str
        role: str
        heroes: list[str]
        side: str | None
        label: str | None

    class GrantRevoked(TrackerEvent):
        pass

    @staticmethod
    def create_id(token_hash: str, **_: Any) -> uuid.UUID:
        return uuid.uuid5(_NAMESPACE, token_hash)

    @classmethod
    def created_event(cls) -> type[Any]:
        return cls.GrantIssued

    @event(GrantIssued)
    def __init__(
        self,
        campaign_id: str,
        token_id: str,
        token_hash: str,
        role: str,
        heroes: list[str],
        side: str | None,
        label: str | None,
        meta: dict[str, Any],
    ) -> None:
        self.campaign_id = campaign_id
        self.token_id = token_id
        self.token_hash = token_hash
        self.role = role
        self.heroes = heroes
        self.side = side
        self.label = label
        self.revoked = False

    @event(GrantRevoked)
    def revoke(self, meta: dict[str, Any]) -> None:
        self.revoked = True

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.token_id,
            "role": self.role,
            "heroes": list(self.heroes),
            "side": self.side,
            "label": self.label,
            "revoked": self.revoked,
        }
