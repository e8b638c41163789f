"""Aggregates: the campaign, the session (one play of one quest), and idempotency records."""

from tracker.domain.access import Grant
from tracker.domain.campaign import Campaign
from tracker.domain.idempotency import IdempotencyRecord
from tracker.domain.session import Session

__all__ = ["Campaign", "Grant", "IdempotencyRecord", "Session"]
