"""Descent's campaign reads (from the projected views): the treachery ledger, conquest and threat, hero standing."""

from __future__ import annotations

from flask.views import MethodView

from api import schemas
from api.blueprint import Blueprint
from api.context import tracker, viewer_for, views
from tracker import disclosure, rulesets
from tracker.errors import NotFound
from tracker.rulesets.descent import ledger

blp = Blueprint("descent", __name__, url_prefix="/campaigns", description="Descent: treachery, conquest, threat and heroes per campaign")


DESCENT = "descent"


def _rows(campaign_id: str, viewer: str | None):
    campaign = tracker().get_campaign(campaign_id)
    if campaign["ruleset"]["id"] != DESCENT:
        # Other games keep no treachery or conquest: their events would only confuse Descent's ledger.
        raise NotFound(
            "This campaign is not a Descent campaign",
            detail=f"It plays {campaign['ruleset']['id']}; the treachery ledger and conquest exist only for Descent. GET /campaigns/{{cid}}/standing reads any game.",
        )
    disclosure.check_side(rulesets.get(campaign["ruleset"]["id"]).rules, viewer)
    return views().store.game_events(campaign_id)


@blp.route("/<campaign_id>/treachery-ledger")
class TreacheryLedger(MethodView):
    @blp.doc(operationId="getTreacheryLedger")
    @blp.arguments(schemas.SideViewsRead, location="query")
    @blp.response(200, schemas.DescentRead)
    def get(self, query, campaign_id: str):
        """Per quest: treachery granted, spent by colour, cards swapped in and out, dark glyphs, unspent and the opening hand."""
        return {"campaign_id": campaign_id, "quests": ledger.treachery_ledger(_rows(campaign_id, viewer_for(query["view"])), viewer_for(query["view"])), "projected_to": views().position}


@blp.route("/<campaign_id>/conquest")
class Conquest(MethodView):
    @blp.doc(operationId="getConquestAndThreat")
    @blp.arguments(schemas.SideViewsRead, location="query")
    @blp.response(200, schemas.DescentRead)
    def get(self, query, campaign_id: str):
        """Per quest: the conquest and threat timelines, each step with its event position."""
        return {"campaign_id": campaign_id, "quests": ledger.conquest_and_threat(_rows(campaign_id, viewer_for(query["view"])), viewer_for(query["view"])), "projected_to": views().position}
