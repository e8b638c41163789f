"""A group plays a fresh linked Journey campaign through the API using only what the service publishes: the ruleset
document (quests, chain, action schemas, component schema, each quest's outcomes with their lines), the session
state and the problem titles. Q1 and Q2 are won as the text says, Q3 is lost, and `tracker rebuild` reproduces the
views. On SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import io
import json
import re

from tests.kit import schema_checks
from tracker.cli import main as tracker_cli

# What the group types in from its own boxes (test inputs, not facts about the real components).
OWN_BOX = {
    "decks": {
        "skill-tripitaka": {"cards": [{"name": "Shining Seal", "kind": "one-time"}, *[{"name": f"Tripitaka {n}", "kind": "permanent" if n % 2 else "one-time"} for n in range(9)]]},
        "skill-monk-sha": {"cards": [{"name": "Healing Fellowship", "kind": "one-time"}, *[{"name": f"Sha {n}", "kind": "permanent" if n % 2 else "one-time"} for n in range(9)]]},
        "skill-monkey-king": {"cards": [{"name": f"Monkey {n}", "kind": "permanent" if n % 2 else "one-time"} for n in range(10)]},
        "skill-cho-hakkai": {"cards": [{"name": f"Cho {n}", "kind": "permanent" if n % 2 else "one-time"} for n in range(10)]},
        "corruption": {"cards": [f"Corruption {n}" for n in range(16)]},
    },
    "characters": {
        **{p: {"stats": {"HP": 8}} for p in ("tripitaka", "monkey-king", "cho-hakkai", "monk-sha")},
        "berrok": {"stats": {"HP": 1, "BKR": 2, "GKR": 2, "SP": 2}},
    },
}


class Table:
    """The group: it reads the ruleset document and checks every request against what it publishes."""

    def __init__(self, client):
        self.client = client
        self.document = client.get("/rulesets/journey").json
        self.schemas = {a["type"]: a["schema"] for a in self.document["actions"]}

    def quest(self, quest_id):
        return next(q for q in self.document["quests"] if q["id"] == quest_id)

    def act(self, sid, **action):
        schema_checks.validate(action, self.schemas[action["type"]])  # the published contract
        done = self.client.post(f"/sessions/{sid}/actions", json=action)
        assert done.status_code == 201, done.json
        return done.json

    def end(self, sid, outcome, **body):
        return self.client.post(f"/sessions/{sid}/end", json={"outcome": outcome, **body})

    def facts_asked(self, refused):
        """The facts a 409 asks the table to state, by their key."""
        assert refused.status_code == 409 and refused.mimetype == "application/problem+json", refused.json
        return re.findall(r'"reported": \{"(\w+)"', refused.json["title"])


def test_a_group_wins_q1_and_q2_and_loses_q3_of_a_linked_campaign(client, database_url):
    table = Table(client)
    chain = table.document["rules"]["campaign"]["chain"]
    assert chain[:3] == ["q1-meeting", "q2-rescue", "q3-village-fields"]
    schema_checks.validate(OWN_BOX, table.document["component_schema"])
    schema_checks.validate({"mode": "linked"}, table.document["options_schema"])
    made = client.post("/campaigns", json={"ruleset": "journey", "name": "Friday", "components": OWN_BOX, "options": {"mode": "linked"}})
    assert made.status_code == 201, made.json
    cid = made.json["id"]

    # Quest 1: its Heroic Victory asks for four things (L711); the log holds three, the house is the table's word.
    heroic = table.quest("q1-meeting")["outcomes"]["heroic-victory"]
    assert [c["line"] for c in heroic] == ["L711"] * 4
    # The initiative is drawn at the table and stated at set-up (setup_schema); Tripitaka happens to go last.
    order = ["monkey-king", "cho-hakkai", "monk-sha", "tripitaka"]
    schema_checks.validate({"initiative": order}, table.document["setup_schema"])
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q1-meeting", "setup": {"initiative": order}}).json["id"]
    assert table.facts_asked(table.end(sid, "heroic-victory")) == ["house_cleared"]
    table.act(sid, type="maintenance")
    table.act(sid, type="activate-pilgrim", hero="monkey-king")
    cleanse = {"faces": {"attack": ["2", "X"], "pilgrim": ["X"]}, "outcome": "cleanse", "cleanse_faces": ["2"]}
    table.act(sid, type="pilgrim-attack", hero="monkey-king", target="berrok-1", **cleanse)
    hand = table.act(sid, type="activate-pilgrim", hero="cho-hakkai")["state"]["game"]["heroes"]["cho-hakkai"]["skills"]
    table.act(sid, type="play-card", hero="cho-hakkai", deck="skill-cho-hakkai", card=hand[0]["name"])
    table.act(sid, type="activate-pilgrim", hero="monk-sha")
    table.act(sid, type="activate-pilgrim", hero="tripitaka")
    table.act(sid, type="rescue-villager", hero="tripitaka", villager=client.get(f"/sessions/{sid}").json["game"]["tokens"]["villager"][0])
    table.act(sid, type="meditate", hero="tripitaka", spin="black", drawn={"misfortune": ["Stumble"]})
    table.act(sid, type="demon-phase")
    table.act(sid, type="end-of-turn")
    table.act(sid, type="maintenance")
    table.act(sid, type="activate-pilgrim", hero="monkey-king")
    # "The Quest ends immediately when the Demons in the house are removed" (L710): the last one removed, no Demon is in
    # play, so none is in the house; the log shows the rest of L711 too and decides the Heroic Victory at this attack.
    last = table.act(sid, type="pilgrim-attack", hero="monkey-king", target="berrok-2", **cleanse)
    assert last["state"]["verdict"]["outcome"] == "heroic-victory" and last["state"]["allowed"] == []
    ended = table.end(sid, "heroic-victory")
    assert ended.status_code == 200, ended.json
    assert ended.json["next_quest"] == "q2-rescue" and ended.json["ruling"] is None

    # Quest 2: revive Cho Hakkai, hold 2 Sutras, clear the Demons: the log decides the Victory (L747, L749).
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q2-rescue"}).json["id"]
    state = client.get(f"/sessions/{sid}").json
    assert [c["name"] for c in state["game"]["heroes"]["tripitaka"]["skills"]].count("Shining Seal") == 1  # named for Q2 (L741), carried or not
    order = state["game"]["initiative"]
    assert order == table.quest("q2-rescue")["initiative"]["order"]
    table.act(sid, type="maintenance")
    sutras = state["game"]["tokens"]["sutra"]
    table.act(sid, type="activate-pilgrim", hero="monkey-king")
    table.act(sid, type="collect-sutra", hero="monkey-king", sutra=sutras[0])
    table.act(sid, type="pilgrim-attack", hero="monkey-king", target="berrok-1", faces={"attack": ["1"], "pilgrim": ["X"]}, outcome="kill")
    table.act(sid, type="activate-pilgrim", hero="monk-sha")
    table.act(sid, type="collect-sutra", hero="monk-sha", sutra=sutras[1])
    table.act(sid, type="pilgrim-attack", hero="monk-sha", target="berrok-2", faces={"attack": ["1"], "pilgrim": ["X"]}, outcome="kill")
    table.act(sid, type="activate-pilgrim", hero="tripitaka")
    table.act(sid, type="revive", hero="tripitaka", target="cho-hakkai", hp=3, chi=2)
    assert client.get(f"/sessions/{sid}").json["verdict"] is None  # a Demon is left: the quest goes on (L747)
    table.act(sid, type="activate-pilgrim", hero="cho-hakkai")
    won = table.act(sid, type="pilgrim-attack", hero="cho-hakkai", target="berrok-3", faces={"attack": ["1"], "pilgrim": ["X"]}, outcome="kill")
    verdict = won["state"]["verdict"]
    assert verdict["outcome"] == "victory" and "(L749)" in verdict["reason"]
    assert table.end(sid, "heroic-victory").status_code == 409  # no Gate sealed, no 10 Karma (L748)
    ended = table.end(sid, "victory")
    assert ended.status_code == 200 and ended.json["next_quest"] == "q3-village-fields"

    # Quest 3: a Demon crosses the bridge into the village, which only the table sees: a Defeat (L786, L789).
    sid = client.post(f"/campaigns/{cid}/sessions", json={"quest": "q3-village-fields"}).json["id"]
    asked = table.facts_asked(table.end(sid, "defeat"))
    assert asked == ["demon_entered_village"]
    lost = table.end(sid, "defeat", reported={asked[0]: True})
    assert lost.status_code == 200 and lost.json["ruling"] is None
    sessions = client.get(f"/campaigns/{cid}").json["sessions"]
    assert [(s["quest"], s["outcome"]) for s in sessions] == [("q1-meeting", "heroic-victory"), ("q2-rescue", "victory"), ("q3-village-fields", "defeat")]
    for session in sessions:
        assert client.get(f"/sessions/{session['id']}/verification").json["status"] == "verified"

    # The views rebuild from the log alone to the same digest.
    runner = client.application.extensions["tracker_views"]
    runner.catch_up()
    digest = runner.store.digest()
    heroes = client.get(f"/campaigns/{cid}/heroes").json
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert tracker_cli(["--database-url", database_url, "rebuild"]) == 0
    assert json.loads(out.getvalue())["digest"] == digest
    assert client.get(f"/campaigns/{cid}/heroes").json == heroes
