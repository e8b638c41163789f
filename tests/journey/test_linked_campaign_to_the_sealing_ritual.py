"""A linked Journey campaign from Quest 1 to Quest 10 Part 2, played through the API with reported dice and supplied
component data, each quest ending in the verdict its text gives; then `tracker rebuild` reproduces the views.
On SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import io
import json

from tests.kit.journey import DEMON_DECK
from tracker.cli import main as tracker_cli

ORDER = ["monkey-king", "cho-hakkai", "monk-sha", "tripitaka"]  # drawn at the table; Tripitaka last suits Q3 and Q5
Q2_ORDER = ["monkey-king", "monk-sha", "tripitaka", "cho-hakkai"]  # fixed by Quest 2 (L741)
HIT = {"faces": {"attack": ["1"], "pilgrim": ["X"]}}

# The group's own component data (test inputs, not facts about the real components).
NAMED = {"tripitaka": ["Shining Seal", "Healing Trance"], "monk-sha": ["Healing Fellowship"]}
BOX = {
    "decks": {
        **{
            f"skill-{p}": {"cards": [*({"name": n, "kind": "one-time"} for n in NAMED.get(p, [])), *({"name": f"{p} {n}", "kind": "permanent" if n % 2 else "one-time"} for n in range(30))]}
            for p in ORDER
        },
        "corruption": {"cards": [f"Corruption {n}" for n in range(16)]},
        "demon": {"cards": DEMON_DECK},
    },
    "characters": {
        **{p: {"stats": {"HP": 8}} for p in ORDER},
        **{d: {"stats": {"HP": 1, "BKR": 1, "GKR": 1, "SP": 1}} for d in ("berrok", "bharhaz", "borrack", "boof", "kogaiji", "yazuiji")},
    },
    "dice": {"spinner": {"faces": ["white", "black"]}},
}


class Campaign:
    def __init__(self, client):
        self.client = client
        made = client.post("/campaigns", json={"ruleset": "journey", "name": "The whole Journey", "components": BOX, "options": {"mode": "linked"}})
        assert made.status_code == 201, made.json
        self.id = made.json["id"]
        self.sid = None

    def start(self, quest, order=ORDER):
        started = self.client.post(f"/campaigns/{self.id}/sessions", json={"quest": quest, "setup": {"initiative": order} if order else {}})
        assert started.status_code == 201, started.json
        self.sid = started.json["id"]
        return started.json["state"]["game"]

    def act(self, type, **action):
        done = self.client.post(f"/sessions/{self.sid}/actions", json={"type": type, **action})
        assert done.status_code == 201, done.json
        return done.json

    def turn(self, plan, order=ORDER):
        """One turn: every Pilgrim activates in initiative order and does what the plan gives it."""
        self.act("maintenance")
        last = None
        for hero in order:
            if self.client.get(f"/sessions/{self.sid}").json["verdict"] is not None:
                break
            if self.client.get(f"/sessions/{self.sid}").json["game"]["heroes"][hero]["status"] != "conscious":
                continue
            self.act("activate-pilgrim", hero=hero)
            for step in plan.get(hero, []):
                last = self.act(hero=hero, **step)
        if self.client.get(f"/sessions/{self.sid}").json["verdict"] is None:
            self.act("demon-phase")
            self.act("end-of-turn")
        return last

    def verdict(self):
        return self.client.get(f"/sessions/{self.sid}").json["verdict"]

    def end(self, outcome, **body):
        ended = self.client.post(f"/sessions/{self.sid}/end", json={"outcome": outcome, **body})
        assert ended.status_code == 200, ended.json
        assert ended.json["ruling"] is None
        return ended.json["next_quest"]


def _attack(target, **more):
    return {"type": "pilgrim-attack", "target": target, **HIT, **more}


def test_a_linked_campaign_from_quest_1_to_the_sealing_ritual(client, database_url):
    c = Campaign(client)

    # Q1 (L711): the Villager rescued, Tripitaka Meditates, a Skill Card played, the house cleared: the last Demon
    # removed, none is in play, so none is in the house, and the quest "ends immediately" (L710): the log decides it.
    c.start("q1-meeting")
    cho_card = c.client.get(f"/sessions/{c.sid}").json["game"]["heroes"]["cho-hakkai"]["skills"][0]["name"]
    c.turn({"monkey-king": [_attack("berrok-1", outcome="kill")],
            "cho-hakkai": [{"type": "play-card", "deck": "skill-cho-hakkai", "card": cho_card}],
            "tripitaka": [{"type": "rescue-villager", "villager": "villager-1"}, {"type": "meditate", "spin": "black", "drawn": {"misfortune": ["Stumble"]}}]})
    c.turn({"monkey-king": [_attack("berrok-2", outcome="kill")]})
    assert c.verdict()["outcome"] == "heroic-victory"
    assert c.end("heroic-victory") == "q2-rescue"

    # Q2 (L747, L749): Cho Hakkai revived, 2 Sutras held, the Demons cleared: the log decides the Victory.
    c.start("q2-rescue", order=None)
    c.turn({"monkey-king": [{"type": "collect-sutra", "sutra": "sutra-1"}, _attack("berrok-1", outcome="kill")],
            "monk-sha": [{"type": "collect-sutra", "sutra": "sutra-2"}, _attack("berrok-2", outcome="kill")],
            "tripitaka": [{"type": "revive", "target": "cho-hakkai", "hp": 3}],
            "cho-hakkai": [_attack("berrok-3", outcome="kill")]}, order=Q2_ORDER)
    assert c.verdict()["outcome"] == "victory"
    assert c.end("victory") == "q3-village-fields"

    # Q3 (L787): every Gate sealed and every Villager rescued.
    c.start("q3-village-fields")
    for gate in ("gate-1", "gate-2", "gate-3"):
        c.act("gate-activation", gate=gate, state="active", reason="a Pilgrim stepped onto the central Map Tile (L783)")
    c.turn({"monkey-king": [{"type": "rescue-villager", "villager": "villager-1"}, {"type": "rescue-villager", "villager": "villager-2"}],
            "cho-hakkai": [{"type": "rescue-villager", "villager": "villager-3"}],
            "tripitaka": [{"type": "collect-sutra", "sutra": "sutra-1"}, {"type": "collect-sutra", "sutra": "sutra-2"}]})
    c.turn({"tripitaka": [{"type": "close-gate", "gate": "gate-1"}, {"type": "close-gate", "gate": "gate-2"}]})
    c.turn({"tripitaka": [{"type": "collect-sutra", "sutra": "sutra-3"}, {"type": "close-gate", "gate": "gate-3"}]})
    assert c.verdict()["outcome"] == "heroic-victory"
    assert c.end("heroic-victory") == "q4-the-village"

    # Q4 (L826): the first attack on Kogaiji ends it; he vanishes before Kill or Cleanse (L679, L829).
    c.start("q4-the-village")
    c.turn({"monkey-king": [_attack("kogaiji-1", outcome="interrupted")]})
    assert c.verdict()["outcome"] == "victory"
    assert c.end("victory") == "q5-beasts"

    # Q5 (L861, L864): the Demons gone, the Sutra held, Tripitaka calms Kei Lun with the Healing Trance he was given.
    game = c.start("q5-beasts")
    assert "Healing Trance" in [card["name"] for card in game["heroes"]["tripitaka"]["skills"]]  # L849, though carried
    c.turn({"monkey-king": [_attack("berrok-1", outcome="kill"), _attack("berrok-2", outcome="kill")],
            "cho-hakkai": [_attack("berrok-3", outcome="kill"), _attack("bharhaz-1", outcome="kill")],
            "monk-sha": [_attack("bharhaz-2", outcome="kill"), {"type": "collect-sutra", "sutra": "sutra-1"}],
            "tripitaka": [{"type": "play-card", "deck": "skill-tripitaka", "card": "Healing Trance", "keep": True}]})
    assert c.verdict()["outcome"] == "heroic-victory"
    assert c.end("heroic-victory") == "q6-kogaiji"

    # Q6 (L902): the Villager rescued, 2 Sutras held, Kogaiji Defeated.
    c.start("q6-kogaiji")
    c.turn({"monkey-king": [{"type": "collect-sutra", "sutra": "sutra-1"}, {"type": "collect-sutra", "sutra": "sutra-2"}],
            "cho-hakkai": [{"type": "rescue-villager", "villager": "villager-1"}],
            "monk-sha": [_attack("kogaiji-1", outcome="interrupted")]})
    assert c.verdict()["outcome"] == "heroic-victory"
    assert c.end("heroic-victory") == "q7-demon-army"

    # Q7 (L943, L945-L946): the Spawn Deck played once, the Gates go inactive with no Demon left; Kei Lun's fate is
    # the table's word.
    c.start("q7-demon-army")
    for gate in ("gate-1", "gate-2", "gate-3", "gate-4"):
        c.act("gate-activation", gate=gate, state="inactive", reason="the Demon Spawn Deck has been played once (L943)")
    assert c.verdict() is None
    assert c.end("heroic-victory", reported={"kei_lun_killed": False}) == "q8-iron-fans-interruption"

    # Q8 (L979-L980): Iron Fan Defeated four times, every Pilgrim alive.
    c.start("q8-iron-fans-interruption")
    for _ in range(4):
        c.turn({"monkey-king": [_attack("yazuiji-1")]})
    assert c.verdict()["outcome"] == "heroic-victory"
    assert c.end("heroic-victory") == "q9-kogaijis-trap"

    # Q9 (L1016-L1023): the Elder Monk found on the first spin, Kogaiji Defeated, the Bull Generals killed.
    c.start("q9-kogaijis-trap")
    c.turn({"monkey-king": [{"type": "rescue-villager", "villager": "villager-1", "spin": "white", "others_in_room": ["villager-2"]}],
            "cho-hakkai": [_attack("kogaiji-1"), _attack("borrack-1", outcome="kill")]})
    assert c.verdict()["outcome"] == "heroic-victory"
    assert c.end("heroic-victory") == "q10-part-1-the-lair"

    # Q10 Part 1 (L1061): all 4 Sutras held, then a Pilgrim steps onto the Fiery Bridge (stated).
    c.start("q10-part-1-the-lair")
    c.turn({"monkey-king": [{"type": "collect-sutra", "sutra": "sutra-1"}, {"type": "collect-sutra", "sutra": "sutra-2"}],
            "tripitaka": [{"type": "collect-sutra", "sutra": "sutra-3"}, {"type": "collect-sutra", "sutra": "sutra-4"}]})
    assert c.end("heroic-victory", reported={"fiery_bridge_reached": True}) == "q10-part-2-seal-the-gate"

    # Q10 Part 2 (L1096-L1100): the Demon Lords out of the lair, Tripitaka completes the Sealing Ritual.
    c.start("q10-part-2-seal-the-gate", order=None)
    c.turn({"monkey-king": [_attack("koorogg-1", outcome="kill", faces={"attack": ["3", "3", "3"], "pilgrim": ["X"]}), _attack("yazuiji-1", outcome="kill")],
            "cho-hakkai": [_attack("kogaiji-1", outcome="cleanse", cleanse_faces=["1"])],
            "tripitaka": [{"type": "sealing-ritual"}]})
    assert c.verdict()["outcome"] == "heroic-victory"
    assert c.end("heroic-victory") is None

    sessions = client.get(f"/campaigns/{c.id}").json["sessions"]
    assert [s["outcome"] for s in sessions] == ["heroic-victory", "victory", "heroic-victory", "victory", "heroic-victory", "heroic-victory",
                                                "heroic-victory", "heroic-victory", "heroic-victory", "heroic-victory", "heroic-victory"]
    for session in sessions:
        assert client.get(f"/sessions/{session['id']}/verification").json["status"] == "verified", session

    runner = client.application.extensions["tracker_views"]
    runner.catch_up()
    digest = runner.store.digest()
    heroes = client.get(f"/campaigns/{c.id}/heroes").json
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert tracker_cli(["--database-url", database_url, "rebuild"]) == 0
    assert json.loads(out.getvalue())["digest"] == digest
    assert client.get(f"/campaigns/{c.id}/heroes").json == heroes
