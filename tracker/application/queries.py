"""The Tracker's queries: reads of the aggregates and of the log, each shown to its viewer's side only."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic

from tracker.integrity import disclosure, hash_chain, receipts, verification

from tracker.core import missing_facts

from tracker.portability import campaign_files as portability

from tracker import rulesets
from tracker.domain import Grant, IdempotencyRecord, Session
from tracker.domain.access import token_hash
from tracker.core.errors import NotFound, Unprocessable
from tracker.adapters.grant_cache import GrantCache, channel_of
from tracker.application.loading import Loading
from tracker.application.session_log import event_view
from tracker.integrity.signing import KeyRing


class Queries:
    """The Tracker's queries over ``loading``. ``store``: the Tracker as the library's Application (its repository,
    events, recorder and mapper); ``grants``: the grants this process may answer from memory; ``signing``: the keys
    receipts are signed with; ``public_url``: the address exports and receipts name, where one was set."""

    def __init__(self, store: Any, loading: Loading, grants: GrantCache, signing: KeyRing, public_url: str | None) -> None:
        self.store = store
        self.loading = loading
        self.grants = grants
        self.signing = signing
        self.public_url = public_url

    def list_tokens(self, campaign_id: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in token.items() if k != "grant_id"} for token in self.loading.campaign(campaign_id).tokens.values()]

    def authenticate(self, token: str) -> Grant | None:
        """The live grant a bearer token carries, or None (unknown or revoked).

        Every request asks. On PostgreSQL a grant this process has read is answered from memory, for as long
        as it listens for revocations (tracker/adapters/grant_cache.py); otherwise it costs one query and no copy: the
        repository's cached grant is brought up to date with any newer event (a revocation saved by any process
        is seen at once) and handed out as it is. Callers only read it."""
        return self._live_grant(Grant.create_id(token_hash=token_hash(token)))

    def _live_grant(self, grant_id: UUID) -> Grant | None:
        grant, heard = self.grants.get(grant_id)
        if grant is not None:
            return grant
        try:
            grant = self.store.repository.get(grant_id, deepcopy_from_cache=False)
        except AggregateNotFoundError:
            return None  # unknown tokens are not kept: a token minted later is found by the next check
        if grant.revoked:
            return None
        self.grants.keep(grant, heard)
        return grant

    def session_state_at(self, session_id: str, at: int, viewer: str | None = None) -> dict[str, Any]:
        """The session's state just after its ``at``-th event, rebuilt from the log (from a snapshot where there is
        one); for a ``viewer`` side, without another side's secrets while the quest is still being played."""
        session = self.loading.session(session_id)
        state = self._at(session, at, "session").state()
        if session.ended:
            return state
        rules = rulesets.get(session.ruleset["id"]).rules
        return disclosure.state_for(state, rules, viewer)

    def campaign_state_at(self, campaign_id: str, at: int) -> dict[str, Any]:
        campaign = self.loading.campaign(campaign_id)
        past = self._at(campaign, at, "campaign")
        return {**past.state(), "components": past.components}

    def _at(self, aggregate: Aggregate, at: int, what: str) -> Any:
        if not 1 <= at <= aggregate.version:
            raise Unprocessable(
                f"The {what} has {aggregate.version} events, so there is no state after event {at}",
                detail=f"Ask for at between 1 and {aggregate.version}.",
                errors={"at": [f"Must be between 1 and {aggregate.version}."]},
            )
        return self.store.repository.get(aggregate.id, version=at)

    def has_secrets_in_play(self, campaign_id: str) -> bool:
        """Whether a session of a game with hidden information is still being played."""
        campaign = self.loading.campaign(campaign_id)
        return len(self.loading.ruleset(campaign).rules.sides) > 1 and any(s["outcome"] is None for s in campaign.sessions)

    def export_campaign(self, campaign_id: str, backup: bool = False, answers: Any = None, service: str | None = None) -> list[str]:
        """The campaign as JSON Lines; ``backup`` adds the sealed values, token grants and Idempotency-Key answers
        (operators only: never over HTTP; ``answers``, those gathered already, tracker/portability/stored_answers.py).
        ``service``: the address the request reached (a TRACKER_PUBLIC_URL setting comes first)."""
        return portability.export_lines(self.store, self.loading.campaign(campaign_id), backup=backup, answers=answers, service=self.public_url or service)

    def feed(self, after: int = 0, limit: int = 100, campaign_id: str | None = None, viewer: str | None = None) -> dict[str, Any]:
        """The notification log after position ``after``: campaign and session events, in the order saved.

        With ``campaign_id``, only that campaign's; with ``viewer``, another side's secrets are hidden
        until their quest ends. Idempotency records and access grants are never in the feed."""
        notifications = self.store.recorder.select_notifications(start=after, limit=limit, inclusive_of_start=False)
        skipped = {get_topic(IdempotencyRecord.Recorded), get_topic(Grant.GrantIssued), get_topic(Grant.GrantRevoked)}
        streams: dict[str, Any] = {}
        events = []
        for n in notifications:
            if n.topic in skipped:
                continue
            stream_id = str(n.originator_id)
            if stream_id not in streams:
                streams[stream_id] = self.store.repository.get(n.originator_id)
            aggregate = streams[stream_id]
            session = aggregate if isinstance(aggregate, Session) else None
            owner = session.campaign_id if session is not None else stream_id
            if campaign_id is not None and owner != campaign_id:
                continue
            view = event_view(self.store.mapper.to_domain_event(n), revealed=session is not None and session.ended)
            if session is not None and viewer is not None:
                view = disclosure.event_for(view, rulesets.get(session.ruleset["id"]).rules, viewer, session.ended)
            events.append({"id": n.id, "stream": stream_id, **view})
        return {
            "events": events,
            "after": after,
            "next_after": notifications[-1].id if notifications else after,
            "last": self.store.recorder.max_notification_id() or 0,
        }

    def get_campaign(self, campaign_id: str) -> dict[str, Any]:
        campaign = self.loading.campaign(campaign_id)
        return {**campaign.state(), "components": campaign.components}

    def missing_facts(self, campaign_id: str) -> dict[str, Any]:
        """The facts the campaign still lacks, by what each blocks (tracker/core/missing_facts.py)."""
        campaign = self.loading.campaign(campaign_id)
        found = missing_facts.missing(self.loading.ruleset(campaign), list(campaign.party), campaign.components, list(campaign.chain))
        return {"campaign_id": str(campaign.id), "components_hash": campaign.components_hash, **found}

    def prime(self, campaign_ids: Iterable[str]) -> list[Grant]:
        """Load these campaigns and their tokens' grants into the aggregate cache (a server worker's boot,
        api/warming.py): their first read in this process then brings them up to date with one query each, as
        every later read does, instead of loading them whole. Returns the live grants it loaded."""
        grants = []
        for campaign_id in campaign_ids:
            try:
                campaign = self.loading.campaign(campaign_id)
            except NotFound:
                continue  # a view's campaign the log does not hold (a test's, a dropped import): nothing to prime
            self.loading.remember_fixed(campaign_id, campaign)  # its rules and party, what every read's access check and redaction ask first
            for token in campaign.tokens.values():
                if not token.get("revoked") and (grant := self._live_grant(UUID(token["grant_id"]))) is not None:
                    grants.append(grant)  # kept as a request's token check keeps it (on PostgreSQL, tracker/adapters/grant_cache.py)
        return grants

    def get_session(self, session_id: str, viewer: str | None = None) -> dict[str, Any]:
        """The session's state; for a ``viewer`` side, without what another side keeps secret until the quest ends."""
        session = self.loading.session(session_id)
        rules = rulesets.get(session.ruleset["id"]).rules
        disclosure.check_side(rules, viewer)
        return disclosure.state_for(session.state(), rules, viewer)

    def session_events(self, session_id: str, after: int = 0, limit: int = 100, viewer: str | None = None) -> dict[str, Any]:
        session = self.loading.session(session_id)
        rules = rulesets.get(session.ruleset["id"]).rules
        disclosure.check_side(rules, viewer)
        events = list(self.store.events.get(session.id, gt=after, limit=limit))
        return {
            "session_id": session_id,
            "events": [
                disclosure.event_for(event_view(e, revealed=session.ended), rules, viewer, session.ended) for e in events
            ],
            "after": after,
            "next_after": events[-1].originator_version if events else after,
            "total": session.version,
        }

    def session_history(self, session_id: str) -> list[Any]:
        session = self.loading.session(session_id)
        return list(self.store.events.get(session.id))

    def session_receipt(self, session_id: str, service: str | None = None) -> dict[str, Any]:
        """The session's signed receipt (tracker/integrity/receipts.py): its start's while in play, its end's once ended.
        ``service``: the address the request reached (a TRACKER_PUBLIC_URL setting comes first)."""
        return self.signing.signed(receipts.receipt(self.store, self.loading.session(session_id), self.public_url or service))

    def jwks(self) -> dict[str, Any]:
        """The public keys this service signs with, every one it has used (tracker/integrity/signing.py)."""
        return self.signing.jwks()

    def verify(self, session_id: str, viewer: str | None = None) -> dict[str, Any]:
        """The verification report; while the quest runs, shuffles of another side's secret decks are not shown."""
        session = self.loading.session(session_id)
        campaign = self.loading.campaign(session.campaign_id)
        ruleset = self.loading.ruleset(campaign)
        report = verification.verify(list(self.store.events.get(session.id)), ruleset, campaign.components_for(str(session.id)))  # (supplied in play: in the events)
        chain = hash_chain.check(self.store, session.id)
        recorded = [
            (e.meta or {}).get("session_head")
            for e in self.store.events.get(campaign.id)
            if type(e).__name__ in ("QuestEnded", "QuestAbandoned") and e.session_id == str(session.id)
        ]
        report = verification.with_chain(report, chain, recorded[-1] if recorded else None)
        return disclosure.report_for(report, ruleset.rules, viewer)


def grant_cache(recorder: Any) -> GrantCache:
    """On PostgreSQL, a cache that listens for revocations on a connection of its own; elsewhere one that keeps nothing."""
    datastore = getattr(recorder, "datastore", None)
    pool = getattr(datastore, "pool", None)
    if pool is None or not type(datastore).__module__.startswith("eventsourcing.postgres"):
        return GrantCache(None, "")
    # Every keyword the pool's connections take (a formation's target_session_attrs too): after a failover the
    # listener reconnects to the promoted server, not to the demoted one.
    settings = {k: v for k, v in pool.kwargs.items() if k not in ("row_factory", "autocommit") and v not in (None, "")}
    return GrantCache(
        lambda: psycopg.connect(pool.conninfo, **{"connect_timeout": 5, **settings, "autocommit": True}),
        channel_of(recorder.events_table_name, datastore.schema),
    )
