"""The stack's floor for a roll: what any service on this stack must do to record one, and nothing of this project's.

bench/minimal_app.py is the stack without a database; a roll cannot be answered without one. This app does a roll's
unavoidable work in its plainest form, on the same gunicorn configuration, the same request and the same PostgreSQL:
Flask reads the JSON body; the bearer token's SHA-256 is looked up in memory (the service keeps its grants in memory
on PostgreSQL too); two dice come from an HMAC-SHA256 stream, as the service draws them; the roll is chained to the
session's last hash and saved as one row through psycopg's pool, one prepared INSERT on an autocommit connection (one
round trip, its own transaction, as the service's one statement is); the answer is JSON.
Whatever the roll route costs beyond this is this project's code and the eventsourcing library's, not the stack's.

    FLOOR_DATABASE   a psycopg conninfo (no ?schema=)
    FLOOR_TABLE      the table, schema-qualified, made by the bench before the server starts:
                     (id bigserial PRIMARY KEY, session text, hash bytea, payload bytea)
    FLOOR_TOKEN      the one bearer token it accepts
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading

from flask import Flask, request
from psycopg_pool import ConnectionPool

app = Flask(__name__)
_pool = ConnectionPool(os.environ["FLOOR_DATABASE"], min_size=int(os.environ.get("GUNICORN_THREADS", "4")),
                       kwargs={"autocommit": True}, open=True)
_insert = f"INSERT INTO {os.environ['FLOOR_TABLE']} (session, hash, payload) VALUES (%s, %s, %s)"
_grants = {hashlib.sha256(os.environ["FLOOR_TOKEN"].encode()).hexdigest(): "owner"}
_seed = hashlib.sha256(b"floor").digest()
_heads: dict[str, tuple[int, bytes]] = {}  # session -> (rolls so far, last hash)
_lock = threading.Lock()


@app.post("/sessions/<session_id>/rolls")
def roll(session_id: str):
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    if _grants.get(hashlib.sha256(token.encode()).hexdigest()) is None:
        return {"title": "Unknown token"}, 401
    body = request.get_json()
    count = body["dice"]["d6"]
    with _lock:
        n, last = _heads.get(session_id, (0, b""))
        block = hmac.digest(_seed, f"{session_id}:{n}".encode(), "sha256")
        results = [1 + block[i] % 6 for i in range(count)]
        answer = {"session_id": session_id, "sequence": n + 1, "dice": body["dice"], "results": results}
        payload = json.dumps(answer).encode()
        digest = hashlib.sha256(last + payload).digest()
        _heads[session_id] = (n + 1, digest)
    with _pool.connection() as conn:
        conn.execute(_insert, (session_id, digest, payload), prepare=True)
    return answer, 201


@app.get("/health")
def health():
    return {"status": "ok"}
