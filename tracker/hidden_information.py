"""What a viewer on one side may see of a session: driven by the ruleset's hooks.

A change the ruleset says is secret to a side (``GameRules.secret_to``) is shown to
other sides without its payload until the session ends; the session state is
shown through ``GameRules.redact`` and ``GameRules.redact_decks``. ``viewer=None``
means everything (the service itself, and the side that owns the secrets).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.errors import Unprocessable
from tracker.rulesets.ruleset import GameRules


def check_viewer(rules: GameRules, viewer: str | None) -> None:
    if viewer is not None and viewer not in rules.sides:
        raise Unprocessable(
            f"Unknown side '{viewer}'",
            detail=f"The sides of this game are {list(rules.sides)}.",
            errors={"view": [f"Not a side: {viewer}"]},
        )


def subject(payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """What an event records, as the ruleset's hooks see it: a change, or an action's inputs."""
    if "change" in payload:
        return payload["change"]
    if "action" in payload:
        return payload["action"]
    if "roll" in payload:
        return {"kind": "rolled", "roll": payload["roll"]}
    return None


def secret_from(rules: GameRules, payload: Mapping[str, Any], viewer: str | None) -> str | None:
    """The side an event's payload is secret to, if ``viewer`` may not see it; None when they may."""
    if viewer is None:
        return None
    recorded = subject(payload)
    side = rules.secret_to(recorded) if recorded is not None else None
    return side if side is not None and side != viewer else None


def state_for(rules: GameRules, state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    if viewer is None or state.get("status") == "ended":
        return state
    return {**state, "game": rules.redact(state["game"], viewer), "decks": rules.redact_decks(state["decks"], viewer)}


def event_for(rules: GameRules, view: dict[str, Any], viewer: str | None, ended: bool) -> dict[str, Any]:
    if ended:
        return view
    side = secret_from(rules, view["payload"], viewer)
    if side is None:
        return view
    return {**view, "payload": {"secret_to": side, "revealed_when": "the quest ends"}, "secret": True}
