from __future__ import annotations

from flask import current_app
from flask.views import MethodView

from api import access, schemas
from api.blueprint import Blueprint
from api.context import tracker, views

blp = Blueprint("health", __name__, url_prefix="/health", description="Is the service up")


@blp.route("")
class Health(MethodView):
    @access.anyone
    @blp.doc(operationId="getHealth")
    @blp.response(200, schemas.Health)
    @blp.alt_response(503, schema=schemas.Health, description="The views have not moved for longer than TRACKER_VIEWS_STALL_SECONDS")
    def get(self):
        """Reads the event store's position and the views' position, and whether the views are stuck."""
        app, runner = tracker(), views()
        body = {
            "status": "ok",
            "database": "postgresql" if "postgres" in app.env.get("PERSISTENCE_MODULE", "") else "sqlite",
            "notifications": app.recorder.max_notification_id() or 0,
            "projected_to": runner.position,
            "views": {"status": "current"},
        }
        stall = runner.stall  # known only where the runner runs in this process (TRACKER_PROJECTIONS_IN_PROCESS)
        if stall is None:
            return body
        body["views"] = {"status": "stalled", **stall.describe()}
        threshold = current_app.config["VIEWS_STALL_SECONDS"]
        if stall.seconds() < threshold:
            return body  # a batch can fail once (a lost connection) and pass on the next try
        body["status"] = "views-stalled"
        return body, 503, {"Retry-After": str(max(1, int(threshold) or 1))}
