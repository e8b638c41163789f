"""Missions played turn by turn through the API, on SQLite and PostgreSQL: every roll, Claws, spend, round end and
pause entered as it happens at the table (no round summaries), knowing only what the service publishes (the
mission in GET /rulesets/kung-fu-panda: its tiles, terrain and costs, round limit, pause rule, levers, gongs, guard
wall and line) and the session state (pools, tiles, enemies). Missions 1.2, 1.3, 2.1 and 2.2 are lost as their
text says, and 1.2 is won; each ends in the verdict the rules recorded, verifies, and `tracker rebuild`
reproduces the same views."""

from __future__ import annotations

from collections import Counter

from tests.kit import session
from tests.kit.kung_fu_panda import (
    act as _act,
    campaign,
    kinds as _kinds,
    refused as _refused,
    start as _start,
)

PARTY = ("po", "tigress")
DICE = 4  # each player takes 4 Action Dice (L52)
FILLER = "Kick"  # what the dice not needed for the next spend show


class Table:
    """One session of one mission, played from the published rules and the session state."""

    def __init__(self, client, quest: str, setup: dict) -> None:
        self.client = client
        doc = client.get("/rulesets/kung-fu-panda").json
        self.rules = doc["rules"]
        self.mission = next(q for q in doc["quests"] if q["id"] == quest)
        cid = campaign(client, {"length": "single", "mission": quest}, party=PARTY)
        cards = {hero: f"Card {n}" for n, hero in enumerate(PARTY)}  # a single mission draws one per player (L179)
        self.sid = _start(client, cid, quest, {"special_moves": cards, **setup})
        self.last: dict = {}

    # -- what the table sees ----------------------------------------------------------

    def game(self) -> dict:
        return self.client.get(f"/sessions/{self.sid}").json["game"]

    def said(self, tile: str) -> str:
        """A tile as the service's words say it: its published name and its letter ("Kitchen (J)")."""
        return f"{self.rules['tiles'][tile]['name']} ({tile})"

    def tiles_named(self, prefix: str) -> list[str]:
        return [t for t in self.mission["tiles"] if self.rules["tiles"][t]["name"].startswith(prefix)]

    def tiles_of(self, terrain: str) -> list[str]:
        return [t for t in self.mission["tiles"] if self.rules["tiles"][t].get("terrain") == terrain]

    def entry_cost(self, hero: str, to: str) -> list[str]:
        """What moving onto a tile costs by the published data: the mission's own price for the terrain (or for a
        normal tile) over the general one, plus one Move per enemy on the tile left (L93-L97)."""
        game = self.game()
        terrain = self.rules["tiles"][to].get("terrain")
        overrides = self.mission.get("costs", {})
        if terrain:
            cost = dict(overrides.get(terrain) or self.rules["terrain"][terrain]["entry"])
        else:
            cost = dict(overrides.get("normal-tile-move") or self.rules["costs"]["move"])
        here = game["heroes"][hero]["tile"]
        cost["Move"] = cost.get("Move", 0) + sum(game["enemies"].get(here, {}).values()) * self.rules["costs"]["extra_move_per_enemy_on_tile"]
        return list(Counter(cost).elements())

    # -- what the table does -------------------------------------------------------------

    def act(self, body: dict) -> dict:
        self.last = _act(self.client, self.sid, body)
        return self.last

    def roll(self, hero: str, faces: list[str]) -> dict:
        """Roll the dice in hand plus every saved result: the faces the table reports."""
        saved = self.game()["pools"].get(hero, [])
        assert len(faces) == DICE, faces
        return self.act({"type": "roll", "hero": hero, "reroll": saved, "faces": faces})

    def ready(self, hero: str, needed: list[str]) -> None:
        """Roll until the hero's pool holds what the next spend needs, keeping what it already holds."""
        pool = self.game()["pools"].get(hero, [])
        missing = Counter(needed) - Counter(pool)
        if not missing:
            return
        spare = list((Counter(pool) - Counter(needed)).elements())
        in_hand = DICE - len(pool)
        reroll = spare[: max(0, sum(missing.values()) - in_hand)]
        count = in_hand + len(reroll)
        faces = list(missing.elements()) + [FILLER] * (count - sum(missing.values()))
        self.act({"type": "roll", "hero": hero, "reroll": reroll, "faces": faces})

    def spend(self, heroes: dict, purpose: str, **fields) -> dict:
        for hero, results in heroes.items():
            self.ready(hero, results)
        return self.act({"type": "spend", "heroes": heroes, "for": purpose, **fields})

    def move(self, hero: str, to: str) -> dict:
        moved = self.spend({hero: self.entry_cost(hero, to)}, "move", to=to)
        assert moved["state"]["game"]["heroes"][hero]["tile"] == to
        return moved

    def claws(self, hero: str, spaces: list[dict]) -> dict:
        """Claws rolled are resolved at once, each a dial space read off the physical dial (L85-L88)."""
        self.roll(hero, ["Claws"] * len(spaces) + [FILLER] * (DICE - len(spaces)))
        return self.act({"type": "resolve-claws", "hero": hero, "spaces": spaces})

    def pause(self, faces: dict, **fields) -> dict:
        return self.act({"type": "pause", "faces": faces, **fields})

    # -- how it ends ---------------------------------------------------------------------

    def ends_in(self, app, outcome: str) -> None:
        refused = "victory" if outcome == "defeat" else "defeat"
        before = self.client.get(f"/sessions/{self.sid}/events?limit=1").json["total"]
        assert self.client.post(f"/sessions/{self.sid}/end", json={"outcome": refused}).status_code == 409
        assert self.client.get(f"/sessions/{self.sid}/events?limit=1").json["total"] == before
        assert self.client.post(f"/sessions/{self.sid}/end", json={"outcome": outcome}).status_code == 200
        assert self.client.get(f"/sessions/{self.sid}/verification").json["status"] == "verified"
        runner = app.extensions["tracker_views"]
        runner.catch_up()
        timeline = self.client.get(f"/sessions/{self.sid}/timeline?limit=1000").json["entries"]
        digest = runner.store.digest()
        assert runner.rebuild() == digest
        assert self.client.get(f"/sessions/{self.sid}/timeline?limit=1000").json["entries"] == timeline


def _times_up(table: Table, result: dict) -> None:
    """The final round's sand ran out with the mission not won: lost by time's up (L193), as the mission says."""
    limit = table.mission["round_limit"]
    assert result["events"][-2]["payload"]["change"] == {"kind": "mission-lost", "loss": "times-up", "round": limit}
    verdict = result["state"]["verdict"]
    assert verdict["outcome"] == "defeat" and "time's up" in verdict["reason"] and "L193" in verdict["reason"]
    assert verdict["position"] == result["version"]
    session.refused(table.client, table.sid, {"type": "start-round"}, "The quest is decided: ", status=409)  # no round after the verdict


def _break_in(client) -> Table:
    """1.2 laid out from its text: each hero on a Monastery Bed (L281), the levers on the Flagstone tiles of spawn
    points 2 and 4 (L268), the scroll on spawn point 5 (L264; the Monastery Hall stands for the Sacred Archives,
    which the lost map would show), 1 Slasher and 2 Spearmen on each spawn tile and 1 Ox Grunt on the Jade Gallery
    for 2 players (L275)."""
    probe = client.get("/rulesets/kung-fu-panda").json
    mission = next(q for q in probe["quests"] if q["id"] == "m1-2")
    names = {t: probe["rules"]["tiles"][t]["name"] for t in mission["tiles"]}
    beds = [t for t in mission["tiles"] if names[t].startswith("Monastery Bed")]
    flagstones = [t for t in mission["tiles"] if names[t].startswith("Flagstones")]
    archives = next(t for t in mission["tiles"] if names[t] == "Monastery Hall")
    gallery = mission["pause"]["unfavourable"]["tile"]
    points = dict(zip(map(str, mission["levers"]["on_spawn_points"]), flagstones)) | {"5": archives}
    start = {tile: {"wolf-slasher": 1, "wolf-spearman": 2} for tile in points.values()} | {gallery: {"ox-grunt": 1}}
    return Table(client, "m1-2", {"tiles": dict(zip(PARTY, beds)), "spawn_points": points, "enemies": start})


def test_the_break_in_lost_in_detail_when_time_runs_out(app, client):
    """1.2: 'Mission failure: You lose if you run out of time.' (L265): both levers pulled and the stairs climbed,
    but the scroll is still unread when the third round's sand runs out."""
    t = _break_in(client)
    lever_tiles = {hero: t.game()["spawn_points"][str(n)] for hero, n in zip(PARTY, t.mission["levers"]["on_spawn_points"])}
    stairs, archives = t.mission["levers"]["gate_tile"], t.game()["spawn_points"]["5"]

    # round 1: each hero runs to a lever tile; Po is hit there, heals, and knocks out a Spearman
    t.act({"type": "start-round"})
    for hero in PARTY:
        t.move(hero, lever_tiles[hero])
    t.ready("po", ["Move"])
    _refused(client, t.sid, {"type": "spend", "heroes": {"po": ["Move"]}, "for": "move", "to": stairs}, "locked until both levers")
    hit = t.claws("po", [{"space": "fight-back"}])
    damage = next(e for e in hit["events"] if e["type"] == "HeroDamaged")["payload"]["change"]
    assert damage["amount"] == 3 and damage["health"] == 1  # a Slasher and two Spearmen, 1 each (L128-L136)
    assert t.spend({"po": ["Chi"]}, "heal")["state"]["game"]["heroes"]["po"]["health"] == 2
    t.spend({"po": ["Punch"]}, "knock-out", enemy="wolf-spearman")
    spawned = t.claws("tigress", [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 2}])
    assert spawned["state"]["game"]["enemies"][lever_tiles["po"]] == {"wolf-slasher": 1, "wolf-spearman": 2}
    t.act({"type": "end-round"})

    # pause: 1 Chi against 1 Claws keeps the Chi as any result (L280)
    kept = t.pause({"po": ["Chi"], "tigress": ["Claws"]}, convert={"po": ["Punch"]})
    assert kept["events"][-1]["payload"]["change"]["outcome"] == "favourable"

    # round 2: both levers, Po healed, and Po up the stairs past three enemies (4x Move)
    assert t.act({"type": "start-round"})["state"]["game"]["pools"] == {"po": ["Punch"]}
    for hero in PARTY:
        t.spend({hero: ["Chi", "Punch", "Punch"]}, "token", token="lever")
    assert sorted(t.game()["levers"]) == sorted(lever_tiles.values())
    assert t.spend({"po": ["Chi", "Chi"]}, "heal")["state"]["game"]["heroes"]["po"]["health"] == 4
    assert t.entry_cost("po", stairs) == ["Move"] * 4
    t.move("po", stairs)
    t.act({"type": "end-round"})

    # pause: more Claws than Chi spawns an Ox Grunt on the Jade Gallery (L280)
    gallery = t.mission["pause"]["unfavourable"]["tile"]
    grunt = t.pause({"po": ["Claws"], "tigress": ["Claws"]})
    assert grunt["state"]["game"]["enemies"][gallery] == {"ox-grunt": 2}

    # round 3: Po reaches the scroll tile and fights, alone: no one to read the scroll with him
    t.act({"type": "start-round"})
    t.move("po", archives)
    t.spend({"po": ["Kick", "Kick"]}, "knock-out", enemy="wolf-slasher")
    hit = t.claws("po", [{"space": "fight-back"}])
    assert hit["state"]["game"]["heroes"]["po"]["health"] == 2
    _refused(client, t.sid, {"type": "mission-won"}, f"enemies on {t.said(archives)}")
    _times_up(t, t.act({"type": "end-round"}))
    t.ends_in(app, "defeat")


def test_the_break_in_won_in_detail(app, client):
    """1.2: 'You must reach the tile with the scroll (spawn point 5), defeat the enemies on the tile, and read the
    scroll before the end of 3 rounds.' (L264): the levers, the stairs, the enemies and the scroll, turn by turn."""
    t = _break_in(client)
    lever_tiles = {hero: t.game()["spawn_points"][str(n)] for hero, n in zip(PARTY, t.mission["levers"]["on_spawn_points"])}
    stairs, archives = t.mission["levers"]["gate_tile"], t.game()["spawn_points"]["5"]

    # round 1: each hero clears a lever tile, pulls its lever, and the stairs open
    t.act({"type": "start-round"})
    for hero in PARTY:
        t.move(hero, lever_tiles[hero])
        t.spend({hero: ["Chi", "Punch", "Punch"]}, "token", token="lever")
        t.spend({hero: ["Punch"]}, "knock-out", enemy="wolf-spearman")
        t.spend({hero: ["Punch"]}, "knock-out", enemy="wolf-spearman")
        t.spend({hero: ["Kick", "Kick"]}, "knock-out", enemy="wolf-slasher")
    for hero in PARTY:
        assert t.entry_cost(hero, stairs) == ["Move"]
        t.move(hero, stairs)
    t.claws("tigress", [{"space": "blank"}])
    t.act({"type": "end-round"})
    t.pause({"po": ["Chi", "Chi"], "tigress": ["Chi"]}, convert={"po": ["Move", "Punch"], "tigress": ["Move"]})

    # round 2: into the archives, the enemies there knocked out, the scroll read by both heroes together (6x Chi)
    assert t.act({"type": "start-round"})["state"]["game"]["pools"] == {"po": ["Move", "Punch"], "tigress": ["Move"]}
    for hero in PARTY:
        t.move(hero, archives)
    t.spend({"po": ["Punch"]}, "knock-out", enemy="wolf-spearman")
    t.spend({"tigress": ["Chi"]}, "knock-out", enemy="wolf-spearman")  # her Chi is a Punch (L168)
    _refused(client, t.sid, {"type": "mission-won"}, "enemies on")
    t.spend({"po": ["Kick", "Kick"]}, "knock-out", enemy="wolf-slasher")
    t.ready("po", ["Chi"] * 4)
    t.ready("tigress", ["Chi"] * 2)
    t.act({"type": "spend", "heroes": {"po": ["Chi"] * 4, "tigress": ["Chi"] * 2}, "for": "token", "token": "scroll"})
    won = t.act({"type": "mission-won"})
    verdict = won["state"]["verdict"]
    assert verdict["outcome"] == "victory" and "round 2" in verdict["reason"] and "L264" in verdict["reason"]
    t.ends_in(app, "victory")


def test_the_rickshaw_chase_lost_in_detail_when_time_runs_out(app, client):
    """1.3: 'Mission failure: You lose if you run out of time.' (L287): the Wolf Boss runs along the line, the board
    shifts under him and the Kitchen is lost, and the heroes never catch him within 3 rounds."""
    probe = client.get("/rulesets/kung-fu-panda").json
    mission = next(q for q in probe["quests"] if q["id"] == "m1-3")
    kitchen = mission["line"]["kitchen"]
    # the line from the Start Tile through the Wolf Boss Start Tile (the third tile, 'tile 2-3', L296) (L304)
    others = [tile for tile in mission["tiles"] if tile != kitchen]
    line = [others[0], kitchen, *others[1:]]
    start, boss = line[0], line[2]
    t = Table(client, "m1-3", {"start_tile": start, "line": line, "figures": {"wolf-boss": boss}, "spawn_points": {"1": boss},
                               "enemies": {boss: {"wolf-slasher": 1, "wolf-spearman": 2}}})

    # round 1: a Play space moves the Wolf Boss one tile forward (L289); both heroes push through the crowds
    t.act({"type": "start-round"})
    fled = t.claws("po", [{"space": "play"}])
    assert fled["state"]["game"]["figures"]["wolf-boss"] == line[3]
    for hero in PARTY:
        assert t.entry_cost(hero, kitchen) == ["Move", "Move"]  # 'moving onto normal tiles ... requires ... 2x Move' (L300)
        t.move(hero, kitchen)
    t.spend({"po": ["Chi", "Chi"]}, "token", token="dumplings")
    t.act({"type": "end-round"})
    on = t.pause({"po": ["Claws"], "tigress": ["Claws"]})  # more Claws: he moves on toward the end (L303)
    assert on["state"]["game"]["figures"]["wolf-boss"] == line[4]

    # round 2: the heroes reach his start tile and are hit there; a Play space takes him on, a pause brings him back
    t.act({"type": "start-round"})
    for hero in PARTY:
        t.move(hero, boss)
    hit = t.claws("po", [{"space": "fight-back"}])
    assert hit["state"]["game"]["heroes"]["po"]["health"] == 1
    t.spend({"po": ["Chi", "Chi", "Chi"]}, "heal")
    t.spend({"tigress": ["Chi"]}, "knock-out", enemy="wolf-spearman")
    t.claws("tigress", [{"space": "play"}])
    assert t.game()["figures"]["wolf-boss"] == line[5]
    t.act({"type": "end-round"})
    back = t.pause({"po": ["Chi"], "tigress": ["Move"]})  # Chi at least Claws: one tile back toward the beginning (L303)
    assert back["state"]["game"]["figures"]["wolf-boss"] == line[4]

    # round 3: he runs to the last tile and on: the leftmost tile goes in front of him, then the Kitchen is lost
    t.act({"type": "start-round"})
    t.claws("po", [{"space": "play"}, {"space": "play"}, {"space": "blank"}])
    t.claws("tigress", [{"space": "play"}, {"space": "play"}])
    game = t.game()
    assert game["line"] == line[2:] + [line[0]] and game["kitchen_lost"] is True and game["figures"]["wolf-boss"] == line[0]
    kinds = [e["type"] for e in client.get(f"/sessions/{t.sid}/events?limit=500").json["events"]]
    assert kinds.count("TileCycled") == 1 and kinds.count("KitchenLost") == 1
    t.move("tigress", line[3])
    _refused(client, t.sid, {"type": "mission-won"}, "the Wolf Boss is not knocked out")
    _times_up(t, t.act({"type": "end-round"}))
    t.ends_in(app, "defeat")


def test_across_the_great_wall_lost_in_detail_when_time_runs_out(app, client):
    """2.1: 'Mission failure: You lose if you cannot reach the end tile before the time runs out.' (L310): the cart
    pushed over the Great Wall (L312, L315), Po down on the end tile and knocked out there, Tigress still on the
    wall when the second round's sand runs out."""
    probe = client.get("/rulesets/kung-fu-panda").json
    mission = next(q for q in probe["quests"] if q["id"] == "m2-1")
    names = {t: probe["rules"]["tiles"][t]["name"] for t in mission["tiles"]}
    walls = [t for t in mission["tiles"] if probe["rules"]["tiles"][t].get("terrain") == "great-wall"]
    gatehouse = next(t for t in mission["tiles"] if names[t] == "Gatehouse")
    plain = [t for t in mission["tiles"] if not probe["rules"]["tiles"][t].get("terrain") and t != gatehouse]
    start, end, spawn = plain[0], plain[1], plain[2]
    # 1 Slasher and 2 Spearmen per spawn point, 3 Ox Grunts on the Gate House and one on the end tile (L317)
    enemies = {spawn: {"wolf-slasher": 1, "wolf-spearman": 2}, gatehouse: {"ox-grunt": 3}, end: {"ox-grunt": 1}}
    t = Table(client, "m2-1", {"start_tile": start, "end_tile": end, "carts": {"cart": start}, "spawn_points": {"1": spawn}, "enemies": enemies})
    assert t.tiles_of("great-wall") == walls

    # round 1: the cart is pushed up the wall by both heroes (4x Move and 2x Chi), and again along it
    t.act({"type": "start-round"})
    for wall in walls:
        t.spend({"po": ["Move"] * 4, "tigress": ["Chi", "Chi"]}, "token", token="cart", cart="cart", to=wall)
        for hero in PARTY:
            if t.game()["heroes"][hero]["tile"] != wall and (wall == walls[0] or hero == "po"):
                t.move(hero, wall)
    assert t.game()["carts"] == {"cart": walls[1]}
    assert {h: v["tile"] for h, v in t.game()["heroes"].items()} == {"po": walls[1], "tigress": walls[0]}
    t.ready("tigress", ["Move"])
    _refused(client, t.sid, {"type": "spend", "heroes": {"tigress": ["Move"]}, "for": "move", "to": spawn}, f"No cart on {t.said(walls[0])}")
    t.claws("tigress", [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 1}])  # the tile is full: no spawn (L319)
    t.act({"type": "end-round"})

    # pause: more Claws than Chi: 2 more Slashers on the end tile (L323), which the table names
    spawned = t.pause({"po": ["Claws", "Claws"], "tigress": ["Chi"]}, tile=end)
    assert spawned["state"]["game"]["enemies"][end] == {"ox-grunt": 1, "wolf-slasher": 2}

    # round 2: Po climbs down by the cart onto the end tile and is knocked out there by the Ox Grunt and the Slashers
    t.act({"type": "start-round"})
    _refused(client, t.sid, {"type": "mission-won"}, f"not on the end tile, {t.said(end)}")
    t.move("po", end)
    knocked = t.claws("po", [{"space": "fight-back"}])
    assert _kinds(knocked)[-2:] == ["HeroDamaged", "HeroKnockedOut"]  # 2 + 1 + 1 (L128-L136)
    _times_up(t, t.act({"type": "end-round"}))
    t.ends_in(app, "defeat")


def test_change_of_guard_lost_in_detail_when_not_all_heroes_reach_the_end(app, client):
    """2.2: 'Mission failure: You lose if you do not reach and read the scroll, or if not all heroes are on the end
    tile by the end of 3 rounds.' (L330): the gong and the pause move Ox Grunts (L334, L346), the scroll is read,
    and only Po is on the end tile when the third round's sand runs out."""
    probe = client.get("/rulesets/kung-fu-panda").json
    mission = next(q for q in probe["quests"] if q["id"] == "m2-2")
    names = {t: probe["rules"]["tiles"][t]["name"] for t in mission["tiles"]}
    guard_wall = next(t for t in mission["tiles"] if probe["rules"]["tiles"][t].get("terrain") == "great-wall")  # the leftmost (L334)
    gong = mission["gongs"]["tiles"][0]
    plain = [t for t in mission["tiles"] if not probe["rules"]["tiles"][t].get("terrain")]
    start, end = next(t for t in plain if names[t] == "Training Ground"), next(t for t in plain if names[t] == "Gatehouse")
    six, one = [t for t in plain if t not in (start, end)][:2]
    enemies = {six: {"wolf-slasher": 1, "wolf-spearman": 1}, one: {"wolf-slasher": 1, "wolf-spearman": 1}, guard_wall: {"ox-grunt": 3, "wolf-boss": 1}}
    t = Table(client, "m2-2", {"start_tile": start, "end_tile": end, "guard_wall": guard_wall, "spawn_points": {"6": six, "1": one}, "enemies": enemies})

    # round 1: Po climbs a Rooftop (1x Chi and 1x Kick, L340) and strikes its gong: an Ox Grunt off the guard wall
    t.act({"type": "start-round"})
    assert t.entry_cost("po", gong) == ["Chi", "Kick"]
    t.move("po", gong)
    struck = t.spend({"po": ["Chi", "Punch"]}, "token", token="gong", to=six)
    assert struck["state"]["game"]["enemies"][guard_wall] == {"ox-grunt": 2, "wolf-boss": 1}
    spawned = t.claws("tigress", [{"space": "spawn", "enemy": "wolf-spearman", "spawn_point": 6}])
    assert spawned["state"]["game"]["enemies"][six] == {"wolf-slasher": 1, "wolf-spearman": 2, "ox-grunt": 1}
    t.act({"type": "end-round"})

    # pause: each player rolls one die; Po's Claws sends the Ox Grunt on spawn point 6 back to the guard wall (L346)
    back = t.pause({"po": ["Claws"], "tigress": ["Move"]})
    assert back["state"]["game"]["enemies"][guard_wall] == {"ox-grunt": 3, "wolf-boss": 1}

    # round 2: Tigress joins Po on the Rooftop and they read the scroll together (6x Chi, L332)
    t.act({"type": "start-round"})
    t.move("tigress", gong)
    t.ready("po", ["Chi"] * 4)
    t.ready("tigress", ["Chi"] * 2)
    read = t.act({"type": "spend", "heroes": {"po": ["Chi"] * 4, "tigress": ["Chi"] * 2}, "for": "token", "token": "scroll"})
    assert read["state"]["game"]["tokens"]["scroll"]
    t.act({"type": "end-round"})
    t.pause({"po": ["Chi"], "tigress": ["Chi"]})  # no Claws: nothing moves

    # round 3: Po reaches the end tile; Tigress is still on the Rooftop when the sand runs out
    t.act({"type": "start-round"})
    t.move("po", end)
    _refused(client, t.sid, {"type": "mission-won"}, f"not on the end tile, {t.said(end)}: Tigress on {t.said(gong)}")
    _times_up(t, t.act({"type": "end-round"}))
    t.ends_in(app, "defeat")
