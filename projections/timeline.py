"""The session timeline: every event in order, who issued it, and what happened as a person would say it."""

from __future__ import annotations

import re
from typing import Any

from projections import timeline_words
from projections.timeline_words import TimelineWords, of_event, words_of
from tracker.core import wording
from tracker.domain.events import GameEvent
from tracker.domain.session import DECK_EVENTS, Session
from tracker.rulesets.engine.view import At, Table, View

# The session's own events (a ruleset's game events are GameEvent subclasses).
SESSION_EVENTS = (
    Session.SessionStarted, Session.DiceRolled, Session.ActionTaken, Session.TurnEnded, Session.SessionEnded, Session.ActionUndone,
    Session.QuestDecided, Session.OutcomeRuled, Session.FactsReported, *DECK_EVENTS.values(),
)


def _faces(values: list[Any]) -> str:
    return ", ".join(map(str, values))


names_of = timeline_words.names_of  # the game's ids to its names, read here by the pages and tests

_DECK_KINDS = {"shuffled", "drawn", "looked", "kept", "discarded", "removed", "returned", "added"}


def describe(event: Any, words: TimelineWords | None = None) -> str:
    """One line per event, in the game's words: ids said by their names, values as people say them.
    ``words``: the event's ruleset's (projections/timeline_words.py), when the caller has them already."""
    words = words or of_event(event)
    return words.said(_line(event, words))


def _line(event: Any, words: TimelineWords) -> str:
    name = type(event).__name__
    if name == "DiceRolled":
        roll = event.roll
        how = "Rolled" if roll["source"] == "digital" else "Rolled at the table:"
        purpose = f" (for {roll['purpose']})" if roll.get("purpose") else ""
        results = roll["results"]
        if len(results) == 1:  # most rolls are of one die kind: said as _on_the_dice says it, with fewer calls
            for die, faces in results.items():
                return f"{how} {_said(die, faces, words.dice.get(die))}{purpose}"
        return f"{how} {_on_the_dice(results, words.dice)}{purpose}"
    if name == "SessionStarted":
        return f"Quest {event.quest} began with {_heroes(words, event.party)}; the seed is committed ({event.seed_commitment[:12]}…)"
    if name == "ActionTaken" and event.action.get("type") == "set-up-quest":
        choices = wording.details_said(event.action.get("setup", {}), words.names, by_field=words.field_names)
        return f"Quest {event.action.get('quest')} set up" + (f" ({choices})" if choices else "")
    if name == "ActionTaken" and isinstance(event.action.get("faces"), dict):
        return _rolled_at_the_table(event, words)
    if name == "ActionTaken":
        details = wording.details_said(event.action, skip=("type",), by_field=words.field_names)
        return f"{_action(event.action.get('type'))}" + (f": {details}" if details else "")
    if name == "QuestDecided":
        return f"The rules decided the quest: {_outcome(event.change['outcome'])}, because {event.change['reason']}"
    if name == "OutcomeRuled":
        overruled = f" (the rules said: {_without_api_hints(event.overrules)})" if event.overrules else ""
        return f"Table ruling: {_outcome(event.outcome)}, because {event.ruling}{overruled}"
    if name == "FactsReported":
        return "Reported at the table: " + wording.details_said(event.facts)
    if hasattr(event, "change") and event.change["kind"] not in _DECK_KINDS:
        said = words.describe_change(event.change)
        if said:
            return said
        details = wording.details_said(event.change, skip=("kind",), by_field=words.field_names)
        return wording.key_said(event.change["kind"]).capitalize() + (f": {details}" if details else "")
    if hasattr(event, "change"):
        change = event.change
        deck = words.deck(change["deck"])
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
        return f"The quest ended: {_outcome(event.outcome)}; the seed is revealed"
    if name == "ActionUndone":
        reverses = event.reverses
        what = next((e["action"].get("type") for e in reverses["events"] if "action" in e), None)
        what = _action(what).lower() if what else ", ".join(sorted({_event_said(e["type"]) for e in reverses["events"]}))
        return f"Undid {what} (events {reverses['from']} to {reverses['to']}); the random counter stays where it was"
    return _event_said(name)


def _without_api_hints(refusal: str) -> str:
    """A refusal as the table reads it: the API's hint (send "reported": {"fact": ...}) said as the fact to state."""
    return re.sub(r'"reported":\s*\{\s*"([^"]+)"\s*:[^}]*\}', r"“\1” stated at the end", refusal)


def _event_said(name: str) -> str:
    """An event class's name as words: "CardsDrawn" -> "Cards drawn"."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).capitalize()


def _action(action_type: str | None) -> str:
    """An action type as its name: "pilgrim-attack" -> "Pilgrim attack"."""
    return wording.key_said(action_type or "action").capitalize()


_OUTCOMES = {"victory": "victory", "heroic-victory": "heroic victory", "defeat": "defeat"}


def _outcome(outcome: str | None) -> str:
    return _OUTCOMES.get(outcome or "", wording.key_said(outcome or "not stated"))


def _heroes(words: TimelineWords, party: list[str]) -> str:
    said = [words.character(hero) for hero in party]
    return ", ".join(said) if said else "no heroes named"


_ACTORS = ("hero", "attacker", "character", "demon")


def _on_the_dice(results: dict[str, list[Any]], named: dict[str, str] | None = None) -> str:
    """ "3, 1, X on the attack dice and 5, 2 on 2d6": a game's dice by name, numbered dice as players write them."""
    return " and ".join([_said(die, faces, (named or {}).get(die)) for die, faces in results.items()])


def _said(die: str, faces: list[Any], name: str | None = None) -> str:
    if die[:1] == "d" and die[1:].isdigit():
        return f"{', '.join(map(str, faces))} on {len(faces)}{die}"
    return f"{', '.join(map(str, faces))} on the {name or die} {'die' if len(faces) == 1 else 'dice'}"


def _rolled_at_the_table(event: Any, words: TimelineWords) -> str:
    """An action with dice rolled at the table, as a person would say it:
    "Monkey King rolled 1, X on the attack dice and X on the pilgrim die (pilgrim-attack: target=berrok-1)"."""
    action = event.action
    actor_key = next((key for key in _ACTORS if isinstance(action.get(key), str)), None)
    actor = action[actor_key] if actor_key else None
    rolled = _on_the_dice({die: faces for die, faces in action["faces"].items() if isinstance(faces, list)}, words.dice)
    details = wording.details_said({k: v for k, v in action.items() if k not in ("type", "faces", actor_key)})
    who = words.character(actor) if actor else "The table"
    return f"{who} rolled {rolled or 'nothing'} ({_action(action.get('type')).lower()}" + (f": {details})" if details else ")")


def secret_of(event: Any, words: TimelineWords | None = None) -> str | None:
    """The side an event is secret to (its ruleset says, for a change or an action's inputs,
    as tracker.integrity.disclosure does for the event log), or None."""
    words = words or of_event(event)
    if not words.keeps_secrets:
        return None
    recorded = _recorded(event)
    if recorded is None:
        return None
    return words.secret_to(recorded)


def _recorded(event: Any) -> dict[str, Any] | None:
    for name in ("change", "action"):
        value = getattr(event, name, None)
        if isinstance(value, dict):
            return value
    if isinstance(getattr(event, "roll", None), dict):  # a roll, as tracker.integrity.disclosure shows it to the ruleset
        return {"kind": "rolled", "roll": event.roll}
    return None


def public_summary(event: Any, side: str, words: TimelineWords | None = None) -> str:
    recorded = _recorded(event) or {}
    if "type" in recorded:  # an action's inputs: only which action it was
        return f"{_action(recorded['type'])} (its details are secret to the {side} until the quest ends)"
    count = len(recorded["cards"]) if isinstance(recorded.get("cards"), list) else None
    what = f"{count} card(s) of {(words or of_event(event)).deck(recorded['deck'])}" if count is not None and recorded.get("deck") else wording.key_said(recorded.get("kind") or "")
    return f"{_event_said(type(event).__name__)}: {what} (secret to the {side} until the quest ends)"


def rows(event: Any, campaign_id: str, session_id: str | None = None, occurred_at: str | None = None,
         words: TimelineWords | None = None) -> list[tuple[Any, ...]]:
    """The event's timeline row (and, for an undo, the rows marking what it undid); ``session_id``
    and ``occurred_at`` are ``str(event.originator_id)`` and ``event.timestamp.isoformat()``, and ``words``
    its ruleset's, when the caller has them already."""
    session_id = session_id or str(event.originator_id)
    meta = getattr(event, "meta", None) or {}
    words = words or words_of(meta.get("ruleset_id"))
    name = type(event).__name__
    full = describe(event, words)
    side = secret_of(event, words)
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
        public_summary(event, side, words) if side else full,
    )
    if name == "ActionUndone":
        return [("undone", session_id, e["position"], event.originator_version) for e in event.reverses["events"]] + [row]
    return [row]


class Timeline(View):
    name = "timeline"
    # 2: the game kinds that fell back to a list of fields are said in sentences; 3: a field's nested map is said in
    # brackets (a set-up's hero sheets, Kung Fu Panda's enemies per tile), a set-up names what the game names (Yōkai
    # Quest's abilities), and Descent's quest and Kung Fu Panda's mission are not said set up twice. Each bump rebuilds
    # the stored views.
    version = 3
    tables = {
        "view_timeline": Table(
            "session_id TEXT NOT NULL, position INTEGER NOT NULL, campaign_id TEXT NOT NULL, event_type TEXT NOT NULL, "
            "summary TEXT NOT NULL, issued_by TEXT, occurred_at TEXT NOT NULL, secret_to TEXT, public_summary TEXT NOT NULL, "
            "PRIMARY KEY (session_id, position)",
            ("session_id", "position"),
        ),
        "view_undone": Table(
            "session_id TEXT NOT NULL, position INTEGER NOT NULL, undone_by INTEGER NOT NULL, PRIMARY KEY (session_id, position)",
            ("session_id", "position"),
            "session_id IN (SELECT session_id FROM {view_sessions} WHERE campaign_id = %s)",
        ),
    }
    writes = {
        "timeline": "INSERT INTO {view_timeline} "
        "(session_id, position, campaign_id, event_type, summary, issued_by, occurred_at, secret_to, public_summary) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (session_id, position) DO NOTHING",
        "undone": "INSERT INTO {view_undone} (session_id, position, undone_by) VALUES (%s, %s, %s) "
        "ON CONFLICT (session_id, position) DO NOTHING",
    }
    copied = {
        "timeline": "COPY {view_timeline} "
        "(session_id, position, campaign_id, event_type, summary, issued_by, occurred_at, secret_to, public_summary) FROM STDIN",
    }
    handles = (*SESSION_EVENTS, GameEvent)  # every session event has its line

    def rows(self, event: Any, at: At) -> list[tuple[Any, ...]]:
        return rows(event, at.campaign_id, at.session_id, at.occurred_at, words_of(at.ruleset_id))


def read(reader: Any, session_id: str, after: int = 0, limit: int = 100, viewer: str | None = None) -> list[dict[str, Any]]:
    """The timeline as ``viewer``'s side may read it (None: everything, as the owner or after the quest),
    undone actions marked with the position of the undo."""
    found = reader.query(
        "SELECT t.position, t.event_type, t.summary, t.issued_by, t.occurred_at, t.secret_to, t.public_summary, u.undone_by "
        "FROM {view_timeline} t LEFT JOIN {view_undone} u ON u.session_id = t.session_id AND u.position = t.position "
        "WHERE t.session_id = %s AND t.position > %s ORDER BY t.position LIMIT %s",
        (session_id, after, limit),
    )
    for row in found:
        secret_to, public = row.pop("secret_to"), row.pop("public_summary")
        if viewer is not None and secret_to is not None and secret_to != viewer:
            row["summary"] = public
    return found


VIEW = Timeline()
