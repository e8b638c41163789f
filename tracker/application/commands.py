"""The Tracker's commands: each a unit of work (tracker/application/unit_of_work.py) that loads what it changes, draws
what randomness it needs from the session's HMAC stream, asks the ruleset to resolve, and records the events."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any
from uuid import UUID

import jsonschema

from tracker.core import actors, decks, hints, inputs, undo, wording

from tracker.application import authorization

from tracker.portability import campaign_files as portability

from tracker import rulesets
from tracker.play import party as party_rules
from tracker.core import dice as dice_rolls
from tracker.domain import Campaign, Grant, Session
from tracker.domain.access import new_token, token_hash
from tracker.domain.events import make_meta
from tracker.domain.session import ABANDONED
from tracker.core.errors import Conflict, Forbidden, NotFound, Unprocessable
from tracker.application.loading import Loading
from tracker.core.ids import id_text
from tracker.core.randomness import commitment
from tracker.play.resolving import action_context, apply_changes, session_stream
from tracker.rulesets.engine import components as component_data
from tracker.rulesets.engine.data import content_hash
from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionType, Ruleset
from tracker.application.session_log import event_view
from tracker.adapters.grant_cache import GrantCache
from tracker.application.unit_of_work import Request, Result, UnitOfWork, WritePath, _Outcome

OUTCOMES = ("victory", "heroic-victory", "defeat")


class Commands:
    """The Tracker's commands, each run on the ``write_path`` it is given as units of work over ``loading``. ``store``:
    the Tracker as the library's Application (its repository, events and recorder; an import writes through it);
    ``seed_source`` makes each new session's secret seed; ``grants``: the grants this process answers from memory,
    told of a revocation."""

    def __init__(self, store: Any, loading: Loading, write_path: WritePath, seed_source: Callable[[], bytes], grants: GrantCache) -> None:
        self.store = store
        self.loading = loading
        self.write_path = write_path
        self.seed_source = seed_source
        self.grants = grants

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

        def work(uow: UnitOfWork) -> _Outcome:
            inputs.text(ruleset_id, "ruleset", inputs.ID_LENGTH, said="ruleset id")
            inputs.text(name, "name", inputs.NAME_LENGTH, said="campaign's name")
            ruleset = uow.speaking(rulesets.get(ruleset_id))
            party_rules.check(ruleset, party or [], whole=True)
            ruleset.validate_components(components or {})
            _validate(ruleset.rules.options_schema, options or {}, "The campaign options do not fit this ruleset", "options")
            campaign = Campaign.made(
                self.store.given,
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

        return self.write_path.execute("campaigns", "create_campaign", body, request, work)

    def supply_components(self, campaign_id: str, components: dict[str, Any], request: Request = Request()) -> Result:
        """Component data supplied after the campaign was created: validated against the ruleset's schema, facts
        still unknown only, pinned by the content hash of the whole document; sessions started later use it."""

        def work(uow: UnitOfWork) -> _Outcome:
            campaign = uow.for_change(campaign_id, Campaign, "campaign")
            authorization.refuse(request, "owner")
            ruleset = uow.speaking(self.loading.ruleset(campaign))
            if not components:
                raise Unprocessable("No component data was supplied", detail="Send the facts still unknown in the shape of the ruleset's component_schema.")
            ruleset.validate_components(components)
            merged = component_data.supplement(campaign.components, components)
            ruleset.validate_components(merged)
            meta = _meta(request, ruleset)
            campaign.supply_components(components=components, components_hash=content_hash(merged), meta=meta)
            # Sessions in play get the facts too, pinned in their own streams, so their replays stay exact.
            playing = [uow.for_change(entry["id"], Session, "session") for entry in campaign.in_play()]
            for session in playing:
                in_force = component_data.supplement(self.loading.components_of(session), components)
                session.supply_components(components=components, components_hash=content_hash(in_force), meta=meta)
                # A deck whose cards were unknown at the start is named now, so it is drawn digitally from here on.
                for change in decks.listings(session.decks, ruleset.decks(in_force), components):
                    session.record_change(change, meta)
            body = {**campaign.state(), "components": campaign.components, "sessions_supplied": [str(s.id) for s in playing]}
            return _Outcome(201, body, [campaign, *playing])

        return self.write_path.execute(f"campaign:{campaign_id}", "supply_components", {"components": components}, request, work)

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

        def work(uow: UnitOfWork) -> _Outcome:
            campaign = uow.for_change(campaign_id, Campaign, "campaign")
            authorization.refuse(request, "owner")
            ruleset = uow.speaking(self.loading.ruleset(campaign))
            if role not in roles:
                raise Unprocessable(f"Unknown role '{role}'", detail="Mint player, viewer or integration tokens; the owner token comes with the campaign.")
            inputs.optional_text(label, "label", inputs.NAME_LENGTH, said="token's label", least=0)  # the API has taken ""
            if (heroes or side) and role != "player":
                raise Unprocessable("Only player tokens are bound to heroes or a side", detail="Leave out heroes and side for viewers and integrations.")
            party_rules.check(ruleset, heroes or [])
            inputs.optional_text(side, "side", inputs.ID_LENGTH)
            if side is not None and side not in ruleset.rules.sides:
                raise Unprocessable(f"Unknown side '{side}'", detail=f"Sides of {ruleset.name}: {list(ruleset.rules.sides)}.")
            token, grant = _mint(campaign, role, heroes or [], side, label, _meta(request, ruleset))
            return _Outcome(201, {**grant.describe(), "token": token}, [campaign, grant], shown_once=("token",))

        return self.write_path.execute(f"campaign:{campaign_id}", "mint_token", body, request, work)

    def revoke_token(self, campaign_id: str, token_id: str, request: Request = Request()) -> Result:
        def work(uow: UnitOfWork) -> _Outcome:
            campaign = uow.for_change(campaign_id, Campaign, "campaign")
            authorization.refuse(request, "owner")
            ruleset = uow.speaking(self.loading.ruleset(campaign))
            listed = campaign.tokens.get(token_id)
            if listed is None:
                raise NotFound(f"No token '{token_id}' in this campaign", detail="GET /campaigns/{cid}/tokens lists them.")
            if listed["role"] == "owner":
                raise Unprocessable("The owner token cannot be revoked", detail="It is the campaign's key; keep it safe.")
            grant = self.store.repository.get(UUID(listed["grant_id"]))
            meta = _meta(request, ruleset)
            if not grant.revoked:
                grant.revoke(meta=meta)
                campaign.revoke_token(token_id=token_id, meta=meta)
            else:  # revoking again announces again, in case the first announcement failed after its save
                self.grants.announce([grant.id])
            return _Outcome(200, {**grant.describe(), "revoked": True}, [campaign, grant])

        return self.write_path.execute(f"campaign:{campaign_id}", "revoke_token", {"token_id": token_id}, request, work)

    def start_session(self, campaign_id: str, quest: str, setup: dict[str, Any] | None = None, request: Request = Request()) -> Result:
        def work(uow: UnitOfWork) -> _Outcome:
            campaign = uow.for_change(campaign_id, Campaign, "campaign")
            ruleset = uow.speaking(self.loading.ruleset(campaign))
            authorization.refuse(request, "player", {"quest": quest, "setup": setup}, ruleset.rules, campaign.party)
            inputs.text(quest, "quest", inputs.ID_LENGTH, said="quest id")
            ruleset.quest(quest)
            _validate(ruleset.rules.setup_schema, setup or {}, "The session set-up does not fit this ruleset", "setup")
            deck_specs = ruleset.decks(campaign.components)
            seed = self.seed_source()
            meta = _meta(request, ruleset)
            session = Session.made(
                self.store.given,
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
            warnings = _start_warnings(campaign, quest, ruleset.data)
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

        return self.write_path.execute(f"campaign:{campaign_id}", "start_session", {"quest": quest, "setup": setup}, request, work)

    def roll(
        self,
        session_id: str,
        dice: Mapping[str, int] | None = None,
        faces: Mapping[str, list[Any]] | None = None,
        purpose: str | None = None,
        request: Request = Request(),
    ) -> Result:
        body = {"dice": dice, "faces": faces, "purpose": purpose}

        def work(uow: UnitOfWork) -> _Outcome:
            session, ruleset = uow.authorized(session_id, request, {"dice": dice, "faces": faces, "purpose": purpose})
            inputs.optional_text(purpose, "purpose", inputs.NAME_LENGTH, said="roll's purpose", least=0)  # the API has taken ""
            if dice:
                inputs.dice_counts(dice)
            if faces:
                inputs.reported_faces(faces)
            uow.in_play(session, request)
            specs = self.loading.dice_of(session, ruleset)
            roll = dice_rolls.resolve_roll(specs, dice or {}, faces, session_stream(session), bounded=True)  # (checked above)
            roll["purpose"] = purpose
            session.record_roll(roll=roll, meta=_meta(request, ruleset))
            body = {
                "results": roll["results"],
                "source": roll["source"],
                "counter_start": roll.get("counter_start"),
                "counter_end": roll.get("counter_end"),
                "event_id": f"{id_text(session.id)}/{session.version}",
                "position": session.version,
                "version": session.version,
            }
            return _Outcome(201, body, [session])

        return self.write_path.execute(f"session:{session_id}", "roll", body, request, work)

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

        def work(uow: UnitOfWork) -> _Outcome:
            session, ruleset = uow.authorized(session_id, request, {"deck": deck, "count": count, "cards": cards, "holder": holder}, acting="draw")
            inputs.text(deck, "deck", inputs.ID_LENGTH, said="deck id")
            if cards is not None and count is not None:
                raise Unprocessable(
                    'Send "count" or "cards", not both',
                    detail='"count" draws that many cards digitally; "cards" names the cards drawn from the physical deck. Send one.',
                    errors={"count": ["Sent with cards."], "cards": ["Sent with count."]},
                )
            if cards is not None:
                inputs.cards(cards)
            if count is not None:
                inputs.count(count, "count", 1, inputs.MOST_CARDS, what="cards to draw")
            uow.in_play(session, request)
            party_rules.check_holder(session.party, ruleset, holder)
            ctx = action_context(session, ruleset, self.loading.components_of(session))
            spec = ctx.deck(deck)
            state = session.decks[spec.id]
            if cards is not None:
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

        return self.write_path.execute(f"session:{session_id}", "draw", body, request, work)

    def act(self, session_id: str, action: dict[str, Any], request: Request = Request()) -> Result:
        def work(uow: UnitOfWork) -> _Outcome:
            session, ruleset = uow.playing(session_id, request, action, acting="action")
            components = self.loading.components_of(session)
            action_type = ruleset.action(str(action.get("type")))
            if action_type.internal:
                raise Unprocessable(
                    f"'{action_type.name}' is taken by the service itself",
                    detail="It runs when a session starts; send the set-up in POST /campaigns/{cid}/sessions.",
                    errors={"type": ["Not an action a client may post."]},
                )
            if session.__dict__.get("verdict") is not None:  # the rules decided: only what closes it (the state is computed only then)
                ruleset.refuse_once_decided(session.state(), action_type.name)
            self._resolve(session, ruleset, components, action, _meta(request, ruleset), action_type)
            body = {
                "events": [event_view(e) for e in session.pending_events],
                "state": session.state(),
                "version": session.version,
            }
            return _Outcome(201, body, [session])

        return self.write_path.execute(f"session:{session_id}", "act", action, request, work)

    def _resolve(self, session: Session, ruleset: Ruleset, components: Mapping[str, Any], action: dict[str, Any], meta: dict[str, Any],
                 action_type: ActionType | None = None) -> None:
        """Validate an action, resolve it on the session's state with its stream, and record it and its effects
        (``action_type``: the action's type, when the command has looked it up already)."""
        action_type = action_type or ruleset.action(str(action.get("type")))
        _validate(action_type.schema, action, f"The action does not fit the schema of '{action_type.name}'", "action")
        if "holder" in action:  # the deck actions' holder, in every game
            party_rules.check_holder(session.party, ruleset, action["holder"])
        ctx = action_context(session, ruleset, components)
        stream = session_stream(session)
        counter_start = stream.counter
        changes = ruleset.resolve(ctx, action, stream, action_type)
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

        def work(uow: UnitOfWork) -> _Outcome:
            session, ruleset = uow.playing(session_id, request, {"outcome": outcome, "ruling": ruling, "reported": reported})
            campaign = uow.for_change(session.campaign_id, Campaign, "campaign")
            if outcome not in OUTCOMES:
                raise Unprocessable(f"Unknown outcome '{outcome}'", detail=f"Outcomes: {list(OUTCOMES)}.")
            inputs.optional_text(ruling, "ruling", inputs.SAYING_LENGTH, said="ruling")
            for fact in reported or {}:
                inputs.text(fact, f"reported.{fact}", inputs.ID_LENGTH, said="name of a reported fact")
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
            ruleset.check_reported(session.quest, reported)  # the quest's reported_schema: unknown facts are never recorded
            if verdict is not None and verdict["outcome"] != outcome:
                refusal = f"the rules decided this quest at event {verdict['position']}: {verdict['outcome']} ({verdict['reason']})"
            elif verdict is None:
                refusal = ruleset.rules.end_refusal(session.quest, session.game, session.turn, outcome, reported or {})
            else:  # decided, and the end agrees: unless the game has still to record what the end carries over
                refusal = ruleset.rules.end_pending(session.quest, session.game, verdict)
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

        return self.write_path.execute(f"session:{session_id}", "end_session", {"outcome": outcome, "ruling": ruling, "reported": reported}, request, work)

    def abandon_session(self, session_id: str, reason: str, request: Request = Request()) -> Result:
        """Stop a session without an outcome: the seed is revealed (so it verifies like any other), the campaign
        marks it abandoned and counts it as not played (its chain and progress stay as they were)."""

        def work(uow: UnitOfWork) -> _Outcome:
            session, ruleset = uow.playing(session_id, request)
            campaign = uow.for_change(session.campaign_id, Campaign, "campaign")
            if request.role not in (None, "owner"):
                raise Forbidden("Only the campaign's owner abandons a session", detail="Ask the owner; or end it with the outcome the rules give.")
            inputs.text(reason, "reason", inputs.SAYING_LENGTH, said="reason")
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

        return self.write_path.execute(f"session:{session_id}", "abandon_session", {"reason": reason}, request, work)

    def undo(self, session_id: str, request: Request = Request()) -> Result:
        """Revert the last action: an ActionUndone names its events and puts back the state from before them."""

        def work(uow: UnitOfWork) -> _Outcome:
            session, ruleset = uow.playing(session_id, request)
            group = undo.last_undoable(list(self.store.events.get(session.id)))
            if group is None:
                raise Conflict(
                    "There is nothing to undo",
                    detail="Rolls, draws and actions since the quest was set up can be undone, each once; a redo is a new action.",
                )
            if request.role not in (None, "owner"):
                campaign = self.loading.campaign(session.campaign_id)
                refused = actors.refusal_to_revert(group, ruleset.rules, campaign.tokens, request.issued_by, request.heroes, request.side)
                if refused:
                    raise Forbidden(refused, detail="A player undoes only what its own heroes and side did; the owner may undo anything.")
            before = self.store.repository.get(session.id, version=group[0].originator_version - 1)
            reverses = undo.reverses(group)
            session.undo(reverses=reverses, restored=undo.restored(before), meta=_meta(request, ruleset))
            body = {"undone": reverses, "events": [event_view(e) for e in session.pending_events], "state": session.state(), "version": session.version}
            return _Outcome(201, body, [session])

        return self.write_path.execute(f"session:{session_id}", "undo", {}, request, work)

    def import_campaign(self, text: str | Iterable[str], request: Request = Request(), continuing: bool = False, placing: Any = None,
                        trusted_files: Iterable[str] = (), allow_unsigned: bool = False) -> Result:
        """Load an exported campaign: the whole file is checked first, then written in one transaction,
        with a new owner token for whoever imported it (the file holds no usable tokens). ``continuing`` and
        ``placing``, ``trusted_files`` and ``allow_unsigned``: see tracker/portability/campaign_files.py ``import_text`` (a move back;
        the placement with shards; whose signatures it trusts)."""
        token = new_token()
        digest = token_hash(token)

        def owner_grant(campaign_id: str) -> list[Grant]:
            meta = make_meta(request.issued_by, request.correlation_id, None)
            return [Grant.made(self.store.given, campaign_id=campaign_id, token_id="tok_" + digest[:16], token_hash=digest, role="owner",
                          heroes=[], side=None, label="imported", meta=meta)]

        body = portability.import_text(self.store, text, also=owner_grant, continuing=continuing, placing=placing,
                                       trusted_files=trusted_files, allow_unsigned=allow_unsigned)
        written = self.store.recorder.max_notification_id()
        if body["backup"]:  # the campaign's own tokens came with it; no new one was minted
            return Result(201, {**body, "owner_token": None, "owner_token_id": None}, log_position=written)
        return Result(201, {**body, "owner_token": token, "owner_token_id": "tok_" + digest[:16]}, log_position=written)


def _mint(campaign: Campaign, role: str, heroes: list[str], side: str | None, label: str | None, meta: dict[str, Any]) -> tuple[str, Grant]:
    """A new 256-bit token and its grant; the campaign lists the grant, the token itself is kept nowhere."""
    token = new_token()
    digest = token_hash(token)
    token_id = "tok_" + digest[:16]
    grant = Grant.made(
        campaign.given, campaign_id=str(campaign.id), token_id=token_id, token_hash=digest, role=role, heroes=heroes, side=side, label=label, meta=meta
    )
    campaign.mint_token(token_id=token_id, grant_id=str(grant.id), role=role, heroes=heroes, side=side, label=label, meta=meta)
    return token, grant


def _start_warnings(campaign: Campaign, quest: str, data: Mapping[str, Any]) -> list[str]:
    """What the group may not have meant: a quest out of the chain's order, or another session still in play.

    Out of order is said where the game's rules data says its quests are played in order (Journey's
    campaign.played_in_order, L670: "to be played one at a time, in order"); rules data that does not say keeps the
    warning every campaign had."""
    warnings = []
    in_order = (data.get("campaign") or {}).get("played_in_order", True)
    if in_order and campaign.next_quest is not None and quest != campaign.next_quest:
        warnings.append(f"The campaign's next quest is '{campaign.next_quest}', not '{quest}'; this session is played out of order.")
    for playing in campaign.in_play():
        warnings.append(
            f"Session {playing['id']} ({playing['quest']}) is still in play; end it, or abandon it with POST /sessions/{playing['id']}/abandon."
        )
    return warnings


def _validate(schema: dict[str, Any], value: Any, title: str, field_name: str) -> None:
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        raise Unprocessable(
            title,
            detail=f"First problem: {_where(errors[0])}{wording.schema_problem(errors[0])}. GET /rulesets/{{id}} publishes the schema.",
            errors={".".join(str(p) for p in e.absolute_path) or field_name: [wording.schema_problem(e)] for e in errors},
        )


def _where(error: Any) -> str:
    path = ".".join(str(p) for p in error.absolute_path)
    return f"{path}: " if path else ""


def _meta(request: Request, ruleset: Ruleset) -> dict[str, Any]:
    return make_meta(request.issued_by, request.correlation_id, ruleset.version, ruleset.id)
