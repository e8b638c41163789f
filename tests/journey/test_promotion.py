"""Journey's promotion tree through the REST API on SQLite and PostgreSQL (line numbers: the seed's): out of
miniatures, a Demon is promoted along the tree a group supplies, and where the rulebook lost it the table says it
for that spawn (L604-L606)."""

from __future__ import annotations

from tests.kit.journey import COMPONENTS, DEMON_DECK, act, campaign, start


def test_a_supplied_promotion_tree_promotes_instead_of_raging(client):
    """L604-L606: out of miniatures, a Demon is promoted along the tree; only with nothing to promote, Demon Rage."""
    comps = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}, "tables": {**COMPONENTS["tables"], "promotion-tree": {"berrok": ["bharhaz"]}}}
    sid, _ = start(client, campaign(client, components=comps), "q1-meeting")
    act(client, sid, type="maintenance")
    act(client, sid, type="demon-phase")
    warband = act(client, sid, type="spawn-demons", gates=["gate-1"], drawn={"demon": ["Warband"]})  # 14 Berrok, 13 miniatures left
    promoted = [e["payload"]["change"] for e in warband["events"] if e["type"] == "DemonSpawned" and e["payload"]["change"]["promoted_from"]]
    assert [(p["character"], p["promoted_from"]) for p in promoted] == [("bharhaz", "berrok")]
    assert warband["state"]["game"]["rage"] is False and list(warband["state"]["game"]["demons"].values()).count("berrok") == 15


def test_a_promotion_the_rulebook_lost_is_said_by_the_table_for_that_spawn(client):
    """L604-L606: the promotion tree was a figure lost from the rulebook. With no tree supplied, the spawn that runs
    out of miniatures is refused naming both ways on (supply the tree, or say how it reads for this spawn); said,
    the promotion is recorded with the action as the table stated it."""
    comps = {**COMPONENTS, "decks": {**COMPONENTS["decks"], "demon": {"cards": DEMON_DECK}}}
    assert "promotion-tree" not in comps["tables"]
    sid, _ = start(client, campaign(client, components=comps), "q1-meeting")
    act(client, sid, type="maintenance")
    act(client, sid, type="demon-phase")
    before = client.get(f"/sessions/{sid}/events?limit=1000").json["events"]
    refused = client.post(f"/sessions/{sid}/actions", json={"type": "spawn-demons", "gates": ["gate-1"], "drawn": {"demon": ["Warband"]}})
    assert refused.status_code == 422 and "promotion tree is unknown" in refused.json["title"]
    assert "promotion_said.berrok" in refused.json["errors"] and "components.tables.promotion-tree.berrok" in refused.json["errors"]
    assert client.get(f"/sessions/{sid}/events?limit=1000").json["events"] == before
    said = act(client, sid, type="spawn-demons", gates=["gate-1"], drawn={"demon": ["Warband"]}, promotion_said={"berrok": ["bharhaz"]})
    promoted = [e["payload"]["change"] for e in said["events"] if e["type"] == "DemonSpawned" and e["payload"]["change"]["promoted_from"]]
    assert [(p["character"], p["promoted_from"]) for p in promoted] == [("bharhaz", "berrok")]
    assert client.get(f"/sessions/{sid}/verification").json["status"] == "pending"  # every event follows from the ones before
