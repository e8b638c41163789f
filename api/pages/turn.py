"""The turn as the top of the play page says it: the phase, who acts (by name), what the table owes the rules,
whether the rules have decided the quest; and the game's actions sorted for the page:

- ``now``: the actions of the turn this token's heroes or side may take now (the session's ``allowed``), each with
  the hero the rules say acts preselected (Journey's ``activate-pilgrim``: the next Pilgrim in Initiative order);
  ``more``: where the moment has many, those between its first and its closing ones, folded;
- ``anytime``: those allowed now that the table reports whenever they happen (a card played, a correction, the
  deck actions: GameRules.anytime_actions), folded;
- ``later``: the rest (not allowed now, or another hero's), folded.
The words come from the game (GameRules.turn_said, owed, the action's description); nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.core import wording
from tracker.rulesets.engine.deck_actions import NAMES as DECK_ACTIONS


def summary(ruleset: Any, session: Mapping[str, Any], names: Mapping[str, str], heroes: Sequence[str]) -> dict[str, Any]:
    game = session.get("game") or {}
    rules = ruleset.rules
    allowed = [a for a in session.get("allowed") or [] if isinstance(a, Mapping)]
    acting = []
    for entry in allowed:
        if entry.get("type") in _anytime(rules):
            continue
        for hero in entry.get("heroes") or []:
            if hero not in acting:
                acting.append(hero)
    phase = session.get("phase") or game.get("phase")
    return {
        "count": rules.turn_said(game, int(session.get("turn") or 1)),
        "phase": wording.key_said(phase).capitalize() if isinstance(phase, str) else None,
        "acting": [names.get(h, h) for h in acting],
        "next": _next_of(allowed, rules),
        "owed": list(rules.owed(str(session.get("quest")), game, int(session.get("turn") or 1))),
        "verdict": session.get("verdict"),
        "mine": [names.get(h, h) for h in acting if h in heroes],
    }


def _anytime(rules: Any) -> set[str]:
    steps = set(getattr(rules, "turn_steps", ()))
    return {*getattr(rules, "anytime_actions", ()), *(a for a in DECK_ACTIONS if a not in steps)}


def _next_of(allowed: list[Mapping[str, Any]], rules: Any) -> str | None:
    for entry in allowed:
        if entry.get("type") not in _anytime(rules):
            return str(entry["type"])
    return None


def sort_actions(actions: list[dict[str, Any]], session: Mapping[str, Any], rules: Any, heroes: Sequence[str] | None,
                 side: str | None) -> dict[str, list[dict[str, Any]]]:
    """``actions``: the page's action forms (each with its ``type``); ``heroes``: the token's own (None: any, the owner)."""
    allowed = {str(a["type"]): a for a in session.get("allowed") or [] if isinstance(a, Mapping)}
    listed = isinstance(session.get("allowed"), list) and session.get("status") == "in-progress"
    anytime = _anytime(rules)
    now, other, later = [], [], []
    for action in actions:
        entry = allowed.get(action["type"])
        if listed and entry is None:
            later.append(action)
            continue
        who = (entry or {}).get("heroes")
        if who is not None and heroes is not None and not set(who) & set(heroes):
            later.append(action)  # another hero's to take
            continue
        entry_side = (entry or {}).get("side")
        if entry_side is not None and side is not None and entry_side != side:
            later.append(action)
            continue
        (other if action["type"] in anytime or not listed else now).append(action)
    order = list(allowed)
    now.sort(key=lambda a: order.index(a["type"]))  # in the order the rules list them: the next step first
    now, more = _shown_now(now)
    return {"now": now, "more": more, "anytime": other, "later": later}


FIRST_SHOWN, LAST_SHOWN = 5, 2


def _shown_now(now: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A moment with many actions (a Descent hero's turn lists 25) shows the first the rules list and the last ones,
    which move the turn on (end-hero-turn, demon-phase: every game lists its closing step last); the rest one tap away,
    so the page stays within three phone screens."""
    if len(now) <= FIRST_SHOWN + LAST_SHOWN:
        return now, []
    return [*now[:FIRST_SHOWN], *now[-LAST_SHOWN:]], now[FIRST_SHOWN:-LAST_SHOWN]


def preset(entry: Mapping[str, Any] | None, heroes: Sequence[str] | None) -> dict[str, str]:
    """The hero an allowed entry says acts, for its form's hero fields: the first the token may name."""
    who = list((entry or {}).get("heroes") or [])
    if heroes is not None:
        who = [h for h in who if h in heroes] or who
    return {"hero": who[0], "pilgrim": who[0], "attacker": who[0]} if who else {}
