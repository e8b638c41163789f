"""Who an action is taken by or for: the heroes a request names, and the side it belongs to.

A player token bound to heroes may only name those heroes; one bound to a side may only act for
that side. The same test decides what a token may undo: only what it could have done itself.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

# The field of every game's deck actions and draws that names who takes the cards. Each game declares
# the fields of its own actions that name a hero (GameRules.actor_fields, in its package).
DECK_ACTOR_FIELDS = ("holder",)


def named(body: Any, rules: Any, party: Collection[str] | None = None) -> Iterator[str]:
    """The heroes a request (or a recorded action) names, by the fields its game's ``rules`` declare.

    Given the campaign's ``party``, only the characters it plays count: a field such as Yōkai Quest's
    ``attacker`` names a hero or a yōkai, and a yōkai's attack on a hero is the table's to record, not
    an act for another player's hero."""
    if not isinstance(body, Mapping):
        return
    for name in (*DECK_ACTOR_FIELDS, *rules.actor_fields):
        value = body.get(name)
        values = [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
        yield from (v for v in values if party is None or v in party)


def refusal_to_act(body: Any, rules: Any, party: Collection[str], heroes: Sequence[str], side: str | None,
                   acting: str | None = "action") -> str | None:
    """Why a player token (bound to ``heroes`` and ``side``) may not send this body, or None: it names a hero of
    the campaign's ``party`` the token does not play, or is taken for the other side by the ruleset. ``acting``:
    what the body is, as the ruleset's acting_side reads it ("action", or "draw" for a draw); None where no
    ruleset says which side a body belongs to."""
    if heroes:
        others = sorted(set(named(body, rules, party)) - set(heroes))
        if others:
            return f"This token plays {', '.join(heroes)}, not {', '.join(others)}"
    if acting is None or not isinstance(body, Mapping):
        return None
    taken_for = rules.acting_side(body if acting == "action" else {**body, "type": acting})
    mine = side or "heroes"
    if taken_for is not None and taken_for != mine:
        return f"This token plays the {mine} side, not the {taken_for}"
    return None


def refusal_to_revert(group: Sequence[Any], rules: Any, tokens: Mapping[str, Any], who: str | None, heroes: Sequence[str], side: str | None) -> str | None:
    """Why a player token (``who``, bound to ``heroes`` and ``side``) may not undo a command's events, or None.

    The command's side is what its action or draw belongs to by the ruleset, else the side of the token
    that issued it; its heroes are those it names, else those of the token that issued it."""
    issuer = (getattr(group[0], "meta", None) or {}).get("issued_by")
    issued = tokens.get(issuer) or {}
    recorded = [_recorded(event) for event in group]
    acting = next((s for r in recorded if r is not None and (s := rules.acting_side(r)) is not None), None)
    group_side = acting or (issued.get("side") or "heroes" if issued.get("role") == "player" else None)
    mine = side or "heroes"
    if group_side is not None and group_side != mine:
        return f"This token plays the {mine} side; the action it would undo was the {group_side}'s"
    if heroes and issuer != who:
        group_heroes = sorted({hero for r in recorded for hero in named(r, rules)} or set(issued.get("heroes") or []))
        others = [hero for hero in group_heroes if hero not in heroes]
        if not group_heroes or others:
            whose = ", ".join(others) if others else "no hero of this token"
            return f"This token plays {', '.join(heroes)}; the action it would undo was taken for {whose}"
    return None


def _recorded(event: Any) -> Mapping[str, Any] | None:
    """An event's action inputs, as the ruleset's acting_side reads them (a draw asks as a "draw" action)."""
    name = type(event).__name__
    if name == "ActionTaken":
        return event.action
    if name == "CardsDrawn":
        return {**event.change, "type": "draw"}
    return None
