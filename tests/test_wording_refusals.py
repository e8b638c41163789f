"""The words a refusal is said in (tracker/core/wording.py, issue 31): lists as people say them, the game's names for
its ids, JSON Schema problems in words, and the JSON a refusal tells the table to send left exactly as it is."""

from __future__ import annotations

import jsonschema

from tracker import rulesets
from tracker.core import wording

NAMES = {"monk-sha": "Monk Sha", "cho-hakkai": "Cho Hakkai", "tripitaka": "Tripitaka", "tigress": "Tigress"}


def test_a_list_is_said_as_people_list_things():
    assert wording.listed([]) == "none"
    assert wording.listed(["monk-sha"], NAMES) == "Monk Sha"
    assert wording.listed(["monk-sha", "tripitaka"], NAMES) == "Monk Sha and Tripitaka"
    assert wording.listed(["monk-sha", "cho-hakkai", "tripitaka"], NAMES) == "Monk Sha, Cho Hakkai and Tripitaka"
    assert wording.either(["red", "blue"]) == "red or blue"


def test_english_none_is_left_as_it_is():
    assert wording.refusal_said("None in this scene; charm: None.", None, NAMES)[0] == "None in this scene; charm: not stated."


def test_a_long_list_is_summarised():
    faces = [f"face {n}" for n in range(51)]
    said = wording.listed(faces)
    assert said.startswith("face 0, face 1") and said.endswith("face 14 and 36 more") and "face 50" not in said


def test_refusal_prose_says_ids_by_name_and_literals_in_words():
    title, detail = wording.refusal_said(
        "It is not monk-sha's turn",
        "Pilgrims activate in initiative order ['monk-sha', 'cho-hakkai', 'tripitaka']; moves {'tigress': ['Move']}; target None.",
        NAMES,
    )
    assert title == "It is not Monk Sha's turn"
    assert wording.refusal_said("t", "Choose one of ['red', 'blue']", NAMES)[1] == 'Choose one of "red" or "blue"'
    assert wording.refusal_said("t", "Name one of ['monk-sha', 'tripitaka']", NAMES)[1] == 'Name one of Monk Sha ("monk-sha") or Tripitaka ("tripitaka")'
    assert detail == "Pilgrims activate in initiative order Monk Sha, Cho Hakkai and Tripitaka; moves Tigress: Move; target not stated."


def test_the_json_a_refusal_quotes_is_left_as_the_table_sends_it():
    detail = 'Send "faces": {"attack": [...]} and "hero": "monk-sha" for monk-sha; GET /campaigns/{cid}/components.'
    _, said = wording.refusal_said("t", detail, NAMES)
    assert said == 'Send "faces": {"attack": [...]} and "hero": "monk-sha" for Monk Sha; GET /campaigns/{cid}/components.'
    _, said = wording.refusal_said("t", "Known: components.characters.monk-sha.stats.HP; see /heroes/monk-sha/sheet.", NAMES)
    assert said == "Known: components.characters.monk-sha.stats.HP; see /heroes/monk-sha/sheet."


def test_ids_that_are_plain_words_are_not_said_as_names():
    journey, yokai = rulesets.get("journey"), rulesets.get("yokai-quest")
    assert "attack" not in journey.names  # the Attack Die's id is also a word: "Monkey King cannot attack"
    assert journey.names["monkey-king"] == "Monkey King" and journey.names["skill-tripitaka"] == "Tripitaka Skill Cards"
    title, _ = wording.refusal_said("No card is due at the 'red' point; monkey-king cannot attack", None, yokai.names | journey.names)
    assert title == "No card is due at the 'red' point; Monkey King cannot attack"


def test_schema_problems_are_said_in_words():
    schema = {"type": "object", "properties": {"side": {"enum": ["heroes", "overlord"]}, "count": {"type": "integer"}},
              "required": ["side"], "additionalProperties": False}
    said = {error.validator: wording.schema_problem(error) for error in jsonschema.Draft202012Validator(schema).iter_errors({"extra": 1})}
    assert said["required"] == "side is required"
    assert said["additionalProperties"] == "extra is not a field it takes (its fields: count and side)"
    (enum,) = jsonschema.Draft202012Validator(schema).iter_errors({"side": "elves"})
    assert wording.schema_problem(enum) == '"elves" is not one of heroes or overlord'
    (kind,) = jsonschema.Draft202012Validator(schema).iter_errors({"side": "heroes", "count": "two"})
    assert wording.schema_problem(kind) == '"two" is not integer'


def test_names_in_rules_data_are_found_at_any_depth():
    data = {"characters": [{"id": "po", "name": "Po"}], "quests": [{"id": "m1-1", "name": "Across the Rooftops", "chests": [{"id": "gold-1", "name": "Gold 1"}]}]}
    assert wording.names_in(data) == {"po": "Po", "m1-1": "Across the Rooftops", "gold-1": "Gold 1"}
