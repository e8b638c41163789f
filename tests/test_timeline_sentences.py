"""Every event type of every game reads as a sentence people say at the table: no Python repr, no
snake_case key, no id where the game has a name. The kinds come from the rulesets themselves (each
game's ``events``), the deck changes and the session's own events; the changes said are real ones
the games recorded (tests/fixtures/timeline_samples.json, written by make_timeline_samples.py); a game that file has
not met yet says the changes its own resolvers make on a fresh quest, so a new game package is read with no edit here."""

from __future__ import annotations

import inspect
import re
from datetime import UTC, datetime
from uuid import uuid4

import pytest

from projections import timeline
from tests.kit.timeline import SAMPLES, samples_of
from tracker import rulesets
from tracker.domain import Session
from tracker.domain.events import TrackerEvent
from tracker.domain.session import DECK_EVENTS

SESSION_EVENTS = {name: cls for name, cls in vars(Session).items() if inspect.isclass(cls) and issubclass(cls, TrackerEvent)}

REPR = re.compile(r"[{}\[\]]|(?<![<>!])=(?!>)|\bNone\b|\bTrue\b|\bFalse\b|'\w+':|\w+\(\w+=")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
CLASS_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")


def _event(cls, ruleset_id: str, **fields):
    return cls(originator_id=uuid4(), originator_version=7, timestamp=datetime.now(UTC),
               meta={"issued_by": None, "correlation_id": None, "ruleset_version": "x", "ruleset_id": ruleset_id}, **fields)


def _cases():
    for ruleset_id, ruleset in sorted(rulesets.registry().items()):
        samples = samples_of(ruleset)
        for kind, cls in sorted(ruleset.rules.events.items()):
            yield pytest.param(ruleset_id, cls, kind, "change", samples.get(kind), id=f"{ruleset_id}-{kind}")
        for kind, cls in sorted(DECK_EVENTS.items()):
            found = samples.get(kind) or [change for other in SAMPLES.values() for change in other.get(kind, [])][:3]
            yield pytest.param(ruleset_id, cls, kind, "change", found or None, id=f"{ruleset_id}-deck-{kind}")
        for name in ("DiceRolled", "ActionTaken", "TurnEnded", "SessionEnded", "OutcomeRuled", "ActionUndone"):
            found = samples.get("event:" + name) or [s for other in SAMPLES.values() for s in other.get("event:" + name, [])][:3]
            yield pytest.param(ruleset_id, SESSION_EVENTS[name], name, None, found or None, id=f"{ruleset_id}-{name}")


def _problems(line: str, names: dict[str, str]) -> list[str]:
    found = []
    if REPR.search(line):
        found.append(f"a repr ({REPR.search(line).group(0)!r})")
    if SNAKE.search(line):
        found.append(f"a snake_case key ({SNAKE.search(line).group(0)})")
    if CLASS_NAME.search(line):
        found.append(f"a class name ({CLASS_NAME.search(line).group(0)})")
    for key, name in names.items():
        if name != key and re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", line):
            found.append(f"the id {key} where the game says {name}")
    return found


@pytest.mark.parametrize(("ruleset_id", "cls", "kind", "field", "samples"), list(_cases()))
def test_every_event_reads_as_a_sentence(ruleset_id, cls, kind, field, samples):
    assert samples, f"No recorded {kind} of {ruleset_id} to say: run tests/fixtures/make_timeline_samples.py (or add one by hand there)"
    names = timeline.names_of(rulesets.registry()[ruleset_id])
    for sample in samples:
        event = _event(cls, ruleset_id, change=sample) if field == "change" else _event(cls, ruleset_id, **sample)
        line = timeline.describe(event)
        assert line and line[0].isupper() or line[0].isdigit(), line
        assert not _problems(line, names), f"{kind}: {line!r}: " + "; ".join(_problems(line, names))


def test_the_session_start_names_the_quest_and_heroes():
    event = Session.SessionStarted(originator_id=uuid4(), originator_version=1, timestamp=datetime.now(UTC),
                                   originator_topic="tracker.domain.session#Session",
                                   meta={"ruleset_id": "journey"}, campaign_id="c", quest="q1-meeting", ruleset={"id": "journey"},
                                   party=["tripitaka", "monkey-king"], seed="", seed_commitment="ab" * 32, decks={})
    line = timeline.describe(event)
    assert line.startswith("Quest Meeting began with Tripitaka, Monkey King") and not _problems(line, timeline.names_of(rulesets.get("journey")))


def test_the_checks_catch_what_they_look_for():
    """The test above can fail: each kind of data dump it looks for is found."""
    names = {"monkey-king": "Monkey King"}
    assert _problems("PilgrimSetUp (hero=Tripitaka, hp=None)", names)
    assert _problems("weapon {'damage': 2}", names)
    assert _problems("with_discard yes", names)
    assert _problems("monkey-king attacked", names)
    assert not _problems("Monkey King attacked berrok-1: 2 wounds", names)
