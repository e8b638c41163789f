"""The operator's command line, through the installed `tracker` entry point, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from tests.kit.secrets import bearer

TRACKER = str(Path(sys.executable).with_name("tracker"))


def _tracker(database_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([TRACKER, "--database-url", database_url, *args], capture_output=True, text=True, timeout=60)


def test_the_operator_mints_a_new_owner_token_for_an_owner_who_lost_theirs(database_url, app, client, journey_campaign):
    cid = journey_campaign["id"]
    minted = _tracker(database_url, "token", "mint", cid, "--role", "owner", "--label", "lost the first one")
    assert minted.returncode == 0, minted.stderr
    owner = json.loads(minted.stdout)
    assert owner["role"] == "owner" and owner["label"] == "lost the first one" and owner["token"]
    # the new token does what only an owner may: mint tokens, list them, read the campaign
    player = client.post(f"/campaigns/{cid}/tokens", json={"role": "player", "heroes": ["monkey-king"]}, headers=bearer(owner["token"]))
    assert player.status_code == 201, player.json
    listed = client.get(f"/campaigns/{cid}/tokens", headers=bearer(owner["token"])).json
    assert sorted(t["role"] for t in listed) == ["owner", "owner", "player"]
    minted_event = next(e for e in _campaign_events(app, cid) if type(e).__name__ == "TokenMinted" and e.token_id == owner["id"])
    assert minted_event.meta["issued_by"] == "operator:cli"  # the log says who made it


def test_an_owner_token_is_minted_only_by_the_operator_and_never_bound(database_url, client, journey_campaign):
    cid = journey_campaign["id"]
    refused = client.post(f"/campaigns/{cid}/tokens", json={"role": "owner"})  # the API, even with the owner's token
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"
    bound = _tracker(database_url, "token", "mint", cid, "--role", "owner", "--hero", "monkey-king")
    assert bound.returncode == 2 and "Only player tokens are bound" in bound.stderr
    assert sorted(t["role"] for t in client.get(f"/campaigns/{cid}/tokens").json) == ["owner"]


def _campaign_events(app, cid: str):
    from uuid import UUID

    return list(app.extensions["tracker"].repository.event_store.get(UUID(cid)))
