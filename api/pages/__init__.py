"""The campaign pages: server-rendered HTML of the same application, for people rather than programs.

Each view checks the visitor's grant (api/pages/signin.py), gathers what it shows from the read
models (api/pages/reads.py) and renders a template; charts are SVG drawn on the server
(api/pages/charts.py). The pages work with no script; a session's pages add this server's own, which follows the
session live and keeps what is pressed offline (api/pages/live.py, static/live.js). Nothing is fetched from elsewhere.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Response, redirect, render_template, request

from api import access
from api.context import door, tracker, viewer_for, viewer_side, views
from api.pages import (
    charts,
    fairness,
    kinds,
    live,
    play,  # noqa: F401 - its routes (the play and replay pages) join the blueprint when imported
    reads,
    signin,
)
from api.pages import standing as game_standing
from api.pages.blueprint import bp
from api.routes.campaigns import CampaignExport
from projections import views as registered_views
from tracker import rulesets
from tracker.core.errors import NotFound, TrackerError

__all__ = ["bp"]

# No script at all; styles only from this server (and pygal's inline <style> in its SVG). A session's pages add
# this server's own script, which may connect only here (api/pages/live.py).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


@bp.after_request
def _private(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = live.policy(CONTENT_SECURITY_POLICY)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.before_request
def _only_our_own_forms():
    if request.method != "POST":
        return
    refusal = signin.cross_site_refusal()
    if refusal:
        raise signin.RefusedHere(
            "This form was not sent from this server's own page",
            detail=f"It came from {refusal}. Open the page on this server and send the form from there; behind a "
            "TLS proxy the operator sets TRACKER_TRUSTED_PROXIES so the server knows its public address.",
        )
    return


@bp.errorhandler(TrackerError)
def _problem_page(error: TrackerError):
    return render_template("problem.html", title=error.title, detail=error.detail, status=error.status), error.status


@bp.get("/")
@access.anyone
def index():
    return render_template("index.html", campaigns=_followed())


def _followed() -> list[dict[str, Any]]:
    """The campaigns this device follows (a token of each in its cookie)."""
    followed = []
    for _, grant in signin.signed_in():
        if grant.role == "integration":
            continue
        campaign = tracker().get_campaign(grant.campaign_id)
        ruleset = rulesets.pinned(campaign["ruleset"])
        followed.append({**campaign, "ruleset_name": ruleset.name, "names": reads.names(ruleset), "grant": signin.describe_grant(grant)})
    return followed


@bp.post("/pages/sign-in")
@access.anyone
def sign_in():
    token = request.form.get("token", "")
    grant = signin.sign_in(token)
    if grant is None:
        refused = "That token was not accepted: it is unknown or was revoked. Check that it was pasted whole, or ask the campaign's owner for a new one."
        return render_template("index.html", campaigns=_followed(), refused=refused), 401
    response = redirect(f"/pages/campaigns/{grant.campaign_id}", code=303)
    return signin.remember(response, [token.strip(), *signin.cookie_tokens()])


@bp.post("/pages/sign-out")
@access.anyone
def sign_out():
    return signin.remember(redirect("/", code=303), [])


@bp.get("/pages/campaigns/<campaign_id>")
@access.signed_in
def campaign_page(campaign_id: str):
    grant = signin.grant_for_campaign(campaign_id)
    campaign = tracker().get_campaign(campaign_id)
    ruleset = rulesets.pinned(campaign["ruleset"])
    named = reads.names(ruleset)
    store = views().store
    page: dict[str, Any] = {
        "campaign": campaign,
        "ruleset": ruleset,
        "names": named,
        "grant": signin.describe_grant(grant),
        "chain": reads.quest_chain(campaign, named),
        "sessions": reads.sessions(campaign, store, named),
        "heroes": _heroes(campaign_id),
    }
    shown = kinds.Shown(campaign_id, named, store, viewer_for(None), lambda: store.standing(campaign_id)["progress"])
    page["parts"] = kinds.campaign_parts(ruleset.views, shown)
    page["hero_cards"] = kinds.hero_cards(_view(ruleset, "hero-progress"), page["heroes"], named)
    return render_template("campaign.html", **page)


def _view(ruleset: Any, kind: str) -> Any:
    """The game's view of ``kind``, or None (tracker/rulesets/<game>/views.py)."""
    return registered_views.of_game(ruleset.id, kind)


def _heroes(campaign_id: str) -> dict[str, Any]:
    """Hero progress from the game's view (an empty sheet list for a game that keeps none)."""
    view = registered_views.of_game(tracker().get_campaign(campaign_id)["ruleset"]["id"], "hero-progress")
    return view.read(views().store, campaign_id, viewer_for(None)) if view is not None else {}


@bp.get("/pages/campaigns/<campaign_id>/heroes/<hero>")
@access.signed_in
def hero_page(campaign_id: str, hero: str):
    grant = signin.grant_for_campaign(campaign_id)
    campaign = tracker().get_campaign(campaign_id)
    ruleset = rulesets.pinned(campaign["ruleset"])
    named = reads.names(ruleset)
    heroes = _heroes(campaign_id)
    if hero not in heroes and hero in (campaign.get("party") or []):
        return _hero_in_play(campaign, ruleset, named, hero, grant)
    if hero not in heroes:
        raise NotFound(f"No hero {named.get(hero, hero)} in this campaign", detail="The campaign page lists its heroes.")
    page: dict[str, Any] = {"campaign": campaign, "ruleset": ruleset, "names": named, "hero": hero, "sheet": heroes[hero],
                            "rows": game_standing.sheet_rows(heroes[hero], named, ruleset.rules.field_names()),
                            "links": reads.sheet_links(heroes[hero]), "grant": signin.describe_grant(grant)}
    karma = _view(ruleset, "karma-series")
    if karma is not None:  # the hero's wheels across the campaign, when the game keeps them
        series = karma.read(views().store, campaign_id)
        points = reads.karma_series({hero: series.get(hero, [])}, named)[hero]
        page["karma"] = {"points": points, "chart": charts.karma_chart(named.get(hero, hero), points)}
    # The sheet's layout is the game's hero-progress view's own (templates/sheets/<view name>.html), else rows of words.
    page["sheet_templates"] = [f"sheets/{_view(ruleset, 'hero-progress').name}.html", "sheets/rows.html"]
    return render_template("hero.html", **page)


def _hero_in_play(campaign: dict[str, Any], ruleset: Any, named: dict[str, str], hero: str, grant: Any):
    """A hero of a game that keeps no sheet between its quests (no hero-progress view): what the game tracks of the
    hero in the latest session, through the one redaction, said as rows of words."""
    played = [s for s in campaign.get("sessions") or [] if s.get("id")]
    sheet: dict[str, Any] = {}
    if played:
        game = door()(tracker().get_session(played[-1]["id"])).get("game") or {}
        sheet = dict(((game.get("heroes") or {}).get(hero)) or {})
    page = {"campaign": campaign, "ruleset": ruleset, "names": named, "hero": hero, "sheet": sheet, "in_play": True,
            "quest": named.get(played[-1]["quest"], played[-1]["quest"]) if played else None,
            "rows": game_standing.sheet_rows(sheet, named, ruleset.rules.field_names()), "grant": signin.describe_grant(grant), "sheet_templates": ["sheets/rows.html"]}
    return render_template("hero.html", **page)


@bp.get("/pages/campaigns/<campaign_id>/dice")
@access.signed_in
def dice_page(campaign_id: str):
    grant = signin.grant_for_campaign(campaign_id)
    campaign = tracker().get_campaign(campaign_id)
    ruleset = rulesets.pinned(campaign["ruleset"])
    luck = reads.dice_luck(views().store.dice_faces(campaign_id), ruleset.dice(campaign["components"]))
    for entry in luck:
        entry["chart"] = charts.dice_luck_chart(entry)
        entry["fit"] = fairness.verdict(entry["faces"])
    return render_template("dice.html", campaign=campaign, ruleset=ruleset, luck=luck, grant=signin.describe_grant(grant))


@bp.get("/pages/campaigns/<campaign_id>/export")
@access.signed_in
def export(campaign_id: str):
    """The campaign export, for a visitor signed in with a cookie (the API's export wants a bearer header)."""
    signin.grant_for_campaign(campaign_id)

    return CampaignExport().get(campaign_id)


@bp.get("/pages/sessions/<session_id>/receipt")
@access.signed_in
def receipt(session_id: str):
    """The session's signed receipt as a file to keep, for a visitor signed in with a cookie (the API's wants a bearer header)."""
    signin.grant_for_session(session_id)
    body = door()(tracker().session_receipt(session_id, service=request.url_root.rstrip("/")))
    disposition = f'attachment; filename="receipt-{session_id}.json"'
    return Response(json.dumps(body, ensure_ascii=False, indent=1) + "\n", mimetype="application/json", headers={"Content-Disposition": disposition})


@bp.get("/pages/sessions/<session_id>")
@access.signed_in
def session_page(session_id: str):
    campaign_id, grant = signin.grant_for_session(session_id)
    campaign = tracker().get_campaign(campaign_id)
    ruleset = rulesets.pinned(campaign["ruleset"])
    named = reads.names(ruleset)
    shown = door()
    session = shown(tracker().get_session(session_id))
    entries = reads.session_timeline(views().store, session, viewer_side())
    who = _issuers(campaign_id)
    for entry in entries:
        entry["who"] = who.get(entry["issued_by"] or "", "the service" if entry["issued_by"] is None else entry["issued_by"])
        entry["when"] = entry["occurred_at"].replace("T", " ")[:19] + " UTC"
    verification = shown(tracker().verify(session_id))
    return render_template(
        "session.html",
        campaign=campaign,
        ruleset=ruleset,
        session=session,
        quest=named.get(session["quest"], session["quest"]),
        groups=reads.timeline_groups(entries, named, reads.commands_of(tracker().session_history(session_id)), ruleset.rules.played_in_rounds),
        events=len(entries),
        span=reads.session_span(entries),
        verification=verification,
        grant=signin.describe_grant(grant),
        may_play=grant.role in ("owner", "player"),
    )


def _issuers(campaign_id: str) -> dict[str, str]:
    """Token ids to who held them (label and role): the log records the token id, never the token."""
    return {
        t["id"]: (t.get("label") or t["role"]) + (f" ({t['role']})" if t.get("label") and t["label"] != t["role"] else "")
        for t in tracker().list_tokens(campaign_id)
    }


def _in_names(text: str, named: dict[str, str]) -> str:
    """Ids in a summary said as the game names them (whole ids only: 'berrok-1' stays as it is)."""
    for key in sorted(named, key=len, reverse=True):
        if key in text and named[key] != key:
            text = re.sub(rf"(?<![\w-]){re.escape(key)}(?![\w-])", named[key], text)
    return text

