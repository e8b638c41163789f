"""A campaign's Idempotency-Key answers, carried by a backup, so that a client retrying an acknowledged write
after the campaign moved to another server gets the answer it missed, not a second roll.

An answer (tracker/domain/idempotency.py) is stored under an id derived from its scope and key; the scope is
``session:<id>|<token id>`` or ``campaign:<id>|<token id>`` (tracker/domain/idempotency.py, ``canonical_scope``).
Nothing indexes answers by campaign, so a backup finds them by walking the log's answers (one topic) and
keeping those scoped to the campaign or one of its sessions: a cost in proportion to the answers the database
holds, paid once per export. They travel in their stored form, exactly as recorded, like the events.

Answers to ``POST /campaigns`` (scope ``campaigns|<token id>``) belong to no campaign and stay where they are;
a retried creation is sent back to the shard holding its answer (api/sharding.py, ``answer_id``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from tracker.integrity import hash_chain
from tracker.domain import IdempotencyRecord
from tracker.core.errors import Unprocessable
from tracker.domain.idempotency import canonical_scope

RECORDED = get_topic(IdempotencyRecord.Recorded)
PAGE = 1000


def answer_id(scope: str, issued_by: str | None, key: str) -> UUID:
    """The id an answer is stored under: its command's scope with the asking token's id, and the key (tracker/application/unit_of_work.py)."""
    return IdempotencyRecord.create_id(scope=f"{canonical_scope(scope)}|{issued_by}", key=key)


def scopes(campaign_id: str, session_ids: Iterable[str]) -> set[str]:
    """The scopes (without their token) a campaign's answers are recorded under."""
    return {f"campaign:{UUID(str(campaign_id))}"} | {f"session:{UUID(str(s))}" for s in session_ids}


@dataclass(frozen=True)
class Gathered:
    """The campaign's answers up to position ``upto`` of the log, read before a move fences the campaign."""

    records: list[dict[str, Any]]
    upto: int


def gather_before_move(app: Any, campaign_id: str) -> Gathered:
    """The answers recorded so far, read while the campaign's writes still run, so that the part of the move that
    holds them back reads only the answers after ``upto``. The log's end is read first and the campaign's sessions
    after it: an answer at or before ``upto`` was committed before (commit order is position order, tracker/adapters/postgres.py),
    so its session had started already and is among those read."""
    upto = app.recorder.max_notification_id() or 0
    sessions = [s["id"] for s in app.repository.get(UUID(str(campaign_id))).sessions]
    return Gathered(of_campaign(app, campaign_id, sessions, upto=upto), upto)


def of_campaign(app: Any, campaign_id: str, session_ids: Iterable[str], gathered: Gathered | None = None,
                upto: int | None = None) -> list[dict[str, Any]]:
    """Every answer recorded for the campaign or its sessions, as stored records (stream, position, topic, state):
    those ``gathered`` already, and the ones after them (up to position ``upto``, when given)."""
    wanted = scopes(campaign_id, session_ids)
    found: list[dict[str, Any]] = list(gathered.records) if gathered else []
    after = gathered.upto if gathered else 0
    while True:
        page = app.recorder.select_notifications(start=after, limit=PAGE, inclusive_of_start=False, topics=[RECORDED], stop=upto)
        for notification in page:
            record = hash_chain.record(app.mapper, notification, sealed=True)
            if str(record["state"].get("scope", "")).partition("|")[0] in wanted:
                found.append(record)
        if len(page) < PAGE:
            return found
        after = page[-1].id


def to_store(app: Any, listed: Any, campaign_id: str, session_ids: Iterable[str]) -> list[StoredEvent]:
    """A backup's answers as the event store keeps them, each checked to be an answer, stored under the id its
    scope and key give, and scoped to this campaign: a file cannot plant an answer for anyone else's session."""
    wanted = scopes(campaign_id, session_ids)
    stored: list[StoredEvent] = []
    for number, record in enumerate(listed or [], start=1):
        try:
            event = StoredEvent(originator_id=UUID(record["stream"]), originator_version=record["position"], topic=record["topic"],
                                state=hash_chain.state_bytes(app.mapper, record["state"]))
            answer = app.mapper.to_domain_event(event) if record["topic"] == RECORDED else None
        except (KeyError, TypeError, ValueError, AttributeError):
            answer = None
        if (
            not isinstance(answer, IdempotencyRecord.Recorded)
            or record["position"] != 1
            or answer.originator_id != IdempotencyRecord.create_id(scope=answer.scope, key=answer.key)
            or str(answer.scope).partition("|")[0] not in wanted
        ):
            raise Unprocessable(
                "The backup's Idempotency-Key answers are damaged; nothing was imported",
                detail=f"Answer {number} is not an answer recorded for this campaign. Export the backup again.",
            )
        stored.append(event)
    return stored
