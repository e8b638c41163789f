from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from api import schemas
from api.context import command_request, respond, tracker, views

blp = Blueprint("campaigns", __name__, url_prefix="/campaigns", description="Campaigns and their sessions")


@blp.route("")
class Campaigns(MethodView):
    @blp.arguments(schemas.CampaignCreate)
    @blp.response(201, schemas.Campaign)
    def post(self, body):
        """Create a campaign; the ruleset's version and hash are pinned."""
        result = tracker().create_campaign(
            body["ruleset"], body["name"], body.get("party"), body.get("components"), body.get("options"), request=command_request()
        )
        return respond(result)


@blp.route("/<campaign_id>")
class CampaignResource(MethodView):
    @blp.response(200, schemas.Campaign)
    def get(self, campaign_id: str):
        """The campaign: its pinned ruleset, party, quest chain and sessions."""
        return tracker().get_campaign(campaign_id)


@blp.route("/<campaign_id>/sessions")
class CampaignSessions(MethodView):
    @blp.arguments(schemas.SessionCreate)
    @blp.response(201, schemas.SessionCreated)
    def post(self, body, campaign_id: str):
        """Start a session of a quest; returns the commitment to its secret seed."""
        result = tracker().start_session(campaign_id, body["quest"], body.get("setup"), request=command_request())
        return respond(result)


@blp.route("/<campaign_id>/dice-statistics")
class CampaignDiceStatistics(MethodView):
    @blp.response(200, schemas.DiceStatistics)
    def get(self, campaign_id: str):
        """How often each face came up, digital and reported rolls apart (from the projected view)."""
        tracker().get_campaign(campaign_id)
        return {"campaign_id": campaign_id, "faces": views().store.dice_faces(campaign_id), "projected_to": views().position}


@blp.route("/<campaign_id>/tokens")
class CampaignTokens(MethodView):
    @blp.response(200, schemas.Token(many=True))
    def get(self, campaign_id: str):
        """The campaign's tokens (never the tokens themselves). Owner only."""
        return tracker().list_tokens(campaign_id)

    @blp.arguments(schemas.TokenMint)
    @blp.response(201, schemas.Token)
    def post(self, body, campaign_id: str):
        """Mint a token for a player, a viewer or an integration; the token is shown once. Owner only."""
        result = tracker().mint_token(
            campaign_id, body["role"], body.get("heroes"), body.get("side"), body.get("label"), request=command_request()
        )
        return respond(result)


@blp.route("/<campaign_id>/tokens/<token_id>")
class CampaignToken(MethodView):
    @blp.response(200, schemas.Token)
    def delete(self, campaign_id: str, token_id: str):
        """Revoke a token: it stops working at once. Owner only."""
        return respond(tracker().revoke_token(campaign_id, token_id, request=command_request()))
