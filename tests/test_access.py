"""Access control through the API, on SQLite and PostgreSQL: tokens, roles, bindings, hidden information."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import webargs.core

from api import access
from tests.kit import contract
from tests.kit.secrets import bearer
from tracker import rulesets
from tracker.core import safe_json
from tracker.rulesets.engine.ruleset import ActionType, GameRules, Ruleset

PROBLEM = "application/problem+json"
NONE = {"Authorization": ""}  # the OwnerClient sends no token for this request


@pytest.fixture
def owner(client, journey_campaign):
    return journey_campaign["owner_token"]


def _mint(client, cid: str, **body) -> dict:
    response = client.post(f"/campaigns/{cid}/tokens", json=body)
    assert response.status_code == 201, response.json
    return response.json


def test_creating_a_campaign_returns_a_256_bit_owner_token_once(app, client):
    first = client.post("/campaigns", json={"ruleset": "journey", "name": "x"}, headers={"Idempotency-Key": "c1", **NONE})
    token = first.json["owner_token"]
    assert first.status_code == 201 and len(token) >= 43  # 32 random bytes, base64url
    again = client.post("/campaigns", json={"ruleset": "journey", "name": "x"}, headers={"Idempotency-Key": "c1", **NONE})
    assert again.json["id"] == first.json["id"] and again.json["owner_token"] is None
    assert client.get(f"/campaigns/{first.json['id']}", headers=bearer(token)).status_code == 200


def test_tokens_are_stored_only_as_hashes(app, client, journey_campaign):
    player = _mint(client, journey_campaign["id"], role="player")["token"]
    stored = app.extensions["tracker"].recorder.select_notifications(start=1, limit=10_000)
    everything = b"".join(n.state for n in stored)
    assert journey_campaign["owner_token"].encode() not in everything
    assert player.encode() not in everything


def test_without_a_valid_token_reads_and_writes_are_401(client, journey_campaign):
    cid = journey_campaign["id"]
    for headers in (NONE, bearer("not-a-token"), {"Authorization": "Basic abc"}):
        response = client.get(f"/campaigns/{cid}", headers=headers)
        assert response.status_code == 401 and response.content_type == PROBLEM
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting"}, headers=NONE).status_code == 401


def test_rulesets_health_openapi_and_campaign_creation_are_public(client):
    for path in ("/rulesets", "/rulesets/journey", "/health", "/openapi.json"):
        assert client.get(path, headers=NONE).status_code == 200, path


def test_the_owner_mints_lists_and_revokes_tokens(client, journey_campaign, session_id):
    cid = journey_campaign["id"]
    viewer = _mint(client, cid, role="viewer", label="the wall screen")
    assert viewer["role"] == "viewer" and viewer["token"] and viewer["id"].startswith("tok_")
    listed = client.get(f"/campaigns/{cid}/tokens").json
    assert {t["id"] for t in listed} == {journey_campaign["owner_token_id"], viewer["id"]}
    assert all(t.get("token") is None for t in listed)
    assert client.get(f"/sessions/{session_id}", headers=bearer(viewer["token"])).status_code == 200
    revoked = client.delete(f"/campaigns/{cid}/tokens/{viewer['id']}")
    assert revoked.status_code == 200 and revoked.json["revoked"] is True
    assert client.get(f"/sessions/{session_id}", headers=bearer(viewer["token"])).status_code == 401
    assert client.delete(f"/campaigns/{cid}/tokens/{journey_campaign['owner_token_id']}").status_code == 422


def test_roles_are_enforced_with_403(app, client, journey_campaign, session_id):
    cid = journey_campaign["id"]
    viewer = bearer(_mint(client, cid, role="viewer")["token"])
    integration = bearer(_mint(client, cid, role="integration")["token"])
    player = bearer(_mint(client, cid, role="player", heroes=["monkey-king"])["token"])
    before = app.extensions["tracker"].recorder.max_notification_id()

    refused = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}, headers=viewer)
    assert refused.status_code == 403 and refused.content_type == PROBLEM and "read-only" in refused.json["title"]
    assert client.post(f"/campaigns/{cid}/tokens", json={"role": "viewer"}, headers=player).status_code == 403
    assert client.get(f"/campaigns/{cid}/tokens", headers=viewer).status_code == 403
    assert client.get(f"/sessions/{session_id}", headers=integration).status_code == 403
    assert client.get(f"/sessions/{session_id}/events", headers=integration).status_code == 200
    someone_else = client.post(f"/sessions/{session_id}/draws", json={"deck": "fortune", "count": 1, "holder": "tripitaka"}, headers=player)
    assert someone_else.status_code == 403 and "Monkey King" in someone_else.json["title"]
    assert app.extensions["tracker"].recorder.max_notification_id() == before  # nothing appended

    own = client.post(f"/sessions/{session_id}/draws", json={"deck": "fortune", "count": 1, "holder": "monkey-king"}, headers=player)
    assert own.status_code == 201


def test_a_campaign_outside_the_tokens_reach_is_404_as_if_missing(client, journey_campaign, session_id):
    other = client.post("/campaigns", json={"ruleset": "journey", "name": "Other group"}, headers=NONE).json
    foreign = bearer(other["owner_token"])
    missing = client.get("/campaigns/00000000-0000-0000-0000-000000000000", headers=foreign)
    hidden = client.get(f"/campaigns/{journey_campaign['id']}", headers=foreign)
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json["title"].startswith("No campaign")
    assert client.get(f"/sessions/{session_id}", headers=foreign).status_code == 404
    assert client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}, headers=foreign).status_code == 404


def test_every_event_records_the_token_that_issued_it(client, journey_campaign, session_id):
    player = _mint(client, journey_campaign["id"], role="player")
    rolled = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"d6": 1}}, headers=bearer(player["token"]))
    events = client.get(f"/sessions/{session_id}/events").json["events"]
    assert events[0]["meta"]["issued_by"] == journey_campaign["owner_token_id"]
    assert next(e for e in events if e["position"] == rolled.json["position"])["meta"]["issued_by"] == player["id"]


def test_writes_are_rate_limited_per_token_when_configured(database_url):
    from api import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "RATE_LIMIT": "3/60"})
    client = app.test_client()
    campaign = client.post("/campaigns", json={"ruleset": "journey", "name": "Busy"}).json
    owner = bearer(campaign["owner_token"])
    sid = client.post(f"/campaigns/{campaign['id']}/sessions", json={"quest": "q1-meeting"}, headers=owner).json["id"]
    statuses = [client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}}, headers=owner).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    limited = client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 1}}, headers=owner)
    assert limited.status_code == 429 and limited.content_type == PROBLEM and int(limited.headers["Retry-After"]) >= 1
    assert client.get(f"/sessions/{sid}", headers=owner).status_code == 200  # reads are not limited
    app.extensions["tracker"].close()


def test_deep_nesting_and_huge_arrays_are_refused(app, client, session_id):
    before = app.extensions["tracker"].recorder.max_notification_id()
    nested: object = "d6"
    for _ in range(40):
        nested = {"x": nested}
    deep = client.post(f"/sessions/{session_id}/actions", json={"type": "end-turn", "x": nested})
    assert deep.status_code == 422 and deep.content_type == PROBLEM and "nested" in deep.json["title"]
    huge = client.post(f"/sessions/{session_id}/draws", json={"deck": "misfortune", "cards": ["Ambush"] * 1001})
    assert huge.status_code == 422 and "1000" in huge.json["title"]
    assert app.extensions["tracker"].recorder.max_notification_id() == before


# -- hidden information, with a small ruleset that keeps one side's secrets ---------------


class SecretRules(GameRules):
    sides = ("heroes", "overlord")

    def secret_to(self, change):
        return "overlord" if change.get("deck") == "schemes" else None

    def redact(self, game, viewer):
        return dict(game)

    def acting_side(self, action):
        return "overlord" if action.get("deck") == "schemes" else None

    def redact_decks(self, decks, viewer):
        if viewer == "overlord":
            return dict(decks)
        schemes = decks["schemes"]
        return {**decks, "schemes": {**schemes, "looking_at": [], "hidden": {"looking_at": len(schemes["looking_at"])}}}


@pytest.fixture
def secret_ruleset(app):
    from tracker.rulesets.engine.deck_actions import ACTIONS

    data = {
        "id": "secret-test", "name": "Secrets", "version": "1", "unknowns": {},
        "decks": [{"id": "schemes", "name": "Schemes", "size": 4, "cards": [{"name": f"Scheme {n}"} for n in range(4)], "unknowns": {}}],
        "quests": [{"id": "q1", "name": "One", "unknowns": {}}],
    }
    ruleset = Ruleset(data, list(ACTIONS), rules=SecretRules())
    rulesets.registry()[ruleset.id] = ruleset
    contract.with_ruleset(app, ruleset)
    yield ruleset
    del rulesets.registry()[ruleset.id]


def test_secrets_are_shown_only_to_their_side_until_the_quest_ends(client, secret_ruleset):
    campaign = client.post("/campaigns", json={"ruleset": "secret-test", "name": "Hidden"}).json
    cid = campaign["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1"}).json["id"]
    overlord = bearer(_mint(client, cid, role="player", side="overlord")["token"])
    hero = bearer(_mint(client, cid, role="player", side="heroes")["token"])
    drawn = client.post(f"/sessions/{sid}/actions", json={"type": "look", "deck": "schemes", "count": 2}, headers=overlord)
    assert drawn.status_code == 201
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "look", "deck": "schemes", "count": 1}, headers=hero)
    assert refused.status_code == 403 and "overlord" in refused.json["title"]

    def looked(headers):
        events = client.get(f"/sessions/{sid}/events", headers=headers).json["events"]
        return next(e for e in events if e["type"] == "TopCardsLooked")

    assert looked(overlord)["payload"]["change"]["cards"] and looked({})["payload"]["change"]["cards"]  # the overlord, the owner
    hidden = looked(hero)
    assert hidden["secret"] is True and hidden["payload"] == {"secret_to": "overlord", "revealed_when": "the quest ends"}
    assert client.get(f"/sessions/{sid}/events?view=overlord", headers=hero).status_code == 403  # no peeking as the other side
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory"})
    assert len(looked(hero)["payload"]["change"]["cards"]) == 2  # the quest is over: everyone sees


def test_operators_mint_list_and_revoke_tokens_from_the_command_line(database_url, client, journey_campaign):
    tracker_cli = str(Path(sys.executable).with_name("tracker"))
    cid = journey_campaign["id"]

    def run(*args):
        return subprocess.run([tracker_cli, "--database-url", database_url, "token", *args], capture_output=True, text=True, timeout=60)

    minted = run("mint", cid, "--role", "player", "--hero", "monkey-king")
    assert minted.returncode == 0, minted.stderr
    token = json.loads(minted.stdout)
    assert token["heroes"] == ["monkey-king"] and token["token"]
    assert client.get(f"/campaigns/{cid}", headers=bearer(token["token"])).status_code == 200
    listed = json.loads(run("list", cid).stdout)
    assert token["id"] in {t["id"] for t in listed}
    assert run("revoke", cid, token["id"]).returncode == 0
    assert client.get(f"/campaigns/{cid}", headers=bearer(token["token"])).status_code == 401
    assert run("revoke", cid, "tok_nope").returncode == 2


def test_the_timeline_and_verification_keep_secrets_too(app, client, secret_ruleset):
    campaign = client.post("/campaigns", json={"ruleset": "secret-test", "name": "Hidden"}).json
    cid = campaign["id"]
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1"}).json["id"]
    hero = bearer(_mint(client, cid, role="player", side="heroes")["token"])
    client.post(f"/sessions/{sid}/actions", json={"type": "look", "deck": "schemes", "count": 2})
    app.extensions["tracker_views"].catch_up()
    looked = client.get(f"/sessions/{sid}/events").json["events"][-1]["payload"]["change"]["cards"]

    def summaries(headers):
        return " ".join(e["summary"] for e in client.get(f"/sessions/{sid}/timeline", headers=headers).json["entries"])

    assert all(card in summaries({}) for card in looked)
    assert not any(card in summaries(hero) for card in looked) and "secret to the overlord" in summaries(hero)
    shown = client.get(f"/sessions/{sid}/verification", headers=hero).json["shuffles"]
    assert shown and all(s == {"position": s["position"], "hidden": True} for s in shown)
    # a pile's order predicts the draws: sealed from every token, the owner's included, until the end
    assert "order" not in client.get(f"/sessions/{sid}/verification").json["shuffles"][0]


def test_the_feed_state_at_and_export_keep_secrets_too(client, secret_ruleset):
    campaign = client.post("/campaigns", json={"ruleset": "secret-test", "name": "Hidden"}).json
    cid = campaign["id"]
    other = client.post("/campaigns", json={"ruleset": "journey", "name": "Another group"}, headers=NONE).json
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1"}, headers=bearer(campaign["owner_token"])).json["id"]
    owner = bearer(campaign["owner_token"])
    hero = bearer(_mint(client, cid, role="player", side="heroes")["token"])
    integration = bearer(_mint(client, cid, role="integration")["token"])
    looked = client.post(f"/sessions/{sid}/actions", json={"type": "look", "deck": "schemes", "count": 2}, headers=owner).json
    cards = looked["state"]["decks"]["schemes"]["looking_at"]

    def secret_events(headers):
        return [e for e in client.get("/events?limit=1000", headers=headers).json["events"] if e["type"] in ("TopCardsLooked", "DeckShuffled")]

    feed = client.get("/events?limit=1000", headers=integration).json["events"]
    assert {e["stream"] for e in feed} <= {cid, sid} and other["id"] not in {e["stream"] for e in feed}
    hidden = secret_events(integration)  # an integration reads as the heroes' side
    assert hidden and all(e.get("secret") and "change" not in e["payload"] for e in hidden)
    assert all(e["payload"]["change"] for e in secret_events(owner))

    at = looked["version"]
    seen = client.get(f"/sessions/{sid}/state?at={at}", headers=hero).json["decks"]["schemes"]
    assert seen["looking_at"] == [] and seen["hidden"] == {"looking_at": 2}
    assert client.get(f"/sessions/{sid}/state?at={at}", headers=owner).json["decks"]["schemes"]["looking_at"] == cards

    refused = client.get(f"/campaigns/{cid}/export", headers=hero)
    assert refused.status_code == 403 and refused.content_type == PROBLEM and "secrets" in refused.json["title"]
    assert client.get(f"/campaigns/{cid}/export", headers=owner).status_code == 200
    client.post(f"/sessions/{sid}/end", json={"outcome": "victory"}, headers=owner)
    assert client.get(f"/campaigns/{cid}/export", headers=hero).status_code == 200  # the quest is over


def test_a_revocation_by_one_worker_is_seen_at_once_by_another(tracker, database_url):
    """Two applications on one store, as two gunicorn workers are: a grant the other one has already
    checked (and so holds) stops working there with the very next check, without any expiry."""
    from tracker.application.service import Tracker
    from tracker.adapters.config import persistence_env

    other = Tracker(env={**persistence_env(database_url), "CREATE_TABLE": "n"})
    try:
        cid = tracker.create_campaign("journey", "Two workers").body["id"]
        minted = tracker.mint_token(cid, "player", heroes=["monkey-king"]).body
        for _ in range(2):  # checked twice: the second check answers from what the first one kept
            grant = other.authenticate(minted["token"])
            assert grant is not None and grant.token_id == minted["id"] and grant.heroes == ["monkey-king"]
        assert tracker.revoke_token(cid, minted["id"]).status == 200
        assert other.authenticate(minted["token"]) is None
        assert tracker.authenticate(minted["token"]) is None
    finally:
        other.close()


def test_a_worker_whose_revocation_listener_was_cut_asks_the_store_again(postgres_url):
    """On PostgreSQL a worker answers grants it has read from memory while it listens for revocations
    (tracker/adapters/grant_cache.py); when that connection is lost, a revocation saved by another process
    (the operator's command line here) must still be seen by the very next check."""
    import psycopg

    from tracker.application.service import Tracker
    from tracker.adapters.config import persistence_env

    worker = Tracker(env=persistence_env(postgres_url))
    try:
        cid = worker.create_campaign("journey", "Cut listener").body["id"]
        minted = worker.mint_token(cid, "viewer").body
        for _ in range(2):
            assert worker.authenticate(minted["token"]).role == "viewer"
        listener_pid = worker.grants._listener.info.backend_pid
        with psycopg.connect(postgres_url.split("?")[0], autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s, 10000)", (listener_pid,))  # waits until it has ended
        tracker_cli = str(Path(sys.executable).with_name("tracker"))
        revoked = subprocess.run([tracker_cli, "--database-url", postgres_url, "token", "revoke", cid, minted["id"]],
                                 capture_output=True, text=True, timeout=60)
        assert revoked.returncode == 0, revoked.stderr
        assert worker.authenticate(minted["token"]) is None
    finally:
        worker.close()


def test_a_revocation_is_seen_at_once_by_the_worker_that_saved_it(tracker):
    cid = tracker.create_campaign("journey", "One worker").body["id"]
    minted = tracker.mint_token(cid, "viewer").body
    assert tracker.authenticate(minted["token"]).role == "viewer"
    tracker.revoke_token(cid, minted["id"])
    assert tracker.authenticate(minted["token"]) is None
    assert tracker.authenticate("not-a-token") is None


def test_every_route_declares_who_may_call_it(app):
    """Access sits on the route (api/access.py): a view without a declaration, API or page, fails here."""
    undeclared = [
        f"{method} {rule.rule} ({rule.endpoint})"
        for rule in app.url_map.iter_rules()
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"})
        if access.declared(app.view_functions[rule.endpoint], method) is None
    ]
    assert not undeclared, "routes that do not say who may call them:\n" + "\n".join(undeclared)
    declared = {access.declared(app.view_functions[rule.endpoint], "GET") for rule in app.url_map.iter_rules() if "GET" in rule.methods}
    assert {access.anyone, access.owner, access.player, access.reader, access.signed_in} <= declared


def test_the_declaration_travels_with_the_view_not_its_name(app, client, journey_campaign):
    """Renaming a view class keeps its check: the owner-only routes refuse a player token by what they declare."""
    owner_only = sorted(
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        for method in rule.methods - {"HEAD", "OPTIONS"}
        if access.declared(app.view_functions[rule.endpoint], method) is access.owner
    )
    assert ("/campaigns/<campaign_id>/tokens", "POST") in owner_only and ("/campaigns/<campaign_id>/components", "POST") in owner_only
    cid = journey_campaign["id"]
    minted = client.post(f"/campaigns/{cid}/tokens", json={"role": "player"})
    assert minted.status_code == 201, minted.json
    player = minted.json["token"]
    headers = {"Authorization": f"Bearer {player}"}
    for path, method in owner_only:
        url = path.replace("<campaign_id>", cid).replace("<token_id>", "tok_0000000000000000")
        answer = client.open(url, method=method, json={} if method != "DELETE" else None, headers=headers)
        assert answer.status_code == 403, (method, url, answer.json)
        assert answer.json["title"] == "Only the campaign's owner manages tokens and component data"


def test_a_players_write_decodes_its_body_once(client, session_id, journey_campaign, monkeypatch):
    """The unsafe-JSON check, the access check (which heroes and side the body names, and its shape) and the
    view's parser all read the body: decoded once and handed on (api/json_body.py), not once by each."""
    player = bearer(_mint(client, journey_campaign["id"], role="player", heroes=["tripitaka"])["token"])
    decoded = []
    real = safe_json.decode
    monkeypatch.setattr(safe_json, "decode", lambda data, *how: decoded.append(data) or real(data, *how))
    monkeypatch.setattr(webargs.core, "parse_json", lambda *a, **k: pytest.fail("webargs decoded the body again"))
    answer = client.post(f"/sessions/{session_id}/rolls", json={"dice": {"attack": 2}}, headers=player)
    assert answer.status_code == 201, answer.json
    assert len(decoded) == 1
    refused = client.post(f"/sessions/{session_id}/actions", json={"type": "meditate", "hero": "monkey-king"}, headers=player)
    assert refused.status_code == 403 and "Monkey King" in refused.json["title"]  # the decoded body still names the hero
