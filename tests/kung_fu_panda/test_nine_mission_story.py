"""The nine-mission story played as a group would, on SQLite and PostgreSQL, knowing only what the service
publishes: the ruleset document (GET /rulesets/kung-fu-panda: each mission's tiles, end tile, win conditions,
failure conditions and pause roll) and the session state. Every mission is first lost (by its own failure where
the board can show one, else by time's up) and tried again, then won, all entered as round summaries; each ends
in the verdict the rules recorded, and `tracker rebuild` reproduces the same views."""

from __future__ import annotations

from tests.kit.kung_fu_panda import act, campaign as _campaign, start as _start

FIGURES = ("tai-lung", "wolf-boss")


def _layout(mission: dict, party: list[str], terrain: dict) -> tuple[dict, dict]:
    """A set-up the table could lay out from the mission's published facts, and what it placed where."""
    tiles = [t for t in mission["tiles"] if t != "K"]  # the Guard Tower allows no entry (L111)
    wins = {c["check"]: c for c in mission["win_conditions"]}
    fails = {c["check"]: c for c in mission["failure_conditions"] if c.get("check")}
    taken = {c.get("tile") for c in [*wins.values(), *fails.values()]} | {mission.get("end_tile")}
    free = [t for t in tiles if t not in taken]
    end = mission.get("end_tile") or free.pop()
    start = (mission.get("start_tiles") or free)[0]  # where the text names the heroes' start (1.2's Monastery Beds, L281)
    spare, enemy_tile = [t for t in free if t != start][:2]
    setup: dict = {"start_tile": start, "enemies": {enemy_tile: {"wolf-spearman": 1}}}
    if mission.get("end_tile") is None:
        setup["end_tile"] = end
    if "villagers-rescued" in wins or {"villager-with-enemies", "villagers-on-tile"} & set(fails):
        setup["villagers"] = {"mei": spare, "li": spare}
    figures = {c.get("figure") or c.get("enemy") for c in [*wins.values(), *fails.values()]} & set(FIGURES)
    if figures:
        setup["figures"] = {figure: spare for figure in figures}
    if "carts-reached-spawn-points" in wins:
        setup["spawn_points"], setup["carts"] = {"1": spare}, {"cart": start}
    if "no-enemies-on-spawn-point" in wins:
        setup["spawn_points"] = {str(wins["no-enemies-on-spawn-point"]["spawn_point"]): spare}
    points = setup.setdefault("spawn_points", {})
    for n in (mission.get("levers") or {}).get("on_spawn_points", []):
        points.setdefault(str(n), spare)
    if mission.get("guard_wall"):
        points.setdefault("6", spare)
        setup["guard_wall"] = next(t for t in tiles if terrain.get(t) == "great-wall")
    return setup, {"end": end, "spare": spare}


def _won_round(mission: dict, setup: dict, placed: dict, party: list[str]) -> dict:
    summary: dict = {"type": "round-summary", "mission_won": True}
    for condition in mission["win_conditions"]:
        check = condition["check"]
        if check == "heroes-on-end-tile":
            summary["moved"] = {hero: placed["end"] for hero in party}
        elif check == "villagers-rescued":
            summary["rescued"] = sorted(setup["villagers"])
        elif check == "token-collected":
            summary.setdefault("tokens", []).append({"token": condition["token"], "by": party[0]})
        elif check == "enemy-knocked-out":
            summary["knocked_out"] = [{"enemy": condition["enemy"], "tile": setup["figures"][condition["enemy"]]}]
        elif check == "figure-on-tile":
            summary["figures"] = {condition["figure"]: condition["tile"]}
        elif check == "carts-reached-spawn-points":
            summary["carts"] = {"cart": setup["spawn_points"]["1"]}
    return summary


def _failing_round(mission: dict, setup: dict, placed: dict) -> dict | None:
    """A round in which the board shows one of the mission's own failures, if the published data says how."""
    for condition in mission["failure_conditions"]:
        check = condition.get("check")
        if check == "villager-with-enemies":
            return {"type": "round-summary", "spawned": [{"enemy": "wolf-spearman", "tile": placed["spare"], "count": condition["enemies_at_least"]}]}
        if check == "figure-on-end-tile":
            return {"type": "round-summary", "figures": {condition["figure"]: placed["end"]}}
        if check == "villagers-on-tile":
            return {"type": "round-summary", "villagers": {v: condition["tile"] for v in setup["villagers"]}}
        if check == "figure-on-tile-before-token":
            return {"type": "round-summary", "figures": {condition["figure"]: condition["tile"]}}
    return None


def _pause(mission: dict, setup: dict, party: list[str]) -> dict:
    # one Move each fits every pause roll (up to four, at least one, exactly one) and rolls neither Chi nor Claws
    body = {"type": "pause", "faces": {hero: ["Move"] for hero in party}}
    figure = next((e.get("figure") for e in mission["pause"].values() if isinstance(e, dict) and e.get("figure") in FIGURES), None)
    if figure in setup.get("figures", {}):
        body["to"] = setup["figures"][figure]
    return body


def test_the_story_lost_and_won_mission_by_mission_from_the_published_rules(app, client):
    doc = client.get("/rulesets/kung-fu-panda").json
    missions = {q["id"]: q for q in doc["quests"]}
    party = ["po", "tigress", "viper"]
    cid = _campaign(client, {"length": "story"}, party=party)
    chain = client.get(f"/campaigns/{cid}").json["chain"]
    assert chain == doc["rules"]["campaign"]["chain"]
    sessions = []
    for quest in chain:
        mission = missions[quest]
        setup, placed = _layout(mission, party, {code: tile["terrain"] for code, tile in doc["rules"]["tiles"].items()})

        lost = _start(client, cid, quest, setup)
        failing = _failing_round(mission, setup, placed)
        if failing:
            result = act(client, lost, failing)
        else:
            for round_no in range(1, mission["round_limit"] + 1):
                result = act(client, lost, {"type": "round-summary"})
                if round_no < mission["round_limit"]:
                    act(client, lost, _pause(mission, setup, party))
        verdict = result["state"]["verdict"]
        assert verdict["outcome"] == "defeat", (quest, result["state"]["game"]["result"])
        assert ("failed" in verdict["reason"]) == bool(failing) and "(L" in verdict["reason"]
        refused = client.post(f"/sessions/{lost}/end", json={"outcome": "victory"})
        assert refused.status_code == 409, quest
        ended = client.post(f"/sessions/{lost}/end", json={"outcome": "defeat"}).json
        assert ended["next_quest"] == quest  # a failed mission is tried again (L195)

        won = _start(client, cid, quest, setup)
        early = client.post(f"/sessions/{won}/end", json={"outcome": "victory"})
        assert early.status_code == 409 and "not met" in early.json["title"], (quest, early.json)
        result = act(client, won, _won_round(mission, setup, placed, party))
        verdict = result["state"]["verdict"]
        assert verdict["outcome"] == "victory", (quest, result["state"]["game"]["result"])
        for condition in mission["win_conditions"]:
            assert condition["source"] in verdict["reason"]
        assert client.post(f"/sessions/{won}/end", json={"outcome": "victory"}).status_code == 200
        sessions += [lost, won]

    campaign = client.get(f"/campaigns/{cid}").json
    assert campaign["completed"] is True and campaign["next_quest"] is None
    for sid in sessions:
        assert client.get(f"/sessions/{sid}/verification").json["status"] == "verified", sid

    runner = app.extensions["tracker_views"]
    runner.catch_up()
    standing = client.get(f"/campaigns/{cid}/standing").json["standing"]
    assert standing["won"] == chain and sum(standing["lost"].values()) == len(chain)
    assert set(standing["lost"]) == {"times-up", "mission-failure"}
    digest = runner.store.digest()
    assert runner.rebuild() == digest
    assert client.get(f"/campaigns/{cid}/standing").json["standing"] == standing
