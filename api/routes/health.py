from __future__ import annotations

from flask.views import MethodView

from api import schemas
from api.blueprint import Blueprint
from api.context import tracker, views

blp = Blueprint("health", __name__, url_prefix="/health", description="Is the service up")


@blp.route("")
class Health(MethodView):
    @blp.doc(operationId="getHealth")
    @blp.response(200, schemas.Health)
    def get(self):
        """Reads the event store's position and the views' position."""
        app = tracker()
        return {
            "status": "ok",
            "database": "postgresql" if "postgres" in app.env.get("PERSISTENCE_MODULE", "") else "sqlite",
            "notifications": app.recorder.max_notification_id() or 0,
            "projected_to": views().position,
        }
