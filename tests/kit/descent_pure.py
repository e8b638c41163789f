"""Descent's rules played as pure functions in tests: a context over a ruleset (edited or not), a quest set up from
it, and changes folded the way the ruleset folds them."""

from __future__ import annotations

from tracker.core import decks
from tracker.core.randomness import RandomStream
from tracker.rulesets.descent.setup import set_up
from tracker.rulesets.engine.ruleset import ActionContext

CARDS = ["Aim", "Gust of Wind", "Hordes of the Things", "Dodge", "Dark Charm"] + [f"Base card {n}" for n in range(1, 16)]


def ctx(ruleset, game=None) -> ActionContext:
    state = {"decks": {"overlord": decks.new_deck("overlord", CARDS, None, False)}, "turn": 1, "game": game or {}}
    return ActionContext(state, ruleset, ruleset.decks({}), ruleset.dice({}), {})


def game(ruleset, quest, party=("aurim", "tahlia")) -> dict:
    changes = set_up(ctx(ruleset), {"quest": quest, "campaign": {"party": list(party), "options": {}}, "setup": {}}, RandomStream(b"d" * 32))
    return apply(ruleset, {}, changes)


def apply(ruleset, game, changes) -> dict:
    for change in changes:
        if change["kind"] in ruleset.rules.events:
            game = ruleset.rules.fold(game, change)
    return game
