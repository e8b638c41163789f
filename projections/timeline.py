"""The session timeline: every event in order, who issued it, and what happened as a person would say it."""

from __future__ import annotations

from typing import Any


def _faces(values: list[Any]) -> str:
    return ", ".join(str(v) for v in values)


_DECK_KINDS = {"shuffled", "drawn", "looked", "kept", "discarded", "removed", "returned", "added"}


def describe(event: Any) -> str:
    """One line per event, in the game's words."""
    name = type(event).__name__
    if name == "SessionStarted":
        return f"Session of quest {event.quest} started; seed commitment {event.seed_commitment[:16]}…"
    if name == "DiceRolled":
        roll = event.roll
        rolled = "; ".join(f"{die}: {_faces(faces)}" for die, faces in roll["results"].items())
        how = "rolled" if roll["source"] == "digital" else "reported rolling"
        purpose = f" for {roll['purpose']}" if roll.get("purpose") else ""
        return f"{how.capitalize()}{purpose} {rolled}"
    if name == "ActionTaken" and event.action.get("type") == "set-up-quest":
        choices = ", ".join(f"{k}={v}" for k, v in event.action.get("setup", {}).items())
        return f"Quest {event.action.get('quest')} set up" + (f" ({choices})" if choices else "")
    if name == "ActionTaken":
        details = ", ".join(f"{k}={v}" for k, v in event.action.items() if k != "type")
        return f"Action {event.action.get('type')}" + (f" ({details})" if details else "")
    if hasattr(event, "change") and event.change["kind"] not in _DECK_KINDS:
        from tracker import rulesets  # a ruleset's own event, in its own words

        ruleset_id = (getattr(event, "meta", None) or {}).get("ruleset_id")
        said = rulesets.describe_change(ruleset_id, event.change)
        if said:
            return said
        details = ", ".join(f"{k}={v}" for k, v in event.change.items() if k != "kind")
        return f"{name}" + (f" ({details})" if details else "")
    if hasattr(event, "change"):
        change = event.change
        deck = change["deck"]
        cards = _faces(change.get("cards", []))
        holder = change.get("holder") or "The table"
        if change["kind"] == "shuffled":
            pile = "draw and discard piles" if change["with_discard"] else "draw pile"
            return f"Shuffled the {pile} of {deck} ({len(change['order'])} cards)"
        return {
            "drawn": f"{holder} drew {cards} from {deck}" + (" (physical deck)" if change.get("source") == "reported" else ""),
            "looked": f"Looked at the top of {deck}: {cards}",
            "kept": f"{holder} kept {cards or 'nothing'} from {deck}; the rest to the {change.get('rest')}",
            "discarded": f"Discarded {cards} from {deck}",
            "removed": f"Removed {cards} of {deck} from the game",
            "returned": f"Returned {cards} to the {change.get('position')} of {deck}",
            "added": f"Added {cards} to {deck} ({change.get('reason')})",
        }[change["kind"]]
    if name == "TurnEnded":
        return f"Turn {event.turn} ended"
    if name == "SessionEnded":
        return f"Session ended in {event.outcome}; seed revealed"
    if name == "ActionUndone":
        reverses = event.reverses
        what = next((e["action"].get("type") for e in reverses["events"] if "action" in e), None)
        what = f"action {what}" if what else ", ".join(sorted({e["type"] for e in reverses["events"]}))
        return f"Undid {what} (events {reverses['from']} to {reverses['to']}); the random counter stays where it was"
    return name


def secret_of(event: Any) -> str | None:
    """The side an event is secret to (its ruleset says), or None."""
    change = getattr(event, "change", None)
    if not isinstance(change, dict):
        return None
    from tracker import rulesets

    ruleset = rulesets.registry().get((getattr(event, "meta", None) or {}).get("ruleset_id") or "")
    return ruleset.rules.secret_to(change) if ruleset else None


def public_summary(event: Any, side: str) -> str:
    change = event.change
    count = len(change["cards"]) if isinstance(change.get("cards"), list) else None
    what = f"{count} card(s) of {change.get('deck')}" if count is not None else change.get("kind")
    return f"{type(event).__name__}: {what} (secret to the {side} until the quest ends)"


def rows(event: Any, campaign_id: str) -> list[tuple[Any, ...]]:
    meta = getattr(event, "meta", {}) or {}
    undone: list[tuple[Any, ...]] = []
    if type(event).__name__ == "ActionUndone":
        undone = [("undone", str(event.originator_id), e["position"], event.originator_version) for e in event.reverses["events"]]
    full = describe(event)
    side = secret_of(event)
    return undone + [
        (
            "timeline",
            str(event.originator_id),
            event.originator_version,
            campaign_id,
            type(event).__name__,
            full,
            meta.get("issued_by"),
            event.timestamp.isoformat(),
            side,
            public_summary(event, side) if side else full,
        )
    ]
