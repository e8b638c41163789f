"""An unknown query parameter is a 422 problem naming it, on every route: each operation of the OpenAPI document
(GET /openapi.json) and every other route the application serves (its pages, static files, the document itself),
through one check (api/query.py). Issue 29 found 12 of 23 routes ignoring what they were sent. On SQLite and
PostgreSQL; nothing is appended by any of it."""

from __future__ import annotations

import re

import pytest

from api import query
from tests.kit.session import notifications as _total

PROBLEM = "application/problem+json"
UNKNOWN = "colour_of_the_sky"


@pytest.fixture
def ids(client, journey_campaign, session_id):
    tokens = client.get(f"/campaigns/{journey_campaign['id']}/tokens").json
    return {
        "campaign_id": journey_campaign["id"],
        "session_id": session_id,
        "token_id": tokens[0]["id"],
        "hero": "monkey-king",
        "ruleset_id": "journey",
        "action_type": "end-turn",
        "filename": "pages.css",
    }


def _filled(path: str, ids: dict[str, str]) -> str:
    return re.sub(r"[{<](?:[a-z]+:)?(\w+)[}>]", lambda m: ids[m.group(1)], path)


def _refused(response, name: str, where: str) -> None:
    assert response.status_code == 422, f"{where}: {response.status_code} {response.get_data(as_text=True)[:300]}"
    assert response.mimetype == PROBLEM, where
    assert name in response.json["title"] and f"query.{name}" in response.json["errors"], (where, response.json)


def test_every_operation_of_the_document_refuses_an_unknown_query_parameter(app, client, ids):
    document = client.get("/openapi.json").json
    before = _total(app)
    walked = 0
    for path, operations in document["paths"].items():
        for method in operations:
            if method == "parameters":
                continue
            url = _filled(path, ids)
            response = client.open(url, method=method.upper(), query_string={UNKNOWN: "blue"})
            _refused(response, UNKNOWN, f"{method.upper()} {path}")
            walked += 1
    assert walked >= 34  # every operation the document lists (34 when this was written)
    assert _total(app) == before


def test_every_route_outside_the_document_refuses_one_too(app, client, ids):
    """The pages (they are routes), the static files and the document itself: Flask's own map of every route."""
    documented = {re.sub(r"\{(\w+)\}", r"<\1>", p) for p in client.get("/openapi.json").json["paths"]}
    walked = []
    for rule in app.url_map.iter_rules():
        if re.sub(r"<(?:[a-z]+:)?(\w+)>", r"<\1>", rule.rule) in documented:
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.open(_filled(rule.rule, ids), method=method, query_string={UNKNOWN: "blue"}, headers={"Origin": "http://localhost"})
            _refused(response, UNKNOWN, f"{method} {rule.rule}")
            walked.append(rule.endpoint)
    assert "pages.play_page" in walked and "pages.replay_page" in walked and "api-docs.openapi_json" in walked


def test_the_parameters_a_route_takes_still_work_beside_the_refusal(client, session_id):
    client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}})
    assert client.get(f"/sessions/{session_id}/events?after=0&limit=1").status_code == 200
    assert client.get(f"/sessions/{session_id}/state?at=1").status_code == 200
    # One unknown among known ones is named; so is each of several.
    several = client.get(f"/sessions/{session_id}/events?after=0&limt=5&afer=1")
    _refused(several, "limt", "events")
    assert set(several.json["errors"]) == {"query.limt", "query.afer"}
    assert "after" in several.json["detail"] and "limit" in several.json["detail"]  # it says what the route takes


def test_a_page_declares_what_it_takes(app):
    assert query.declared(app.view_functions["pages.replay_page"], "GET") == {"at"}
    assert query.declared(app.view_functions["pages.play_page"], "GET") == frozenset()
    assert query.declared(app.view_functions["sessions.Events"], "GET") == {"after", "limit", "view"}
