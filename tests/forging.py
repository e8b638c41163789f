"""Shared helpers for tests that export campaigns, forge the files and import them: what a forger with the README
does to a file (edit, then recompute every hash), and a fresh database of the same backend to import into.

Test files import these; none imports another test file's private helpers."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from api import create_app
from tests.conftest import OwnerClient, fresh_schema
from tracker import verify_export
from tracker.verify_export import event_hash, verify_lines

NDJSON = {"Content-Type": "application/x-ndjson"}
PROBLEM = "application/problem+json"


def export(client, cid: str) -> str:
    response = client.get(f"/campaigns/{cid}/export")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    return response.get_data(as_text=True)


def backup(app, cid: str) -> str:
    """The operator's backup (tracker export --backup): sealed values, grants and answers included."""
    return "".join(app.extensions["tracker"].export_campaign(cid, backup=True))


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def text(parsed: list[dict]) -> str:
    return "\n".join(json.dumps(line, ensure_ascii=False) for line in parsed) + "\n"


def events(parsed: list[dict]) -> list[dict]:
    return [line["event"] for line in parsed if "event" in line]


def of(parsed: list[dict], name: str, stream: str | None = None) -> list[dict]:
    """The events of one type (its name, as verify_export.event_name reads a topic), in one stream if given."""
    return [e for e in events(parsed) if verify_export.event_name(e["topic"]) == name and stream in (None, e["stream"])]


def rechain(parsed: list[dict]) -> list[dict]:
    """What a forger with the README does after an edit: renumber each stream, recompute every prev_hash,
    session_head and line hash, and rewrite the trailer to agree."""
    heads: dict[str, str] = {}
    positions: dict[str, int] = {}
    for event in events(parsed):
        stream = event["stream"]
        positions[stream] = event["position"] = positions.get(stream, 0) + 1
        meta = event["state"]["meta"]
        meta["prev_hash"] = heads.get(stream)
        if "session_head" in meta and event["state"].get("session_id") in heads:
            meta["session_head"] = heads[event["state"]["session_id"]]
        heads[stream] = event["hash"] = event_hash(event)
    parsed[-1] = {"trailer": {"events": len(events(parsed)), "heads": heads}}
    return parsed


def notifications(app) -> int:
    return app.extensions["tracker"].recorder.max_notification_id() or 0


@contextmanager
def fresh_database(request) -> Iterator[str]:
    """An empty database of the backend the test runs on (its ``database_url`` parameter): SQLite, a new file;
    PostgreSQL, a new schema, dropped afterwards."""
    if request.node.callspec.params.get("database_url") == "postgres":
        with fresh_schema(request.getfixturevalue("postgres_base_url"), pool="pool_size=2") as url:
            yield url
    else:
        with tempfile.TemporaryDirectory() as directory:
            yield f"sqlite:///{Path(directory) / 'imported.sqlite3'}"


@contextmanager
def fresh_app(request) -> Iterator[Any]:
    """A second service on an empty database of the test's backend: where an export is imported."""
    with fresh_database(request) as url:
        flask_app = create_app({"TESTING": True, "DATABASE_URL": url, "PROJECTIONS_IN_PROCESS": False})
        flask_app.test_client_class = OwnerClient  # acts as the owner of what it imports
        try:
            yield flask_app
        finally:
            flask_app.extensions["tracker"].close()
            flask_app.extensions["tracker_views"].store.datastore.close()


def owner_token(app, cid: str) -> str:
    """The owner token OwnerClient keeps for a campaign it created on ``app`` (a backup carries its grant along)."""
    return OwnerClient.tokens[id(app)][cid]


def imported(target_app, file_text: str):
    return target_app.test_client().post("/campaigns/import", data=file_text, headers=NDJSON)


def refused_by_verifier(file_text: str, reason: str) -> dict:
    report = verify_lines(file_text.splitlines())
    assert report["status"] == "failed" and reason in report["failure"]["reason"], report
    return report["failure"]


def refused_by_import(app, client, file_text: str, reason: str | None = None) -> dict:
    """A 422 that names what is wrong and appends nothing."""
    before = notifications(app)
    response = client.post("/campaigns/import", data=file_text, headers=NDJSON)
    assert response.status_code == 422 and response.mimetype == PROBLEM, response.json
    assert "nothing was imported" in response.json["title"] and response.json["detail"]
    if reason is not None:
        assert reason in response.json["title"] + response.json["detail"], response.json
    assert notifications(app) == before
    return response.json
