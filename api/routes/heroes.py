"""Hero progress per campaign, from its game's hero-progress view: GET /campaigns/{cid}/heroes and /campaigns/{cid}/heroes/{hero}."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import access, contract, schemas
from api.blueprint import Blueprint
from api.context import projected, tracker, viewer_for, views
from projections import views as registered_views
from tracker.integrity import disclosure
from tracker import rulesets
from tracker.core import wording
from tracker.core.errors import NotFound

blp = Blueprint("heroes", __name__, url_prefix="/campaigns", description="Hero progress across a campaign")


def _heroes(campaign_id: str, query: dict[str, Any]) -> tuple[dict[str, Any], int]:
    ruleset = rulesets.get(tracker().get_campaign(campaign_id)["ruleset"]["id"])
    viewer = viewer_for(query["view"])
    disclosure.check_side(ruleset.rules, viewer)
    view = registered_views.of_game(ruleset.id, "hero-progress")
    if view is None:
        raise NotFound(f"{ruleset.name} keeps no hero progress across a campaign",
                       detail="What it tracks of each hero in play is in the session's state: GET /sessions/{sid}, its game's heroes.")
    projected_to = projected(query["min_position"])
    return view.read(views().store, campaign_id, viewer), projected_to


def _named(campaign_id: str) -> dict[str, str]:
    ruleset = rulesets.get(tracker().get_campaign(campaign_id)["ruleset"]["id"])
    return {c["id"]: c.get("name") or c["id"] for c in ruleset.data.get("characters", [])}


@blp.route("/<campaign_id>/heroes")
class CampaignHeroes(MethodView):
    @access.player
    @blp.doc(operationId="listHeroProgress")
    @contract.problems(503)
    @blp.arguments(schemas.SideViewRead, location="query")
    @blp.response(200, schemas.Heroes)
    def get(self, query, campaign_id: str):
        """Every hero's progress by the campaign's game (Journey: karma, skills, weapon level, corruption,
        health and Chi where known, quests played and won; Descent: curses, frost, relics, chest items, deaths),
        each change with the events behind it (from the game's projected view)."""
        heroes, projected_to = _heroes(campaign_id, query)
        return {"campaign_id": campaign_id, "heroes": heroes, "projected_to": projected_to}


@blp.route("/<campaign_id>/heroes/<hero>")
class CampaignHero(MethodView):
    @access.player
    @blp.doc(operationId="getHeroProgress")
    @contract.problems(503)
    @blp.arguments(schemas.SideViewRead, location="query")
    @blp.doc(responses={"200": {"description": "OK", "content": {"application/json": {"schema": schemas.HeroProgress}}}})
    @blp.response(200)  # the hero's fields differ per game: returned as they are, documented by HeroProgress
    def get(self, query, campaign_id: str, hero: str):
        """One hero's progress, with the events behind each change."""
        heroes, projected_to = _heroes(campaign_id, query)
        if hero not in heroes:
            named = _named(campaign_id)
            said = named[hero] if hero in named else f"'{hero}'"  # an id the game names by its name, any other as sent
            raise NotFound(f"No hero {said} in this campaign", detail=f"Heroes with progress: {wording.listed([named.get(h, h) for h in heroes])}.")
        return {"campaign_id": campaign_id, **heroes[hero], "projected_to": projected_to}
