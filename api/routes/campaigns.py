from __future__ import annotations

import io
import threading

from flask import Response, current_app, request
from flask.views import MethodView
from werkzeug.routing import BaseConverter

from api import access, contract, metrics, problems, schemas
from api.blueprint import Blueprint
from api.sharding import import_placing, place_new_campaign
from api.context import WrongSide, command_request, projected, respond, tracker, viewer_for, views
from projections import dice_statistics, standing, views as registered_views
from tracker.portability.export_file import ExportLines

blp = Blueprint("campaigns", __name__, url_prefix="/campaigns", description="Campaigns and their sessions")


class CampaignId(BaseConverter):
    """A campaign's id in /campaigns/<id>: any path segment but the words of the routes beside it (``import``), so a
    request for /campaigns/import matches that route alone and its Allow header names only that route's methods."""

    regex = r"(?!import$)[^/]+"


blp.record_once(lambda state: state.app.url_map.converters.setdefault("campaign_id", CampaignId))


@blp.route("")
class Campaigns(MethodView):
    @access.anyone
    @blp.doc(operationId="createCampaign")
    @blp.arguments(schemas.CampaignCreate)
    @blp.response(201, schemas.CampaignCreated)
    def post(self, body):
        """Create a campaign; the ruleset's version and hash are pinned."""
        result = tracker().create_campaign(
            body["ruleset"], body["name"], body.get("party"), body.get("components"), body.get("options"), request=command_request()
        )
        place_new_campaign(result.body["id"])
        return respond(result)


EXPORT_TYPE = "application/x-ndjson"
IMPORT_RETRY_SECONDS = 5


@blp.route("/import")
class CampaignImport(MethodView):
    @access.anyone
    @blp.doc(operationId="importCampaign")
    @contract.problems(429)  # one import at a time per worker, though the operation is public
    @blp.doc(requestBody={"required": True, "content": {EXPORT_TYPE: {"schema": {"type": "string", "format": "binary"}}}})
    @blp.response(201, schemas.Imported)
    def post(self):
        """Load a campaign export (the body is the .jsonl file): checked whole first, then written at once, or refused.
        One import at a time per server process: others get 429 with Retry-After."""
        request.max_content_length = current_app.config["IMPORT_MAX_BYTES"]
        slot: threading.Lock = current_app.extensions["tracker_import_slot"]
        if not slot.acquire(blocking=False):  # an import of a large file takes a worker's memory and CPU for seconds
            return problems.problem(
                429, "Another import is running on this server; retry shortly", "Imports run one at a time per server process.",
                headers={"Retry-After": str(IMPORT_RETRY_SECONDS)},
            )
        try:
            # A body sent as application/json was already read (at most 1 MB) by the checks every JSON body gets.
            body = metrics.CountedBody(io.BytesIO(request.get_data()) if request.is_json else request.stream)
            try:
                with ExportLines.spooled(body) as lines:  # read from disk, never held whole in memory
                    result = tracker().import_campaign(lines, request=command_request(), placing=import_placing())
                    return respond(result)
            finally:
                body.observe()  # GET /metrics' import sizes, imported or refused
        finally:
            slot.release()


@blp.route("/<campaign_id:campaign_id>")
class CampaignResource(MethodView):
    @access.player
    @blp.doc(operationId="getCampaign")
    @blp.response(200, schemas.Campaign)
    def get(self, campaign_id: str):
        """The campaign: its pinned ruleset, party, quest chain and sessions."""
        return tracker().get_campaign(campaign_id)


@blp.route("/<campaign_id>/sessions")
class CampaignSessions(MethodView):
    @access.player
    @blp.doc(operationId="startSession")
    @blp.arguments(schemas.SessionCreate)
    @blp.response(201, schemas.SessionCreated)
    def post(self, body, campaign_id: str):
        """Start a session of a quest; returns the commitment to its secret seed."""
        result = tracker().start_session(campaign_id, body["quest"], body.get("setup"), request=command_request())
        return respond(result)


@blp.route("/<campaign_id>/components")
class CampaignComponents(MethodView):
    @access.owner
    @blp.doc(operationId="supplyComponents")
    @blp.arguments(schemas.ComponentsSupply)
    @blp.response(201, schemas.ComponentsSupplied)
    def post(self, body, campaign_id: str):
        """Supply component data the rules lost, after the campaign was created: only facts still unknown, pinned by
        content hash; sessions started from now on use it, and sessions in play get it too, pinned in their own streams. Owner only."""
        return respond(tracker().supply_components(campaign_id, body["components"], request=command_request()))


@blp.route("/<campaign_id>/components/missing")
class MissingComponents(MethodView):
    @access.player
    @blp.doc(operationId="listMissingFacts")
    @blp.response(200, schemas.MissingFacts)
    def get(self, campaign_id: str):
        """Every fact the rulebooks lost that the campaign has not supplied: its path in the component data, why it is
        unknown, what it blocks (quest set-up, actions, digital rolls and draws) and whether the table may state it per use."""
        return tracker().missing_facts(campaign_id)


@blp.route("/<campaign_id>/dice-statistics")
class CampaignDiceStatistics(MethodView):
    @access.player
    @blp.doc(operationId="getDiceStatistics")
    @contract.problems(503)
    @blp.arguments(schemas.ViewRead, location="query")
    @blp.response(200, schemas.DiceStatistics)
    def get(self, query, campaign_id: str):
        """How often each face came up, digital and reported rolls apart (from the projected view)."""
        tracker().get_campaign(campaign_id)
        projected_to = projected(query["min_position"])
        return {"campaign_id": campaign_id, "faces": dice_statistics.read(views().store, campaign_id), "projected_to": projected_to}


@blp.route("/<campaign_id>/standing")
class CampaignStanding(MethodView):
    @access.player
    @blp.doc(operationId="getStanding")
    @contract.problems(503)
    @blp.arguments(schemas.ViewRead, location="query")
    @blp.response(200, schemas.Standing)
    def get(self, query, campaign_id: str):
        """The campaign's standing: its game's standing view (if the game keeps one), the progress its last
        quest's end recorded, and its latest session's game state (all from the projected views)."""
        campaign = tracker().get_campaign(campaign_id)
        projected_to = projected(query["min_position"])
        view = registered_views.of_game(campaign["ruleset"]["id"], "standing")
        kept = view.read(views().store, campaign_id) if view is not None else {}
        return {"campaign_id": campaign_id, "standing": kept, **standing.read(views().store, campaign_id, campaign["ruleset"]), "projected_to": projected_to}


@blp.route("/<campaign_id>/state")
class CampaignStateAt(MethodView):
    @access.player
    @blp.doc(operationId="getCampaignStateAt")
    @blp.arguments(schemas.StateQuery, location="query")
    @blp.response(200, schemas.Campaign)
    def get(self, query, campaign_id: str):
        """Time travel: the campaign just after its event at position `at`, rebuilt from the log."""
        return tracker().campaign_state_at(campaign_id, query["at"])


@blp.route("/<campaign_id>/export")
class CampaignExport(MethodView):
    @access.player
    @blp.doc(operationId="exportCampaign")
    @blp.doc(responses={"200": {"description": "JSON Lines: header, every event, trailer", "content": {EXPORT_TYPE: {"schema": {"type": "string", "format": "binary"}}}}})
    def get(self, campaign_id: str):
        """The campaign and its sessions as JSON Lines, for another server or tracker/integrity/verify_export.py.
        A token that may not see every side's secrets cannot export while a quest with secrets is being played."""
        if viewer_for(None) is not None and tracker().has_secrets_in_play(campaign_id):
            raise WrongSide(
                "The export holds another side's secrets until the quest ends",
                detail="Export as the campaign's owner, or after the quest in progress has ended.",
            )
        lines = tracker().export_campaign(campaign_id, service=request.url_root.rstrip("/"))
        disposition = f'attachment; filename="campaign-{campaign_id}.jsonl"'
        return Response("".join(lines), mimetype=EXPORT_TYPE, headers={"Content-Disposition": disposition})


@blp.route("/<campaign_id>/tokens")
class CampaignTokens(MethodView):
    @access.owner
    @blp.doc(operationId="listTokens")
    @blp.response(200, schemas.Token(many=True))
    def get(self, campaign_id: str):
        """The campaign's tokens (never the tokens themselves). Owner only."""
        return tracker().list_tokens(campaign_id)

    @access.owner
    @blp.doc(operationId="mintToken")
    @blp.arguments(schemas.TokenMint)
    @blp.response(201, schemas.MintedToken)
    def post(self, body, campaign_id: str):
        """Mint a token for a player, a viewer or an integration; the token is shown once. Owner only."""
        result = tracker().mint_token(
            campaign_id, body["role"], body.get("heroes"), body.get("side"), body.get("label"), request=command_request()
        )
        return respond(result)


@blp.route("/<campaign_id>/tokens/<token_id>")
class CampaignToken(MethodView):
    @access.owner
    @blp.doc(operationId="revokeToken")
    @blp.response(200, schemas.Token)
    def delete(self, campaign_id: str, token_id: str):
        """Revoke a token: it stops working at once. Owner only."""
        return respond(tracker().revoke_token(campaign_id, token_id, request=command_request()))
