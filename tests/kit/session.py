"""A session played through the REST API, for every game: the one way the tests create a campaign, start a
session, take an action, see one refused (a problem, nothing appended), end a quest and check its verification.
Each game's kit (tests/kit/<game>.py) calls these with the game's own party, components and set-up."""

from __future__ import annotations

from typing import Any

PROBLEM = "application/problem+json"


def campaign(client, ruleset: str, party, *, name: str = "Table", components: dict | None = None, options: dict | None = None) -> dict:
    """A new campaign of ``ruleset`` (its answer); components and options only when given."""
    body: dict[str, Any] = {"ruleset": ruleset, "name": name, "party": list(party)}
    if components is not None:
        body["components"] = components
    if options is not None:
        body["options"] = options
    response = client.post("/campaigns", json=body)
    assert response.status_code == 201, response.json
    return response.json


def start(client, cid: str, quest: str, setup: dict | None = None) -> dict:
    """A new session of ``quest`` (its answer: ``id``, ``state``, ...)."""
    response = client.post(f"/campaigns/{cid}/sessions", json={"quest": quest, "setup": setup or {}})
    assert response.status_code == 201, response.json
    return response.json


def act(client, sid: str, action: dict, status: int = 201) -> dict:
    """One action, answered with ``status``."""
    response = client.post(f"/sessions/{sid}/actions", json=action)
    assert response.status_code == status, response.json
    return response.json


def total(client, sid: str) -> int:
    """How many events the session has recorded."""
    return client.get(f"/sessions/{sid}/events?limit=1").json["total"]


def version(client, sid: str) -> int:
    """The session's version, as ``GET /sessions/{sid}`` answers it."""
    return client.get(f"/sessions/{sid}").json["version"]


def notifications(app) -> int:
    """How many events the whole store holds (the last notification id): what nothing-appended is checked against."""
    return app.extensions["tracker"].recorder.max_notification_id() or 0


def post(client, path: str, body: dict, status: int = 201) -> dict:
    """A JSON ``body`` posted to ``path``, answered with ``status``: its answer."""
    response = client.post(path, json=body)
    assert response.status_code == status, response.json
    return response.json


def refused(client, sid: str, action: dict, title_part: str = "", status: int = 422, *, or_detail: bool = False) -> dict:
    """An action the rules refuse: a problem whose title holds ``title_part`` (``or_detail``: the title or the detail,
    in any case), and nothing appended."""
    before = total(client, sid)
    response = client.post(f"/sessions/{sid}/actions", json=action)
    assert response.status_code == status and response.mimetype == PROBLEM, response.json
    said = response.json["title"] + (" " + response.json.get("detail", "") if or_detail else "")
    assert (title_part.lower() in said.lower()) if or_detail else (title_part in said), response.json
    assert total(client, sid) == before  # refused: nothing appended
    return response.json


def read(client, sid: str, view: str | None = None) -> dict:
    """The session as ``GET /sessions/{sid}`` answers it (``?view=`` a side's view)."""
    return client.get(f"/sessions/{sid}" + (f"?view={view}" if view else "")).json


def verified(client, sid: str) -> dict:
    """The session's verification, which must say ``verified``."""
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified", report
    return report


def end(client, sid: str, outcome: str, status: int = 200, **body) -> Any:
    """The quest ended with ``outcome``: on 200 its answer, the session verified; a refused end (409) appends
    nothing and gives its title."""
    before = total(client, sid)
    ended = client.post(f"/sessions/{sid}/end", json={"outcome": outcome, **body})
    assert ended.status_code == status, ended.json
    if status == 409:
        assert ended.mimetype == PROBLEM and total(client, sid) == before  # a refused end appends nothing
        return ended.json["title"]
    verified(client, sid)
    return ended.json


def ruled_and_verified(client, sid: str, outcome: str = "victory", ruling: str = "the test ends the quest here") -> None:
    """Tests about actions, not about how the quest ends: the owner ends it by a table ruling, recorded as one,
    and the session verifies."""
    end(client, sid, outcome, ruling=ruling)


def event_types(result: dict) -> list[str]:
    """The types of the events a command recorded."""
    return [e["type"] for e in result["events"]]


def change_kinds(result: dict) -> list[str]:
    """The kinds of the changes a command recorded."""
    return [e["payload"]["change"]["kind"] for e in result["events"] if "change" in e["payload"] and "kind" in e["payload"]["change"]]


def change(result: dict, event_type: str) -> dict:
    """The change of the first event of ``event_type`` a command recorded."""
    return next(e for e in result["events"] if e["type"] == event_type)["payload"]["change"]
