"""What the tests that export, forge and tamper share: a session of each game played as a table would, the
campaign's export and backup, a forgery built the way a forger with the README would (every hash recomputed),
the stored rows written past the application, a re-signature as an operator holding the service's key would
make it, and a fresh database of the test's backend to import into. One module, so no test file imports
another's private helpers."""

from __future__ import annotations

import json
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

import psycopg
import pytest

from api import create_app
from tests.kit.clients import OwnerClient
from tests.kit.databases import fresh_schema
from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit import yokai_quest as yokai_play
from tests.kit.session import notifications
from tracker.core import sealing
from tracker.integrity import signing, verify_export
from tracker.integrity.verify_export import event_hash, verify_lines

NDJSON = {"Content-Type": "application/x-ndjson"}
PROBLEM = "application/problem+json"


# -- playing and exporting -------------------------------------------------------------------------------


def play_journey(client, cid: str, quest: str, end: bool = True) -> str:
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": quest}).json["id"]
    assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"attack": 2, "d6": 1}}).status_code == 201
    assert client.post(f"/sessions/{sid}/rolls", json={"faces": {"defense": ["3"]}}).status_code == 201
    assert client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 19}).status_code == 201
    held = client.get(f"/sessions/{sid}").json["decks"]["fortune"]["held"]["table"]
    assert client.post(f"/sessions/{sid}/actions", json={"type": "discard", "deck": "fortune", "cards": held[:5]}).status_code == 201
    assert client.post(f"/sessions/{sid}/draws", json={"deck": "fortune", "count": 3}).status_code == 201  # reshuffles the discards
    assert client.post(f"/sessions/{sid}/actions", json={"type": "end-turn"}).status_code == 201
    if end:
        assert client.post(f"/sessions/{sid}/end", json={"outcome": "victory", "reported": {"house_cleared": True}}).status_code == 200
    return sid


def export(client, cid: str) -> str:
    response = client.get(f"/campaigns/{cid}/export")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    return response.get_data(as_text=True)


def backup(app, cid: str) -> str:
    """The operator's backup (tracker export --backup): sealed values, grants and answers included."""
    return "".join(app.extensions["tracker"].export_campaign(cid, backup=True))


def lines_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture
def empty_postgres_url(postgres_base_url):
    """A second, empty PostgreSQL schema: the database an export is imported into."""
    with fresh_schema(postgres_base_url, pool="pool_size=2") as url:
        yield url


@pytest.fixture
def target(empty_postgres_url):
    flask_app = create_app({"TESTING": True, "DATABASE_URL": empty_postgres_url, "PROJECTIONS_IN_PROCESS": False})
    flask_app.test_client_class = OwnerClient  # acts as the owner of what it imports
    yield flask_app
    flask_app.extensions["tracker"].close()
    flask_app.extensions["tracker_views"].store.datastore.close()


class StoredRows:
    """Direct access to the event store's table, past the application: what a tamperer would do."""

    def __init__(self, app, database_url: str) -> None:
        self.url = database_url
        self.table = app.extensions["tracker"].recorder.events_table_name
        self.postgres = database_url.startswith("postgresql")

    def _connect(self):
        if self.postgres:
            parts = urlsplit(self.url)
            schema = parse_qs(parts.query)["schema"][0]
            conn = psycopg.connect(urlunsplit(parts._replace(query="")), autocommit=True)
            return conn, f'"{schema}"."{self.table}"', "%s"
        conn = sqlite3.connect(urlsplit(self.url).path[1:], isolation_level=None)
        return conn, self.table, "?"

    def _key(self, conn, table: str, stream: str, position: int):
        rows = conn.execute(f"SELECT originator_id, state FROM {table} WHERE originator_version = {position}").fetchall()
        return next((oid, state) for oid, state in rows if uuid.UUID(str(oid)) == uuid.UUID(stream))

    def edit(self, stream: str, position: int, change) -> None:
        conn, table, p = self._connect()
        with conn:
            oid, state = self._key(conn, table, stream, position)
            decoded = json.loads(bytes(state))
            change(decoded)
            conn.execute(f"UPDATE {table} SET state = {p} WHERE originator_id = {p} AND originator_version = {p}", (json.dumps(decoded).encode(), oid, position))

    def delete(self, stream: str, position: int) -> None:
        conn, table, p = self._connect()
        with conn:
            oid, _ = self._key(conn, table, stream, position)
            conn.execute(f"DELETE FROM {table} WHERE originator_id = {p} AND originator_version = {p}", (oid, position))

    def swap(self, stream: str, position: int) -> None:
        """Exchange the contents of two neighbouring events (a reordering)."""
        conn, table, p = self._connect()
        with conn:
            first, second = self._key(conn, table, stream, position), self._key(conn, table, stream, position + 1)
            for (oid, _), (_, state), at in ((first, second, position), (second, first, position + 1)):
                conn.execute(f"UPDATE {table} SET state = {p} WHERE originator_id = {p} AND originator_version = {p}", (bytes(state), oid, at))



# -- building a forgery ----------------------------------------------------------------------------------


def events(lines: list[dict]) -> list[dict]:
    return [line["event"] for line in lines if "event" in line]


def rechain(lines: list[dict], unsigned: bool = False) -> list[dict]:
    """What a forger with the README does after an edit: renumber each stream, recompute every prev_hash,
    session_head and line hash, and rewrite the trailer to agree. An event moved takes its command's first
    event's new position as its ``command``; a line marked withheld is hashed like any other. The trailer keeps
    its signature as it was (a forger cannot make another), the header's hash recomputed; ``unsigned`` writes
    it anew without either, as a file from before exports were signed. An edit may have left an event's state
    or meta of another type: what is not an object is left as it is."""
    heads: dict[str, str] = {}
    positions: dict[str, int] = {}
    moved: dict[tuple[str, int], int] = {}
    for event in events(lines):
        stream = event["stream"]
        old = event["position"]
        positions[stream] = event["position"] = positions.get(stream, 0) + 1
        moved[(stream, old)] = event["position"]
        state = event["state"]
        meta = state.get("meta") if isinstance(state, dict) else None
        if isinstance(meta, dict):
            if type(meta.get("command")) is int:
                meta["command"] = moved.get((stream, meta["command"]), meta["command"])
            meta["prev_hash"] = heads.get(stream)
            session = state.get("session_id")
            if "session_head" in meta and isinstance(session, str) and session in heads:
                meta["session_head"] = heads[session]
        event.pop("withheld", None)
        heads[stream] = event["hash"] = event_hash(event)
    if unsigned:
        lines[-1] = {"trailer": {"events": len(events(lines)), "heads": heads}}
        return lines
    kept = lines[-1]["trailer"]
    lines[-1] = {"trailer": {**kept, "events": len(events(lines)), "heads": heads}}
    if "header_hash" in kept:
        lines[-1]["trailer"]["header_hash"] = verify_export.header_hash(lines[0]["header"])
    return lines


def text_of(lines: list[dict], ensure_ascii: bool = False) -> str:
    """The file's text. ``ensure_ascii`` escapes every character past ASCII (a NUL in a value stays JSON then)."""
    return "\n".join(json.dumps(line, ensure_ascii=ensure_ascii) for line in lines) + "\n"


def edited(client, cid: str, edit) -> str:
    """The campaign's export with ``edit`` applied to each of its events, then re-chained unsigned, every character
    past ASCII escaped: a file a forger who knows the format writes (a value no command takes, or a NUL, carried in)."""
    lines = lines_of(export(client, cid))
    for line in lines:
        if "event" in line:
            edit(line["event"])
    return text_of(rechain(lines, unsigned=True), ensure_ascii=True)


def of(lines: list[dict], name: str, stream: str | None = None) -> list[dict]:
    return [e for e in events(lines) if verify_export.event_name(e["topic"]) == name and stream in (None, e["stream"])]


def store_forgery(app, database_url: str, genuine: list[dict], forged: list[dict]) -> None:
    """Write the forged file's events into the stored rows (edits and deletions), as a tamperer with the database would."""
    rows = StoredRows(app, database_url)
    kept = {(e["stream"], e["position"]): e["state"] for e in events(forged)}
    for event in events(genuine):
        key = (event["stream"], event["position"])
        if key not in kept:
            rows.delete(*key)
        elif kept[key] != event["state"]:
            rows.edit(*key, lambda state, new=kept[key]: replace_public_form(state, new))


def replace_public_form(stored: dict, forged: dict) -> None:
    """The row takes the forged public form; the sealed values it kept stay, unless the forgery set them."""
    kept = {path: value for path, value in sealing.values(stored).items() if not sealing.holds(forged, path)}
    new = sealing.restore(forged, kept)
    stored.clear()
    stored.update(new)




def resign(lines: list[dict], keys: signing.KeyRing) -> list[dict]:
    """Sign the (forged) trailer with the service's own ``keys`` (``app.extensions["tracker"].signing``), as an
    operator holding them could: what only a receipt a player kept, or the import's other checks, still find."""
    trailer = {key: value for key, value in lines[-1]["trailer"].items() if key != "signature"}
    trailer["campaign_id"] = lines[0]["header"]["campaign_id"]
    trailer["header_hash"] = verify_export.header_hash(lines[0]["header"])
    lines[-1] = {"trailer": keys.signed(trailer)}
    return lines


def jwks_of(client) -> dict:
    """The service's key set, as a player saves it (GET /.well-known/jwks.json)."""
    response = client.get("/.well-known/jwks.json")
    assert response.status_code == 200
    return response.json


def foreign_ring(tmp_path) -> signing.KeyRing:
    """Keys of another deployment (or a forger's own): a file of their own."""
    return signing.KeyRing(tmp_path / "other-signing-keys.json")


def reseed(lines: list[dict], sid: str, seed: bytes, commitment: str) -> None:
    """Recompute every use of session ``sid``'s random stream from another ``seed``, as a forger who knows a seed
    would: the commitment and the revealed seed replaced, every digital roll and shuffle rolled again, the counters
    following on."""
    counter = 0
    for event in events(lines):
        if event["stream"] != sid:
            continue
        name, state = verify_export.event_name(event["topic"]), event["state"]
        if name == "SessionStarted":
            state["seed_commitment"] = commitment
        elif name == "ActionTaken":
            state["counter_start"] = counter
        elif name == "DiceRolled" and state["roll"]["source"] == "digital":
            roll, rng = state["roll"], verify_export.Stream(seed, counter)
            roll["counter_start"] = counter
            roll["results"] = {die: [roll["layouts"][die][rng.uniform(len(roll["layouts"][die]))] for _ in range(roll["dice"][die])]
                               for die in verify_export.roll_order(roll)}
            counter = roll["counter_end"] = rng.counter
        elif name == "DeckShuffled":
            change, rng = state["change"], verify_export.Stream(seed, counter)
            change["counter_start"] = counter
            rng.shuffle(change["before"])
            counter = change["counter_end"] = rng.counter
        elif isinstance(state.get("change"), dict) and "counter_start" in state["change"]:
            change, rng = state["change"], verify_export.Stream(seed, counter)
            change["counter_start"] = change["shuffle"]["counter_start"] = counter
            change["shuffle"]["order"] = rng.shuffle(change["shuffle"]["before"])
            counter = change["counter_end"] = change["shuffle"]["counter_end"] = rng.counter
        elif name == "SessionEnded":
            state["seed"], state["counter_end"] = seed.hex(), counter


def retarget(value, old: str, new: str):
    """``value`` with every string ``old`` (an id) replaced by ``new``: a stream copied under another id."""
    if isinstance(value, dict):
        return {key: retarget(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [retarget(item, old, new) for item in value]
    return new if value == old else value


# -- a fresh database of the test's backend, and what an import into it answers --------------------------


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


@pytest.fixture
def fresh_target(request):
    """A service on an empty database of the test's backend, to import into (fresh_app as a fixture)."""
    with fresh_app(request) as flask_app:
        yield flask_app


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
