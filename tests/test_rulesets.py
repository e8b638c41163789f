"""Rules data is validated when loaded: lost facts are explicit, never silently absent or invented."""

from __future__ import annotations

import copy

import pytest

from tracker import rulesets
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine import components
from tracker.rulesets.engine.data import RulesDataError, content_hash, validate
from tracker.rulesets.journey import load as load_journey

MINIMAL = {
    "id": "mini",
    "name": "Mini",
    "version": "1",
    "unknowns": {},
    "dice": [{"id": "attack", "name": "Attack", "sides": 6, "results": ["X", "1", "2"], "faces": None, "unknowns": {"faces": "Printed as an image."}}],
    "decks": [{"id": "fortune", "name": "Fortune", "size": 3, "cards": None, "unknowns": {"cards": "Card faces were images."}}],
    "characters": [{"id": "hero", "name": "Hero", "stats": {"HP": None, "MV": 4}, "unknowns": {"stats.HP": "Profile sheet was an image."}}],
}


def _broken(mutate) -> dict:
    data = copy.deepcopy(MINIMAL)
    mutate(data)
    return data


def test_valid_data_passes():
    validate(MINIMAL, "mini")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["characters"][0]["stats"].update(MV=None), "null without a reason"),
        (lambda d: d["characters"][0]["unknowns"].update({"stats.MV": "lost"}), "not null"),
        (lambda d: d["dice"][0]["unknowns"].update(faces=""), "must be a sentence"),
        (lambda d: d["decks"].append(copy.deepcopy(d["decks"][0])), "duplicate id"),
        (lambda d: d["dice"][0].update(faces=["X", "1", "2", "9", "1", "2"], unknowns={}), "not one of its results"),
        (lambda d: d["dice"][0].update(faces=["X", "1"], unknowns={}), "6 sides"),
        (lambda d: d["decks"][0].update(cards=["a", "b"], unknowns={}), "size is 3"),
        (lambda d: d.pop("unknowns"), "'unknowns' must be an object"),
        (lambda d: d.update(version=""), "'version'"),
        (lambda d: d.update(karma={"floor": None}), "karma.floor"),
    ],
)
def test_broken_data_is_refused_at_load_time(mutate, message):
    with pytest.raises(RulesDataError, match=message):
        validate(_broken(mutate), "mini")


def test_the_journey_data_loads_and_its_hash_is_stable():
    first, second = load_journey(), load_journey()
    assert first.hash == second.hash and first.hash.startswith("sha256:")
    changed = copy.deepcopy(first.data)
    changed["characters"][0]["name"] = "Someone else"
    assert content_hash({"data": changed}) != content_hash({"data": first.data})


def test_every_journey_die_face_layout_is_unknown_and_suppliable():
    journey = rulesets.get("journey")
    schema = journey.component_schema["properties"]["dice"]["properties"]
    for die in journey.data["dice"]:
        assert die["faces"] is None and die["unknowns"]["faces"]
        assert die["id"] in schema


def test_component_data_accepts_only_unknown_facts_in_the_right_shape():
    ok = {"dice": {"attack": {"faces": ["X", "1", "1", "2", "2", "2"]}}, "decks": {"fortune": {"cards": ["a", "b", {"name": "c"}]}}, "characters": {"hero": {"stats": {"HP": 10}}}}
    components.validate(MINIMAL, ok)
    for bad in (
        {"dice": {"attack": {"faces": ["X", "1"]}}},  # wrong number of faces
        {"dice": {"attack": {"faces": ["X", "1", "1", "2", "2", "7"]}}},  # not a result of the die
        {"decks": {"fortune": {"cards": ["a", "b"]}}},  # wrong deck size
        {"characters": {"hero": {"stats": {"MV": 5}}}},  # a stated fact cannot be overridden
        {"dice": {"d6": {"faces": [1, 2, 3, 4, 5, 6]}}},  # not an unknown die
        {"weather": "rain"},
    ):
        with pytest.raises(Unprocessable):
            components.validate(MINIMAL, bad)


def test_supplied_components_fill_the_specs():
    journey = rulesets.get("journey")
    supplied = {"dice": {"attack": {"faces": ["X", "1", "1", "2", "2", "3"]}}, "decks": {"weapon-monkey-king": {"cards": ["Level 1", "Level 2", "Level 3"]}}}
    journey.validate_components(supplied)
    assert journey.dice(supplied)["attack"].faces == ["X", "1", "1", "2", "2", "3"]
    assert journey.dice({})["attack"].faces is None
    assert journey.decks(supplied)["weapon-monkey-king"].cards == ["Level 1", "Level 2", "Level 3"]
    assert journey.decks({})["weapon-monkey-king"].cards is None


def test_unknown_rulesets_are_named():
    with pytest.raises(Unprocessable, match="Unknown ruleset 'chess'") as error:
        rulesets.get("chess")
    assert "journey" in error.value.detail
