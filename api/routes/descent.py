"""Descent's campaign reads, from Descent's own projected views (tracker/rulesets/descent/views.py): the treachery
ledger, conquest and threat."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import access, contract, schemas
from api.blueprint import Blueprint
from api.context import projected, tracker, viewer_for, views
from projections import views as registered_views
from tracker.integrity import disclosure
from tracker import rulesets
from tracker.core.errors import NotFound

blp = Blueprint("descent", __name__, url_prefix="/campaigns", description="Descent: treachery, conquest, threat and heroes per campaign")


def _read(campaign_id: str, kind: str, query: dict[str, Any]) -> dict[str, Any]:
    campaign = tracker().get_campaign(campaign_id)
    ruleset = campaign["ruleset"]["id"]
    view = registered_views.of_game(ruleset, kind)
    if view is None:
        # Other games keep no treachery or conquest.
        raise NotFound(
            "This campaign is not a Descent campaign",
            detail=f"It plays {ruleset}; the treachery ledger and conquest exist only for Descent. GET /campaigns/{{cid}}/standing reads any game.",
        )
    viewer = viewer_for(query["view"])
    disclosure.check_side(rulesets.get(ruleset).rules, viewer)
    projected_to = projected(query["min_position"])
    return {"campaign_id": campaign_id, "quests": view.read(views().store, campaign_id, viewer), "projected_to": projected_to}


@blp.route("/<campaign_id>/treachery-ledger")
class TreacheryLedger(MethodView):
    @access.player
    @blp.doc(operationId="getTreacheryLedger")
    @contract.problems(503)
    @blp.arguments(schemas.SideViewRead, location="query")
    @blp.response(200, schemas.DescentRead)
    def get(self, query, campaign_id: str):
        """Per quest: treachery granted, spent by colour, cards swapped in and out, dark glyphs, unspent and the opening hand."""
        return _read(campaign_id, "treachery-ledger", query)


@blp.route("/<campaign_id>/conquest")
class Conquest(MethodView):
    @access.player
    @blp.doc(operationId="getConquestAndThreat")
    @contract.problems(503)
    @blp.arguments(schemas.SideViewRead, location="query")
    @blp.response(200, schemas.DescentRead)
    def get(self, query, campaign_id: str):
        """Per quest: the conquest and threat timelines, each step with its event position."""
        return _read(campaign_id, "conquest", query)
