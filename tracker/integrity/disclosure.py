"""What one side at the table may see of anything the service sends: the one redaction on the way out.

Every answer is plain JSON built from a few kinds of thing, and each kind says for itself
whether it still holds a secret:
- an event as shown (``position``, ``type``, ``payload``): a change the ruleset says is secret
  to another side (``GameRules.secret_to``) is shown without its payload until its session ends;
  an undo's restored game state is shown as that side may see it;
- a session's state (``seed_commitment``, ``decks``, ``game``): ``GameRules.redact`` and
  ``redact_decks`` until its status is ``ended``;
- a session's game state read elsewhere (``session_id`` with ``game``, as the standing shows it);
- a verification report (``shuffles``, ``checked``): another side's shuffles and secret rolls until the seed is revealed.

``disclose`` walks an answer and applies those rules wherever such a thing appears, so a new
route that returns events or states is redacted without knowing it. Secrets no side may see
before the end (the seed, a pile's order) never reach an answer at all: they are sealed in the
events (tracker/core/sealing.py) and left out of every event view (tracker/application/session_log.py).

``side`` None means every side: the owner, and the service itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import GameRules

Revealed = Callable[[str | None], bool]  # whether a session (by id) has ended; None: the session the request is about


def check_side(rules: GameRules, side: str | None) -> None:
    if side is not None and side not in rules.sides:
        raise Unprocessable(
            f"Unknown side '{side}'",
            detail=f"The sides of this game are {list(rules.sides)}.",
            errors={"view": [f"Not a side: {side}"]},
        )


def disclose(value: Any, rules: GameRules, side: str | None, revealed: Revealed) -> Any:
    if side is None or len(rules.sides) < 2:
        return value  # nothing is secret from the owner, nor in a game with one side
    return _walk(value, rules, side, revealed, None)


def _walk(value: Any, rules: GameRules, side: str, revealed: Revealed, session: str | None) -> Any:
    if isinstance(value, list):
        return [_walk(item, rules, side, revealed, session) for item in value]
    if not isinstance(value, Mapping):
        return value
    if _is_event(value):
        return event_for(value, rules, side, revealed(value.get("stream", session)))
    if _is_state(value):
        shown = state_for(value, rules, side)
        return {key: _walk(item, rules, side, revealed, value.get("id")) if key not in ("game", "decks") else item for key, item in shown.items()}
    if _is_report(value):
        return report_for(value, rules, side)
    if "session_id" in value and isinstance(value.get("game"), Mapping) and not revealed(value["session_id"]):
        return {**value, "game": rules.redact(value["game"], side)}
    return {key: _walk(item, rules, side, revealed, session) for key, item in value.items()}


def _is_event(value: Mapping[str, Any]) -> bool:
    return "payload" in value and "type" in value and "position" in value


def _is_state(value: Mapping[str, Any]) -> bool:
    return "seed_commitment" in value and "decks" in value and "game" in value


def _is_report(value: Mapping[str, Any]) -> bool:
    return "shuffles" in value and "checked" in value


def event_for(view: Mapping[str, Any], rules: GameRules, side: str | None, ended: bool) -> dict[str, Any]:
    """One event as ``side`` may see it."""
    if side is None or ended:
        return dict(view)
    payload = view["payload"]
    recorded = _subject(payload)
    secret = rules.secret_to(recorded) if recorded is not None else None
    if secret is not None and secret != side:
        return {**view, "payload": {"secret_to": secret, "revealed_when": "the quest ends"}, "secret": True}
    if view["type"] == "ActionUndone":
        # the game state it puts back, as this side may see it (its piles are sealed until the end), and of the
        # events it names, only where another side's secret was (an overlord's action inputs, a secret roll's faces)
        shown = dict(payload)
        if isinstance(payload.get("restored"), Mapping):
            restored = payload["restored"]
            shown["restored"] = {**restored, "game": rules.redact(restored.get("game") or {}, side)}
        if isinstance(payload.get("reverses"), Mapping):
            shown["reverses"] = {**payload["reverses"], "events": undone_for(payload["reverses"].get("events", []), rules, side)}
        return {**view, "payload": shown}
    return dict(view)


def undone_for(entries: list[Mapping[str, Any]], rules: GameRules, side: str | None) -> list[dict[str, Any]]:
    """The events an undo names, as ``side`` may see them. An entry names a roll by its faces alone, so the rolls of
    an action secret to another side are that side's too (a secret action's dice tell its secret)."""
    action_secret = next((s for s in (rules.secret_to(e["action"]) for e in entries if isinstance(e.get("action"), Mapping)) if s is not None), None)
    shown = []
    for entry in entries:
        recorded = _subject(entry)
        secret = rules.secret_to(recorded) if recorded is not None else None
        if secret is None and "roll" in entry:
            secret = action_secret
        if side is not None and secret is not None and secret != side:
            shown.append({"position": entry.get("position"), "type": entry.get("type"), "secret_to": secret})
        else:
            shown.append(dict(entry))
    return shown


def state_for(state: Mapping[str, Any], rules: GameRules, side: str | None) -> dict[str, Any]:
    """A session's state as ``side`` may see it."""
    if side is None or state.get("status") in ("ended", "abandoned"):
        return dict(state)
    return {**state, "game": rules.redact(state["game"], side), "decks": rules.redact_decks(state["decks"], side)}


def report_for(report: Mapping[str, Any], rules: GameRules, side: str | None) -> dict[str, Any]:
    """A verification report as ``side`` may see it: another side's shuffles stay hidden until the seed is revealed."""
    if side is None or report.get("seed") is not None:
        return dict(report)
    shuffles = [s if rules.secret_to(s) in (None, side) else {"position": s["position"], "hidden": True} for s in report["shuffles"]]
    rolls = [r if rules.secret_to({"kind": "rolled", "roll": r}) in (None, side) else {"position": r["position"], "hidden": True} for r in report.get("rolls", [])]
    return {**report, "shuffles": shuffles, **({"rolls": rolls} if "rolls" in report else {})}


def _subject(payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """What an event records, as the ruleset's hooks see it: a change, or an action's inputs."""
    if "change" in payload:
        return payload["change"]
    if "action" in payload:
        return payload["action"]
    if "roll" in payload:
        return {"kind": "rolled", "roll": payload["roll"]}
    return None

