"""A group plays a fresh Yōkai Quest campaign through the API knowing only what it publishes: the ruleset document
(GET /rulesets/yokai-quest: heroes, the chain, each scene's victory conditions as data, the action and set-up
schemas), and the session's state. Every request is checked against the published schema before it is sent. The first
scene is played to its verdict twice: won, and lost when its turn limit passes; both on SQLite and PostgreSQL.

The Health values are the table's reading of its control panels (test inputs, not facts of the real components).
"""

from __future__ import annotations

import jsonschema


class Table:
    """What a group at the table knows: the published rules and what the server answers."""

    def __init__(self, client):
        self.client = client
        self.rules = client.get("/rulesets/yokai-quest").json
        self.schemas = {action["type"]: action["schema"] for action in self.rules["actions"]}
        self.heroes = [c["id"] for c in self.rules["characters"] if c["role"] == "hero"][:2]
        self.first = self.rules["rules"]["campaign"]["chain"][0]
        self.scene = next(q for q in self.rules["quests"] if q["id"] == self.first)

    def begin(self) -> str:
        created = self.client.post("/campaigns", json={"ruleset": "yokai-quest", "name": "Game night", "party": self.heroes})
        assert created.status_code == 201, created.json
        setup = {"health": dict(zip(self.heroes, (5, 4)))}
        jsonschema.validate(setup, self.rules["setup_schema"])
        started = self.client.post(f"/campaigns/{created.json['id']}/sessions", json={"quest": self.first, "setup": setup})
        assert started.status_code == 201, started.json
        return started.json["id"]

    def do(self, sid: str, action: dict) -> dict:
        jsonschema.validate(action, self.schemas[action["type"]])
        answer = self.client.post(f"/sessions/{sid}/actions", json=action)
        assert answer.status_code == 201, answer.json
        return answer.json["state"]

    def state(self, sid: str) -> dict:
        return self.client.get(f"/sessions/{sid}").json

    def yokai_phase(self, sid: str, card_shows: dict | None = None) -> dict:
        """The Yōkai phase as the book runs it: the coins turn (their first faces are the table's, the scene does not
        give them), a card for each matching point (the table reads what it places), the scene's scripted spawns."""
        game = self.state(sid)["game"]
        coins = {}
        if game["coins"]["red-blue"] is None:
            coins["red-blue"] = next(c for c in self.scene["appearance_points"] if c in ("red", "blue"))
        state = self.do(sid, {"type": "begin-yokai-phase", **({"coins": coins} if coins else {})})
        shows = dict(card_shows or {})
        for point in state["game"]["appearances_left"]:
            self.do(sid, {"type": "draw-appearance", "point": point})
            self.do(sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": shows})
            shows = {}
        heroes = len(self.heroes)
        for spawn_id in self.state(sid)["game"]["spawns_left"]:
            rule = next(s for s in self.scene["spawns"] if s["id"] == spawn_id)
            count = {"heroes": heroes, "half-heroes": heroes // 2}
            self.do(sid, {"type": "yokai-appear", "by": spawn_id, "yokai": {y: count.get(n, n) for y, n in rule["yokai"].items()}})
        return self.do(sid, {"type": "end-turn"})

    def defeat(self, sid: str, yokai: str, count: int) -> None:
        """Yōkai come in Yōkai phases, as many as their miniatures allow (L166); the heroes strike them in the next Hero phase."""
        faces = self.schemas["attack"]["properties"]["targets"]["items"]["properties"]["attack_faces"]["properties"]["red"]["items"]["enum"]
        hit = {"defender": yokai, "attack_faces": {"red": [f for f in faces if f == "katana"]}, "defense_faces": {"blue": []}}
        cap = next(c["miniatures"] for c in self.rules["characters"] if c["id"] == yokai)
        while count:
            if not self.state(sid)["game"]["in_play"].get(yokai):
                self.yokai_phase(sid, {yokai: min(count, cap)})
            for _ in range(min(count, self.state(sid)["game"]["in_play"][yokai])):
                self.do(sid, {"type": "attack", "attacker": self.heroes[0], "source": "basic attack", "targets": [hit]})
                count -= 1

    def draw_owed(self, sid: str) -> None:
        cards = [card["name"] for card in next(d for d in self.rules["decks"] if d["id"] == "treasure")["known_cards"] if card["kind"] == "consumable"]
        limit = self.rules["rules"]["hero_rules"]["hand_limit"]
        while owed := self.state(sid)["game"]["treasure_owed"]:
            hero = owed[0]["hero"]
            hand = self.state(sid)["game"]["heroes"][hero]["hand"]
            card = cards[len(hand) % len(cards)]
            self.do(sid, {"type": "draw-treasure", "hero": hero, "card": card, **({"discard": card} if len(hand) >= limit else {})})

    def end(self, sid: str) -> dict:
        verdict = self.state(sid)["verdict"]
        ended = self.client.post(f"/sessions/{sid}/end", json={"outcome": verdict["outcome"]})
        assert ended.status_code == 200, ended.json
        assert self.client.get(f"/sessions/{sid}/verification").json["status"] == "verified"
        return ended.json


def test_a_group_wins_the_first_scene_by_its_published_conditions(client):
    table = Table(client)
    sid = table.begin()
    victory = table.scene["victory"]
    assert all("defeat" in condition for condition in victory)  # this scene's conditions are all ones the log checks
    for condition in victory:
        for yokai, count in condition["defeat"].items():
            table.defeat(sid, yokai, count)
    assert table.state(sid)["verdict"] is None  # met; the scene ends when the table says the board is clear (L753)
    state = table.do(sid, {"type": "end-scene", "outcome": "victory"})
    assert state["verdict"]["outcome"] == "victory"
    assert all(condition["source"] in state["verdict"]["reason"] for condition in victory)
    table.draw_owed(sid)
    ended = table.end(sid)
    assert ended["outcome"] == "victory" and ended["next_quest"] == table.rules["rules"]["campaign"]["chain"][1]


def test_a_group_loses_the_first_scene_when_its_turn_limit_passes(client):
    table = Table(client)
    sid = table.begin()
    limit = min(condition["before_turn"] for condition in table.scene["victory"] if condition.get("before_turn"))
    one_short = {yokai: count - 1 for yokai, count in table.scene["victory"][0]["defeat"].items()}
    for yokai, count in one_short.items():
        table.defeat(sid, yokai, count)
    while table.state(sid)["verdict"] is None:
        assert table.state(sid)["turn"] < limit, "the scene outlived its turn limit"
        table.yokai_phase(sid)
    state = table.state(sid)
    assert state["turn"] == limit and state["verdict"]["outcome"] == "defeat"
    assert state["game"]["scene_result"]["outcome"] == "failed"
    ended = table.end(sid)
    assert ended["outcome"] == "defeat" and ended["next_quest"] == table.first  # the one reattempt (L774)
