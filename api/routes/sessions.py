from __future__ import annotations

from flask import request
from flask.views import MethodView

from api import access, contract, schemas
from api.blueprint import Blueprint
from api.context import command_request, projected, respond, tracker, viewer_side, views
from projections import timeline
from tracker.core.randomness import __doc__ as DERIVATION

blp = Blueprint("sessions", __name__, url_prefix="/sessions", description="Playing a quest: rolls, draws, actions")


@blp.route("/<session_id>")
class SessionResource(MethodView):
    @access.player
    @blp.doc(operationId="getSession")
    @blp.arguments(schemas.SideView, location="query")
    @blp.response(200, schemas.SessionState)
    def get(self, query, session_id: str):
        """The session's state, derived from its events; secrets of another side are hidden until the quest ends
        (a player token sees its own side; the owner may ask for ?view=<side>)."""
        return tracker().get_session(session_id)  # the way out shows each side its own (api/blueprint.py)


@blp.route("/<session_id>/rolls")
class Rolls(MethodView):
    @access.player
    @blp.doc(operationId="rollDice")
    @contract.headers("IfMatch")
    @blp.arguments(schemas.Roll)
    @blp.doc(requestBody={"content": {"application/json": {"schema": {"oneOf": [
        {"$ref": "#/components/schemas/DigitalRoll"}, {"$ref": "#/components/schemas/ReportedRoll"}]}}}})
    @blp.response(201, schemas.RollResult)
    def post(self, body, session_id: str):
        """Roll dice from the session's stream, or record faces rolled on the table."""
        result = tracker().roll(session_id, body.get("dice"), body.get("faces"), body.get("purpose"), request=command_request())
        return respond(result)


@blp.route("/<session_id>/draws")
class Draws(MethodView):
    @access.player  # a player's draw for another's hero or side: the command refuses it (tracker/application/authorization.py)
    @blp.doc(operationId="drawCards")
    @contract.headers("IfMatch")
    @blp.arguments(schemas.Draw)
    @blp.response(201, schemas.DrawResult)
    def post(self, body, session_id: str):
        """Draw cards digitally, or record cards drawn from the physical deck."""
        result = tracker().draw(
            session_id, body["deck"], body.get("count"), body.get("cards"), body.get("holder"), request=command_request()
        )
        return respond(result)


@blp.route("/<session_id>/actions")
class Actions(MethodView):
    @access.player  # a player's action for another's hero or side: the command refuses it (tracker/application/authorization.py)
    @blp.doc(operationId="takeAction")
    @contract.headers("IfMatch")
    @blp.arguments(schemas.Action)
    @blp.doc(requestBody={"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ActionBody"}}}})
    @blp.response(201, schemas.ActionResult)
    def post(self, body, session_id: str):
        """Take an action of the ruleset (see GET /rulesets/{id} for the types and their schemas)."""
        result = tracker().act(session_id, body, request=command_request())
        return respond(result)


@blp.route("/<session_id>/end")
class End(MethodView):
    @access.player
    @blp.doc(operationId="endSession")
    @contract.headers("IfMatch")
    @blp.arguments(schemas.End)
    @blp.response(200, schemas.Ended)
    def post(self, body, session_id: str):
        """End the session with the outcome the rules allow (409 with the condition not met), or, as the owner,
        by a table ruling; reveals the seed."""
        result = tracker().end_session(session_id, body["outcome"], body.get("ruling"), body.get("reported"), request=command_request())
        return respond(result)


@blp.route("/<session_id>/abandon")
class Abandon(MethodView):
    @access.player  # any player token reaches the command; only the owner may abandon (the command refuses the rest, 403)
    @blp.doc(operationId="abandonSession")
    @contract.headers("IfMatch")
    @contract.problems(403)
    @blp.arguments(schemas.Abandon)
    @blp.response(200, schemas.Abandoned)
    def post(self, body, session_id: str):
        """The owner stops a session without an outcome: not counted as played, shown as abandoned in the campaign; reveals the seed."""
        return respond(tracker().abandon_session(session_id, body["reason"], request=command_request()))


@blp.route("/<session_id>/events")
class Events(MethodView):
    @access.reader
    @blp.doc(operationId="listSessionEvents")
    @blp.arguments(schemas.EventsQuery, location="query")
    @blp.response(200, schemas.EventPage)
    def get(self, query, session_id: str):
        """The session's events, oldest first, after position `after`."""
        return tracker().session_events(session_id, query["after"], query["limit"])


@blp.route("/<session_id>/timeline")
class Timeline(MethodView):
    @access.player
    @blp.doc(operationId="getTimeline")
    @contract.problems(503)
    @blp.arguments(schemas.TimelineQuery, location="query")
    @blp.response(200, schemas.Timeline)
    def get(self, query, session_id: str):
        """Every event as a person would say it, with who issued it (from the projected view)."""
        session = tracker().get_session(session_id)
        viewer = None if session["status"] != "in-progress" else viewer_side()  # ended, or abandoned
        projected_to = projected(query["min_position"])
        entries = timeline.read(views().store, session_id, query["after"], query["limit"], viewer=viewer)
        return {"session_id": session_id, "entries": entries, "projected_to": projected_to}


@blp.route("/<session_id>/verification")
class Verification(MethodView):
    @access.player
    @blp.doc(operationId="verifySession")
    @blp.response(200, schemas.Verification)
    def get(self, session_id: str):
        """Re-derive the session: the seed against its commitment, every roll and shuffle, every action."""
        return {**tracker().verify(session_id), "session_id": session_id, "derivation": DERIVATION}


@blp.route("/<session_id>/receipt")
class Receipt(MethodView):
    @access.reader
    @blp.doc(operationId="getSessionReceipt")
    @blp.response(200, schemas.Receipt)
    def get(self, session_id: str):
        """The session's receipt, signed by the service: its start (seed commitment, head hashes) while in play, its
        end (head hash, random counter, outcome, verdict) once ended. Keep it: `verifier.py export.jsonl --receipt
        FILE` finds any later export of the campaign that disagrees with it."""
        return tracker().session_receipt(session_id, service=request.url_root.rstrip("/"))


@blp.route("/<session_id>/state")
class SessionStateAt(MethodView):
    @access.player
    @blp.doc(operationId="getSessionStateAt")
    @blp.arguments(schemas.StateQuery, location="query")
    @blp.response(200, schemas.SessionState)
    def get(self, query, session_id: str):
        """Time travel: the session's state just after its event at position `at`, rebuilt from the log."""
        return tracker().session_state_at(session_id, query["at"])


@blp.route("/<session_id>/undo")
class Undo(MethodView):
    @access.player
    @blp.doc(operationId="undoAction")
    @contract.headers("IfMatch")
    @blp.response(201, schemas.UndoResult)
    def post(self, session_id: str):
        """Revert the last action not yet undone; the log keeps both, and the random counter never goes back."""
        return respond(tracker().undo(session_id, request=command_request()))
