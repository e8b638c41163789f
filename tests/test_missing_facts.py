"""GET /campaigns/{cid}/components/missing: what the campaign still lacks, by what it blocks, and where to supply it.

Everything here is read from the API: each fact's schema pointer is followed into the component_schema that
GET /rulesets/{id} publishes, a value is built from that schema, supplied, and the fact leaves the list."""

from __future__ import annotations

import jsonschema

from tracker import rulesets
from tests.kit.session import post as _post

# The party each game's campaign here plays with (test inputs); a game not named plays with its first character.
PARTIES = {"journey": ["tripitaka", "monkey-king"], "descent": ["aurim"], "kung-fu-panda": ["po", "tigress"], "yokai-quest": ["ryo", "ami"]}


def _games() -> dict[str, list[str]]:
    """Every game the registry finds, with the party it plays here."""
    return {game: PARTIES.get(game) or [ruleset.data["characters"][0]["id"]] for game, ruleset in sorted(rulesets.registry().items())}


def _follow(schema: dict, pointer: str) -> dict:
    for part in pointer.strip("/").split("/"):
        schema = schema[part]
    return schema


def _value_for(schema: dict):
    """A value the schema accepts, built from the schema alone (what a client without the code would do)."""
    if schema.get("type") == "array":
        item = schema["items"]
        count = schema.get("minItems", 1)
        value = item["enum"][0] if "enum" in item else "Card"
        return [value] * count
    return 3  # a stat: the schema takes an integer or a string


def _with(path: str, value) -> dict:
    parts = path.split(".")[1:]  # "components.dice.attack.faces" -> dice, attack, faces
    document: dict = {}
    node = document
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value
    return document


def test_every_missing_fact_points_into_the_published_component_schema(client):
    for game, party in _games().items():
        cid = _post(client, "/campaigns", {"ruleset": game, "name": game, "party": party})["id"]
        listed = client.get(f"/campaigns/{cid}/components/missing")
        assert listed.status_code == 200, listed.json
        missing = listed.json
        schema = client.get(f"/rulesets/{game}").json["component_schema"]
        # jsonschema.validate, once per fact, checked the schema itself each time: checked once, then used
        kind = jsonschema.validators.validator_for(schema)
        kind.check_schema(schema)
        validator = kind(schema)
        assert missing["facts"] or game not in PARTIES, game  # each of the four lost facts a group may supply
        for fact in missing["facts"]:
            target = _follow(schema, fact["schema_pointer"])
            assert isinstance(target, dict), (game, fact["path"])
            if not fact["path"].startswith("components.tables."):  # (a lost table's shape is its own)
                validator.validate(_with(fact["path"], _value_for(target)))
            grouped = [p for kind, by in missing["blocks"].items() if kind != "nothing_the_tracker_checks" for paths in by.values() for p in paths]
            assert (fact["path"] in grouped) == any(fact["blocks"].values()), (game, fact["path"])
            assert fact["stated_per_use"] == (fact["how_per_use"] is not None)
        dice = {f["path"] for f in missing["facts"] if f["blocks"]["digital_rolls"]}
        assert dice == {f"components.dice.{d['id']}.faces" for d in client.get(f"/rulesets/{game}").json["dice"] if d["faces"] is None}, game


def test_a_group_reads_the_list_supplies_a_fact_and_it_is_no_longer_missing(client):
    cid = _post(client, "/campaigns", {"ruleset": "journey", "name": "Tuesday group", "party": ["tripitaka", "monkey-king"]})["id"]
    missing = client.get(f"/campaigns/{cid}/components/missing").json
    (attack,) = [f for f in missing["facts"] if f["blocks"]["digital_rolls"] == ["attack"]]
    assert missing["blocks"]["digital_rolls"]["attack"] == [attack["path"]] and attack["stated_per_use"]
    assert "components.tables.weapons" in missing["blocks"]["actions"]["pilgrim-attack"]
    stats = [f["path"] for f in missing["facts"] if ".stats." in f["path"]]
    assert not any(".cho-hakkai." in path or ".monk-sha." in path for path in stats)  # heroes outside the party need nothing
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]
    assert client.post(f"/sessions/{sid}/rolls", json={"dice": {"attack": 2}}).status_code == 422

    schema = client.get("/rulesets/journey").json["component_schema"]
    document = _with(attack["path"], _value_for(_follow(schema, attack["schema_pointer"])))
    jsonschema.validate(document, schema)
    _post(client, f"/campaigns/{cid}/components", {"components": document})
    after = client.get(f"/campaigns/{cid}/components/missing").json
    assert attack["path"] not in {f["path"] for f in after["facts"]} and "attack" not in after["blocks"]["digital_rolls"]
    assert len(after["facts"]) == len(missing["facts"]) - 1 and after["components_hash"] != missing["components_hash"]
    sid = _post(client, f"/campaigns/{cid}/sessions", {"quest": "q1-meeting"})["id"]  # a session started now has the faces
    assert _post(client, f"/sessions/{sid}/rolls", {"dice": {"attack": 2}})["source"] == "digital"


def test_a_heroes_lost_health_blocks_every_yokai_quests_set_up_and_may_be_stated_there(client):
    cid = _post(client, "/campaigns", {"ruleset": "yokai-quest", "name": "Y", "party": ["ryo", "ami"]})["id"]
    campaign = client.get(f"/campaigns/{cid}").json
    missing = client.get(f"/campaigns/{cid}/components/missing").json
    health = {f["path"]: f for f in missing["facts"] if f["path"].endswith(".stats.health") and f["blocks"]["quest_setup"]}
    assert set(health) == {"components.characters.ryo.stats.health", "components.characters.ami.stats.health"}
    assert all(f["blocks"]["quest_setup"] == campaign["chain"] and "setup" in f["how_per_use"] for f in health.values())
    assert set(missing["blocks"]["quest_setup"][campaign["next_quest"]]) == set(health)


def test_kung_fu_panda_names_every_set_up_field_it_lacks_at_once(client):
    """Mission 2.1 with nothing laid out: the start tile, the end tile the lost map would show, and the Special Move
    cards the text lost are refused together, and the set-up that names them all is accepted."""
    from tests.kit.kung_fu_panda import TEST_COMPONENTS

    body = {"ruleset": "kung-fu-panda", "name": "K", "party": ["po", "tigress"], "options": {"length": "single", "mission": "m2-1"}, "components": TEST_COMPONENTS}
    cid = _post(client, "/campaigns", body)["id"]
    refused = client.post(f"/campaigns/{cid}/sessions", json={"quest": "m2-1", "setup": {"enemies": {"F": {"ox-grunt": 1}}}})
    assert refused.status_code == 422
    assert {"setup.start_tile", "setup.end_tile", "setup.special_moves"} <= set(refused.json["errors"])
    assert "setup.start_tile" in refused.json["title"] and "setup.special_moves" in refused.json["title"]
    assert client.get(f"/campaigns/{cid}").json["sessions"] == []  # nothing appended
    setup = {"enemies": {"F": {"ox-grunt": 1}}, "start_tile": "F", "end_tile": "s", "special_moves": {"po": "A", "tigress": "B"}}
    _post(client, f"/campaigns/{cid}/sessions", {"quest": "m2-1", "setup": setup})
