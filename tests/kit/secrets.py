"""Reading what a token can read, and the tools that read a file, for the tests that keep secrets: everything a
token reads about a session as one text, what must not be in it while the session is in play, and tokens minted.
(tests/test_secrets.py still holds its own copy of these until it imports them from here.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

NDJSON = {"Content-Type": "application/x-ndjson"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def mint(client, cid: str, **body) -> str:
    """A new token of the campaign (``role``, ``heroes``, ...)."""
    response = client.post(f"/campaigns/{cid}/tokens", json=body)
    assert response.status_code == 201, response.json
    return response.json["token"]


def ok(response, status=201):
    assert response.status_code == status, response.get_data(as_text=True)
    return response


def readable(app, client, headers: dict[str, str], cid: str, sid: str) -> str:
    """Everything ``headers``' token can read about campaign ``cid`` and session ``sid``, as one text."""
    app.extensions["tracker_views"].catch_up()
    total = client.get(f"/sessions/{sid}/events?limit=1000", headers=headers).json["total"]
    paths = [
        f"/campaigns/{cid}", f"/sessions/{sid}", f"/sessions/{sid}/events?limit=1000", f"/sessions/{sid}/timeline?limit=1000",
        f"/sessions/{sid}/verification", "/events?limit=1000", "/events/stream?limit=1000&wait=0",
        f"/campaigns/{cid}/standing", f"/campaigns/{cid}/heroes", f"/campaigns/{cid}/dice-statistics", f"/campaigns/{cid}/export",
    ] + [f"/sessions/{sid}/state?at={n}" for n in range(1, total + 1)] + [f"/campaigns/{cid}/state?at=1"]
    if app.extensions["tracker"].get_campaign(cid)["ruleset"]["id"] == "descent":
        paths += [f"/campaigns/{cid}/treachery-ledger", f"/campaigns/{cid}/conquest"]
    texts = [client.get(path, headers=headers).get_data(as_text=True) for path in paths]
    pages = app.test_client()  # the pages sign in with a cookie
    token = headers["Authorization"].removeprefix("Bearer ")
    pages.post("/pages/sign-in", data={"token": token}, headers={"Origin": "http://localhost"})
    texts += [pages.get(path).get_data(as_text=True) for path in (f"/pages/sessions/{sid}", f"/pages/campaigns/{cid}", f"/pages/campaigns/{cid}/export")]
    return "\n".join(texts)


def secrets_of(app, sid: str, side: str | None) -> list[str]:
    """What must not be readable by a token of ``side`` (None: any token) while the session is in play."""
    tracker = app.extensions["tracker"]
    session = tracker._session(sid)
    found = [session.seed]
    # a shuffle's order, an undo's restored pile: whatever of them is still face down is the pile now
    for deck in session.decks.values():
        if len(deck["draw"]) > 2 and not deck["needs_shuffle"]:  # an unshuffled pile lies in the card list's order
            found.append(json.dumps(deck["draw"][:3])[1:-1])  # the next three face-down cards, in order
    if side == "heroes" and "overlord" in session.decks:
        found.append(hand_of(session))
    return found


def hand_of(session) -> str:
    """The overlord's hand as it would appear in any answer (the cards in the order held; the names alone are
    public: they are the deck's card list)."""
    hand = session.decks["overlord"]["held"].get("overlord", [])
    assert len(hand) >= 2
    return json.dumps(hand)[1:-1]


def without_card_lists(app, cid: str, text: str) -> str:
    """``text`` without the campaign's public card lists: a hand that happens to be a run of a deck's list, in
    the list's order, is otherwise "found" inside the list that every token may read."""
    decks = app.extensions["tracker"].get_campaign(cid).get("components", {}).get("decks", {})
    for deck in decks.values():
        text = text.replace(compact(json.dumps(deck.get("cards", []))), "[]")
    return text


ORDERS = re.compile(r'<select name="order">.*?</select>', re.DOTALL)


def without_orders(html: str) -> str:
    """A page without its choices of a hero's order (Guard, Aim, Dodge, Rest): public words that overlord cards share
    (an order "Dodge" on a Ready form is not the overlord's Dodge card), so a hand is looked for everywhere else."""
    return ORDERS.sub("", html)


def compact(text: str) -> str:
    """Without spaces, so a secret is found whatever separators an answer's JSON uses."""
    return text.replace(" ", "")


def assert_keeps_secrets(app, client, headers, cid, sid, side):
    text = without_card_lists(app, cid, compact(readable(app, client, headers, cid, sid)))
    for secret in secrets_of(app, sid, side):
        assert compact(secret) not in text, f"{secret!r} can be read"



def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tracker.cli", *args], capture_output=True, text=True, timeout=120)


def verifier(text: str, client) -> subprocess.CompletedProcess:
    """The standalone verifier reading the file from its standard input, with the service's key set saved beside."""
    verify_export = Path(__file__).resolve().parents[2] / "tracker" / "integrity" / "verify_export.py"
    with tempfile.NamedTemporaryFile("wb", suffix=".json") as jwks:
        jwks.write(client.get("/.well-known/jwks.json").data)
        jwks.flush()
        return subprocess.run([sys.executable, str(verify_export), "/dev/stdin", "--jwks", jwks.name], input=text, capture_output=True, text=True, timeout=60)
