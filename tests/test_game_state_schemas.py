"""Each game's session state is answered in the shape its ruleset publishes, and every event's meta in EventMeta's.

A session of each of the four games is played through the REST API (on SQLite and PostgreSQL); every state it passed
through (``GET /sessions/{sid}/state?at=`` after each of its events, and ``GET /sessions/{sid}``, as each side sees
it where the game keeps secrets) is validated against the ruleset's ``state_schema`` from GET /rulesets/{id}, which
declares every key closed: a key a fold starts writing without its schema, or a value of another type, fails here.
The same states are validated against the OpenAPI document's ``GameState`` (the oneOf the answer's ``ruleset``
discriminates), and every event's ``meta`` against the document's ``EventMeta``.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from tests.kit import descent, journey, kung_fu_panda
from tests.kit.secrets import bearer, mint
from tests.kit.session import act
from tests.kit.yokai_quest_table import Table

REF = "#/components/schemas/"


def _component(document: dict[str, Any], name: str) -> jsonschema.Draft202012Validator:
    """A validator of the document's component ``name``, its references resolved in the document."""
    return jsonschema.Draft202012Validator({"$ref": REF + name, "components": document["components"]})


def _events(client, sid: str, headers: dict | None = None) -> list[dict[str, Any]]:
    events, after = [], 0
    while True:
        page = client.get(f"/sessions/{sid}/events?after={after}&limit=1000", headers=headers or {}).json
        events += page["events"]
        if not page["events"]:
            return events
        after = page["next_after"]


def _states(client, sid: str, headers: dict | None = None) -> list[dict[str, Any]]:
    """Every game state the session passed through, as ``headers``' token reads it: after each event, and now."""
    events = _events(client, sid, headers)
    states = [client.get(f"/sessions/{sid}/state?at={event['position']}", headers=headers or {}).json["game"] for event in events]
    return [*states, client.get(f"/sessions/{sid}", headers=headers or {}).json["game"]]


def published_validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema)


def _hold(client, ruleset_id: str, sid: str, headers: dict | None = None) -> list[dict[str, Any]]:
    """Every state of the session holds to the published state schema and to the document's GameState; every event's
    meta to EventMeta. The states, for the caller's own checks."""
    published = jsonschema.Draft202012Validator(client.get(f"/rulesets/{ruleset_id}").json["state_schema"])
    document = client.get("/openapi.json").json
    game_state, event_meta = _component(document, "GameState"), _component(document, "EventMeta")
    states = _states(client, sid, headers)
    assert len(states) > 5, "a session played, not only set up"
    for game in states:
        assert game["ruleset"] == ruleset_id
        published.validate(game)
        game_state.validate(game)
    for event in _events(client, sid, headers):
        event_meta.validate(event["meta"])
    return states


# -- a session of each game, played -------------------------------------------------------------------------------


def _journey(client) -> tuple[str, dict]:
    sid, _ = journey.play_q1(client, journey.campaign(client))
    return sid, {}


def _kung_fu_panda(client) -> tuple[str, dict]:
    """Mission 1.1: a round rolled and spent, its pause (L258), a second round, then the loss when a villager shares a
    tile with three enemies (L246)."""
    cid = kung_fu_panda.campaign(client, {"length": "single", "mission": "m1-1"})
    setup = {"special_moves": {"po": "Card 0", "tigress": "Card 1"}, "start_tile": "n", "spawn_points": {"1": "n", "4": "d"},
             "villagers": {"mei": "n", "li": "O"}}
    sid = kung_fu_panda.start(client, cid, "m1-1", setup)
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "po", "faces": ["Punch", "Chi", "Kick", "Kick"]})
    act(client, sid, {"type": "spend", "heroes": {"po": ["Punch", "Chi"]}, "for": "token", "token": "villager", "villager": "mei"})
    act(client, sid, {"type": "end-round"})
    act(client, sid, {"type": "pause", "faces": {"po": ["Claws", "Claws", "Chi", "Chi"], "tigress": ["Claws", "Claws"]},
                      "convert": {"po": ["Move", "Move"]}})
    act(client, sid, {"type": "start-round"})
    act(client, sid, {"type": "roll", "hero": "tigress", "faces": ["Claws", "Kick", "Kick", "Move"]})
    act(client, sid, {"type": "resolve-claws", "hero": "tigress", "spaces": [{"space": "spawn", "enemy": "wolf-slasher", "spawn_point": 4}]})
    return sid, {}


def _yokai_quest(client) -> tuple[str, dict]:
    """The first scene as a group plays it (tests/kit/yokai_quest_table.py, Table.win): its victory conditions met, the
    board cleared, the scene's end, its treasure drawn and the session ended."""
    table = Table(client)
    sid = table.begin()
    table.win(sid)
    return sid, {}


def _descent(client) -> tuple[str, dict]:
    """The Mists of Time: monsters placed, a fight each way, a hero readied; read by the heroes' token too, which sees
    counts where the overlord's glyphs and treachery are secret."""
    sid = descent.in_combat(client)
    cid = client.get(f"/sessions/{sid}").json["campaign_id"]
    heroes = bearer(mint(client, cid, role="player", side="heroes"))
    [beastman] = descent.placed(client, sid, {"monster": "beastman", "wounds": 4, "armor": 0})
    descent.attack(client, sid, beastman, "tahlia", {"red": ["3D 1R"]})
    descent.act(client, sid, type="ready", hero="tahlia", half_actions=["attack", "order"], order="guard")
    descent.attack(client, sid, "tahlia", beastman, {"red": ["4D 0R"]})
    descent.act(client, sid, type="correct", hero="aurim", field="wounds", should_be=7, reason="a wound we forgot")
    return sid, heroes


GAMES = {"journey": _journey, "kung-fu-panda": _kung_fu_panda, "yokai-quest": _yokai_quest, "descent": _descent}


@pytest.mark.parametrize("ruleset_id", sorted(GAMES))
def test_every_state_a_played_session_answers_is_in_its_rulesets_published_shape(client, ruleset_id):
    sid, side = GAMES[ruleset_id](client)
    states = _hold(client, ruleset_id, sid)
    if side:  # the side the game keeps secrets from reads its own shape of the same states
        _hold(client, ruleset_id, sid, side)
    schema = client.get(f"/rulesets/{ruleset_id}").json["state_schema"]
    seen = set().union(*states)
    assert seen <= set(schema["properties"])
    ((first, rest),) = schema["dependentRequired"].items()  # once set up, every state holds the set-up's keys
    assert all(set(rest) <= set(game) for game in states if first in game) and any(first in game for game in states)
    assert not published_validator(schema).is_valid({"ruleset": ruleset_id, first: states[-1][first]})


@pytest.mark.parametrize("ruleset_id", sorted(GAMES))
def test_the_standings_latest_session_is_the_same_typed_state(app, client, ruleset_id):
    """GET /campaigns/{cid}/standing answers its latest session's state from the standing view, in the same shape as
    the session's own answer: its ruleset named, valid against the published schema and the document's GameState."""
    sid, side = GAMES[ruleset_id](client)
    app.extensions["tracker_views"].catch_up()
    session = client.get(f"/sessions/{sid}").json
    latest = client.get(f"/campaigns/{session['campaign_id']}/standing").json["latest_session"]
    assert latest["session_id"] == sid and latest["ruleset"] == session["ruleset"]
    assert latest["game"]["ruleset"] == ruleset_id
    published = jsonschema.Draft202012Validator(client.get(f"/rulesets/{ruleset_id}").json["state_schema"])
    published.validate(latest["game"])
    _component(client.get("/openapi.json").json, "GameState").validate(latest["game"])


# -- the schemas are not trivially permissive ----------------------------------------------------------------------


def _typed(schema: dict[str, Any], kind: str) -> list[str]:
    """The keys of an object schema whose only type is ``kind``."""
    return [key for key, value in schema["properties"].items() if value.get("type") == kind]


@pytest.mark.parametrize("ruleset_id", sorted(GAMES))
def test_a_state_with_an_undeclared_key_a_wrong_type_or_another_ruleset_is_refused(client, ruleset_id):
    sid, _ = GAMES[ruleset_id](client)
    game = client.get(f"/sessions/{sid}").json["game"]
    schema = client.get(f"/rulesets/{ruleset_id}").json["state_schema"]
    published = jsonschema.Draft202012Validator(schema)
    game_state = _component(client.get("/openapi.json").json, "GameState")
    published.validate(game)

    assert not published.is_valid({**game, "surprise": 1})  # a key the schema does not declare
    for kind, wrong in (("integer", "many"), ("string", 3), ("array", {}), ("object", [])):
        for key in _typed(schema, kind):
            if key in game:
                assert not published.is_valid({**game, key: wrong}), key
                assert not game_state.is_valid({**game, key: wrong}), key
    # a hero's sheet is typed too, not any object
    hero_id, sheet = next(iter(game["heroes"].items()))
    hero_schema = schema["properties"]["heroes"]["additionalProperties"]
    number = next(key for key in _typed(hero_schema, "integer") if key in sheet)
    wrong_sheet = copy.deepcopy(game)
    wrong_sheet["heroes"][hero_id][number] = "lots"
    assert not published.is_valid(wrong_sheet) and not game_state.is_valid(wrong_sheet)
    # the document tells the games apart by the ruleset the state names: another ruleset's state is not this one's
    other = next(r for r in sorted(GAMES) if r != ruleset_id)
    assert not game_state.is_valid({**game, "ruleset": other})
    assert not published.is_valid({key: value for key, value in game.items() if key != "ruleset"})


def test_event_meta_refuses_a_key_it_does_not_declare_and_a_wrong_type(client):
    sid, _ = _journey(client)
    event_meta = _component(client.get("/openapi.json").json, "EventMeta")
    meta = _events(client, sid)[-1]["meta"]
    event_meta.validate(meta)
    assert {"issued_by", "correlation_id", "ruleset_version", "command", "prev_hash"} <= set(meta)
    assert not event_meta.is_valid({**meta, "surprise": 1})
    assert not event_meta.is_valid({**meta, "command": "first"})
    assert not event_meta.is_valid({**meta, "prev_hash": "not a hash"})


def test_the_document_offers_each_rulesets_state_schema_as_it_publishes_it(client):
    """GameState: a oneOf over the rulesets' own state schemas, discriminated by ``ruleset``; each branch is the published
    schema with its objects open to more keys (an answer may gain fields), and the session answer's game is it."""
    document = client.get("/openapi.json").json
    schemas = document["components"]["schemas"]
    union = schemas["GameState"]
    assert union["discriminator"]["propertyName"] == "ruleset"
    assert sorted(union["discriminator"]["mapping"]) == sorted(GAMES)
    assert sorted(ref["$ref"] for ref in union["oneOf"]) == sorted(union["discriminator"]["mapping"].values())
    assert schemas["SessionState"]["properties"]["game"]["allOf"] == [{"$ref": REF + "GameState"}]

    def closed_keys(schema: Any) -> Any:
        if isinstance(schema, dict):
            return {k: closed_keys(v) for k, v in schema.items() if k not in ("additionalProperties", "description", "title", "$schema")
                    or (k == "additionalProperties" and v is not False)}
        return [closed_keys(v) for v in schema] if isinstance(schema, list) else schema

    for ruleset_id, ref in union["discriminator"]["mapping"].items():
        published = client.get(f"/rulesets/{ruleset_id}").json["state_schema"]
        offered = schemas[ref.removeprefix(REF)]
        assert offered["properties"]["ruleset"]["enum"] == [ruleset_id]
        assert closed_keys(offered) == closed_keys(published)
