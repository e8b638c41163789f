"""GET /metrics: the service's counters for Prometheus (api/metrics.py says what is counted)."""

from __future__ import annotations

import hmac
from collections.abc import Iterator

from flask import Response, current_app, request
from flask.views import MethodView

from api import access, contract, metrics, problems
from api.blueprint import Blueprint
from api.context import tracker, views
from api.sharding import router
from projections import views as registered_views
from tracker.sharding.placement import HOME

blp = Blueprint("metrics", __name__, url_prefix="/metrics", description="Counters for Prometheus")


@blp.route("")
class Metrics(MethodView):
    @access.anyone
    @blp.doc(operationId="getMetrics")
    @contract.problems(401)  # when TRACKER_METRICS_TOKEN is set
    @blp.doc(responses={
        "200": {
            "description": "Prometheus' text exposition format: requests and their latency by route template and status, "
            "commands by operation and outcome, refusals by status, the views' lag per shard and view, open event "
            "streams, import sizes. Labels never hold an id or a token.",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        },
    })
    def get(self):
        """The counters of every worker of this server. Public unless TRACKER_METRICS_TOKEN is set; then send it as
        `Authorization: Bearer <TRACKER_METRICS_TOKEN>` (it is no campaign's token)."""
        wanted = current_app.config["METRICS_TOKEN"]
        if wanted:
            scheme, _, sent = request.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(sent.strip().encode(), wanted.encode()):
                return problems.problem(
                    401, "Send the metrics token: Authorization: Bearer <TRACKER_METRICS_TOKEN>",
                    "This server's operator set TRACKER_METRICS_TOKEN; a campaign's token does not open the metrics.",
                    headers={"WWW-Authenticate": 'Bearer realm="campaign-tracker metrics"'},
                )
        body, content_type = metrics.scrape(current_app.config["METRICS_DIR"], _lag)
        return Response(body, content_type=content_type)


def _lag() -> Iterator[tuple[str, str, int]]:
    """Each view's distance from its log's head, on the home database and on each shard. The views of one database
    are projected together, by one runner with one tracking position (projections/runner.py), so today the views
    of a shard are behind by the same count; each is named, so a view given a runner of its own is counted as such."""
    names = [view.name for view in registered_views.registered()]
    databases = [(HOME, tracker(), views())]
    found = router()
    if found is not None:
        databases += [(shard.name, shard.tracker, shard.views) for shard in found.every_shard() if shard.name != HOME]
    for shard, app, runner in databases:
        behind = max(0, (app.recorder.max_notification_id() or 0) - runner.position)
        for name in names:
            yield shard, name, behind
