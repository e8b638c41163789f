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
from tests.conftest import JOURNEY_TEST_COMPONENTS, OwnerClient, fresh_schema
from tests.kit import yokai_quest as yokai_play
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


# -- a session of each game, started as a table would (component data: test inputs, not facts) ------------------

KUNG_FU_PANDA = {"dice": {"action-die": {"faces": ["Punch", "Kick", "Claws", "Chi", "Move", "Chi"]}}}
# Test inputs, not facts about the components: the power die's faces, and a Copper deck's cards supplied in play.
DESCENT = {"dice": {"power": {"faces": ["blank", "blank", "enhancement", "enhancement", "surge", "blank"]}}}
COPPER = {"decks": {"copper": {"cards": [f"Copper {n}" for n in range(1, 13)]}}}


def created(client, body: dict) -> str:
    response = client.post("/campaigns", json=body)
    assert response.status_code == 201, response.json
    return response.json["id"]


def started(client, cid: str, quest: str, setup: dict | None = None) -> str:
    response = client.post(f"/campaigns/{cid}/sessions", json={"quest": quest, "setup": setup or {}})
    assert response.status_code == 201, response.json
    return response.json["id"]


def start_journey(client) -> tuple[str, str, str]:
    cid = created(client, {"ruleset": "journey", "name": "J", "party": ["tripitaka", "monkey-king"], "components": JOURNEY_TEST_COMPONENTS})
    return cid, started(client, cid, "q1-meeting"), "fortune"


def start_descent(client) -> tuple[str, str, str]:
    cid = created(client, {"ruleset": "descent", "name": "D", "party": ["kirga", "aurim"], "components": DESCENT})
    return cid, started(client, cid, "thing-in-the-pit"), "copper"


def start_kung_fu_panda(client) -> tuple[str, str, str]:
    body = {"ruleset": "kung-fu-panda", "name": "K", "party": ["po", "tigress"], "options": {"length": "single", "mission": "m2-1"}, "components": KUNG_FU_PANDA}
    cid = created(client, body)
    setup = {"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}}
    return cid, started(client, cid, "m2-1", setup), "special-moves"


def start_yokai(client) -> tuple[str, str, str]:
    cid = yokai_play.create_campaign(client)["id"]
    return cid, yokai_play.start(client, cid, "shake-them-skeleton-bones-1"), "appearance"


GAMES = {"journey": start_journey, "descent": start_descent, "kung-fu-panda": start_kung_fu_panda, "yokai-quest": start_yokai}


def step(client, cid: str, sid: str, deck: str, step: str, n: int) -> None:
    """One thing a table does; the rules may refuse it (a 4xx appends nothing), never with a 5xx."""
    state = client.get(f"/sessions/{sid}").json
    held = sorted(state["decks"].get(deck, {}).get("held", {}).get("table", []))
    requests = {
        "roll": ("rolls", {"dice": {"d6": 1 + n % 2, "d20": 1}}),
        "reported-roll": ("rolls", {"faces": {"d6": [1 + n % 6]}}),
        "draw": ("draws", {"deck": deck, "count": 1 + n % 3}),
        "reported-draw": ("draws", {"deck": deck, "cards": [f"{deck.capitalize()} {1 + n}"]}),  # Fortune 3, Copper 3: a card drawn at the table
        "discard": ("actions", {"type": "discard", "deck": deck, "cards": held[: 1 + n % 2] or ["nothing held"]}),
        "reshuffle": ("actions", {"type": "shuffle", "deck": deck, "with_discard": True}),
        "undo": ("undo", {}),
        "end-turn": ("actions", {"type": "end-turn"}),
        "secret-roll": ("actions", {"type": "secret-room-roll"}),  # Descent's overlord rolls the power die (L352)
        "game-roll": ("actions", {"type": "roll", "hero": "tigress"}),  # Kung Fu Panda's Action Dice, in an action
        "start-round": ("actions", {"type": "start-round"}),
    }
    if step == "list":  # the owner supplies a deck's card list in play: DeckListed, then digital draws
        response = client.post(f"/campaigns/{cid}/components", json={"components": COPPER})
    elif step == "yokai-phase":  # yōkai appear: an appearance card drawn digitally, the turn ends (tests/rulesets/yokai_play.py)
        if state["game"].get("in_play"):
            return  # once: the heroes' phase comes next
        yokai_play.yokai_phase(client, sid, {"hone-bushi": 1})
        return
    else:
        path, body = requests[step]
        response = client.post(f"/sessions/{sid}/{path}", json=body)
    assert response.status_code < 500, (step, response.json)


# What each game's table may do here (the deck steps on the deck each game draws from digitally).
STEPS = {
    "journey": ["roll", "reported-roll", "draw", "reported-draw", "discard", "reshuffle", "undo", "end-turn"],
    "descent": ["roll", "reported-roll", "list", "draw", "reported-draw", "discard", "reshuffle", "undo", "secret-roll"],
    "kung-fu-panda": ["roll", "reported-roll", "start-round", "game-roll", "undo"],
    "yokai-quest": ["roll", "reported-roll", "yokai-phase", "undo"],
}


def play(client, game: str, steps: list[tuple[int, int]], ending: str) -> tuple[str, str]:
    """A session of ``game``: each (choice, n) one of the game's STEPS, then left "in play", "ended" or "abandoned"."""
    cid, sid, deck = GAMES[game](client)
    for choice, n in steps:
        step(client, cid, sid, deck, STEPS[game][choice % len(STEPS[game])], n)
    if ending == "ended":  # the rules' verdict when they gave one, else a table ruling (a ruling always ends it)
        verdict = client.get(f"/sessions/{sid}").json["verdict"]
        body = {"outcome": verdict["outcome"]} if verdict else {"outcome": "defeat", "ruling": "the table called it"}
        assert client.post(f"/sessions/{sid}/end", json=body).status_code == 200
    elif ending == "abandoned":
        assert client.post(f"/sessions/{sid}/abandon", json={"reason": "stopped"}).status_code == 200
    return cid, sid
