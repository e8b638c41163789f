"""A group's first evening of each game, from a fresh campaign to the end of a quest, using only what the API publishes.

The group knows its boxes and the rulebook, not the code: it reads the ruleset document (schemas, quests,
dice), the campaign's missing facts, the session's `phase` and `allowed` actions, refusals' titles and
`example` bodies, and an end's 409 that names the condition. Every action a `Table` takes must be listed in
`allowed` for the hero who takes it; everything it sends is checked against the published schemas first.
"""

from __future__ import annotations

from typing import Any

from tests.kit import schema_checks


class Table:
    """A group at the table with the owner's token (the test client sends it) and nothing but the API."""

    def __init__(self, client, ruleset: str) -> None:
        self.client = client
        self.ruleset = ruleset
        self.document = client.get(f"/rulesets/{ruleset}").json
        self.schemas = {action["type"]: action["schema"] for action in self.document["actions"]}
        self.sid: str | None = None
        self.state: dict[str, Any] = {}

    def post(self, path: str, body: dict, status: int = 201) -> dict:
        response = self.client.post(path, json=body)
        assert response.status_code == status, (path, body, response.json)
        return response.json

    def create(self, party: list[str], options: dict | None = None) -> dict:
        body: dict[str, Any] = {"ruleset": self.ruleset, "name": "First evening", "party": party}
        if options:
            schema_checks.validate(options, self.document["options_schema"])
            body["options"] = options
        self.campaign = self.post("/campaigns", body)
        return self.campaign

    def missing(self) -> dict:
        return self.client.get(f"/campaigns/{self.campaign['id']}/components/missing").json

    def start(self, setup: dict | None = None) -> dict:
        quest = self.campaign["next_quest"]
        assert quest in {q["id"] for q in self.document["quests"]}
        schema_checks.validate(setup or {}, self.document["setup_schema"])
        started = self.post(f"/campaigns/{self.campaign['id']}/sessions", {"quest": quest, "setup": setup or {}})
        assert started["warnings"] == []
        self.sid, self.state = started["id"], started["state"]
        return started

    def allowed(self, action_type: str, hero: str | None = None) -> bool:
        for entry in self.state["allowed"]:
            if entry["type"] == action_type and (hero is None or entry["heroes"] is None or hero in entry["heroes"]):
                return True
        return False

    def whose(self, action_type: str) -> list[str]:
        return next(entry["heroes"] for entry in self.state["allowed"] if entry["type"] == action_type)

    def act(self, body: dict, status: int = 201) -> dict:
        """Take an action the state lists as allowed, its body fitting the published schema."""
        assert self.allowed(body["type"], body.get("hero")), (body, self.state["phase"], self.state["allowed"])
        schema_checks.validate(body, self.schemas[body["type"]])
        answer = self.post(f"/sessions/{self.sid}/actions", body, status)
        if status == 201:
            self.state = answer["state"]
        return answer

    def refused(self, body: dict) -> dict:
        assert self.allowed(body["type"], body.get("hero"))
        response = self.client.post(f"/sessions/{self.sid}/actions", json=body)
        assert response.status_code == 422, response.json
        return response.json

    def end(self, outcome: str, reported: dict | None = None, status: int = 200) -> dict:
        body: dict[str, Any] = {"outcome": outcome}
        if reported:
            body["reported"] = reported
        return self.post(f"/sessions/{self.sid}/end", body, status)

    def verified(self) -> None:
        report = self.client.get(f"/sessions/{self.sid}/verification").json
        assert report["status"] == "verified", report
        campaign = self.client.get(f"/campaigns/{self.campaign['id']}").json
        assert [s["outcome"] for s in campaign["sessions"] if s["id"] == self.sid] != [None]


def test_a_first_evening_of_journey(client):
    table = Table(client, "journey")
    table.create(["tripitaka", "monkey-king"])
    missing = table.missing()
    assert missing["blocks"]["quest_setup"] == {}  # nothing stops the first quest's set-up
    assert "attack" in missing["blocks"]["digital_rolls"]  # the Attack Dice are rolled at the table and reported
    table.start()
    assert table.state["phase"] == "maintenance"
    table.act({"type": "maintenance"})
    while table.allowed("activate-pilgrim"):
        (hero,) = table.whose("activate-pilgrim")
        table.act({"type": "activate-pilgrim", "hero": hero})
        if hero == "tripitaka" or hero == "monkey-king":
            # The spinner's faces are lost: the refusal's example says how the table reports the spin.
            example = table.refused({"type": "meditate", "hero": hero})["example"]
            table.act({**example, "spin": "black", "drawn": {"misfortune": ["Stumble"]}})
        table.act({"type": "rest", "hero": hero})
    table.act({"type": "demon-phase"})
    # A Demon attacks: its dice are rolled at the table; the refusal names every fact the attack reads at once.
    target = "monkey-king"
    demon = next(iter(table.state["game"]["demons"]))
    attack = {"type": "demon-attack", "demon": demon, "target": target, "faces": {"attack": ["2", "1"], "demon": ["X"], "defense": ["1"]}}
    needs = table.refused(attack)["errors"]
    assert any(path.endswith(f"{target}.stats.HP") for path in needs)
    hp_fact = next(f for f in table.missing()["facts"] if f["path"].endswith(f"{target}.stats.HP"))
    assert "report-health" in hp_fact["how_per_use"]  # the table may report the Health instead
    table.act({"type": "report-health", "hero": target, "hp": 10})
    table.act(attack)
    assert table.state["game"]["heroes"][target]["hp"] < 10
    table.act({"type": "end-of-turn"})
    assert table.state["phase"] == "maintenance" and table.state["turn"] == 2
    # The house is cleared on the table; the end's 409 names the fact to state.
    condition = table.end("victory", status=409)["title"]
    assert '"house_cleared"' in condition
    ended = table.end("victory", {"house_cleared": True})
    assert ended["next_quest"] != table.campaign["next_quest"]
    table.verified()


def test_a_first_evening_of_descent(client):
    table = Table(client, "descent")
    table.create(["aurim", "tahlia"])
    quest = next(q for q in table.document["quests"] if q["id"] == table.campaign["next_quest"])
    task = quest["prolonged"][0]  # the quest's prolonged action, as the ruleset document lists it
    trait = task["trait"][0]
    fact = next(f for f in table.missing()["facts"] if f["path"] == f"components.characters.aurim.stats.{trait}")
    assert "prolonged-roll" in fact["blocks"]["actions"] and '"trait_value"' in fact["how_per_use"]  # stated with the roll
    table.start()
    # A turn is the heroes' turns, then the overlord's (L345): the quest opens with the heroes', the table choosing who goes first.
    assert table.state["phase"] == "heroes" and not table.allowed("prolonged-roll") and "aurim" in table.whose("start-hero-turn")
    table.act({"type": "start-hero-turn", "hero": "aurim"})
    assert table.whose("prolonged-roll") == ["aurim"]
    assert next(e for e in table.state["allowed"] if e["type"] == "prolonged-roll")["side"] == "heroes"
    search = {"type": "prolonged-roll", "hero": "aurim", "task": task["id"], "trait": trait, "half_action": "order", "trait_value": 2}
    room = quest.get("secret_room")
    if room and room["search"] == task["id"]:  # the search names a marker, after the overlord's roll (the quest's secret_room)
        search["marker"] = room["markers"][0]
        example = table.refused({"type": "secret-room-roll"})["example"]  # his power die is rolled at the table
        table.act(example)
    example = table.refused(search)["example"]  # the power dice's faces are lost: rolled at the table
    assert len(example["faces"]) == 2
    table.act({**example, "faces": ["enhancement", "blank"]})
    refusal = table.end("victory", status=409)
    assert "cannot end in victory" in refusal["title"] and '"ruling"' in refusal["detail"]
    # The evening is over before the Thing is defeated: the owner ends the quest by a table ruling, as the 409 offers.
    ended = table.post(f"/sessions/{table.sid}/end", {"outcome": "defeat", "ruling": "we ran out of time and called it lost"}, 200)
    assert ended["ruling"] and ended["seed"]
    table.verified()


def test_a_first_evening_of_kung_fu_panda(client):
    table = Table(client, "kung-fu-panda")
    table.create(["po", "tigress"], {"length": "single", "mission": "m2-1"})
    assert "action-die" in table.missing()["blocks"]["digital_rolls"]
    # The mission maps are lost: the table names the tiles, as the set-up schema describes.
    table.start({"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}})
    assert table.state["phase"] == "ready"
    rounds = 0
    while table.state["verdict"] is None:
        assert table.allowed("start-round"), table.state["allowed"]
        table.act({"type": "start-round"})
        for hero in table.whose("roll"):
            example = table.refused({"type": "roll", "hero": hero})["example"]  # the dice are rolled at the table
            table.act({**example, "faces": ["Chi"] * len(example["faces"])})
        table.act({"type": "end-round"})
        rounds += 1
        assert rounds <= 10
    verdict = table.state["verdict"]
    assert verdict["outcome"] == "defeat"  # time ran out: the rules decided it as it happened
    table.end(verdict["outcome"])
    table.verified()


def test_a_first_evening_of_yokai_quest(client):
    table = Table(client, "yokai-quest")
    table.create(["ryo", "ami"])
    setup_needs = table.missing()["blocks"]["quest_setup"][table.campaign["next_quest"]]
    assert sorted(setup_needs) == ["components.characters.ami.stats.health", "components.characters.ryo.stats.health"]
    refused = table.client.post(f"/campaigns/{table.campaign['id']}/sessions", json={"quest": table.campaign["next_quest"]})
    assert refused.status_code == 422 and set(setup_needs) <= set(refused.json["errors"])  # both named at once
    table.start({"health": {"ryo": 5, "ami": 5}})  # read from the control panels, as the set-up schema says
    assert table.state["phase"] == "hero"
    while not table.allowed("begin-yokai-phase"):  # each hero activates first, even doing nothing
        hero = table.whose("end-activation")[0]
        table.act({"type": "end-activation", "hero": hero})
    coins_schema = table.schemas["begin-yokai-phase"]["properties"].get("coins")
    begin = {"type": "begin-yokai-phase"}
    refusal = table.client.post(f"/sessions/{table.sid}/actions", json=begin)
    if refusal.status_code == 422:  # the coins' faces were lost: the table states them once
        assert coins_schema is not None and "coins" in refusal.json["detail"]
        begin["coins"] = {"red-blue": "red"}
        table.act(begin)
    else:
        table.state = refusal.json["state"]
    assert table.state["phase"] == "yokai"
    while table.state["game"]["appearances_left"]:
        table.act({"type": "draw-appearance", "point": table.state["game"]["appearances_left"][0]})
        table.act({"type": "yokai-appear", "by": "appearance-card", "yokai": {}})
    table.act({"type": "end-turn"})
    assert table.state["phase"] == "hero" and table.state["turn"] == 2
    table.act({"type": "end-scene", "outcome": "failed"})
    verdict = table.state["verdict"]
    table.end(verdict["outcome"] if verdict else "defeat")
    table.verified()
