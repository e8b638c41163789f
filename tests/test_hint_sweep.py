"""Every hint the rulesets can give validates against the published schema of what it names (issue 20).

Two kinds of hint exist: the example body a refusal for a lost die or deck carries (tracker/core/hints.py builds it from
the action's own reporting field), and each game's word on how a lost fact is stated per use
(``GameRules.lost_fact_uses``, shown by GET /campaigns/{cid}/components/missing and in refusals). Both are enumerated
here for every game, every action and every die and deck, and checked against the schemas GET /rulesets/{id}
publishes: the document a group reads, never the code's own."""

from __future__ import annotations

import json
import re

import jsonschema

from tests.kit import schema_checks
from tracker.core import hints
from tracker import rulesets

PLACEHOLDERS = ("x", 1, "<card>", "<hero>")  # the stand-ins a hint's text leaves for the table's own values


class _Dice:
    """The one thing hints read from a session: a die's results (to pick a stand-in face)."""

    def __init__(self, ruleset):
        self.specs = ruleset.dice({})

    def die(self, die_id):
        return self.specs[die_id]


def _asking(schema: dict, count: int) -> dict:
    """A request that asks the tracker to roll: "dice" keyed by roller where the action keys them so (a pause's heroes)."""
    dice = (schema.get("properties") or {}).get("dice") or {}
    names = (dice.get("propertyNames") or {}).get("enum")
    return {"dice": {names[0]: count}} if dice.get("type") == "object" and names else {}


def _published(client, ruleset_id: str) -> dict:
    document = client.get(f"/rulesets/{ruleset_id}").json
    return {"actions": {a["type"]: a["schema"] for a in document["actions"]}, "setup_schema": document["setup_schema"]}


def test_every_reported_roll_or_draw_example_fits_its_actions_published_schema(client):
    checked = 0
    for ruleset in rulesets.registry().values():
        published = _published(client, ruleset.id)
        dice, decks = [d["id"] for d in ruleset.data.get("dice", [])], [d["id"] for d in ruleset.data.get("decks", [])]
        for name, action_type in ruleset.actions.items():
            if action_type.internal:
                continue
            schema = published["actions"][name]
            for unknown in [{"die": d} for d in dice] + [{"deck": d} for d in decks]:
                fitting = []
                for count in (1, 2, 3, 4):  # the refusal's count is the draw's or roll's own: some counts fit no action
                    found = hints._reported(action_type, {**unknown, "count": count}, _Dice(ruleset), _asking(schema, count))
                    if found is None:
                        continue  # this action has no field reporting that die or deck: no example is made
                    field, value = found
                    errors = list(jsonschema.Draft202012Validator(schema["properties"][field]).iter_errors(value))
                    assert all(e.validator in ("minItems", "maxItems") for e in errors), (ruleset.id, name, unknown, field, value, [e.message for e in errors])
                    fitting.append(not errors)
                if fitting:
                    assert any(fitting), (ruleset.id, name, unknown)  # some number of dice or cards fits the field
                    checked += 1
            for key, field in (action_type.reports or {}).items():  # a declared reporting field always yields an example
                kind, which = key.split(":")
                assert field in schema["properties"], (ruleset.id, name, field)
                assert hints._reported(action_type, {kind: which, "count": 1}, _Dice(ruleset)) is not None, (ruleset.id, name, key)
    assert checked > 20  # every game's dice and decks, not a vacuous sweep


def _fragments(text: str) -> list[tuple[str, object]]:
    """The ``"field": value`` fragments in a hint's text, placeholders made JSON (``[...]`` -> [], ``n`` -> 1, ``...`` -> "x")."""
    text = text.replace("[...]", "[]").replace("...", '"x"')
    text = re.sub(r"(?<=[\s:])n\b", "1", text)
    found, at, decoder = [], 0, json.JSONDecoder()
    while (match := re.compile(r'"([a-z_]+)":\s*').search(text, at)) is not None:
        value, end = decoder.raw_decode(text, match.end())
        found.append((match.group(1), value))
        at = end
    return found


def _fits(value, schema: dict, where: str) -> None:
    """``value`` names only fields the schema has, and every value the hint gives (not a stand-in) validates."""
    if isinstance(value, dict):
        for key, inner in value.items():
            sub = (schema.get("properties") or {}).get(key)
            if sub is None:
                sub = schema.get("additionalProperties")
                assert isinstance(sub, dict), f"{where}: no field {key!r} in {sorted(schema.get('properties') or {})}"
                names = schema.get("propertyNames")
                if names and key not in PLACEHOLDERS:
                    schema_checks.validate(key, names)
            _fits(inner, sub, f"{where}.{key}")
    elif isinstance(value, list):
        assert schema.get("type") == "array" or "items" in schema, f"{where}: not a list in the schema"
    elif value not in PLACEHOLDERS:
        schema_checks.validate(value, schema)


def test_every_way_to_state_a_lost_fact_names_fields_its_actions_publish(client):
    checked = 0
    for ruleset in rulesets.registry().values():
        published = _published(client, ruleset.id)
        for fact, use in ruleset.rules.lost_fact_uses.items():
            text = use.get("per_use")
            if not text or text.startswith("nothing to send"):
                continue  # nothing stated: the table's own word stands (Kung Fu Panda's Wolf Boss knock-out)
            named_action = re.search(r'the "([a-z-]+)" action', text)
            if named_action:
                assert named_action.group(1) in published["actions"], (ruleset.id, fact, text)
                checked += 1
                continue
            fragments = _fragments(text)
            sent = re.findall(r'send "([a-z_]+)"(?!:)', text)
            assert fragments or sent, (ruleset.id, fact, text)
            for field in sent:  # "send "trait_value" with the roll": a field of each action the fact blocks
                for action in use["actions"]:
                    assert field in published["actions"][action]["properties"], (ruleset.id, fact, action, field)
                    checked += 1
            for field, value in fragments:
                if field == "setup":  # stated when the session starts: the set-up's published schema
                    _fits(value, published["setup_schema"], f"{ruleset.id} {fact} setup")
                    checked += 1
                    continue
                for action in use["actions"]:
                    _fits({field: value}, published["actions"][action], f"{ruleset.id} {fact} {action}")
                    checked += 1
    assert checked > 10


# Lost facts that block an action with no way to state their use: none (Journey's promotion tree, the last, is
# said per spawn with "promotion_said").
NOT_YET_STATABLE: set[tuple[str, str]] = set()


def test_every_lost_fact_that_blocks_an_action_says_how_the_table_states_it(client):
    unstatable = set()
    for ruleset in rulesets.registry().values():
        heroes = [c["id"] for c in ruleset.data["characters"] if c.get("role") in ("hero", "pilgrim")][:2]
        made = client.post("/campaigns", json={"ruleset": ruleset.id, "name": "Sweep", "party": heroes})
        assert made.status_code == 201, made.json
        for fact in client.get(f"/campaigns/{made.json['id']}/components/missing").json["facts"]:
            if fact["blocks"]["actions"] and not fact["stated_per_use"]:
                unstatable.add((ruleset.id, fact["path"]))
    assert unstatable == NOT_YET_STATABLE
