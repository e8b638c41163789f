"""Hero progress per campaign: GET /campaigns/{cid}/heroes and /campaigns/{cid}/heroes/{hero}."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from api.context import tracker
from tracker.errors import NotFound

blp = Blueprint("heroes", __name__, url_prefix="/campaigns", description="Hero progress across a campaign")


@blp.route("/<campaign_id>/heroes")
class CampaignHeroes(MethodView):
    @blp.response(200)
    def get(self, campaign_id: str):
        """Every hero's progress: karma, skills, weapon level, corruption, health and Chi where known, quests played and won."""
        return tracker().campaign_heroes(campaign_id)


@blp.route("/<campaign_id>/heroes/<hero>")
class CampaignHero(MethodView):
    @blp.response(200)
    def get(self, campaign_id: str, hero: str):
        """One hero's progress, with the events behind each weapon level and Corruption Card."""
        heroes = tracker().campaign_heroes(campaign_id)["heroes"]
        if hero not in heroes:
            raise NotFound(f"No hero '{hero}' in this campaign", detail=f"Heroes: {sorted(heroes)}.")
        return {"campaign_id": campaign_id, **heroes[hero]}
