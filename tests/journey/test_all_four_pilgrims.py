"""All four Pilgrims play Journey whatever the party, through the REST API on SQLite and PostgreSQL (L73, L216-L220)."""

from __future__ import annotations

from tests.kit.journey import COMPONENTS, ORDER, PILGRIMS


def test_all_four_pilgrims_play_whatever_the_party(client):
    """L73: 'all 4 Pilgrims are always in play'; with fewer Players each controls more than one (L216-L220)."""
    document = client.get("/rulesets/journey").json
    assert document["rules"]["pilgrim_rules"]["all_four_play"]["line"] == "L73, L216-L220"
    cid = client.post("/campaigns", json={"ruleset": "journey", "name": "Two players", "party": ["tripitaka", "monkey-king"], "components": COMPONENTS}).json["id"]
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": ORDER}})
    assert started.status_code == 201 and sorted(started.json["state"]["game"]["heroes"]) == sorted(PILGRIMS)
    set_up = next(e for e in client.get(f"/sessions/{started.json['id']}/events?limit=5").json["events"] if e["type"] == "QuestSetUp")
    assert "L73" in set_up["payload"]["change"]["pilgrims_in_play"]
