"""TRACKER_CORS_ORIGINS (issue 34): a page on an allowed origin calls the API from a real headless Chromium (the
preflight, which was a 401, passes); a page on any other origin is refused by its browser; off by default."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server
from werkzeug.wrappers import Response

from api import create_app
from tests.kit.pages_browser import chromium  # noqa: F401 - the module's browser

pytestmark = pytest.mark.browser

PAGE = "<!doctype html><title>another site</title><p>an integrator's page</p>"


def _serve(app) -> Iterator[tuple[str, int]]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture
def sites(tmp_path):
    """The API, allowing the origin of a second site (http://127.0.0.1:<its port>); the same site reached as
    http://localhost:<port> is another origin, not allowed."""
    other_site = _serve(lambda environ, start: Response(PAGE, mimetype="text/html")(environ, start))
    port = next(other_site)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'cors.sqlite3'}",
                      "CROSS_ORIGINS": f"http://127.0.0.1:{port}, https://elsewhere.example"})
    api = _serve(app)
    api_port = next(api)
    yield app, f"http://127.0.0.1:{api_port}", f"http://127.0.0.1:{port}", f"http://localhost:{port}"
    for server in (api, other_site):
        next(server, None)
    app.extensions["tracker_service"].close()


CALL = """async ([api, token]) => {
    try {
        const answer = await fetch(api + "/campaigns/" + token.campaign, {headers: {"Authorization": "Bearer " + token.value,
                                                                                    "X-Correlation-Id": "from-the-page"}});
        return {status: answer.status, name: (await answer.json()).name, correlation: answer.headers.get("X-Correlation-Id")};
    } catch (error) {
        return {failed: String(error)};
    }
}"""


def test_a_page_on_an_allowed_origin_calls_the_api_and_another_origin_s_page_cannot(chromium, sites):  # noqa: F811
    app, api, allowed, other = sites
    created = app.test_client().post("/campaigns", json={"ruleset": "journey", "name": "Across origins"}).json
    token = {"campaign": created["id"], "value": created["owner_token"]}
    page = chromium.new_page()
    try:
        page.goto(allowed + "/")
        answer = page.evaluate(CALL, [api, token])
        assert answer == {"status": 200, "name": "Across origins", "correlation": "from-the-page"}
        page.goto(other + "/")
        refused = page.evaluate(CALL, [api, token])
        assert "failed" in refused and "Failed to fetch" in refused["failed"]
    finally:
        page.close()


def test_the_preflight_of_an_allowed_origin_passes_and_no_other_origin_is_allowed(sites):
    app, _, allowed, other = sites
    client = app.test_client()
    ask = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"}
    passed = client.options("/sessions/anything/rolls", headers={"Origin": allowed, **ask})
    assert passed.status_code == 200 and passed.headers["Access-Control-Allow-Origin"] == allowed
    assert "authorization" in passed.headers["Access-Control-Allow-Headers"].lower()
    refused = client.options("/sessions/anything/rolls", headers={"Origin": other, **ask})
    assert "Access-Control-Allow-Origin" not in refused.headers
    # The call itself still needs its token: CORS opens the browser's door, not the API's.
    unauthorized = client.get("/campaigns/anything", headers={"Origin": allowed})
    assert unauthorized.status_code == 401 and unauthorized.headers["Access-Control-Allow-Origin"] == allowed


def test_cors_is_off_by_default(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'closed.sqlite3'}"})
    try:
        client = app.test_client()
        preflight = client.options("/campaigns", headers={"Origin": "http://127.0.0.1:1", "Access-Control-Request-Method": "POST"})
        assert "Access-Control-Allow-Origin" not in preflight.headers
        assert "Access-Control-Allow-Origin" not in client.get("/rulesets", headers={"Origin": "http://127.0.0.1:1"}).headers
    finally:
        app.extensions["tracker_service"].close()
