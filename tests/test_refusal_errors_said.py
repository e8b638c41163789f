"""A problem's ``errors`` are read as its title and detail are (issue 31: "No Python repr in any title or detail"):
each field's messages are prose a person acts on, so a list, dict or None said the Python way is a fault there too,
and a game's refusal says them in its words (Ruleset.said, tracker/core/wording.py errors_said)."""

from __future__ import annotations

from tracker import rulesets
from tracker.core.errors import Unprocessable

from tests.kit import refusals


def test_the_reader_reads_the_errors_messages():
    named = {"monkey-king": "Monkey King"}
    assert refusals.faults({"title": "Fine", "errors": {"ability": ["Choose one of ['a', 'b']"]}}, named)
    assert refusals.faults({"title": "Fine", "errors": {"target": ["Not playing: monkey-king"]}}, named)
    assert refusals.faults({"title": "Fine", "errors": {"count": [None]}}, named)
    assert not refusals.faults({"title": "Fine", "errors": {"hero": ["Not playing: Monkey King"], "faces.attack": ['Send "faces"']}}, named)


def test_a_games_refusal_says_its_errors_in_words():
    journey = rulesets.get("journey")
    said = journey.said(Unprocessable("Fine", errors={"target": ["Choose one of ['monkey-king', 'tripitaka']", "Not playing: monk-sha"],
                                                       "count": "None"}))
    document = {"characters": journey.data["characters"], "quests": journey.data["quests"]}
    assert not refusals.faults({"title": said.title, "errors": said.errors}, refusals.names(document)), said.errors
    assert "Monkey King" in said.errors["target"][0] and "Monk Sha" in said.errors["target"][1], said.errors
    assert list(said.errors) == ["target", "count"]  # the field paths as the request spelt them
