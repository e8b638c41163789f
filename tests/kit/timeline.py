"""The changes a game's timeline is read from: those recorded in tests/fixtures/timeline_samples.json (written by
make_timeline_samples.py), or, for a game that file has not met yet, those its own resolvers make on a fresh quest."""

from __future__ import annotations

import json
from pathlib import Path

from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream
from tracker.rulesets.engine.ruleset import SET_UP_QUEST, ActionContext

SAMPLES = json.loads((Path(__file__).parents[1] / "fixtures" / "timeline_samples.json").read_text())


def samples_of(ruleset) -> dict[str, list[dict]]:
    """Each kind of change of ``ruleset``'s game with the changes recorded of it."""
    return SAMPLES[ruleset.id] if ruleset.id in SAMPLES else resolved(ruleset)


def resolved(ruleset) -> dict[str, list[dict]]:
    """The changes of a game the samples file has not met yet (a new game package), as its own resolvers record them:
    its first quest set up for its first character, then each of its actions that takes no field but its type."""
    quest, party = ruleset.chain()[0], [ruleset.data["characters"][0]["id"]]
    stream, game, found = RandomStream(b"\x05" * 32), {}, {}
    setup = {"type": SET_UP_QUEST, "quest": quest, "setup": {}, "campaign": {"party": party, "options": {}, "progress": {}}}
    plain = [{"type": name} for name, action in sorted(ruleset.actions.items())
             if not action.internal and not set(action.schema.get("required", [])) - {"type"}]
    for action in [setup, *plain]:
        context = ActionContext({"game": game, "turn": 1, "quest": quest, "decks": {}}, ruleset, ruleset.decks({}), ruleset.dice({}), {})
        try:
            changes = ruleset.resolve(context, action, stream)
        except Unprocessable:
            continue  # it needs more than a fresh quest offers
        for change in changes:
            found.setdefault(change["kind"], []).append(change)
            game = ruleset.rules.fold(game, change) if change["kind"] in ruleset.rules.events else game
    return found
