"""Campaigns pinned to Yōkai Quest 1.0.0 still resolve to it and re-derive as they were played, on SQLite and
PostgreSQL: its data and published contract are archived (tracker/rulesets/versions/yokai-quest/), and where 1.1.0
changed what a scene asks, today's resolvers keep 1.0.0's way under its data (tracker/rulesets/yokai_quest/
yokai_phase.py: kept and tracked; tests/yokai_quest/test_pinned_1_0_0_plays.py replays four campaigns recorded with
the resolvers as published)."""

from __future__ import annotations

from tests.kit.yokai_quest import act, create_campaign, draw_owed, strike
from tracker import rulesets

PIN_1_0_0 = {"id": "yokai-quest", "version": "1.0.0", "hash": "sha256:f13a772fc8ff2023e9f0f506b73ed5b21e93cd8aa73e5366fea943e8c8728653"}


def test_the_1_0_0_pin_resolves_to_its_data_and_contract():
    rulesets.archived.cache_clear()
    old = rulesets.resolve(PIN_1_0_0)
    assert old is not None and old.hash == PIN_1_0_0["hash"] and old.version == "1.0.0"
    assert rulesets.get("yokai-quest").hash != PIN_1_0_0["hash"]  # the code's own rules moved on
    assert old.rules.data is old.data  # its carry-over and end refusals read 1.0.0's scenes, not today's


def test_a_session_played_under_1_0_0_verifies_under_todays_code(client, monkeypatch):
    rulesets.archived.cache_clear()
    old = rulesets.resolve(PIN_1_0_0)
    known = rulesets.registry()
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, "yokai-quest": old})  # a server from before 1.1.0
    cid = create_campaign(client)["id"]
    started = client.post(f"/campaigns/{cid}/sessions", json={"quest": "shake-them-skeleton-bones-1"})
    assert started.status_code == 201 and started.json["state"]["ruleset"] == PIN_1_0_0
    sid = started.json["id"]
    strike(client, sid, "ryo", ["hone-bushi"] * 12)  # 1.0.0 had no Yōkai phase: twelve at once, as it was played
    act(client, sid, {"type": "end-turn"})
    won = act(client, sid, {"type": "end-scene", "outcome": "victory"})
    assert won["state"]["verdict"] is None  # 1.0.0 recorded no verdicts
    draw_owed(client, sid)
    monkeypatch.undo()  # today's server: the code's rules are 1.4.0
    rulesets.archived.cache_clear()
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "begin-yokai-phase"})
    assert refused.status_code == 422 and "Yōkai Quest 1.0.0 has no 'begin-yokai-phase' action" in refused.json["title"]
    ended = client.post(f"/sessions/{sid}/end", json={"outcome": "victory"})
    assert ended.status_code == 200, ended.json
    report = client.get(f"/sessions/{sid}/verification").json
    assert report["status"] == "verified", report
    assert report["ruleset_used"] == PIN_1_0_0 and report["ruleset_in_code"]["version"] == "1.5.0"
    following = client.post(f"/campaigns/{cid}/sessions", json={"quest": "shake-them-skeleton-bones-2"})
    assert following.status_code == 201 and "phase" not in following.json["state"]["game"]  # the campaign plays on under 1.0.0
