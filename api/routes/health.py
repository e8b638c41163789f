from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView

from api import access, schemas
from api.blueprint import Blueprint
from api.context import tracker, views
from api.sharding import router
from tracker.adapters import formation
from tracker.sharding.placement import HOME

blp = Blueprint("health", __name__, url_prefix="/health", description="Is the service up")


@blp.route("")
class Health(MethodView):
    @access.anyone
    @blp.doc(operationId="getHealth")
    @blp.response(200, schemas.Health)
    @blp.alt_response(503, schema=schemas.Health, description="The views of a shard have not moved for longer than TRACKER_VIEWS_STALL_SECONDS, "
                                                             "or a shard's database does not answer")
    def get(self):
        """Reads the event store's position and the views' position, and whether the views are stuck; with shards,
        the same for every shard (the top-level fields are the home shard's, as without shards)."""
        app = tracker()
        body: dict[str, Any] = {"status": "ok", "database": "postgresql" if "postgres" in app.env.get("PERSISTENCE_MODULE", "") else "sqlite"}
        threshold = current_app.config["VIEWS_STALL_SECONDS"]
        home, home_stalled = _log_and_views(app, views(), threshold)
        body.update(home)
        stalled, unreachable = home_stalled, False
        found = router()
        if found is not None:
            body["shards"] = []
            for name in found.placement.shards():
                try:
                    shard = found.shard(name)
                    each, each_stalled = _log_and_views(shard.tracker, views() if name == HOME else shard.views, threshold)
                except Exception as error:  # noqa: BLE001 - a shard's database down is what this answer is for
                    body["shards"].append({"name": name, "error": f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"})
                    unreachable = True
                    continue
                body["shards"].append({"name": name, **each})
                stalled = stalled or each_stalled
        if unreachable:
            body["status"] = "shard-unreachable"
        elif stalled:
            body["status"] = "views-stalled"
        elif _failing(body):
            # Not "ok" while a batch keeps failing: still a 200 (one failure may be a lost connection that the next
            # try gets past), but the status says what the views say, so a probe reading only it is not told "ok".
            body["status"] = "views-failing"
            return body
        else:
            return body
        return body, 503, {"Retry-After": str(max(1, int(threshold) or 1))}


def _log_and_views(app: Any, runner: Any, threshold: float) -> tuple[dict[str, Any], bool]:
    """One database's log end, its views' position and whether they are stuck (past ``threshold``)."""
    answer: dict[str, Any] = {"notifications": app.recorder.max_notification_id() or 0, "projected_to": runner.position, "views": {"status": "current"}}
    formation_now = formation.of_recorder(app.recorder)
    if formation_now is not None:
        answer["formation"] = formation_now
    stall = runner.stall  # known only where the runner runs in this process (TRACKER_PROJECTIONS_IN_PROCESS)
    if stall is None:
        return answer, False
    answer["views"] = {"status": "stalled", **stall.describe()}
    # a batch can fail once (a lost connection) and pass on the next try
    return answer, stall.seconds() >= threshold


def _failing(body: dict[str, Any]) -> bool:
    """Whether the views of the home shard, or of any shard, are failing to project (stalled, under the threshold)."""
    return any(part.get("views", {}).get("status") == "stalled" for part in [body, *body.get("shards", [])])
