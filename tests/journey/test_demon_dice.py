"""Journey's Demon Dice through the REST API on SQLite and PostgreSQL: a Demon Die the table reports is recorded and
used for a Demon whose sheet was lost, and a face the component data does not give is asked for."""

from __future__ import annotations

import json

from tests.kit.journey import COMPONENTS, act, campaign, refused, start


def test_a_reported_demon_die_is_recorded_and_used_for_a_demon_whose_sheet_was_lost(client):
    comps = {**COMPONENTS, "tables": {**COMPONENTS["tables"], "demon-dice": {"berrok": {"2": {"damage": 2}}}}}
    sid, _ = start(client, campaign(client, components=comps), "q1-meeting")
    act(client, sid, type="report-health", hero="monk-sha", hp=10)
    hit = act(client, sid, type="demon-attack", demon="berrok-1", target="monk-sha", faces={"attack": ["1"], "demon": ["2"], "defense": ["X", "X"]})
    rolled = [json.dumps(e["payload"]) for e in hit["events"] if e["type"] == "DiceRolled"]
    assert len(rolled) == 3 and any('"demon": ["2"]' in r for r in rolled), rolled
    attack = next(e["payload"]["change"] for e in hit["events"] if e["type"] == "AttackResolved")
    assert attack["demon_die"] == {"damage": 2} and attack["attack_total"] == 3
    assert hit["state"]["game"]["heroes"]["monk-sha"]["hp"] == 7
    # A face the component data does not give is asked for, not dropped.
    problem = refused(client, sid, type="demon-attack", demon="berrok-2", target="monk-sha", faces={"attack": ["1"], "demon": ["3"], "defense": ["X"]})
    assert "Demon Die for face 3 is unknown" in problem["title"]
