"""The tracker application: its public methods are the commands and queries.

A command starts from the aggregates it writes as this process last saved them
(tracker/command_cache.py), or loads them, draws what randomness it needs from
the session's HMAC stream, asks the ruleset to resolve, and saves the resulting
events together with the Idempotency-Key's answer in one transaction. An
optimistic-concurrency conflict is retried from a fresh load (so a retry never
reuses a random counter), unless the caller made the command conditional with
If-Match, which then fails with 412.
"""

from __future__ import annotations

import pickle
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import jsonschema
from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent, project_aggregate
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError, Notification, Recording, StoredEvent
from eventsourcing.utils import get_topic

from tracker import actors, decks, disclosure, hash_chain, hints, missing_facts, portability, rulesets, undo, verification
from tracker import dice as dice_rolls
from tracker.domain.session import ABANDONED
from tracker.command_cache import CommandCache, Turns
from tracker.domain import Campaign, Grant, IdempotencyRecord, Session
from tracker.domain.access import new_token, token_hash
from tracker.domain.events import LIBRARY_CLOCK, given_clock, make_meta
from tracker.errors import Conflict, Forbidden, NotFound, PreconditionFailed, TrackerError, Unprocessable
from tracker.randomness import commitment, new_seed
from tracker.resolving import action_context, apply_changes, session_stream
from tracker.rulesets import components as component_data
from tracker.rulesets.data import content_hash
from tracker.rulesets.ruleset import SET_UP_QUEST, Ruleset
from tracker.session_log import event_view

MAX_ATTEMPTS = 25
MEMO_LIMIT = 100_000  # sessions whose fixed facts a process keeps in memory
OUTCOMES = ("victory", "heroic-victory", "defeat")

# The aggregates the current attempt of a command took from the command cache (None: load fresh).
_FROM_CACHE: ContextVar[list[UUID] | None] = ContextVar("from_command_cache", default=None)


@dataclass(frozen=True)
class Request:
    """Who asked, and how: carried into every event's metadata and the idempotency record."""

    issued_by: str | None = None
    correlation_id: str | None = None
    idempotency_key: str | None = None
    if_match: int | None = None
    # The issuing token's role and bindings; None: the owner or an operator, who may do everything.
    role: str | None = None
    heroes: tuple[str, ...] = ()
    side: str | None = None


@dataclass(frozen=True)
class Result:
    status: int
    body: dict[str, Any]
    replayed: bool = False
    # The notification log position the command's events reached (a read with ?min_position= waits for the views
    # to get there); for an answer replayed or an import, the log's end once it was written.
    log_position: int | None = None


@dataclass
class _Outcome:
    status: int
    body: dict[str, Any]
    aggregates: list[Aggregate] = field(default_factory=list)
    shown_once: tuple[str, ...] = ()  # body fields (new tokens) never stored with the Idempotency-Key's answer


class Tracker(Application[UUID]):
    name = "tracker"
    snapshotting_intervals = {Session: 100, Campaign: 100}

    def __init__(
        self,
        *args: Any,
        seed_source: Callable[[], bytes] = new_seed,
        rules_for: Callable[[Mapping[str, str]], Any] | None = None,
        clock: Callable[[], datetime] | None = None,
        **kwargs: Any,
    ) -> None:
        """``seed_source`` makes each new session's secret seed (a bench gives fixed ones); ``rules_for``
        gives sessions the game rules of the ruleset they pinned (by default this server's rulesets);
        ``clock`` is what events record as their time (by default the library's, the time now)."""
        super().__init__(*args, **kwargs)
        self.seed_source = seed_source
        Session.given_rules(rules_for or pinned_rules)
        given_clock(clock or LIBRARY_CLOCK)
        self.chain_heads = hash_chain.Heads()  # each stream's last saved hash, so a command need not read it back
        self._session_campaigns: dict[str, str] = {}
        self._campaign_rules: dict[str, Any] = {}
        self.command_cache = CommandCache()  # the state each command starts from (tracker/command_cache.py)
        self.turns = Turns()  # one command at a time per session (or campaign) in this process
        self._session_components: dict[str, bytes] = {}  # each session's component data, fixed when it started
        self._session_dice: dict[str, dict[str, Any]] = {}  # and the dice built from it

    # -- commands ------------------------------------------------------------

    def create_campaign(
        self,
        ruleset_id: str,
        name: str,
        party: list[str] | None = None,
        components: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
        request: Request = Request(),
    ) -> Result:
        body = {"ruleset": ruleset_id, "name": name, "party": party, "components": components, "options": options}

        def work() -> _Outcome:
            ruleset = rulesets.get(ruleset_id)
            _check_party(ruleset, party or [])
            ruleset.validate_components(components or {})
            _validate(ruleset.rules.options_schema, options or {}, "The campaign options do not fit this ruleset", "options")
            campaign = Campaign(
                name=name,
                ruleset=ruleset.pin,
                chain=ruleset.chain(options or {}),
                party=list(party or []),
                components=components or {},
                components_hash=content_hash(components or {}),
                options=options or {},
                meta=_meta(request, ruleset),
            )
            token, grant = _mint(campaign, "owner", [], None, "owner", _meta(request, ruleset))
            body = {**campaign.state(), "components": campaign.components, "owner_token": token, "owner_token_id": grant.token_id}
            return _Outcome(201, body, [campaign, grant], shown_once=("owner_token",))

        return self._execute("campaigns", "create_campaign", body, request, work)

    def supply_components(self, campaign_id: str, components: dict[str, Any], request: Request = Request()) -> Result:
        """Component data supplied after the campaign was created: validated against the ruleset's schema, facts
        still unknown only, pinned by the content hash of the whole document; sessions started later use it."""

        def work() -> _Outcome:
            campaign = self._for_change(campaign_id, Campaign, "campaign")
            ruleset = self._ruleset(campaign)
            if not components:
                raise Unprocessable("No component data was supplied", detail="Send the facts still unknown in the shape of the ruleset's component_schema.")
            ruleset.validate_components(components)
            merged = component_data.supplement(campaign.components, components)
            ruleset.validate_components(merged)
            meta = _meta(request, ruleset)
            campaign.supply_components(components=components, components_hash=content_hash(merged), meta=meta)
            # Sessions in play get the facts too, pinned in their own streams, so their replays stay exact.
            playing = [self._for_change(entry["id"], Session, "session") for entry in campaign.in_play()]
            for session in playing:
                in_force = component_data.supplement(self._components_of(session), components)
                session.supply_components(components=components, components_hash=content_hash(in_force), meta=meta)
            body = {**campaign.state(), "components": campaign.components, "sessions_supplied": [str(s.id) for s in playing]}
            return _Outcome(201, body, [campaign, *playing])

        return self._execute(f"campaign:{campaign_id}", "supply_components", {"components": components}, request, work)

    def mint_token(
        self,
        campaign_id: str,
        role: str,
        heroes: list[str] | None = None,
        side: str | None = None,
        label: str | None = None,
        request: Request = Request(),
        *,
        by_operator: bool = False,
    ) -> Result:
        """A token for a player (optionally bound to heroes or a side), a viewer or an integration; shown once.
        The operator (the CLI, never the API) may also mint an owner token, for an owner who lost theirs."""
        body = {"role": role, "heroes": heroes, "side": side, "label": label}
        roles = ("owner", "player", "viewer", "integration") if by_operator else ("player", "viewer", "integration")

        def work() -> _Outcome:
            campaign = self._for_change(campaign_id, Campaign, "campaign")
            ruleset = self._ruleset(campaign)
            if role not in roles:
                raise Unprocessable(f"Unknown role '{role}'", detail="Mint player, viewer or integration tokens; the owner token comes with the campaign.")
            if (heroes or side) and role != "player":
                raise Unprocessable("Only player tokens are bound to heroes or a side", detail="Leave out heroes and side for viewers and integrations.")
            _check_party(ruleset, heroes or [])
            if side is not None and side not in ruleset.rules.sides:
                raise Unprocessable(f"Unknown side '{side}'", detail=f"Sides of {ruleset.name}: {list(ruleset.rules.sides)}.")
            token, grant = _mint(campaign, role, heroes or [], side, label, _meta(request, ruleset))
            return _Outcome(201, {**grant.describe(), "token": token}, [campaign, grant], shown_once=("token",))

        return self._execute(f"campaign:{campaign_id}", "mint_token", body, request, work)

    def list_tokens(self, campaign_id: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in token.items() if k != "grant_id"} for token in self._campaign(campaign_id).tokens.values()]

    def revoke_token(self, campaign_id: str, token_id: str, request: Request = Request()) -> Result:
        def work() -> _Outcome:
            campaign = self._for_change(campaign_id, Campaign, "campaign")
            ruleset = self._ruleset(campaign)
            listed = campaign.tokens.get(token_id)
            if listed is None:
                raise NotFound(f"No token '{token_id}' in this campaign", detail="GET /campaigns/{cid}/tokens lists them.")
            if listed["role"] == "owner":
                raise Unprocessable("The owner token cannot be revoked", detail="It is the campaign's key; keep it safe.")
            grant = self.repository.get(UUID(listed["grant_id"]))
            meta = _meta(request, ruleset)
            if not grant.revoked:
                grant.revoke(meta=meta)
                campaign.revoke_token(token_id=token_id, meta=meta)
            return _Outcome(200, {**grant.describe(), "revoked": True}, [campaign, grant])

        return self._execute(f"campaign:{campaign_id}", "revoke_token", {"token_id": token_id}, request, work)

    def authenticate(self, token: str) -> Grant | None:
        """The live grant a bearer token carries, or None (unknown or revoked).

        Every request asks, so it costs one query and no copy: the cached grant is brought up to
        date with any newer event (a revocation saved by any process is seen at once) and handed
        out as it is. Callers only read it; a revocation changes the repository's own copy."""
        try:
            grant = self.repository.get(Grant.create_id(token_hash=token_hash(token)), deepcopy_from_cache=False)
        except AggregateNotFoundError:
            return None
        return None if grant.revoked else grant

    def campaign_of_session(self, session_id: str) -> str:
        """A session's campaign never changes: after the first load it is answered from memory,
        so the access check on every request does not load the session the command loads again."""
        known = self._session_campaigns.get(session_id)
        if known is None:
            known = _remember(self._session_campaigns, session_id, self._session(session_id).campaign_id)
        return known

    def rules_of_campaign(self, campaign_id: str) -> Any:
        """A campaign's game rules (its pinned ruleset never changes: answered from memory after the first load)."""
        known = self._campaign_rules.get(campaign_id)
        if known is None:
            known = _remember(self._campaign_rules, campaign_id, self._ruleset(self._campaign(campaign_id)).rules)
        return known

    def start_session(self, campaign_id: str, quest: str, setup: dict[str, Any] | None = None, request: Request = Request()) -> Result:
        def work() -> _Outcome:
            campaign = self._for_change(campaign_id, Campaign, "campaign")
            ruleset = self._ruleset(campaign)
            ruleset.quest(quest)
            _validate(ruleset.rules.setup_schema, setup or {}, "The session set-up does not fit this ruleset", "setup")
            deck_specs = ruleset.decks(campaign.components)
            seed = self.seed_source()
            meta = _meta(request, ruleset)
            session = Session(
                campaign_id=str(campaign.id),
                quest=quest,
                ruleset=dict(campaign.ruleset),
                party=list(campaign.party),
                seed=seed.hex(),
                seed_commitment=commitment(seed),
                decks={d.id: decks.new_deck(d.id, d.cards, d.size, d.shuffled) for d in deck_specs.values()},
                meta=meta,
            )
            # The quest's set-up is the session's first action, with everything it reads from the
            # campaign copied into its inputs, so verification can re-run it on its own.
            set_up = {
                "type": SET_UP_QUEST,
                "quest": quest,
                "setup": setup or {},
                "campaign": {
                    "party": list(campaign.party),
                    "options": campaign.options,
                    "progress": campaign.progress,
                    "components": campaign.components,
                },
            }
            try:
                self._resolve(session, ruleset, campaign.components, set_up, meta)
            except Unprocessable as refusal:
                raise hints.for_set_up(refusal, ruleset, list(campaign.party), campaign.components, quest) from None
            warnings = _start_warnings(campaign, quest)
            campaign.start_quest(session_id=str(session.id), quest=quest, meta=meta)
            body = {
                "id": str(session.id),
                "campaign_id": str(campaign.id),
                "quest": quest,
                "seed_commitment": session.seed_commitment,
                "state": session.state(),
                "version": session.version,
                "warnings": warnings,
            }
            return _Outcome(201, body, [session, campaign])

        return self._execute(f"campaign:{campaign_id}", "start_session", {"quest": quest, "setup": setup}, request, work)

    def roll(
        self,
        session_id: str,
        dice: Mapping[str, int] | None = None,
        faces: Mapping[str, list[Any]] | None = None,
        purpose: str | None = None,
        request: Request = Request(),
    ) -> Result:
        body = {"dice": dice, "faces": faces, "purpose": purpose}

        def work() -> _Outcome:
            session, ruleset = self._playing(session_id, request)
            specs = self._dice_of(session, ruleset)
            roll = dice_rolls.resolve_roll(specs, dice or {}, faces, session_stream(session))
            roll["purpose"] = purpose
            session.record_roll(roll=roll, meta=_meta(request, ruleset))
            body = {
                "results": roll["results"],
                "source": roll["source"],
                "counter_start": roll.get("counter_start"),
                "counter_end": roll.get("counter_end"),
                "event_id": f"{session.id}/{session.version}",
                "position": session.version,
                "version": session.version,
            }
            return _Outcome(201, body, [session])

        return self._execute(f"session:{session_id}", "roll", body, request, work)

    def draw(
        self,
        session_id: str,
        deck: str,
        count: int | None = None,
        cards: list[str] | None = None,
        holder: str | None = None,
        request: Request = Request(),
    ) -> Result:
        body = {"deck": deck, "count": count, "cards": cards, "holder": holder}

        def work() -> _Outcome:
            session, ruleset = self._playing(session_id, request)
            ctx = action_context(session, ruleset, self._components_of(session))
            spec = ctx.deck(deck)
            state = session.decks[spec.id]
            if cards is not None:
                if count is not None and count != len(cards):
                    raise Unprocessable(
                        "count does not match the cards reported",
                        detail=f"count is {count} but {len(cards)} cards were reported; send one or make them agree.",
                        errors={"count": ["Does not match the number of cards."]},
                    )
                changes = decks.resolve_reported_draw(state, cards, holder)
            else:
                if count is None:
                    raise Unprocessable(
                        "Say how many cards to draw, or which cards were drawn",
                        detail='Send "count" for a digital draw or "cards" for cards drawn from the physical deck.',
                        errors={"count": ["Missing data for required field."]},
                    )
                stream = session_stream(session)
                changes = decks.resolve_draw(state, spec.name, count, stream, holder)
            meta = _meta(request, ruleset)
            apply_changes(session, changes, meta)
            drawn = [card for change in changes if change["kind"] == "drawn" for card in change["cards"]]
            body = {
                "deck": spec.id,
                "cards": drawn,
                "source": "reported" if cards is not None else "digital",
                "events": [event_view(e) for e in session.pending_events],
                "version": session.version,
            }
            return _Outcome(201, body, [session])

        return self._execute(f"session:{session_id}", "draw", body, request, work)

    def act(self, session_id: str, action: dict[str, Any], request: Request = Request()) -> Result:
        def work() -> _Outcome:
            session, ruleset = self._playing(session_id, request)
            components = self._components_of(session)
            action_type = ruleset.action(str(action.get("type")))
            if action_type.internal:
                raise Unprocessable(
                    f"'{action_type.name}' is taken by the service itself",
                    detail="It runs when a session starts; send the set-up in POST /campaigns/{cid}/sessions.",
                    errors={"type": ["Not an action a client may post."]},
                )
            self._resolve(session, ruleset, components, action, _meta(request, ruleset))
            body = {
                "events": [event_view(e) for e in session.pending_events],
                "state": session.state(),
                "version": session.version,
            }
            return _Outcome(201, body, [session])

        return self._execute(f"session:{session_id}", "act", action, request, work)

    def _resolve(self, session: Session, ruleset: Ruleset, components: Mapping[str, Any], action: dict[str, Any], meta: dict[str, Any]) -> None:
        """Validate an action, resolve it on the session's state with its stream, and record it and its effects."""
        action_type = ruleset.action(str(action.get("type")))
        _validate(action_type.schema, action, f"The action does not fit the schema of '{action_type.name}'", "action")
        ctx = action_context(session, ruleset, components)
        stream = session_stream(session)
        counter_start = stream.counter
        changes = ruleset.resolve(ctx, action, stream)
        session.record_action(action=dict(action), counter_start=counter_start, meta=meta)
        apply_changes(session, changes, meta)

    def end_session(
        self,
        session_id: str,
        outcome: str,
        ruling: str | None = None,
        reported: dict[str, Any] | None = None,
        request: Request = Request(),
    ) -> Result:
        """End the quest with the outcome the rules allow from its recorded state; the owner may overrule them
        with a ``ruling`` (recorded and shown as the table's, never as a plain result). ``reported``: facts the
        table states that the log cannot know, recorded with the end."""

        def work() -> _Outcome:
            session, ruleset = self._playing(session_id, request)
            campaign = self._for_change(session.campaign_id, Campaign, "campaign")
            if outcome not in OUTCOMES:
                raise Unprocessable(f"Unknown outcome '{outcome}'", detail=f"Outcomes: {list(OUTCOMES)}.")
            owner = request.role in (None, "owner")
            verdict = session.__dict__.get("verdict")
            if ruling is not None and not owner:
                raise Forbidden("Only the campaign's owner makes a table ruling", detail="End with the outcome the rules give, or ask the owner.")
            decided = verdict is not None and verdict["outcome"] == outcome
            if len(ruleset.rules.sides) > 1 and not owner and not decided:
                # Ending reveals every side's secrets, and one side may not declare its own win over the other.
                raise Forbidden(
                    "Only the campaign's owner ends a quest played by two sides, unless the rules have decided it",
                    detail="Ask the owner to end it with the outcome the table agreed.",
                )
            if verdict is not None and verdict["outcome"] != outcome:
                refusal = f"the rules decided this quest at event {verdict['position']}: {verdict['outcome']} ({verdict['reason']})"
            elif verdict is None:
                refusal = ruleset.rules.end_refusal(session.quest, session.game, session.turn, outcome, reported or {})
            else:
                refusal = None
            if refusal is not None and ruling is None:
                raise Conflict(
                    f"The quest cannot end in {outcome}: {refusal}",
                    detail="End it with the outcome the rules give; or, as the owner, overrule them with a \"ruling\" that says why.",
                    errors={"outcome": [refusal]},
                )
            meta = _meta(request, ruleset)
            if reported:
                session.report_facts(facts=reported, meta=meta)
            if ruling is not None:
                session.rule(outcome=outcome, ruling=ruling, overrules=refusal, meta=meta)
            progress = ruleset.rules.carry_over(campaign.progress, session.game, session.quest, outcome, campaign.options)
            session.end(outcome=outcome, seed=session.seed, counter_end=session.counter, meta=meta)
            campaign.end_quest(session_id=str(session.id), quest=session.quest, outcome=outcome, progress=progress, ruling=ruling, meta=meta)
            body = {
                "id": str(session.id),
                "outcome": outcome,
                "ruling": ruling,
                "verdict": verdict,
                "seed": session.seed,
                "seed_commitment": session.seed_commitment,
                "next_quest": campaign.next_quest,
                "version": session.version,
            }
            return _Outcome(200, body, [session, campaign])

        return self._execute(f"session:{session_id}", "end_session", {"outcome": outcome, "ruling": ruling, "reported": reported}, request, work)

    def abandon_session(self, session_id: str, reason: str, request: Request = Request()) -> Result:
        """Stop a session without an outcome: the seed is revealed (so it verifies like any other), the campaign
        marks it abandoned and counts it as not played (its chain and progress stay as they were)."""

        def work() -> _Outcome:
            session, ruleset = self._playing(session_id, request)
            campaign = self._for_change(session.campaign_id, Campaign, "campaign")
            if request.role not in (None, "owner"):
                raise Forbidden("Only the campaign's owner abandons a session", detail="Ask the owner; or end it with the outcome the rules give.")
            if not reason.strip():
                raise Unprocessable("Say why the session is abandoned", detail='Send "reason": a sentence the group will read in the campaign.', errors={"reason": ["Empty."]})
            meta = _meta(request, ruleset)
            session.abandon(reason=reason, meta=meta)
            session.end(outcome=ABANDONED, seed=session.seed, counter_end=session.counter, meta=meta)
            campaign.abandon_quest(session_id=str(session.id), quest=session.quest, reason=reason, meta=meta)
            body = {
                "id": str(session.id),
                "status": session.status,
                "abandoned": session.abandoned,
                "seed": session.seed,
                "seed_commitment": session.seed_commitment,
                "next_quest": campaign.next_quest,
                "version": session.version,
            }
            return _Outcome(200, body, [session, campaign])

        return self._execute(f"session:{session_id}", "abandon_session", {"reason": reason}, request, work)

    def undo(self, session_id: str, request: Request = Request()) -> Result:
        """Revert the last action: an ActionUndone names its events and puts back the state from before them."""

        def work() -> _Outcome:
            session, ruleset = self._playing(session_id, request)
            group = undo.last_undoable(list(self.events.get(session.id)))
            if group is None:
                raise Conflict(
                    "There is nothing to undo",
                    detail="Rolls, draws and actions since the quest was set up can be undone, each once; a redo is a new action.",
                )
            if request.role not in (None, "owner"):
                campaign = self._campaign(session.campaign_id)
                refused = actors.refusal_to_revert(group, ruleset.rules, campaign.tokens, request.issued_by, request.heroes, request.side)
                if refused:
                    raise Forbidden(refused, detail="A player undoes only what its own heroes and side did; the owner may undo anything.")
            before = self.repository.get(session.id, version=group[0].originator_version - 1)
            reverses = undo.reverses(group)
            session.undo(reverses=reverses, restored=undo.restored(before), meta=_meta(request, ruleset))
            body = {"undone": reverses, "events": [event_view(e) for e in session.pending_events], "state": session.state(), "version": session.version}
            return _Outcome(201, body, [session])

        return self._execute(f"session:{session_id}", "undo", {}, request, work)

    def import_campaign(self, text: str | Iterable[str], request: Request = Request()) -> Result:
        """Load an exported campaign: the whole file is checked first, then written in one transaction,
        with a new owner token for whoever imported it (the file holds no usable tokens)."""
        token = new_token()
        digest = token_hash(token)

        def owner_grant(campaign_id: str) -> list[Grant]:
            meta = make_meta(request.issued_by, request.correlation_id, None)
            return [Grant(campaign_id=campaign_id, token_id="tok_" + digest[:16], token_hash=digest, role="owner",
                          heroes=[], side=None, label="imported", meta=meta)]

        body = portability.import_text(self, text, also=owner_grant)
        written = self.recorder.max_notification_id()
        if body["backup"]:  # the campaign's own tokens came with it; no new one was minted
            return Result(201, {**body, "owner_token": None, "owner_token_id": None}, log_position=written)
        return Result(201, {**body, "owner_token": token, "owner_token_id": "tok_" + digest[:16]}, log_position=written)

    # -- queries -------------------------------------------------------------

    def session_state_at(self, session_id: str, at: int, viewer: str | None = None) -> dict[str, Any]:
        """The session's state just after its ``at``-th event, rebuilt from the log (from a snapshot where there is
        one); for a ``viewer`` side, without another side's secrets while the quest is still being played."""
        session = self._session(session_id)
        state = self._at(session, at, "session").state()
        if session.ended:
            return state
        rules = rulesets.get(session.ruleset["id"]).rules
        return disclosure.state_for(state, rules, viewer)

    def campaign_state_at(self, campaign_id: str, at: int) -> dict[str, Any]:
        campaign = self._campaign(campaign_id)
        past = self._at(campaign, at, "campaign")
        return {**past.state(), "components": past.components}

    def _at(self, aggregate: Aggregate, at: int, what: str) -> Any:
        if not 1 <= at <= aggregate.version:
            raise Unprocessable(
                f"The {what} has {aggregate.version} events, so there is no state after event {at}",
                detail=f"Ask for at between 1 and {aggregate.version}.",
                errors={"at": [f"Must be between 1 and {aggregate.version}."]},
            )
        return self.repository.get(aggregate.id, version=at)

    def has_secrets_in_play(self, campaign_id: str) -> bool:
        """Whether a session of a game with hidden information is still being played."""
        campaign = self._campaign(campaign_id)
        return len(self._ruleset(campaign).rules.sides) > 1 and any(s["outcome"] is None for s in campaign.sessions)

    def export_campaign(self, campaign_id: str, backup: bool = False) -> list[str]:
        """The campaign as JSON Lines; ``backup`` adds the sealed values and token grants (operators only: never over HTTP)."""
        return portability.export_lines(self, self._campaign(campaign_id), backup=backup)

    def feed(self, after: int = 0, limit: int = 100, campaign_id: str | None = None, viewer: str | None = None) -> dict[str, Any]:
        """The notification log after position ``after``: campaign and session events, in the order saved.

        With ``campaign_id``, only that campaign's; with ``viewer``, another side's secrets are hidden
        until their quest ends. Idempotency records and access grants are never in the feed."""
        notifications = self.recorder.select_notifications(start=after, limit=limit, inclusive_of_start=False)
        skipped = {get_topic(IdempotencyRecord.Recorded), get_topic(Grant.GrantIssued), get_topic(Grant.GrantRevoked)}
        streams: dict[str, Any] = {}
        events = []
        for n in notifications:
            if n.topic in skipped:
                continue
            stream_id = str(n.originator_id)
            if stream_id not in streams:
                streams[stream_id] = self.repository.get(n.originator_id)
            aggregate = streams[stream_id]
            session = aggregate if isinstance(aggregate, Session) else None
            owner = session.campaign_id if session is not None else stream_id
            if campaign_id is not None and owner != campaign_id:
                continue
            view = event_view(self.mapper.to_domain_event(n), revealed=session is not None and session.ended)
            if session is not None and viewer is not None:
                view = disclosure.event_for(view, rulesets.get(session.ruleset["id"]).rules, viewer, session.ended)
            events.append({"id": n.id, "stream": stream_id, **view})
        return {
            "events": events,
            "after": after,
            "next_after": notifications[-1].id if notifications else after,
            "last": self.recorder.max_notification_id() or 0,
        }

    def get_campaign(self, campaign_id: str) -> dict[str, Any]:
        campaign = self._campaign(campaign_id)
        return {**campaign.state(), "components": campaign.components}

    def prime(self, campaign_ids: Iterable[str]) -> list[Grant]:
        """Load these campaigns and their tokens' grants into the aggregate cache (a server worker's boot,
        api/warming.py): their first read in this process then brings them up to date with one query each, as
        every later read does, instead of loading them whole. Returns the live grants it loaded."""
        grants = []
        for campaign_id in campaign_ids:
            try:
                campaign = self._campaign(campaign_id)
            except NotFound:
                continue  # a view's campaign the log does not hold (a test's, a dropped import): nothing to prime
            for token in campaign.tokens.values():
                if not token.get("revoked"):
                    grants.append(self.repository.get(UUID(token["grant_id"]), deepcopy_from_cache=False))
        return grants

    def missing_facts(self, campaign_id: str) -> dict[str, Any]:
        """The facts the campaign still lacks, by what each blocks (tracker/missing_facts.py)."""
        campaign = self._campaign(campaign_id)
        found = missing_facts.missing(self._ruleset(campaign), list(campaign.party), campaign.components, list(campaign.chain))
        return {"campaign_id": str(campaign.id), "components_hash": campaign.components_hash, **found}

    def get_session(self, session_id: str, viewer: str | None = None) -> dict[str, Any]:
        """The session's state; for a ``viewer`` side, without what another side keeps secret until the quest ends."""
        session = self._session(session_id)
        rules = rulesets.get(session.ruleset["id"]).rules
        disclosure.check_side(rules, viewer)
        return disclosure.state_for(session.state(), rules, viewer)

    def session_events(self, session_id: str, after: int = 0, limit: int = 100, viewer: str | None = None) -> dict[str, Any]:
        session = self._session(session_id)
        rules = rulesets.get(session.ruleset["id"]).rules
        disclosure.check_side(rules, viewer)
        events = list(self.events.get(session.id, gt=after, limit=limit))
        rules = rulesets.get(session.ruleset["id"]).rules
        hidden_from = None if viewer is None or session.ended else viewer
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
        session = self._session(session_id)
        return list(self.events.get(session.id))

    def verify(self, session_id: str, viewer: str | None = None) -> dict[str, Any]:
        """The verification report; while the quest runs, shuffles of another side's secret decks are not shown."""
        session = self._session(session_id)
        campaign = self._campaign(session.campaign_id)
        ruleset = self._ruleset(campaign)
        report = verification.verify(list(self.events.get(session.id)), ruleset, campaign.components_for(str(session.id)))  # (supplied in play: in the events)
        chain = hash_chain.check(self, session.id)
        recorded = [
            (e.meta or {}).get("session_head")
            for e in self.events.get(campaign.id)
            if type(e).__name__ in ("QuestEnded", "QuestAbandoned") and e.session_id == str(session.id)
        ]
        report = verification.with_chain(report, chain, recorded[-1] if recorded else None)
        return disclosure.report_for(report, ruleset.rules, viewer)

    # -- internals -----------------------------------------------------------

    def _campaign(self, campaign_id: str) -> Campaign:
        return self._load(campaign_id, Campaign, "campaign")

    def _session(self, session_id: str) -> Session:
        return self._load(session_id, Session, "session")

    def _load(self, raw_id: str, cls: type, what: str) -> Any:
        try:
            aggregate = self.repository.get(UUID(str(raw_id)))
        except (ValueError, AggregateNotFoundError):
            raise NotFound(f"No {what} with id '{raw_id}'", detail=f"Check the {what} id; ids are UUIDs.") from None
        if not isinstance(aggregate, cls):
            raise NotFound(f"No {what} with id '{raw_id}'", detail=f"Check the {what} id.")
        return aggregate

    def _ruleset(self, campaign: Campaign) -> Ruleset:
        return rulesets.pinned(campaign.ruleset)

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """Every session and campaign event is linked into its stream's hash chain as it is saved.

        The library's save, less two costs: its runtime ``Protocol`` checks on each object (our commands
        save aggregates only), and its snapshots, which reload the aggregate from the store: the one
        just saved is that state already, so it is snapshotted as it is."""
        if kwargs or not all(isinstance(o, Aggregate) for o in objs):
            return super().save(*objs, **kwargs)
        chained = [o for o in objs if isinstance(o, (Session, Campaign))]
        encoded: dict[int, StoredEvent] = {}
        heads = hash_chain.link(self, chained, encoded)
        processing = ProcessingEvent[UUID]()
        for aggregate in objs:
            processing.events.extend(aggregate.collect_events())
            processing.aggregates[aggregate.id] = aggregate
        recordings = self._put(processing.events, encoded)
        self.chain_heads.saved({a.id: a.version for a in chained if str(a.id) in heads}, heads)
        self._snapshot(processing)
        self._notify(recordings)
        return recordings

    def _put(self, events: list[Any], encoded: dict[int, StoredEvent]) -> list[Recording[UUID]]:
        """The library's EventStore.put, storing the forms the hash chain already encoded."""
        stored = [encoded.get(id(event)) or self.mapper.to_stored_event(event) for event in events]
        notification_ids = self.recorder.insert_events(stored)
        if not notification_ids:
            return []
        return [
            Recording(event, Notification(originator_id=s.originator_id, originator_version=s.originator_version, topic=s.topic, state=s.state, id=n))
            for event, s, n in zip(events, stored, notification_ids, strict=True)
        ]

    def _snapshot(self, processing: ProcessingEvent[UUID]) -> None:
        """A snapshot of each aggregate whose saved events crossed a multiple of its interval."""
        if not self.snapshots:
            return
        due = {
            event.originator_id
            for event in processing.events
            if (interval := self.snapshotting_intervals.get(type(processing.aggregates[event.originator_id])))
            and event.originator_version % interval == 0
        }
        if due:
            aggregates = [processing.aggregates[aggregate_id] for aggregate_id in due]
            self.snapshots.put([getattr(type(a), "Snapshot", type(self).snapshot_class).take(a) for a in aggregates])

    def _for_change(self, raw_id: str, cls: type, what: str) -> Any:
        """An aggregate the command is going to write: the state this process last saved it in, when it
        has one (no query, no deep copy), else a fresh load. ``_execute`` says why that is safe."""
        try:
            aggregate_id = UUID(str(raw_id))
        except ValueError:
            return self._load(raw_id, cls, what)
        taken = _FROM_CACHE.get()
        kept = None if taken is None else self.command_cache.take(aggregate_id)
        if kept is None or not isinstance(kept, cls):
            return self._load(raw_id, cls, what)
        taken.append(aggregate_id)
        return kept

    def _playing(self, session_id: str, request: Request) -> tuple[Session, Ruleset]:
        """The session a command plays on, and its pinned ruleset."""
        session = self._for_change(session_id, Session, "session")
        if request.if_match is not None and request.if_match != session.version:
            raise PreconditionFailed(
                f"The session is at version {session.version}, not {request.if_match}",
                detail="Someone else changed the session first: reload it and decide again.",
            )
        if session.ended:
            raise Conflict(
                "The session was abandoned" if session.status == "abandoned" else "The session has ended",
                detail=f"It {'was abandoned' if session.status == 'abandoned' else f'ended in {session.outcome}'}; start a new session to play on.",
            )
        return session, rulesets.pinned(session.ruleset)

    def _dice_of(self, session: Session, ruleset: Ruleset) -> dict[str, Any]:
        """The dice a session rolls, built from its component data once per process (and again after facts are supplied in play)."""
        key = _components_key(session)
        specs = self._session_dice.get(key)
        if specs is None:
            specs = ruleset.dice(self._components_of(session))
            if key not in self._session_components:
                return specs  # a campaign from before pinning: built again each time, like its data
            _remember(self._session_dice, key, specs)
        return specs

    def _components_of(self, session: Session) -> dict[str, Any]:
        """The component data in force in the session: what the campaign pinned when it started, plus what the owner
        supplied in play (pinned in the session's own stream). Read once per process for each such step (and handed out
        as a fresh copy)."""
        key = _components_key(session)
        kept = self._session_components.get(key)
        if kept is None:
            campaign = self._campaign(session.campaign_id)
            components = session_components(campaign.components_for(str(session.id)), session.components_supplied)
            if str(session.id) not in campaign.__dict__.get("session_components", {}):
                return components  # a campaign from before pinning: its current data, read each time
            kept = _remember(self._session_components, key, pickle.dumps(components, pickle.HIGHEST_PROTOCOL))
        return pickle.loads(kept)

    def _execute(self, scope: str, command: str, body: Any, request: Request, work: Callable[[], _Outcome]) -> Result:
        scope = canonical_scope(scope)
        if scope == "campaigns":  # a new campaign: nothing to wait for
            return self._execute_in_turn(scope, command, body, request, work)
        with self.turns(scope):
            return self._execute_in_turn(scope, command, body, request, work)

    def _execute_in_turn(self, scope: str, command: str, body: Any, request: Request, work: Callable[[], _Outcome]) -> Result:
        """Run a command's work and save what it changed, with its Idempotency-Key's answer, in one transaction.

        A first attempt may start from the command cache. If the save then conflicts, or the work refuses,
        the aggregates it took from there are dropped from it and the command runs again from fresh loads:
        a conflict may only mean another process wrote first, and a refusal must not rest on an old state.
        Conflicts on fresh loads are real races: retried after a jittered pause, up to MAX_ATTEMPTS."""
        key = request.idempotency_key
        fingerprint = content_hash({"command": command, "request": body}) if key else ""
        # A key is the token's own: another token reusing it gets its own answer, never this one's.
        scope = f"{scope}|{request.issued_by}"
        if key:
            earlier = self._earlier_answer(scope, key, fingerprint)
            if earlier:
                return earlier
        fresh = False  # once an attempt from the command cache fails, every later one loads fresh
        for attempt in range(MAX_ATTEMPTS):
            taken: list[UUID] = []
            context = _FROM_CACHE.set(None if fresh else taken)
            try:
                outcome = work()
            except TrackerError:
                if not taken:
                    raise
                fresh = True  # (what it took stays out of the cache: only a save puts it back)
                continue
            finally:
                _FROM_CACHE.reset(context)
            to_save = list(outcome.aggregates)
            if key:
                to_save.append(
                    IdempotencyRecord(
                        scope=scope,
                        key=key,
                        fingerprint=fingerprint,
                        status=outcome.status,
                        # a token is shown once: the recorded answer leaves it out
                        body={**outcome.body, **{name: None for name in outcome.shown_once}},
                        meta=make_meta(request.issued_by, request.correlation_id, None),
                    )
                )
            try:
                recordings = self.save(*to_save)
            except IntegrityError:
                if key:
                    earlier = self._earlier_answer(scope, key, fingerprint)
                    if earlier:
                        return earlier
                if taken:  # perhaps only this process's copy was behind: decide again on fresh loads
                    fresh = True
                    continue
                if request.if_match is not None:
                    raise PreconditionFailed(
                        "The session changed while this command was being saved",
                        detail="Someone else changed the session first: reload it and decide again.",
                    ) from None
                _back_off(attempt + 1)
                continue
            body = detached(outcome.body)  # the saved aggregates go on to the next command; the answer must not change with them
            for aggregate in outcome.aggregates:
                if isinstance(aggregate, (Session, Campaign)):
                    self.command_cache.put(aggregate)
            return Result(outcome.status, body, log_position=max((r.notification.id for r in recordings), default=None))
        raise Conflict("The session is too busy right now", detail="Too many commands at once; retry shortly.")

    def _earlier_answer(self, scope: str, key: str, fingerprint: str) -> Result | None:
        # One query for the record's one event (the repository would first look for a snapshot).
        recorded = list(self.events.get(IdempotencyRecord.create_id(scope=scope, key=key), limit=1))
        if not recorded:
            return None
        record = project_aggregate(None, recorded)
        if record.fingerprint != fingerprint:
            raise Unprocessable(
                "This Idempotency-Key was already used for a different request",
                detail="Use a new Idempotency-Key for a new request; reuse a key only to retry the same request.",
                errors={"Idempotency-Key": ["Already used with a different body."]},
            )
        return Result(record.status, record.body, replayed=True, log_position=self.recorder.max_notification_id())


def pinned_rules(pin: Mapping[str, str]) -> Any:
    """The game rules of a pinned ruleset: this server's copy of that version (else its current one)."""
    return rulesets.pinned(pin).rules


def canonical_scope(scope: str) -> str:
    """``session:<id>``/``campaign:<id>`` with the id in one spelling: upper case, no hyphens and ``urn:uuid:``
    forms of one id are one session, so they take turns and share Idempotency-Keys."""
    kind, _, raw = scope.partition(":")
    try:
        return f"{kind}:{UUID(raw)}" if raw else scope
    except ValueError:
        return scope  # not an id: the command's own load refuses it


def _components_key(session: Session) -> str:
    """A session's component data changes only when facts are supplied in play: one memo entry per step."""
    supplied = len(session.components_supplied)
    return f"{session.id}+{supplied}" if supplied else str(session.id)


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


def detached(value: Any) -> Any:
    """A copy of a JSON-shaped answer that shares no dict or list with anything else."""
    if isinstance(value, dict):
        return {k: detached(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [detached(v) for v in value]
    return value


def _back_off(attempt: int) -> None:
    """A short pause before retrying a conflict, jittered so racing writers spread out.
    (Jitter from ``secrets``: game randomness comes only from the session's stream.)"""
    ceiling = min(0.05, 0.001 * 2**attempt)
    time.sleep(ceiling * (0.5 + secrets.randbelow(1000) / 2000))


def _mint(campaign: Campaign, role: str, heroes: list[str], side: str | None, label: str | None, meta: dict[str, Any]) -> tuple[str, Grant]:
    """A new 256-bit token and its grant; the campaign lists the grant, the token itself is kept nowhere."""
    token = new_token()
    digest = token_hash(token)
    token_id = "tok_" + digest[:16]
    grant = Grant(
        campaign_id=str(campaign.id), token_id=token_id, token_hash=digest, role=role, heroes=heroes, side=side, label=label, meta=meta
    )
    campaign.mint_token(token_id=token_id, grant_id=str(grant.id), role=role, heroes=heroes, side=side, label=label, meta=meta)
    return token, grant


def _start_warnings(campaign: Campaign, quest: str) -> list[str]:
    """What the group may not have meant: a quest out of the chain's order, or another session still in play."""
    warnings = []
    if campaign.next_quest is not None and quest != campaign.next_quest:
        warnings.append(f"The campaign's next quest is '{campaign.next_quest}', not '{quest}'; this session is played out of order.")
    for playing in campaign.in_play():
        warnings.append(
            f"Session {playing['id']} ({playing['quest']}) is still in play; end it, or abandon it with POST /sessions/{playing['id']}/abandon."
        )
    return warnings


def _check_party(ruleset: Ruleset, party: list[str]) -> None:
    known = {c["id"] for c in ruleset.data.get("characters", [])}
    unknown = [hero for hero in party if hero not in known]
    if unknown:
        raise Unprocessable(
            f"Unknown hero '{unknown[0]}'",
            detail=f"Characters of {ruleset.name}: {sorted(known)}.",
            errors={"party": [f"Unknown: {unknown}"]},
        )


def _validate(schema: dict[str, Any], value: Any, title: str, field_name: str) -> None:
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        raise Unprocessable(
            title,
            detail=f"First problem: {errors[0].message}. GET /rulesets/{{id}} publishes the schema.",
            errors={".".join(str(p) for p in e.absolute_path) or field_name: [e.message] for e in errors},
        )


def _meta(request: Request, ruleset: Ruleset) -> dict[str, Any]:
    return make_meta(request.issued_by, request.correlation_id, ruleset.version, ruleset.id)


__all__ = ["Request", "Result", "Tracker", "TrackerError"]
