"""The play page: a session as the table plays it, from a phone, with no script.

GET shows what the token's side may see (through the one redaction, api.context.door): the turn, the
rules' verdict, the dice and decks, the last things that happened, and a form for every roll, draw and
action the token may take, each form generated from the action's JSON Schema (api/pages/forms.py).
Each POST is one command of the application, as the API's would be, then a redirect back (303), so a
reload never sends it again. Every form carries:
- a CSRF token, an HMAC of the session id keyed by the visitor's own token (which only the visitor's
  cookie holds), checked before anything else: another site cannot forge it; and
- an Idempotency-Key drawn when the form was drawn: a double tap sends the same key twice, and the
  application answers the second with the first's answer (one roll, not two).
With a script (static/live.js, api/pages/live.py), the page follows the session live, and a form pressed while the
connection is down is sent later with the Idempotency-Key and If-Match headers, which ``_request`` reads.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from flask import g, redirect, render_template, request

from api import access, query
from api.context import command_request, door, tracker, views
from api.pages import forms, reads, refusals, signin, turn
from api.pages.blueprint import bp
from tracker.core import wording
from tracker.application import authorization
from tracker import rulesets
from tracker.application.service import Request
from tracker.core.errors import TrackerError

# The end's facts that name heroes (a Pilgrim defeated or killed at the table): chosen among the party's heroes.
REPORTED_HEROES = ("defeated", "killed")
OUTCOMES = (("victory", "Victory"), ("heroic-victory", "Heroic victory"), ("defeat", "Defeat"))


class FormRefused(TrackerError):
    status = 403


def csrf_token(token: str, session_id: str) -> str:
    return hmac.new(token.encode(), f"pages-form:{session_id}".encode(), hashlib.sha256).hexdigest()


def _check_form(session_id: str) -> tuple[str, Any]:
    """The visitor's grant for this session's campaign, once the form's CSRF token is its own."""
    campaign_id, grant = signin.grant_for_session(session_id)
    token = signin.token_of(grant)
    sent = request.form.get("csrf", "")
    if token is None or not hmac.compare_digest(sent, csrf_token(token, session_id)):
        raise FormRefused("This form is out of date or not from this page", detail="Reload the play page and send the form again.")
    refused = authorization.route_refusal(grant.role, "player", reads=False)  # (the commands refuse the rest: tracker/application/authorization.py)
    if refused:
        raise FormRefused(refused, detail="Ask the campaign's owner for a player token to play.")
    return campaign_id, grant


def _request(grant: Any) -> Request:
    """The command's request: the form's Idempotency-Key, or the one the page's script sent as the header (drawn when
    the button was pressed, kept on the device while offline: static/live.js), and If-Match where the script sent the
    version the page showed then, both read as the API reads them (api.context.command_request)."""
    sent = command_request()  # g.grant is this grant (signin.grant_for_session)
    key = (sent.idempotency_key or request.form.get("idempotency_key") or "").strip()
    if not 1 <= len(key) <= 255:
        raise forms.FormProblem("The form has no Idempotency-Key", detail="Reload the play page and send the form again.")
    return Request(
        issued_by=grant.token_id,
        correlation_id=g.get("correlation_id"),
        idempotency_key=f"page:{key}",
        if_match=sent.if_match,
        role=grant.role,
        heroes=tuple(grant.heroes),
        side=grant.side,
    )


def _hero_fields(ruleset: Any) -> tuple[str, ...]:
    """The fields that name a hero in this game's actions (its own, and every game's)."""
    return (*forms.HERO_FIELDS, *getattr(ruleset.rules, "actor_fields", ()))


def _back(session_id: str, anchor: str = "done"):
    return redirect(f"/pages/sessions/{session_id}/play#{anchor}", code=303)


def _ruleset_of(campaign_id: str):
    campaign = tracker().get_campaign(campaign_id)
    return campaign, rulesets.pinned(campaign["ruleset"])


@bp.get("/pages/sessions/<session_id>/play")
@access.signed_in
def play_page(session_id: str):
    campaign_id, grant = signin.grant_for_session(session_id)
    campaign, ruleset = _ruleset_of(campaign_id)
    return _render(session_id, campaign, ruleset, grant)


def _render(session_id: str, campaign: dict[str, Any], ruleset: Any, grant: Any, problem: TrackerError | None = None):
    shown = door()
    session = shown(tracker().get_session(session_id))
    named = reads.names(ruleset)
    heroes = list(grant.heroes) or list(session["party"])
    side = None if grant.role == "owner" else (grant.side or "heroes")
    decks = [{"id": deck_id, "name": reads.deck_name(ruleset, deck_id), **summary} for deck_id, summary in session["decks"].items()]
    named_all = {**named, **{d["id"]: d["name"] for d in decks}, **{d.id: d.name for d in ruleset.dice(campaign["components"]).values()}}
    # a refusal, and a line of the timeline, names only what a person could not read as a word (a one-word deck id,
    # "treasure", "energy", stays a word: "Ryo gains 3 energy", not "3 Energy deck")
    named_words = {k: v for k, v in named_all.items() if "-" in k or "_" in k or k in named}
    named_ids = named_words
    # the actions a refusal names ("start-hero-turn by Aurim is taken ...") as the forms say them, in words
    described = ruleset.describe()["actions"]
    named_ids = {**{a["type"]: wording.key_said(a["type"]) for a in described if "-" in a["type"]}, **named_ids}
    actions = []
    game = session.get("game") or {}
    in_play = reads.ids_in_play(game)
    offered = ruleset.rules.choices(session["quest"], game) if session["status"] == "in-progress" else {}
    allowed = {str(a["type"]): a for a in session.get("allowed") or [] if isinstance(a, dict)}
    own = list(grant.heroes) or None
    # each deck's card names where they are known (the rules data or the campaign's components): the cards drawn are picked
    # (a deck of a hero's or a side's own only on that hero's or side's page: another Pilgrim's Skill Cards, the overlord's)
    owners = {d["id"]: d.get("owner") for d in ruleset.data.get("decks", [])}
    may_draw = None if side is None else {*heroes, side}
    cards = {d.id: d.cards for d in ruleset.decks(campaign["components"]).values()
             if d.cards and d.id in session["decks"] and (may_draw is None or owners.get(d.id) in (None, *may_draw))}
    for action in described:
        acting = ruleset.rules.acting_side({"type": action["type"]})
        if side is not None and acting is not None and acting != side:
            continue  # the other side's to take
        preset = turn.preset(allowed.get(action["type"]), own)
        actions.append({**action, "fields": forms.fields(action["schema"], named_all, heroes, [d["id"] for d in decks], ids=in_play,
                                                         hero_fields=_hero_fields(ruleset), choices=offered, preset=preset, cards=cards),
                        "name": reads.said_key(action["type"]), "key": secrets.token_urlsafe(16)})
    sorted_actions = turn.sort_actions(actions, session, ruleset.rules, own, side)
    token = signin.token_of(grant)
    ended = session["status"] != "in-progress"  # ended, or abandoned: the seed is revealed either way
    history = tracker().session_history(session_id)
    entries = reads.fresh_entries(history, side, ended)
    page = {
        "campaign": campaign,
        "ruleset": ruleset,
        "session": session,
        "quest": named.get(session["quest"], session["quest"]),
        "names": named_all,
        "grant": signin.describe_grant(grant),
        "may_act": grant.role in ("owner", "player") and not ended,
        "owner": grant.role == "owner",
        "side": side,
        "sides": list(ruleset.rules.sides),
        "heroes": heroes,
        "dice": reads.dice_for_play(ruleset, campaign["components"]),
        "decks": decks,
        "hand": reads.hand_of(decks, side, ruleset),
        "actions": sorted_actions,
        "turn": turn.summary(ruleset, session, named_all, heroes),
        # the facts only the table sees that the quest's end may state (its published reported_schema), as fields
        "end_fields": forms.fields(ruleset.rules.reported_schema(session["quest"]), named_all, heroes, [], prefix="reported.",
                                   hero_fields=(*_hero_fields(ruleset), *REPORTED_HEROES)),
        "awaited": [f["description"] for f in ((session.get("end") or {}).get("awaits") or [])],
        "phase": session.get("phase") or (session.get("game") or {}).get("phase"),
        "allowed": reads.allowed_types(session.get("allowed")),
        "may_abandon": grant.role == "owner" and hasattr(tracker(), "abandon_session"),
        # grouped over the whole log, so the last lines sit under the turn (or round) they were in
        "recent": reads.last_lines(reads.timeline_groups(entries, named_words, reads.commands_of(history), ruleset.rules.played_in_rounds), 3, parts=3),
        "csrf": csrf_token(token, session_id) if token else "",
        "keys": {name: secrets.token_urlsafe(16) for name in ("roll", "report", "draw", "draw-reported", "undo", "end", "abandon")},
        "outcomes": OUTCOMES,
        "problem": problem,
        "refusal": refusals.said(problem, named_ids) if problem else None,
    }
    return render_template("play.html", **page), problem.status if problem else 200


def _command(session_id: str, run):
    """Check the form, run one command, and go back to the play page; a refusal is shown on it."""
    campaign_id, grant = _check_form(session_id)
    campaign, ruleset = _ruleset_of(campaign_id)
    try:
        run(grant, ruleset, _request(grant))
    except TrackerError as problem:
        return _render(session_id, campaign, ruleset, grant, problem)
    return _back(session_id)


@bp.post("/pages/sessions/<session_id>/play/roll")
@access.signed_in
def play_roll(session_id: str):
    def run(grant, ruleset, req):
        dice = {die: forms.number(die, raw) for die, raw in _prefixed("dice.").items()}
        dice = {die: n for die, n in dice.items() if n > 0}
        specs = ruleset.dice(tracker().get_campaign(grant.campaign_id)["components"])
        faces = {die: [_face(specs.get(die), f.strip()) for f in raw.split(",") if f.strip()] for die, raw in _prefixed("faces.").items() if "#" not in die}
        for die, spec in specs.items():  # the face pickers: how many dice showed each face
            picked = forms.counted(f"faces.{die}", list(spec.results), request.form)
            if picked:
                faces[die] = [*faces.get(die, []), *picked]
        faces = {die: rolled for die, rolled in faces.items() if rolled}
        if not dice and not faces:
            raise forms.FormProblem("Say which dice to roll, or the faces rolled on the table", detail="Enter a number of dice, or the faces, for at least one die.")
        purpose = (request.form.get("purpose") or "").strip() or None
        tracker().roll(session_id, dice or None, faces or None, purpose, request=req)

    return _command(session_id, run)


def _face(spec: Any, typed: str) -> Any:
    """A face as typed, as the die names it: numbered dice have numbers (a d6 shows 4, not "4")."""
    if spec is not None:
        for result in spec.results:
            if str(result) == typed or str(result).lower() == typed.lower():
                return result
    return typed


def _prefixed(prefix: str) -> dict[str, str]:
    return {key[len(prefix):]: value.strip() for key, value in request.form.items() if key.startswith(prefix) and value.strip()}


@bp.post("/pages/sessions/<session_id>/play/draw")
@access.signed_in
def play_draw(session_id: str):
    def run(grant, ruleset, req):
        deck = request.form.get("deck", "")
        holder = (request.form.get("holder") or "").strip() or None
        cards = [c.strip() for c in (request.form.get("cards") or "").split(",") if c.strip()]
        count = None if cards else forms.number("count", (request.form.get("count") or "1").strip() or "1")
        tracker().draw(session_id, deck, count, cards or None, holder, request=req)

    return _command(session_id, run)


@bp.post("/pages/sessions/<session_id>/play/act/<action_type>")
@access.signed_in
def play_act(session_id: str, action_type: str):
    def run(grant, ruleset, req):
        schema = ruleset.action(action_type).schema
        body = {"type": action_type, **forms.body(schema, request.form, request.form.getlist, _hero_fields(ruleset))}
        tracker().act(session_id, body, request=req)

    return _command(session_id, run)


@bp.post("/pages/sessions/<session_id>/play/undo")
@access.signed_in
def play_undo(session_id: str):
    return _command(session_id, lambda grant, ruleset, req: tracker().undo(session_id, request=req))


@bp.post("/pages/sessions/<session_id>/play/end")
@access.signed_in
def play_end(session_id: str):
    def run(grant, ruleset, req):
        outcome = request.form.get("outcome", "")
        ruling = (request.form.get("ruling") or "").strip() or None
        schema = ruleset.rules.reported_schema(tracker().get_session(session_id)["quest"])
        reported = forms.body(schema, request.form, request.form.getlist, (*_hero_fields(ruleset), *REPORTED_HEROES), prefix="reported.")
        reported = reported or None
        tracker().end_session(session_id, outcome, ruling, reported, request=req)

    return _command(session_id, run)


@bp.post("/pages/sessions/<session_id>/play/abandon")
@access.signed_in
def play_abandon(session_id: str):
    """The owner stops the session without an outcome (the application's abandon, where this server has it)."""

    def run(grant, ruleset, req):
        abandon = getattr(tracker(), "abandon_session", None)
        if abandon is None:
            raise forms.FormProblem("This server cannot abandon a session yet", detail="End the quest with an outcome instead.")
        reason = (request.form.get("reason") or "").strip()
        if not reason:
            raise forms.FormProblem("Say why the session stops", detail="The reason is shown with the abandoned session.")
        abandon(session_id, reason, request=req)

    return _command(session_id, run)


@bp.get("/pages/sessions/<session_id>/replay")
@access.signed_in
@query.takes("at")
def replay_page(session_id: str):
    """Step through a session event by event, or jump to a turn: its state just after that event (the time-travel
    read, through the one redaction), the decks and each hero as the token may see them, and the verification."""
    campaign_id, grant = signin.grant_for_session(session_id)
    campaign, ruleset = _ruleset_of(campaign_id)
    shown = door()
    side = None if grant.role == "owner" else (grant.side or "heroes")
    now = shown(tracker().get_session(session_id))
    last = now["version"]
    at = request.args.get("at", type=int) or last
    at = max(1, min(at, last))
    named = reads.names(ruleset)
    entries = reads.session_timeline(views().store, now, side)
    here = next((e for e in entries if e["position"] == at), None)
    # An action's request is shown with what it did: the state after the last event its command recorded
    shown_at = reads.command_end(reads.commands_of(tracker().session_history(session_id)), at) if here and here["event_type"] == "ActionTaken" else at
    effects = [wording.names_said(e["summary"], named) for e in entries if at < e["position"] <= shown_at]
    state = shown(tracker().session_state_at(session_id, shown_at))  # the one redaction, by door(), for this token
    verification = shown(tracker().verify(session_id))
    return render_template(
        "replay.html",
        campaign=campaign,
        ruleset=ruleset,
        session=now,
        state=state,
        at=at,
        shown_at=shown_at,
        effects=effects,
        last=last,
        quest=named.get(now["quest"], now["quest"]),
        names=named,
        said=wording.names_said(here["summary"], named) if here else None,
        turns=reads.turn_starts(entries, ruleset.rules.played_in_rounds),
        count=ruleset.rules.turn_said(state["game"], int(state.get("turn") or 1)),
        decks=[{"id": d, "name": reads.deck_name(ruleset, d), **summary} for d, summary in state["decks"].items()],
        heroes=reads.heroes_at(state["game"], named, ruleset.rules.field_names()),
        facts=reads.game_facts(state["game"], named, ruleset.rules.field_names()),
        verification=verification,
        grant=signin.describe_grant(grant),
    )
