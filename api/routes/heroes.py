"""Hero progress per campaign: GET /campaigns/{cid}/heroes and /campaigns/{cid}/heroes/{hero}."""

from __future__ import annotations

from flask.views import MethodView

from api import access, schemas
from api.blueprint import Blueprint
from api.context import tracker, viewer_for
from tracker.errors import NotFound

blp = Blueprint("heroes", __name__, url_prefix="/campaigns", description="Hero progress across a campaign")


@blp.route("/<campaign_id>/heroes")
class CampaignHeroes(MethodView):
    @access.player
    @blp.doc(operationId="listHeroProgress")
    @blp.arguments(schemas.SideView, location="query")
    @blp.response(200, schemas.Heroes)
    def get(self, query, campaign_id: str):
        """Every hero's progress by the campaign's game (Journey: karma, skills, weapon level, corruption,
        health and Chi where known, quests played and won; Descent: curses, frost, relics, chest items, deaths),
        each change with the events behind it."""
        return tracker().campaign_heroes(campaign_id, viewer_for(query["view"]))


@blp.route("/<campaign_id>/heroes/<hero>")
class CampaignHero(MethodView):
    @access.player
    @blp.doc(operationId="getHeroProgress")
    @blp.arguments(schemas.SideView, location="query")
    @blp.doc(responses={"200": {"description": "OK", "content": {"application/json": {"schema": schemas.HeroProgress}}}})
    @blp.response(200)  # the hero's fields differ per game: returned as they are, documented by HeroProgress
    def get(self, query, campaign_id: str, hero: str):
        """One hero's progress, with the events behind each change."""
        heroes = tracker().campaign_heroes(campaign_id, viewer_for(query["view"]))["heroes"]
        if hero not in heroes:
            raise NotFound(f"No hero '{hero}' in this campaign", detail=f"Heroes: {sorted(heroes)}.")
        return {"campaign_id": campaign_id, **heroes[hero]}
