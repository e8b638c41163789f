"""The event stream for integrators (issue 34): declared as a string of text/event-stream, so a generated client's
streamEvents returns the stream; a Last-Event-ID that is not a position is a 422 problem, never ignored (a stream
then started at the end would skip what the client missed)."""

from __future__ import annotations

import httpx

from tests.kit.generated_client import generated  # noqa: F401 - the module's generated client

PROBLEM = "application/problem+json"


def test_the_document_declares_the_stream_as_a_string_and_says_its_format(client):
    declared = client.get("/openapi.json").json["paths"]["/events/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"]
    assert declared["schema"]["type"] == "string"
    for word in ("id: <n>", "event: <type>", "data: <json>", "retry: 2000", "Last-Event-ID"):
        assert word in declared["schema"]["description"]


def test_the_generated_client_s_stream_events_returns_the_stream(app, generated, client, session_id):  # noqa: F811
    token = type(client).last[id(app)]  # the owner token of the session's campaign (tests/conftest.py)
    owner = generated("client").AuthenticatedClient(base_url="http://tracker.test", token=token,
                                                    httpx_args={"transport": httpx.WSGITransport(app=app)})
    answer = generated("api.events.stream_events").sync_detailed(client=owner, limit=2, wait=0)
    assert answer.status_code == 200
    text = answer.parsed  # the generated streamEvents returns the stream's text, typed str
    assert isinstance(text, str), answer
    assert text.startswith("retry: 2000") and text.count("\nevent: ") == 2 and "event: CampaignCreated" in text


def test_a_last_event_id_that_is_not_a_position_is_a_422_problem(client, session_id):
    for value in ("abc", "\xc2\x84", "-1", "1.0", "²"):
        refused = client.get("/events/stream?limit=1&wait=0", headers={"Last-Event-ID": value})
        assert refused.status_code == 422 and refused.content_type == PROBLEM, value
        assert refused.json["title"] == "Last-Event-ID must be a notification position"
    resumed = client.get("/events/stream?limit=1&wait=0", headers={"Last-Event-ID": "1"})
    assert resumed.status_code == 200 and "id: 1\n" not in resumed.get_data(as_text=True)
