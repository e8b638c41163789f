"""A group at a Yōkai Quest table that knows only what the service publishes: the ruleset document
(GET /rulesets/yokai-quest: heroes, the chain, each scene's victory conditions as data, the action and set-up
schemas), and the session's state. Every request is checked against the published schema before it is sent.
The Health values are the table's reading of its control panels (test inputs, not facts of the real components)."""

from __future__ import annotations

from tests.kit import schema_checks


class Table:
    """What a group at the table knows: the published rules and what the server answers."""

    def __init__(self, client, scene_id=None):
        self.client = client
        self.rules = client.get("/rulesets/yokai-quest").json
        self.schemas = {action["type"]: action["schema"] for action in self.rules["actions"]}
        self.heroes = [c["id"] for c in self.rules["characters"] if c["role"] == "hero"][:2]
        self.first = self.rules["rules"]["campaign"]["chain"][0]
        self.scene = next(q for q in self.rules["quests"] if q["id"] == self.first)
        self.campaign = None

    def quest(self, scene_id: str) -> dict:
        return next(q for q in self.rules["quests"] if q["id"] == scene_id)

    def begin(self, scene_id: str | None = None, story: str | None = None) -> str:
        """A session of the scene; the first of a campaign states the heroes' Health, later ones what the text lost."""
        scene = self.quest(scene_id or self.first)
        self.scene = scene
        if self.campaign is None:
            body = {"ruleset": "yokai-quest", "name": "Game night", "party": self.heroes, **({"options": {"story": story}} if story else {})}
            created = self.client.post("/campaigns", json=body)
            assert created.status_code == 201, created.json
            self.campaign = created.json["id"]
            # The heroes are prepared (L145): Health from the panels, and four abilities each, here their own four.
            own = {c["id"]: [a["id"] for a in c["abilities"]] for c in self.rules["characters"] if c["id"] in self.heroes}
            setup = {"health": dict(zip(self.heroes, (5, 4))), "abilities": {hero: own[hero][:4] for hero in self.heroes}}
        else:
            setup = {}
        unstated = [o["character"] for o in scene["objectives"] if o["count"] is None]
        if unstated:
            setup["objectives"] = {character: 2 for character in unstated}  # the table counts them on its board
        schema_checks.validate(setup, self.rules["setup_schema"])
        started = self.client.post(f"/campaigns/{self.campaign}/sessions", json={"quest": scene["id"], "setup": setup})
        assert started.status_code == 201, started.json
        self.replenish(started.json["id"])
        return started.json["id"]

    def replenish(self, sid: str) -> None:
        """"First, all the heroes replenish energy" (L156): one energy card each, its spheres read at the table."""
        game = self.state(sid)["game"]
        for hero in self.heroes:
            if not game["heroes"][hero]["defeated"]:
                self.do(sid, {"type": "draw-energy", "hero": hero, "spheres": 1})

    def do(self, sid: str, action: dict) -> dict:
        schema_checks.validate(action, self.schemas[action["type"]])
        answer = self.client.post(f"/sessions/{sid}/actions", json=action)
        assert answer.status_code == 201, answer.json
        return answer.json["state"]

    def state(self, sid: str) -> dict:
        return self.client.get(f"/sessions/{sid}").json

    def hero_to_act(self, sid: str) -> str | None:
        """A hero who may take an action now: the active one while an action is left (two per activation), else the next
        hero to activate, ending the activation under way; None when every hero standing has activated this turn."""
        limit = self.rules["rules"]["hero_rules"]["activation"]["actions"]
        game = self.state(sid)["game"]
        current = game["activation"]
        if current and current["actions_used"] < limit:
            return current["hero"]
        if current:
            game = self.do(sid, {"type": "end-activation", "hero": current["hero"]})["game"]
        waiting = [h for h in self.heroes if not game["heroes"][h]["defeated"] and h not in game["activated"]]
        if not waiting or game["phase"] != "hero":
            return None
        self.do(sid, {"type": "move", "hero": waiting[0], "movement": "basic"})  # up to three squares towards the yōkai (L398)
        return waiting[0]

    def end_hero_phase(self, sid: str) -> None:
        """Every hero activates in the Hero phase (L158); those with nothing left to do renounce it (L400)."""
        game = self.state(sid)["game"]
        if game["activation"]:
            game = self.do(sid, {"type": "end-activation", "hero": game["activation"]["hero"]})["game"]
        for hero in self.heroes:
            if not game["heroes"][hero]["defeated"] and hero not in game["activated"]:
                game = self.do(sid, {"type": "end-activation", "hero": hero})["game"]

    def begin_yokai_phase(self, sid: str) -> dict:
        """The Hero phase over, the coins turn (their first faces are the table's, the scene does not give them)."""
        self.end_hero_phase(sid)
        game = self.state(sid)["game"]
        coins = {}
        for coin, faces in (("red-blue", ("red", "blue")), ("green-yellow", ("green", "yellow"))):
            if game["coins"][coin] is None and any(point in faces for point in self.scene["appearance_points"]):
                coins[coin] = next(point for point in self.scene["appearance_points"] if point in faces)
        return self.do(sid, {"type": "begin-yokai-phase", **({"coins": coins} if coins else {})})

    def yokai_phase(self, sid: str, card_shows: dict | None = None) -> dict:
        """The Yōkai phase as the book runs it: the coins turn, a card for each matching point (the table reads what it
        places), the scene's scripted spawns and arrivals, then the turn ends."""
        state = self.begin_yokai_phase(sid)
        shows = dict(card_shows or {})
        for point in state["game"]["appearances_left"]:
            self.do(sid, {"type": "draw-appearance", "point": point})
            self.do(sid, {"type": "yokai-appear", "by": "appearance-card", "yokai": shows})
            shows = {}
        arrives = (self.scene.get("chief") or {}).get("arrives")
        if arrives and self.state(sid)["turn"] == arrives["turn"]:  # the scene's chief comes on its turn (chief.arrives)
            self.do(sid, {"type": "foe-appeared", "foe": self.scene["chief"]["character"]})
        heroes = len(self.heroes)
        for spawn_id in self.state(sid)["game"]["spawns_left"]:
            rule = next(s for s in self.scene["spawns"] if s["id"] == spawn_id)
            count = {"heroes": heroes, "half-heroes": heroes // 2}
            self.do(sid, {"type": "yokai-appear", "by": spawn_id, "yokai": {y: count.get(n, n) for y, n in rule["yokai"].items()}})
        state = self.do(sid, {"type": "end-turn"})
        if state["verdict"] is None:
            self.replenish(sid)
        return state

    def defeat(self, sid: str, yokai: str, count: int) -> None:
        """Yōkai come in Yōkai phases, as many as their miniatures allow (L166); the heroes strike them in the next Hero phase."""
        faces = self.schemas["attack"]["properties"]["targets"]["items"]["properties"]["attack_faces"]["properties"]["red"]["items"]["enum"]
        hit = {"defender": yokai, "attack_faces": {"red": [f for f in faces if f == "katana"]}, "defense_faces": {"blue": []}}
        cap = next(c["miniatures"] for c in self.rules["characters"] if c["id"] == yokai)
        while count:
            if not self.state(sid)["game"]["in_play"].get(yokai):
                self.yokai_phase(sid, {yokai: min(count, cap)})
                continue
            hero = self.hero_to_act(sid)
            if hero is None:
                self.yokai_phase(sid)
                continue
            self.do(sid, {"type": "attack", "attacker": hero, "source": "basic attack", "targets": [hit]})
            count -= 1

    def strike(self, sid: str, defender: str, katanas: int = 1) -> dict:
        """A basic attack (one action, one target: L398, L408) by the next hero with an action left, a new turn when none has."""
        faces = {"red": ["katana"] * min(katanas, 10), "blue": ["katana"] * max(0, min(katanas - 10, 10))}
        target = {"defender": defender, "attack_faces": faces, "defense_faces": {"blue": []}}
        hero = self.hero_to_act(sid)
        while hero is None:
            self.yokai_phase(sid)
            hero = self.hero_to_act(sid)
        return self.do(sid, {"type": "attack", "attacker": hero, "source": "basic attack", "targets": [target]})

    def destroy(self, sid: str, character: str) -> None:
        """Every chief or objective of this character on the board, struck until it falls (a chief not yet come, awaited)."""
        while not any(foe["character"] == character for foe in self.state(sid)["game"]["foes"].values()):
            assert (self.scene.get("chief") or {}).get("arrives"), f"{character} is neither on the board nor coming"
            self.yokai_phase(sid)
        for foe_id, foe in self.state(sid)["game"]["foes"].items():
            if foe["character"] == character:
                while foe_id in self.state(sid)["game"]["foes"]:
                    self.strike(sid, foe_id, 20)

    def next_keeps_board(self) -> bool:
        story = next(s for s in self.rules["rules"]["stories"] if self.scene["id"] in s["scenes"])["scenes"]
        position = story.index(self.scene["id"])
        return position + 1 < len(story) and self.quest(story[position + 1])["keeps_board_from_previous"]

    def clear(self, sid: str) -> None:
        """No yōkai left to fight (L753), unless the next scene keeps the board and its miniatures (L807, L1069)."""
        while left := [yokai for yokai, count in self.state(sid)["game"]["in_play"].items() if count]:
            self.strike(sid, left[0])
        chief = (self.scene.get("chief") or {}).get("character")
        if chief and not self.next_keeps_board() and any(f["character"] == chief for f in self.state(sid)["game"]["foes"].values()):
            self.destroy(sid, chief)

    def win(self, sid: str) -> dict:
        """Meet the scene's victory conditions as its data states them, clear the board, end the scene and the session."""
        scene = self.scene
        either = scene.get("victory_bullets") == "either"
        needed = scene["victory"][:1] if either else scene["victory"]
        basics = {c["id"] for c in self.rules["characters"] if c["role"] == "yokai"}
        reported = {}
        for condition in needed:
            for yokai, count in (condition.get("defeat") or {}).items():
                if yokai == "any" or yokai in basics:
                    self.defeat(sid, "furu-utsubo" if yokai == "any" else yokai, count)
                else:
                    self.destroy(sid, yokai)
            if condition.get("destroy_all"):
                self.destroy(sid, condition["destroy_all"])
            while condition.get("survive_until_turn") and self.state(sid)["turn"] < condition["survive_until_turn"]:
                self.yokai_phase(sid)
            if condition.get("reported"):
                reported[condition["id"]] = condition["reported"]  # what the table saw, in the words the data asks for
        self.clear(sid)
        if not reported:  # every condition is the log's: it decided the scene as the board cleared (L753), before any end
            assert self.state(sid)["verdict"]["outcome"] == "victory", self.state(sid)["verdict"]
        else:  # a condition only the table sees: the state names it, and the scene waits for the table's end
            assert self.state(sid)["verdict"] is None and set(reported) <= {f["fact"] for f in self.state(sid)["end"]["awaits"]}
        body = {"type": "end-scene", "outcome": "victory", **({"victory_condition": needed[0]["id"]} if either else {})}
        state = self.do(sid, {**body, **({"reported": reported} if reported else {})})
        assert state["verdict"]["outcome"] == "victory" and all(c["source"] in state["verdict"]["reason"] for c in needed)
        self.draw_owed(sid)
        return self.end(sid)

    def lose(self, sid: str) -> dict:
        """A yōkai strikes every hero down: "If all the heroes in the scene are defeated, the Reattempt mechanic is engaged" (L763)."""
        in_play = [yokai for yokai, count in self.state(sid)["game"]["in_play"].items() if count]
        if not in_play:
            self.yokai_phase(sid, {"yurei": 1})
            in_play = ["yurei"]
        self.begin_yokai_phase(sid)  # the yōkai act in the Yōkai phase (L192)
        for hero in self.heroes:
            equipped = [card for card in self.state(sid)["game"]["heroes"][hero]["equipped"].values() if card]
            target = {"defender": hero, "attack_faces": {"red": ["katana"] * 10, "blue": ["katana"] * 10}, "defense_faces": {"blue": []}}
            self.do(sid, {"type": "attack", "attacker": in_play[0], "targets": [target], **({"panel_discard": {hero: equipped[0]}} if equipped else {})})
        state = self.state(sid)
        assert state["verdict"]["outcome"] == "defeat" and "L763" in state["verdict"]["reason"]
        return self.end(sid)

    def reach(self, scene_id: str) -> str:
        """A fresh campaign of the scene's story, its earlier scenes won, and a session of the scene."""
        story = next(s for s in self.rules["rules"]["stories"] if scene_id in s["scenes"])
        for earlier in story["scenes"][: story["scenes"].index(scene_id)]:
            self.win(self.begin(earlier, story=story["id"]))
        return self.begin(scene_id, story=story["id"])

    def draw_owed(self, sid: str) -> None:
        cards = [card["name"] for card in next(d for d in self.rules["decks"] if d["id"] == "treasure")["known_cards"] if card["kind"] == "consumable"]
        limit = self.rules["rules"]["hero_rules"]["hand_limit"]
        while owed := self.state(sid)["game"]["treasure_owed"]:
            hero = owed[0]["hero"]
            hand = self.state(sid)["game"]["heroes"][hero]["hand"]
            card = cards[len(hand) % len(cards)]
            self.do(sid, {"type": "draw-treasure", "hero": hero, "card": card, **({"discard": card} if len(hand) >= limit else {})})

    def events(self, sid: str) -> list[dict]:
        events, after = [], 0
        while page := self.client.get(f"/sessions/{sid}/events?after={after}&limit=1000").json["events"]:
            events += page
            after = page[-1]["position"]
        return events

    def end(self, sid: str) -> dict:
        """End the session by its verdict, having checked that every turn played had its Yōkai phase (L152)."""
        kinds = [event["type"] for event in self.events(sid)]
        turns = [i for i, kind in enumerate(kinds) if kind == "TurnEnded"]
        assert all(kinds[i - 1] == "YokaiPhaseEnded" for i in turns) and kinds.count("YokaiPhaseBegan") >= len(turns)
        verdict = self.state(sid)["verdict"]
        ended = self.client.post(f"/sessions/{sid}/end", json={"outcome": verdict["outcome"]})
        assert ended.status_code == 200, ended.json
        assert self.client.get(f"/sessions/{sid}/verification").json["status"] == "verified"
        return ended.json
