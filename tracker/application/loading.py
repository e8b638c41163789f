"""The aggregates as the application reads them, and the facts fixed for a session's life that a process
keeps in memory (its campaign, its rules, its component data, its dice) so a command need not read them again."""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from tracker import rulesets
from tracker.domain import Campaign, Session
from tracker.core.errors import NotFound
from tracker.core.ids import id_text
from tracker.rulesets.engine import components as component_data
from tracker.rulesets.engine.ruleset import Ruleset

MEMO_LIMIT = 100_000  # sessions whose fixed facts a process keeps in memory


class Loading:
    """Loads for the Tracker's commands and queries, from the ``repository`` it is given, and the memos of what
    stays fixed for a session's life."""

    def __init__(self, repository: Any) -> None:
        self.repository = repository
        self._session_campaigns: dict[str, str] = {}
        self._campaign_rules: dict[str, Any] = {}
        self._campaign_parties: dict[str, frozenset[str]] = {}
        self._session_components: dict[str, bytes] = {}  # each session's component data, fixed when it started
        self._session_dice: dict[str, dict[str, Any]] = {}  # and the dice built from it

    def campaign_of_session(self, session_id: str) -> str:
        """A session's campaign never changes: after the first load it is answered from memory,
        so the access check on every request does not load the session the command loads again."""
        known = self._session_campaigns.get(session_id)
        if known is None:
            known = _remember(self._session_campaigns, session_id, self.session(session_id).campaign_id)
        return known

    def rules_of_campaign(self, campaign_id: str) -> Any:
        """A campaign's game rules (its pinned ruleset never changes: answered from memory after the first load)."""
        known = self._campaign_rules.get(campaign_id)
        if known is None:
            known = self.remember_fixed(campaign_id, self.campaign(campaign_id))[0]
        return known

    def party_of_campaign(self, campaign_id: str) -> frozenset[str]:
        """The characters a campaign plays (fixed when it is created: answered from memory after the first load)."""
        known = self._campaign_parties.get(campaign_id)
        if known is None:
            known = self.remember_fixed(campaign_id, self.campaign(campaign_id))[1]
        return known

    def remember_fixed(self, campaign_id: str, campaign: Campaign) -> tuple[Any, frozenset[str]]:
        """What never changes of a loaded campaign, its rules and its party, kept for the two questions above."""
        return (_remember(self._campaign_rules, campaign_id, self.ruleset(campaign).rules),
                _remember(self._campaign_parties, campaign_id, frozenset(campaign.party)))

    def campaign(self, campaign_id: str) -> Campaign:
        return self.load(campaign_id, Campaign, "campaign")

    def session(self, session_id: str) -> Session:
        return self.load(session_id, Session, "session")

    def load(self, raw_id: str, cls: type, what: str) -> Any:
        try:
            aggregate = self.repository.get(UUID(str(raw_id)))
        except (ValueError, AggregateNotFoundError):
            raise NotFound(f"No {what} with id '{raw_id}'", detail=f"Check the {what} id; ids are UUIDs.") from None
        if not isinstance(aggregate, cls):
            raise NotFound(f"No {what} with id '{raw_id}'", detail=f"Check the {what} id.")
        return aggregate

    def ruleset(self, campaign: Campaign) -> Ruleset:
        return rulesets.pinned(campaign.ruleset)

    def dice_of(self, session: Session, ruleset: Ruleset) -> dict[str, Any]:
        """The dice a session rolls, built from its component data once per process (and again after facts are supplied in play)."""
        key = _components_key(session)
        specs = self._session_dice.get(key)
        if specs is None:
            specs = ruleset.dice(self.components_of(session))
            if key not in self._session_components:
                return specs  # a campaign from before pinning: built again each time, like its data
            _remember(self._session_dice, key, specs)
        return specs

    def components_of(self, session: Session) -> dict[str, Any]:
        """The component data in force in the session: what the campaign pinned when it started, plus what the owner
        supplied in play (pinned in the session's own stream). Read once per process for each such step (and handed out
        as a fresh copy)."""
        key = _components_key(session)
        kept = self._session_components.get(key)
        if kept is None:
            campaign = self.campaign(session.campaign_id)
            components = session_components(campaign.components_for(str(session.id)), session.components_supplied)
            if str(session.id) not in campaign.__dict__.get("session_components", {}):
                return components  # a campaign from before pinning: its current data, read each time
            kept = _remember(self._session_components, key, pickle.dumps(components, pickle.HIGHEST_PROTOCOL))
        return pickle.loads(kept)

    def rules_for_session(self, session: Session) -> Ruleset:
        """A session's pinned ruleset (this server's copy of that version, else its current one): the one whose rules
        the session was given when it was made or loaded, so it is not looked up again."""
        return session.rules.ruleset


def _components_key(session: Session) -> str:
    """A session's component data changes only when facts are supplied in play: one memo entry per step."""
    supplied = len(session.components_supplied)
    return f"{id_text(session.id)}+{supplied}" if supplied else id_text(session.id)


def session_components(started: Mapping[str, Any], supplied: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The component data pinned at the session's start with what was supplied in play, in order."""
    components = dict(started)
    for step in supplied:
        components = component_data.supplement(components, step)
    return components


def _remember(memo: dict[str, Any], key: str, value: Any) -> Any:
    """Keep a fact fixed for a session's life (its campaign, its component data, its dice). A process
    that has kept too many starts over: each is read again on the session's next command."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value
