"""What the tests that forge and tamper share: playing a campaign, reading its export, building a forgery the
way a forger with the README would (every hash recomputed), writing it into the stored rows past the application,
and re-signing it as an operator holding the service's key would. One module, so no test file imports another's
private helpers."""

from __future__ import annotations

import json
import sqlite3
import uuid
from urllib.parse import parse_qs, urlsplit, urlunsplit

import psycopg
import pytest

from api import create_app
from tests.conftest import OwnerClient, fresh_schema
from tracker import sealing, signing, verify_export
from tracker.verify_export import event_hash

NDJSON = {"Content-Type": "application/x-ndjson"}


# -- playing and exporting -------------------------------------------------------------------------------


def notifications(app) -> int:
    return app.extensions["tracker"].recorder.max_notification_id() or 0


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


def lines_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


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


def rechain(lines: list[dict]) -> list[dict]:
    """What a forger with the README does after an edit: renumber each stream, recompute every
    prev_hash, session_head and line hash, and rewrite the trailer to agree (its signature left as it was).
    An event moved takes its command's first event's new position as its ``command``."""
    heads: dict[str, str] = {}
    positions: dict[str, int] = {}
    moved: dict[tuple[str, int], int] = {}
    for event in events(lines):
        stream = event["stream"]
        old = event["position"]
        positions[stream] = event["position"] = positions.get(stream, 0) + 1
        moved[(stream, old)] = event["position"]
        meta = event["state"]["meta"]
        if "command" in meta:
            meta["command"] = moved.get((stream, meta["command"]), meta["command"])
        meta["prev_hash"] = heads.get(stream)
        if "session_head" in meta and event["state"].get("session_id") in heads:
            meta["session_head"] = heads[event["state"]["session_id"]]
        heads[stream] = event["hash"] = event_hash(event)
    # The signature kept as it was (a forger cannot make another); the header's hash recomputed.
    kept = lines[-1]["trailer"]
    lines[-1] = {"trailer": {**kept, "events": len(events(lines)), "heads": heads}}
    if "header_hash" in kept:
        lines[-1]["trailer"]["header_hash"] = verify_export.header_hash(lines[0]["header"])
    return lines


def text_of(lines: list[dict]) -> str:
    return "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n"


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
