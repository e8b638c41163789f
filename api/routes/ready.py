"""GET /ready: whether this worker should be sent requests now, for a load balancer or a deploy to wait on.

Beside GET /health (is the service up, and how are its views): ready means the database answers, this worker
finished its warm-up (api/warming.py) and the views are within TRACKER_READY_MAX_LAG events of the log's head, on
every shard. Not ready is a 503 with Retry-After, and the same body saying which of the three is missing.
"""

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

blp = Blueprint("ready", __name__, url_prefix="/ready", description="Is the service up")
RETRY_AFTER_SECONDS = 2
WARMING = "tracker_warming"  # app.extensions: True while the worker warms itself (api/warming.py)
WARMED = "tracker_warmed"  # app.extensions: False from the app's creation until its warm-up ends, when it has one


def expect_warm_up(app: Any) -> None:
    """The app warms itself before it serves (create_app, with warm_at_boot): not ready until api/warming.py is done."""
    app.extensions[WARMED] = False


@blp.route("")
class Ready(MethodView):
    @access.anyone
    @blp.doc(operationId="getReadiness")
    @blp.response(200, schemas.Readiness)
    @blp.alt_response(503, schema=schemas.Readiness, description="Not ready: the database does not answer, the worker is "
                                                                 "still warming up, or the views are more than TRACKER_READY_MAX_LAG "
                                                                 "events behind the log")
    def get(self):
        """Whether to send this worker requests: the database answers, the warm-up is done and the views are current
        within TRACKER_READY_MAX_LAG events. GET /health says more about the views and the shards."""
        max_lag = current_app.config["READY_MAX_LAG"]
        warmed = bool(current_app.extensions.get(WARMED, True)) and not current_app.extensions.get(WARMING)
        body: dict[str, Any] = {"status": "ready", "database": True, "warmed_up": warmed}
        try:
            lag, formations = _each_database()
        except Exception as error:  # noqa: BLE001 - a database that does not answer is what this answer is for
            body.update(status="database-unavailable", database=False,
                        reason=f"The database did not answer: {type(error).__name__}")
            return body, 503, {"Retry-After": str(RETRY_AFTER_SECONDS)}
        body["views"] = {"lag": lag, "max_lag": max_lag}
        body.update(formations)
        if not warmed:
            body.update(status="warming-up", reason="This worker is still warming up; it serves once it is done")
        elif lag > max_lag:
            body.update(status="views-behind", reason=f"The views are {lag} events behind the log; ready within {max_lag}")
        else:
            return body
        return body, 503, {"Retry-After": str(RETRY_AFTER_SECONDS)}


def _each_database() -> tuple[int, dict[str, Any]]:
    """One walk over the home database and each other shard, asking each (this is the database check too): how far the
    slowest one's views are behind its log, and which server of each answers and how its standbys replicate
    (tracker/adapters/formation.py; PostgreSQL only). The formations are reported, not judged: a primary committing
    alone after a failover (wait_primary) still takes writes, so it is ready."""
    lags = [max(0, (tracker().recorder.max_notification_id() or 0) - views().position)]
    found: dict[str, Any] = {}
    home = formation.of_recorder(tracker().recorder)
    if home is not None:
        found["formation"] = home
    placed = router()
    if placed is not None:
        shards = []
        for name in placed.placement.shards():
            if name != HOME:
                shard = placed.shard(name)
                lags.append(max(0, (shard.tracker.recorder.max_notification_id() or 0) - shard.views.position))
                shards.append({"name": name, "formation": formation.of_recorder(shard.tracker.recorder)})
        found["shards"] = [shard for shard in shards if shard["formation"] is not None]
    return max(lags), found
