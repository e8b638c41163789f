"""Who may do what with a campaign: a token's role, and for a player the heroes and side it is bound to.

Decided here, for every channel: the application's commands ask ``refuse`` before they change anything, so
the REST API, the pages and anything else that runs a command get the same answer; the REST API asks
``route_refusal`` of the role alone before a view runs, so a read (which changes nothing) is refused by the
route's declaration (api/access.py) and a write refused for its role is answered before its body is read.
Which heroes a body names and which side it is taken for is tracker/core/actors.py's question.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from tracker.core import actors
from tracker.core.errors import Forbidden

OWNER_ONLY = "Only the campaign's owner manages tokens and component data"


def route_refusal(role: str, needs: str, reads: bool) -> str | None:
    """Why a token of ``role`` may not call what ``needs`` the owner, a reader (any token of the campaign, integration
    tokens included: the event log) or a player (the owner and player tokens; viewers read only), or None.
    ``reads``: whether the call only reads."""
    if role == "owner":
        return None
    if needs == "owner":
        return OWNER_ONLY
    if role == "integration":
        return None if reads and needs == "reader" else "Integration tokens may only read the event log"
    if reads:
        return None
    if role == "viewer":
        return "Viewer tokens are read-only"
    return None


def refuse(request: Any, needs: str, body: Mapping[str, Any] | None = None, rules: Any = None, party: Collection[str] = (),
           acting: str | None = None) -> None:
    """Forbidden, unless the token that made ``request`` may run a command that ``needs`` the owner or a player.
    ``request.role`` None is the owner or an operator (the command line), who may do everything. With a game's
    ``rules``, a player token bound to heroes or a side may send only a ``body`` that names its own heroes of
    the campaign's ``party`` and, where ``acting`` says what the body is ("action" or "draw"), is its side's."""
    role = request.role
    if role in (None, "owner"):
        return
    refusal = route_refusal(role, needs, reads=False)
    if refusal is not None:
        raise Forbidden(refusal, detail=f"This token's role is {role}.")
    if rules is None:
        return
    refusal = actors.refusal_to_act(body, rules, party, request.heroes, request.side, acting)
    if refusal is not None:
        raise Forbidden(refusal, detail="A player's token acts only for its own heroes and side.")
