"""A game's timeline words gathered once per ruleset (projections/timeline_words.py), and wording.plain's quick passes:
the same lines as before, for every game, however often they are said."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections import timeline, timeline_words
from projections.timeline_words import TimelineWords, words_of
from tests.kit.timeline import samples_of
from tracker import rulesets
from tracker.core import wording
from tracker.rulesets.engine.ruleset import GameRules

GAMES = sorted(rulesets.registry())


def test_every_game_is_one_of_the_four():
    assert {"journey", "descent", "kung-fu-panda", "yokai-quest"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_games_words_are_its_rules_datas_names(game):
    ruleset = rulesets.get(game)
    words = words_of(game)
    data = ruleset.data
    for character in data.get("characters", []):
        assert words.names[character["id"]] == (character.get("name") or character["id"])
        assert words.character(character["id"]) == (character.get("name") or character["id"])
    for quest in data.get("quests", []):
        assert words.names[quest["id"]] == (quest.get("name") or quest["id"])
    for deck in data.get("decks", []):
        assert words.deck(deck["id"]) == (deck.get("name") or deck["id"].replace("-", " "))
    for die in data.get("dice", []):
        if "-" in die["id"]:  # a die whose id is no word, by its name less "Die"/"Dice"
            assert words.dice[die["id"]] == re.sub(r"\s+Dic?e$", "", die.get("name") or die["id"])
        else:
            assert die["id"] not in words.dice
    assert words.field_names == ruleset.rules.field_names()
    assert words.names == timeline.names_of(ruleset)
    assert words_of(game) is words  # gathered once


def test_words_of_an_unknown_game_name_nothing_and_say_ids_as_they_are():
    words = words_of("no-such-game")
    assert words.ruleset is None and words.names == {} and words.secret_to({"kind": "drawn"}) is None
    assert words.deck("overlord-deck") == "overlord deck" and words.character("po") == "po"
    assert words.describe_change({"kind": "anything"}) is None
    assert words_of(None) is words_of("")


def test_the_games_that_keep_secrets_are_those_whose_rules_say_so():
    assert words_of("descent").keeps_secrets and words_of("descent").secret_rules is rulesets.get("descent").rules
    for game in ("journey", "kung-fu-panda", "yokai-quest"):
        assert type(rulesets.get(game).rules).secret_to is GameRules.secret_to  # each keeps GameRules' own: nothing secret
        assert not words_of(game).keeps_secrets


def test_rules_that_say_a_change_is_secret_are_asked_whatever_their_class(monkeypatch):
    ruleset = rulesets.get("journey")
    monkeypatch.setattr(ruleset.rules, "secret_to", lambda change: "heroes" if change.get("kind") == "drawn" else None)
    words = TimelineWords(ruleset)
    assert words.keeps_secrets and words.secret_to({"kind": "drawn"}) == "heroes" and words.secret_to({"kind": "kept"}) is None


def test_a_ruleset_put_in_the_registry_under_a_known_id_gets_its_own_words(monkeypatch):
    """Tests (and a server pinned to an older version) put another ruleset object in the registry under an id."""
    journey = rulesets.get("journey")
    first = words_of("journey")
    other, known = rulesets.get("descent"), dict(rulesets.registry())
    monkeypatch.setattr(rulesets, "registry", lambda: {**known, "journey": other})
    swapped = words_of("journey")
    assert swapped is not first and swapped.ruleset is other and swapped.names == timeline.names_of(other)
    monkeypatch.undo()
    assert words_of("journey").ruleset is journey


def test_a_line_is_said_once_then_kept_and_the_cache_starts_again_when_full(monkeypatch):
    words = TimelineWords(rulesets.get("journey"))
    said: list[str] = []
    plain = wording.plain

    def counted(line: str, names: Any = None) -> str:
        said.append(line)
        return plain(line, names)

    monkeypatch.setattr(wording, "plain", counted)
    line = "rolled 1, 2 on 2d6 for monkey-king {'with_discard': True}"
    first = words.said(line)
    assert first == (plain(line, words.names)[:1].upper() + plain(line, words.names)[1:])
    assert first.startswith("Rolled") and "Monkey King" in first and "with discard yes" in first
    assert words.said(line) == first and said == [line]  # the second time from the cache
    monkeypatch.setattr(timeline_words, "MAX_LINES", 3)
    for n in range(5):
        words.said(f"line {n}")
    assert len(words._lines) <= 3 and words.said(line) == first


# -- wording.plain: the same words as before its quick passes ----------------------------------------------------------


def _plain_before(line: str, names: Any = None) -> str:
    """wording.plain as it was before it looked for what each step changes (main at dc82d8c), the oracle."""
    line = _literals_said_before(line, names or {})
    line = re.sub(r"\b(None|True|False)\b", lambda m: wording._WORDS[m.group(1)], line)
    line = wording._SNAKE.sub(lambda m: wording.key_said(m.group(0)), line)
    return wording.names_said(line, names or {})


def _literals_said_before(text: str, names: Any) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] in "[{(":
            end = wording._closing(text, i)
            if end is not None:
                span = text[i : end + 1]
                said = wording._literal_said(span, names)
                out.append(said if said is not None else span[0] + _literals_said_before(span[1:-1], names) + span[-1])
                i = end + 1
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


PIECES = ["monkey-king", "tripitaka", "berrok-1", "None", "True", "False", "with_discard", "hp_after", "{'a': 1}", "['x', None]",
          "(1, 2)", "(words in parentheses)", "{", "}", "[", "]", "(", ")", "'", '"', ",", ":", " ", "_", "Nonesuch", "d6", "é"]
NAMES = {"monkey-king": "Monkey King", "tripitaka": "Tripitaka", "q1-meeting": "Meeting"}


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=12).map("".join), st.sampled_from([NAMES, {}, None]))
def test_plain_says_any_line_as_it_did_before(line, names):
    assert wording.plain(line, names) == _plain_before(line, names)


@pytest.mark.parametrize("game", GAMES)
def test_plain_says_every_recorded_change_of_every_game_as_it_did_before(game):
    ruleset = rulesets.get(game)
    names = timeline.names_of(ruleset)
    lines = 0
    for changes in samples_of(ruleset).values():
        for change in changes:
            described = ruleset.rules.describe(change) if "kind" in change else None
            for line in (described or "", str(change), wording.details_said(change, skip=("kind",))):
                assert wording.plain(line, names) == _plain_before(line, names)
                lines += 1
    assert lines
