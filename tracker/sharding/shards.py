"""Which shard's application answers a request: a campaign, a session or a token resolved to its shard.

Each worker opens every shard's application (a Tracker on that database, and the views beside it)
the first time it needs it. A campaign resolves through the placement table (tracker/sharding/placement.py);
a session through its campaign, and a token through the campaign its grant is for: both facts never
change, so each is asked of the shards once per worker and kept. Where the campaign lives is read
on every request, so a move is seen at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from tracker.application.service import Tracker
from tracker.domain.access import token_hash
from tracker.core.errors import NotFound
from tracker.sharding.placement import HOME, Placement

KNOWN_MAX = 100_000  # session -> campaign and token -> campaign facts kept per worker


@dataclass
class Shard:
    name: str
    url: str
    tracker: Tracker
    views: Any  # the shard's ProjectionRunner (its views live beside its events)
    replica: Any = None  # views read from the shard's streaming replica, when it has one (projections/replica.py)

    def close(self) -> None:
        self.tracker.close()
        for views in (self.views, self.replica):
            store = getattr(views, "store", None)
            if store is not None:
                store.datastore.close()


class Router:
    def __init__(self, placement: Placement, open_shard: Callable[[str, str, str | None], Shard], home: Shard | None = None) -> None:
        self.placement = placement
        self._open_shard = open_shard
        self._shards: dict[str, Shard] = {} if home is None else {HOME: home}
        self._lock = threading.Lock()
        self._session_campaigns: dict[str, str] = {}
        self._token_campaigns: dict[str, str] = {}

    # -- shards --------------------------------------------------------------

    def shard(self, name: str) -> Shard:
        shard = self._shards.get(name)
        if shard is None:
            with self._lock:
                shard = self._shards.get(name)
                if shard is None:
                    urls = self.placement.shards()  # a shard added since this worker started is read now
                    if name not in urls:
                        raise KeyError(f"No shard named {name!r}")
                    shard = self._shards[name] = self._open_shard(name, urls[name], self.placement.replicas().get(name))
        return shard

    def every_shard(self) -> list[Shard]:
        return [self.shard(name) for name in self.placement.shards()]

    def opened(self) -> list[Shard]:
        return list(self._shards.values())

    def close(self) -> None:
        for shard in self.opened():
            shard.close()
        self.placement.close()

    # -- resolving -----------------------------------------------------------

    def of_campaign(self, campaign_id: str) -> Shard:
        """The shard the placement table names; a campaign without a row is on the home shard."""
        placed = self.placement.of(campaign_id)
        return self.shard(placed.shard if placed else HOME)

    def campaign_of_session(self, session_id: str) -> str:
        known = self._session_campaigns.get(session_id)
        if known is None:
            known = self._ask_each(lambda t: t.campaign_of_session(session_id), f"No session with id '{session_id}'", "Check the session id.")
            _keep(self._session_campaigns, session_id, known)
        return known

    def campaign_of_token(self, token: str) -> str | None:
        """The campaign a token's grant is for, found on any shard (a moved campaign's old shard keeps a copy of its
        grants, which name the same campaign); None when no shard knows it. Whether it is live is asked of the
        campaign's own shard."""
        key = token_hash(token)  # the worker keeps no token itself
        known = self._token_campaigns.get(key)
        if known is None:
            for shard in self.every_shard():
                grant = shard.tracker.authenticate(token)
                if grant is not None:
                    known = grant.campaign_id
                    break
            if known is None:
                return None
            _keep(self._token_campaigns, key, known)
        return known

    def _ask_each(self, question: Callable[[Tracker], str], title: str, detail: str) -> str:
        for shard in self.every_shard():
            try:
                return question(shard.tracker)
            except NotFound:
                continue
        raise NotFound(title, detail=detail)

    # -- writing -------------------------------------------------------------

    @contextmanager
    def writing(self, campaign_id: str) -> Iterator[Shard]:
        """The campaign's shard, its move lock held shared for the write (tracker/sharding/placement.py): raises
        placement.Moving while the campaign is being moved."""
        with self.placement.fence(campaign_id) as placed:
            if placed is not None:
                yield self.shard(placed.shard)
                return
        # Not placed yet: created before sharding was turned on, so on the home shard. Placing it
        # there first makes this write, and every later one, fence on its row.
        self.shard(HOME).tracker.get_campaign(campaign_id)  # NotFound for an unknown id: nothing is placed
        self.placement.place(campaign_id, HOME)
        with self.placement.fence(campaign_id) as placed:
            yield self.shard(placed.shard if placed else HOME)

    def for_new_campaign(self, answers: Sequence[UUID] = ()) -> Shard:
        """The least loaded shard; a retried creation (a shard holds one of ``answers``, its Idempotency-Key's
        possible answer ids) goes back to the shard that answered it, so it is answered the same, not created twice."""
        for shard in self.every_shard() if answers else ():
            if any(shard.tracker.recorder.select_events(answer, limit=1) for answer in answers):
                return shard
        return self.shard(self.placement.least_loaded())


def _keep(memo: dict[str, str], key: str, value: str) -> None:
    if len(memo) >= KNOWN_MAX:
        memo.pop(next(iter(memo)))
    memo[key] = value
