"""Kung Fu Panda's tiles by their names wherever a person reads them (issue 32: "tiles as letters ("to A", "start tile
t")"): a refusal says "Kitchen (J)", not "tile J"; the hero page and the replay page say where each hero stands and
where the enemies, spawn points and end tile are by the tiles' names in the rules data ("tiles"), as the timeline does.
The letter stays beside the name: it is printed on the scene tile, and it is what a request sends."""

from __future__ import annotations

import re

from tests.kit.kung_fu_panda import act, campaign, start

NO_AUTH = {"Authorization": ""}
HERE = {**NO_AUTH, "Origin": "http://localhost"}
SETUP = {"start_tile": "J", "spawn_points": {"1": "J"}, "enemies": {"J": {"wolf-spearman": 1}}, "villagers": {"mei": "J", "li": "n"},
         "special_moves": {"po": "Crane Kick", "tigress": "Tiger Claw"}}


def bare_tiles(text: str, tiles) -> list[str]:
    """The tile letters a text says alone, outside the "Name (X)" the game says a tile by and outside the JSON it
    quotes ("to": "J"); "a" and "A" (articles) and "I" count only where no word follows them."""
    prose = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    found = []
    for match in re.finditer(r"(?<![\w('’-])([A-Za-z])(?![\w)'’-])", prose):
        letter = match.group(1)
        if letter not in tiles:
            continue
        if letter in ("a", "A", "I") and re.match(r' [a-z"]', prose[match.end():]):
            continue
        found.append(f"{letter!r} in …{prose[max(0, match.start() - 30):match.end() + 10]}…")
    return found


def _text(html: str) -> str:
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_refusals_say_the_tiles_by_their_names(client):
    tiles = client.get("/rulesets/kung-fu-panda").json["rules"]["tiles"]
    cid = campaign(client, {"length": "single", "mission": "m1-1"})
    wrong_end = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m1-1", "setup": {**SETUP, "end_tile": "t"}})
    sid = start(client, cid, "m1-1", SETUP)
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Punch", "Chi", "Kick", "Kick"]})
    refusals = {
        "There are 0 Wolf Slasher on Kitchen (J), not 1": {"type": "spend", "heroes": {"po": ["Kick"]}, "for": "knock-out", "enemy": "wolf-slasher"},
        "Mission 1.1 has no tile Monastery Bed 4 (Q)": {"type": "spend", "heroes": {"po": ["Kick"]}, "for": "move", "to": "Q"},
        "Villager li is not on Kitchen (J)": {"type": "spend", "heroes": {"po": ["Punch", "Chi"]}, "for": "token", "token": "villager", "villager": "li"},
        "not on the end tile, Gatehouse (s): Po on Kitchen (J) and Tigress on Kitchen (J)": {"type": "mission-won"},
    }
    problems = [wrong_end.json]
    assert wrong_end.status_code == 422 and wrong_end.json["title"] == "The end tile of Mission 1.1 is Gatehouse (s)", wrong_end.json
    for title, body in refusals.items():
        refused = client.post(f"/sessions/{sid}/actions", json=body)
        assert refused.status_code == 422 and title in f"{refused.json['title']} {refused.json['detail']}", refused.json
        problems.append(refused.json)
    assert "on Market 1 (n)" in problems[3]["detail"]  # where the villager is
    assert "Long Rooftops 2 (a), Long Market (d)" in problems[2]["detail"]  # the mission's scene tiles, each named
    ended = client.post(f"/sessions/{sid}/end", json={"outcome": "victory"})
    assert ended.status_code == 409 and "Gatehouse (s)" in ended.json["title"], ended.json
    problems.append(ended.json)
    for problem in problems:
        messages = [m for ms in (problem.get("errors") or {}).values() for m in (ms if isinstance(ms, list) else [ms])]
        for text in (problem["title"], problem.get("detail") or "", *map(str, messages)):
            assert not bare_tiles(text, tiles), (bare_tiles(text, tiles), problem)


def test_the_hero_and_replay_pages_say_where_by_the_tiles_names(client, app):
    tiles = client.get("/rulesets/kung-fu-panda").json["rules"]["tiles"]
    made = client.post("/campaigns", json={"ruleset": "kung-fu-panda", "name": "Valley", "party": ["po", "tigress"],
                                           "options": {"length": "single", "mission": "m1-1"}}).json
    sid = start(client, made["id"], "m1-1", SETUP)
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Move", "Move", "Kick", "Kick"]})
    act(client, sid, {"type": "spend", "heroes": {"po": ["Move", "Move"]}, "for": "move", "to": "n"})  # 1 enemy on the Kitchen
    app.extensions["tracker_views"].catch_up()
    assert client.post("/pages/sign-in", data={"token": made["owner_token"]}, headers=HERE).status_code == 303

    hero = client.get(f"/pages/campaigns/{made['id']}/heroes/po", headers=NO_AUTH).get_data(as_text=True)
    assert re.search(r'<th scope="row">Tile</th><td>Market 1 \(n\)</td>', hero), _text(hero)
    assert re.search(r'<th scope="row">KO</th><td>no</td>', hero), _text(hero)  # as the replay says it, not "Ko"

    replay = client.get(f"/pages/sessions/{sid}/replay", headers=NO_AUTH).get_data(as_text=True)
    table = re.search(r"<caption>Each hero at this point</caption>(.*?)</table>", replay, re.DOTALL).group(1)
    assert re.findall(r"<td>([^<]*)</td>", re.search(r'<th scope="row">Tile</th>(.*?)</tr>', table, re.DOTALL).group(1)) == ["Market 1 (n)", "Kitchen (J)"]
    facts = re.search(r"<caption>The game at this point</caption>(.*?)</table>", replay, re.DOTALL).group(1)
    assert re.search(r'<th scope="row">End tile</th><td>Gatehouse \(s\)</td>', facts), facts
    assert re.search(r'<th scope="row">Spawn points</th><td>1 Kitchen \(J\)</td>', facts), facts
    assert "Kitchen (J) Wolf Spearman 1" in _text(facts) and "li tile Market 1 (n)" in _text(facts)
    for page in (hero, replay):
        assert not bare_tiles(_text(page), tiles), bare_tiles(_text(page), tiles)

    timeline = [e["summary"] for e in client.get(f"/sessions/{sid}/timeline?limit=100").json["entries"]]
    assert any("Po moved from Kitchen (J) to Market 1 (n)" in line for line in timeline), timeline
    for line in timeline:
        assert not bare_tiles(line, tiles), (line, bare_tiles(line, tiles))
