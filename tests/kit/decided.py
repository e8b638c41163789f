"""A quest the rules have decided, as a group meets it (issue 31): a hero action after the verdict is refused with the
verdict in the book's words and what to do (end it, or undo), appending nothing; an undo of the deciding event takes
the verdict back and the group plays on."""

from __future__ import annotations

from tests.kit import refusals
from tests.kit import session


def refused(client, sid: str, action: dict) -> dict:
    """The action is refused (409 problem+json) because the quest is decided; nothing is appended. The problem."""
    before = session.read(client, sid)
    assert before["verdict"] is not None, "the quest is not decided yet"
    total = session.total(client, sid)
    answer = client.post(f"/sessions/{sid}/actions", json=action)
    assert answer.status_code == 409 and answer.mimetype == session.PROBLEM, (action, answer.status_code, answer.json)
    problem = answer.json
    assert problem["title"] == f"The quest is decided: {before['verdict']['reason']}", problem
    assert f"/sessions/{sid}/end" in problem["detail"] and f"/sessions/{sid}/undo" in problem["detail"], problem
    assert f'"outcome": "{before["verdict"]["outcome"]}"' in problem["detail"], problem
    assert session.total(client, sid) == total and session.read(client, sid)["version"] == before["version"]  # nothing appended
    document = client.get(f"/rulesets/{before['ruleset']['id']}").json
    assert not refusals.sweep([(action, problem)], refusals.names(document))
    return problem


def rolled(client, sid: str, dice: dict) -> dict:
    """A roll once the quest is decided is still recorded: it changes no game state (a table rolls for a closing scene)."""
    answer = client.post(f"/sessions/{sid}/rolls", json={"dice": dice})
    assert answer.status_code == 201, answer.json
    return answer.json


def undone(client, sid: str) -> dict:
    """Undo the last event group; the state after it."""
    answer = client.post(f"/sessions/{sid}/undo", json={})
    assert answer.status_code == 201, answer.json
    return answer.json["state"]
