"""Every refusal a group can provoke says what it says in words (issue 31: "One refusal says everything").

For each game, each action type the published ruleset document lists is sent at two moments of the first quest: with
nothing but its type, with each field it takes missing from a filled body, and with each field given a wrong value;
and the campaign, session, roll, draw and end requests are sent wrong too. Every problem answered is collected, and
none may carry a Python repr (a list, dict or tuple of strings, None, True) or an id where the rules data names the
thing (tests/kit/refusals.py reads them as a person would).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.kit import refusals
from tests.kit import session as kit

# Each game's first evening: a party, campaign options, the first quest's set-up (as tests/test_first_evening.py).
GAMES = {
    "journey": {"party": ["tripitaka", "monkey-king"], "options": None, "setup": {}},
    "descent": {"party": ["aurim", "tahlia"], "options": None, "setup": {}},
    "kung-fu-panda": {"party": ["po", "tigress"], "options": {"length": "single", "mission": "m2-1"},
                      "setup": {"start_tile": "F", "end_tile": "s", "enemies": {"F": {"ox-grunt": 1}}, "special_moves": {"po": "A", "tigress": "B"}}},
    "yokai-quest": {"party": ["ryo", "ami"], "options": None, "setup": {"health": {"ryo": 5, "ami": 5}}},
}
WRONG = {"string": "no-such-thing", "integer": 999, "number": 999, "boolean": "maybe", "array": ["no-such-thing"], "object": {"no-such-thing": 1}}


class Provoker:
    """A group that sends wrong requests on purpose, keeping every problem it is answered with."""

    def __init__(self, client, game: str) -> None:
        self.client = client
        self.game = game
        self.document = client.get(f"/rulesets/{game}").json
        self.problems: list[tuple[Any, dict[str, Any]]] = []

    def send(self, path: str, body: Any) -> Any:
        response = self.client.post(path, json=body)
        if response.status_code >= 400:
            assert response.mimetype == kit.PROBLEM, (path, body, response.status_code)
            self.problems.append(((path, body), response.json))
        return response

    def campaign(self) -> dict:
        game = GAMES[self.game]
        self.send("/campaigns", {"ruleset": self.game, "name": "Wrong", "party": ["no-such-hero"]})
        self.send("/campaigns", {"ruleset": self.game, "name": "Wrong", "party": game["party"], "options": {"no-such-option": 1}})
        return kit.campaign(self.client, self.game, game["party"], options=game["options"])

    def session(self, campaign: dict) -> dict:
        cid = campaign["id"]
        self.send(f"/campaigns/{cid}/sessions", {"quest": "no-such-quest", "setup": {}})
        self.send(f"/campaigns/{cid}/sessions", {"quest": campaign["next_quest"], "setup": {"no-such-setting": 1}})
        return kit.start(self.client, cid, campaign["next_quest"], GAMES[self.game]["setup"])

    def table_requests(self, sid: str) -> None:
        """Rolls, draws and ends sent wrong."""
        for die in [*self.document["dice"], {"id": "no-such-die"}]:
            self.send(f"/sessions/{sid}/rolls", {"dice": {die["id"]: 1}})
        self.send(f"/sessions/{sid}/rolls", {"dice": {}})
        for deck in [*self.document["decks"], {"id": "no-such-deck"}]:
            self.send(f"/sessions/{sid}/draws", {"deck": deck["id"], "count": 1})
        for outcome in ("no-such-outcome", "victory", "defeat"):
            response = self.send(f"/sessions/{sid}/end", {"outcome": outcome, "reported": {"no-such-fact": True}})
            assert response.status_code >= 400, response.json  # never ended by the sweep

    def actions(self, sid: str, state: dict) -> None:
        """Every published action type: with only its type, each field missing, each field wrong."""
        for action in self.document["actions"]:
            schema = action["schema"]
            filled = {"type": action["type"], **filled_fields(schema, state)}
            bodies = [{"type": action["type"]}, filled, {**filled, "no-such-field": 1}]
            for name in schema.get("properties") or {}:
                if name == "type":
                    continue
                bodies.append({k: v for k, v in filled.items() if k != name})
                bodies.append({**filled, name: wrong(schema["properties"][name])})
            for body in bodies:
                self.send(f"/sessions/{sid}/actions", body)  # a legal move (an action that takes nothing) moves the moment on


def filled_fields(schema: dict, state: dict) -> dict[str, Any]:
    """A value for each field an action requires, of its schema's shape, from what the state names where it can."""
    heroes = list(state.get("party") or [])
    out = {}
    for name in schema.get("required") or []:
        if name == "type":
            continue
        out[name] = plausible(name, (schema.get("properties") or {}).get(name) or {}, heroes)
    return out


def plausible(name: str, schema: dict, heroes: list[str]) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "string":
        return heroes[0] if heroes and name in ("hero", "target", "holder", "by") else "someone"
    if kind == "integer":
        return max(int(schema.get("minimum", 1)), 1)
    if kind == "boolean":
        return True
    if kind == "array":
        return [plausible(name, schema.get("items") or {}, heroes)] * int(schema.get("minItems", 1))
    if kind == "object":
        return {}
    return "someone"


def wrong(schema: dict) -> Any:
    if "enum" in schema:
        return "no-such-choice"
    return WRONG.get(schema.get("type"), "no-such-thing")


def provoked(client, game: str) -> tuple[list[tuple[Any, dict]], dict[str, str]]:
    provoker = Provoker(client, game)
    started = provoker.session(provoker.campaign())
    sid, state = started["id"], started["state"]
    provoker.table_requests(sid)
    provoker.actions(sid, state)
    # A second moment: the first action the state allows with only its type and hero, then every action again.
    for entry in state["allowed"]:
        body = {"type": entry["type"], **({"hero": entry["heroes"][0]} if entry.get("heroes") else {})}
        moved = client.post(f"/sessions/{sid}/actions", json=body)
        if moved.status_code == 201:
            provoker.actions(sid, moved.json["state"])
            break
    return provoker.problems, refusals.names(provoker.document)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_refusal_a_group_can_provoke_is_said_in_words(client, game):
    problems, named = provoked(client, game)
    assert len(problems) > 40  # the sweep provoked refusals of every kind, not a handful
    found = refusals.sweep(problems, named)
    assert not found, f"{len(found)} refusals of {game} not said in words:\n" + "\n".join(found[:40])


def test_the_reader_finds_what_it_looks_for():
    """The checks themselves: each repr and an id where the game has a name is found; JSON to send is not prose."""
    named = {"monkey-king": "Monkey King", "q1-meeting": "Meeting"}
    for text in ("Pilgrims activate in order ['monk-sha', 'cho-hakkai']", "moves {'tigress': ['Move']}", "target None",
                 "held: []", "it is True"):
        assert refusals.reprs_in(text), text
    assert refusals.ids_in("It is not monkey-king's turn", named) == ["monkey-king"]
    for text in ('Send "faces": {"attack": [...]} and "hero": "monkey-king"', "It is not Monkey King's turn",
                 'Send "cards": [] for none', "GET /campaigns/{cid}/components"):
        assert not refusals.reprs_in(text) and not refusals.ids_in(text, named), text
