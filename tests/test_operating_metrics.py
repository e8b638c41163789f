"""GET /metrics (issue 34): Prometheus counts of requests, commands, refusals, the views' lag, open streams and
import sizes; through a real gunicorn with several workers, each scrape adds up every worker's counts."""

from __future__ import annotations

import os
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from api import create_app
from tests.kit.server import BIN, call, free_port, start, stop

ANYONE = {"Authorization": ""}  # a request without the owner token tests/kit/server.py would otherwise send


def samples(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels`` (Prometheus' text format)."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        series, _, value = line.rpartition(" ")
        found_name, _, rest = series.partition("{")
        if found_name != name:
            continue
        pairs = dict(part.split("=", 1) for part in rest.rstrip("}").split(",") if part) if rest else {}
        if all(pairs.get(key) == f'"{wanted}"' for key, wanted in labels.items()):
            total += float(value)
    return total


def scrape(base: str, headers: dict[str, str] | None = None) -> str:
    with urllib.request.urlopen(urllib.request.Request(base + "/metrics", headers=headers or {}), timeout=30) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/plain")
        return answer.read().decode()


@pytest.fixture
def workers(tmp_path: Path, request: pytest.FixtureRequest):
    """gunicorn with three workers, on SQLite, its metrics directory named by the operator (so the test can see
    which workers counted)."""
    port = free_port()
    metrics_dir = tmp_path / "metrics"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'metrics.sqlite3'}", "PORT": str(port), "WEB_CONCURRENCY": "3",
           "GUNICORN_THREADS": "2", "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "TRACKER_PROJECTIONS_IN_PROCESS": "1"}
    process, base, log_path = start([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.wsgi:app"], env, tmp_path, port)
    yield base, metrics_dir
    stop(process, log_path, request)


@pytest.mark.server
def test_a_scrape_adds_up_the_counts_of_every_worker(workers):
    base, metrics_dir = workers
    status, campaign = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Counted"})
    assert status == 201
    _, session = call(base, "POST", f"/campaigns/{campaign['id']}/sessions", {"quest": "q1-meeting"})
    sent = 0
    with ThreadPoolExecutor(max_workers=6) as pool:
        # Each call is a connection of its own, which any worker may accept: on until at least two workers counted.
        while sent < 600 and len(list(metrics_dir.glob("counter_*.db"))) < 2 or sent < 30:
            list(pool.map(lambda _: call(base, "GET", "/rulesets", headers=ANYONE), range(30)))
            sent += 30
    assert len(list(metrics_dir.glob("counter_*.db"))) >= 2, "one worker answered every request"
    rolled = [call(base, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d6": 1}})[0] for _ in range(4)]
    refused = [call(base, "POST", f"/sessions/{session['id']}/rolls", {"dice": {"d7": 1}})[0] for _ in range(3)]
    assert rolled == [201] * 4 and set(refused) == {422}
    assert call(base, "GET", f"/sessions/{session['id']}", headers={"Authorization": "Bearer not-a-token"})[0] == 401

    for _ in range(4):  # whichever worker answers the scrape, the totals are the same
        text = scrape(base)
        assert samples(text, "tracker_http_requests_total", route="/rulesets", method="GET", status="200") == sent
        assert samples(text, "tracker_http_request_duration_seconds_count", route="/rulesets", status="200") == sent
        assert samples(text, "tracker_http_requests_total", route="/sessions/<session_id>/rolls", status="201") == 4
        assert samples(text, "tracker_commands_total", command="rollDice", outcome="accepted") == 4
        assert samples(text, "tracker_commands_total", command="rollDice", outcome="refused") == 3
        assert samples(text, "tracker_commands_total", command="createCampaign", outcome="accepted") == 1
        assert samples(text, "tracker_refusals_total", status="422") == 3
        assert samples(text, "tracker_refusals_total", status="401") == 1  # the warm-up's own 401s are not counted
        assert 'tracker_projection_lag_events{shard="home",view="timeline"}' in text
    # Labels are route templates: no id and no token of the campaign shows in a scrape.
    for secret in (campaign["id"], session["id"], campaign["owner_token"], campaign["owner_token_id"]):
        assert secret not in text


@pytest.mark.server
def test_open_event_streams_are_counted_while_they_are_open(workers):
    base, _ = workers
    _, campaign = call(base, "POST", "/campaigns", {"ruleset": "journey", "name": "Streams"})
    token = campaign["owner_token"]
    opened = threading.Event()

    def listen() -> None:
        request = urllib.request.Request(base + "/events/stream?wait=3", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.readline()  # the retry: line, sent as the stream opens
            opened.set()
            answer.read()

    listener = threading.Thread(target=listen)
    listener.start()
    assert opened.wait(20)
    assert samples(scrape(base), "tracker_event_streams_open") == 1
    listener.join(30)
    deadline = time.monotonic() + 10
    while samples(scrape(base), "tracker_event_streams_open") != 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert samples(scrape(base), "tracker_event_streams_open") == 0


def test_the_lag_is_the_events_the_views_have_not_projected(database_url, tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "PROJECTIONS_IN_PROCESS": False})
    try:
        client = app.test_client()
        created = client.post("/campaigns", json={"ruleset": "journey", "name": "Behind"}).json
        head = app.extensions["tracker"].recorder.max_notification_id()
        behind = head - app.extensions["tracker_views"].position
        text = client.get("/metrics").get_data(as_text=True)
        assert behind > 0 and samples(text, "tracker_projection_lag_events", shard="home", view="timeline") == behind
        app.extensions["tracker_views"].catch_up()
        text = client.get("/metrics").get_data(as_text=True)
        assert samples(text, "tracker_projection_lag_events", shard="home", view="timeline") == 0
        assert created["owner_token"] not in text
    finally:
        app.extensions["tracker_service"].close()


def test_an_import_s_size_is_counted(database_url):
    app = create_app({"TESTING": True, "DATABASE_URL": database_url})
    try:
        client = app.test_client()
        before = samples(client.get("/metrics").get_data(as_text=True), "tracker_import_bytes_sum")
        body = b'{"not": "an export"}\n' * 3
        refused = client.post("/campaigns/import", data=body, content_type="application/x-ndjson")
        assert refused.status_code == 422
        after = samples(client.get("/metrics").get_data(as_text=True), "tracker_import_bytes_sum")
        assert after - before == len(body)
    finally:
        app.extensions["tracker_service"].close()


def test_with_a_metrics_token_the_scrape_needs_it_and_a_campaign_token_does_not_open_it(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'token.sqlite3'}", "METRICS_TOKEN": "scrape-me"})
    try:
        client = app.test_client()
        owner = client.post("/campaigns", json={"ruleset": "journey", "name": "Private"}).json["owner_token"]
        refused = client.get("/metrics")
        assert refused.status_code == 401 and refused.content_type == "application/problem+json"
        assert "TRACKER_METRICS_TOKEN" in refused.json["title"]
        assert client.get("/metrics", headers={"Authorization": f"Bearer {owner}"}).status_code == 401
        allowed = client.get("/metrics", headers={"Authorization": "Bearer scrape-me"})
        assert allowed.status_code == 200 and "tracker_http_requests_total" in allowed.get_data(as_text=True)
        assert owner not in allowed.get_data(as_text=True)
    finally:
        app.extensions["tracker_service"].close()
