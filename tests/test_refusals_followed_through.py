"""A refusal's example is followed through the resolver until it is a whole body (tracker/core/hints.py, issue 31):
each further fact the rules then ask for is in the first refusal, and the following never rolls or draws, so no refusal
tells what the session's stream holds next."""

from __future__ import annotations

import pytest

from tracker import rulesets
from tracker.core import hints
from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream
from tracker.rulesets.engine.context import ActionContext
from tracker.rulesets.engine.ruleset import ActionType, action_schema

FACE = {"enum": ["X", "0", "1", "2", "3"]}
SCHEMA = action_schema({"faces": {"type": "object", "properties": {"attack": {"type": "array", "items": FACE}, "pilgrim": {"type": "array", "items": FACE}},
                                  "additionalProperties": False},
                        "outcome": {"enum": ["kill", "cleanse"]}, "times": {"type": "integer", "minimum": 1}}, [])


def _attack(ctx, params, rng):
    """Two lost dice, asked one at a time; then the outcome and a count the rules ask for; then a digital draw."""
    faces = params.get("faces") or {}
    for die in ("attack", "pilgrim"):
        if die not in faces:
            raise Unprocessable(f"The {die} die's faces are lost", errors={f"dice.{die}": ["Face layout unknown."]}, unknown={"die": die, "count": 2})
    if "outcome" not in params:
        raise Unprocessable("Say Kill or Cleanse", errors={"outcome": ["Required when the target is defeated."]})
    if "times" not in params:
        raise Unprocessable("Say how many times", errors={"times": ["Required."]})
    card = rng.roll(["Bull General", "Rage Card"])  # what the session's stream holds next
    raise Unprocessable(f"The {card} is drawn and its text was lost", errors={"components.decks.demon": ["Unknown."]})


def _refused(action, stream):
    journey = rulesets.get("journey")
    ctx = ActionContext(state={"game": {}, "party": []}, ruleset=journey, decks={}, dice=journey.dice({}), components={})
    action_type = ActionType("attack", "a test attack", SCHEMA, _attack)
    with pytest.raises(Unprocessable) as refused:
        try:
            action_type.resolve(ctx, action, stream)
        except Unprocessable as refusal:
            raise hints.for_action(refusal, action_type, action, ctx, stream) from None
    return refused.value


def test_the_first_refusal_carries_every_die_and_every_field_the_rules_then_ask_for():
    refusal = _refused({"type": "attack"}, RandomStream(b"seed"))
    assert refusal.example == {"type": "attack", "faces": {"attack": ["X", "X"], "pilgrim": ["X", "X"]}, "outcome": "kill", "times": 1}
    assert {"dice.attack", "dice.pilgrim", "outcome", "times"} <= set(refusal.errors)
    assert "Say Kill or Cleanse" in refusal.detail and "Say how many times" in refusal.detail


def test_following_an_example_never_draws_from_the_stream():
    stream = RandomStream(b"seed")
    refusal = _refused({"type": "attack"}, stream)
    assert stream.counter == 0
    said = f"{refusal.title} {refusal.detail} {refusal.errors}"
    assert "Bull General" not in said and "Rage Card" not in said and "components.decks.demon" not in said
