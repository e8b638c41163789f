"""The session timeline: every event in order, who issued it, and what happened as a person would say it."""

from __future__ import annotations

from typing import Any

from tracker import rulesets


def _faces(values: list[Any]) -> str:
    return ", ".join(map(str, values))


_DECK_KINDS = {"shuffled", "drawn", "looked", "kept", "discarded", "removed", "returned", "added"}


def describe(event: Any) -> str:
    """One line per event, in the game's words."""
    name = type(event).__name__
    if name == "SessionStarted":
        return f"Session of quest {event.quest} started; seed commitment {event.seed_commitment[:16]}…"
    if name == "DiceRolled":
        roll = event.roll
        how = "Rolled" if roll["source"] == "digital" else "Rolled at the table:"
        purpose = f" (for {roll['purpose']})" if roll.get("purpose") else ""
        return f"{how} {_on_the_dice(roll['results'])}{purpose}"
    if name == "ActionTaken" and event.action.get("type") == "set-up-quest":
        choices = ", ".join(f"{k}={v}" for k, v in event.action.get("setup", {}).items())
        return f"Quest {event.action.get('quest')} set up" + (f" ({choices})" if choices else "")
    if name == "ActionTaken" and isinstance(event.action.get("faces"), dict):
        return _rolled_at_the_table(event)
    if name == "ActionTaken":
        details = ", ".join(f"{k}={v}" for k, v in event.action.items() if k != "type")
        return f"Action {event.action.get('type')}" + (f" ({details})" if details else "")
    if name == "QuestDecided":
        return f"The rules decided the quest: {event.change['outcome']}, because {event.change['reason']}"
    if name == "OutcomeRuled":
        overruled = f" (the rules said: {event.overrules})" if event.overrules else ""
        return f"Table ruling: {event.outcome}, because {event.ruling}{overruled}"
    if name == "FactsReported":
        return "Reported at the table: " + ", ".join(f"{k} {v}" for k, v in event.facts.items())
    if hasattr(event, "change") and event.change["kind"] not in _DECK_KINDS:

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
            return f"Shuffled the {pile} of {deck} ({len(change['before'])} cards)"
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


_ACTORS = ("hero", "attacker", "character", "demon")


def _on_the_dice(results: dict[str, list[Any]]) -> str:
    """ "3, 1, X on the attack dice and 5, 2 on 2d6": a game's dice by name, numbered dice as players write them."""
    if len(results) == 1:  # most rolls: one kind of die
        for die, faces in results.items():
            return _said(die, faces)
    return " and ".join([_said(die, faces) for die, faces in results.items()])


def _said(die: str, faces: list[Any]) -> str:
    if die[:1] == "d" and die[1:].isdigit():
        return f"{_faces(faces)} on {len(faces)}{die}"
    return f"{_faces(faces)} on the {die} {'die' if len(faces) == 1 else 'dice'}"


def _rolled_at_the_table(event: Any) -> str:
    """An action with dice rolled at the table, as a person would say it:
    "Monkey King rolled 1, X on the attack dice and X on the pilgrim die (pilgrim-attack: target=berrok-1)"."""
    action = event.action
    actor_key = next((key for key in _ACTORS if isinstance(action.get(key), str)), None)
    actor = action[actor_key] if actor_key else None
    rolled = _on_the_dice({die: faces for die, faces in action["faces"].items() if isinstance(faces, list)})
    details = ", ".join(f"{k}={v}" for k, v in action.items() if k not in ("type", "faces", actor_key))
    who = _name(event, actor) if actor else "The table"
    return f"{who} rolled {rolled or 'nothing'} ({action.get('type')}" + (f": {details})" if details else ")")


def _name(event: Any, character: str) -> str:
    """A character's name in the game's words (its id when the ruleset does not name it)."""
    ruleset = rulesets.registry().get((getattr(event, "meta", None) or {}).get("ruleset_id") or "")
    names = {c["id"]: c.get("name") for c in ruleset.data.get("characters", [])} if ruleset else {}
    return names.get(character) or character


def secret_of(event: Any) -> str | None:
    """The side an event is secret to (its ruleset says, for a change or an action's inputs,
    as tracker.disclosure does for the event log), or None."""
    recorded = _recorded(event)
    if recorded is None:
        return None

    ruleset = rulesets.registry().get((getattr(event, "meta", None) or {}).get("ruleset_id") or "")
    return ruleset.rules.secret_to(recorded) if ruleset else None


def _recorded(event: Any) -> dict[str, Any] | None:
    for name in ("change", "action"):
        value = getattr(event, name, None)
        if isinstance(value, dict):
            return value
    if isinstance(getattr(event, "roll", None), dict):  # a roll, as tracker.disclosure shows it to the ruleset
        return {"kind": "rolled", "roll": event.roll}
    return None


def public_summary(event: Any, side: str) -> str:
    recorded = _recorded(event) or {}
    if "type" in recorded:  # an action's inputs: only which action it was
        return f"Action {recorded['type']} (its details are secret to the {side} until the quest ends)"
    count = len(recorded["cards"]) if isinstance(recorded.get("cards"), list) else None
    what = f"{count} card(s) of {recorded.get('deck')}" if count is not None else recorded.get("kind")
    return f"{type(event).__name__}: {what} (secret to the {side} until the quest ends)"


def rows(event: Any, campaign_id: str, session_id: str | None = None, occurred_at: str | None = None) -> list[tuple[Any, ...]]:
    """The event's timeline row (and, for an undo, the rows marking what it undid); ``session_id``
    and ``occurred_at`` are ``str(event.originator_id)`` and ``event.timestamp.isoformat()``, when the
    caller has them already."""
    session_id = session_id or str(event.originator_id)
    meta = getattr(event, "meta", None) or {}
    name = type(event).__name__
    full = describe(event)
    side = secret_of(event)
    row = (
        "timeline",
        session_id,
        event.originator_version,
        campaign_id,
        name,
        full,
        meta.get("issued_by"),
        occurred_at or event.timestamp.isoformat(),
        side,
        public_summary(event, side) if side else full,
    )
    if name == "ActionUndone":
        return [("undone", session_id, e["position"], event.originator_version) for e in event.reverses["events"]] + [row]
    return [row]
