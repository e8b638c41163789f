"""Re-derive a session from its recorded inputs and report the first event that does not follow.

Checks, in order of the log:
- the revealed seed hashes to the commitment published when the session started;
- random counters run on without gaps or reuse;
- every digital roll and shuffle equals what the seed gives at its counters;
- every digital draw took the top cards of the pile as it stood;
- every action, re-resolved by the pinned ruleset on the state before it, yields
  exactly the events recorded after it;
- every undo reverts the last action not yet undone and puts back the state from
  before it, leaving the random counter where it was;
- the end gives the outcome the rules decided (QuestDecided), unless the owner
  overruled them or the session was abandoned;
- (with_chain) the stored events form an unbroken hash chain, and the session's
  last event is the one the campaign recorded when the quest ended.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import jsonschema

from tracker.core import decks, inputs, undo

from tracker import rulesets
from tracker.play import party as party_rules
from tracker.domain.events import Given
from tracker.domain.session import ABANDONED, DECK_EVENTS, Session
from tracker.core.errors import TrackerError, Unprocessable
from tracker.core.randomness import RandomStream, commitment
from tracker.rulesets.engine import components as component_data
from tracker.rulesets.engine.data import content_hash
from tracker.play.resolving import session_state  # the view of state commands had
from tracker.rulesets.engine.ruleset import ActionContext, Ruleset
from tracker.integrity.verify_export import roll_order

_DECK_EVENT_NAMES = {cls.__name__ for cls in DECK_EVENTS.values()}


class Mismatch(Exception):
    def __init__(self, position: int, event_type: str, reason: str) -> None:
        super().__init__(reason)
        self.report = {"position": position, "type": event_type, "reason": reason}


class _Unlisted(list):
    """The report's list of rolls or shuffles when the caller wants the verdict alone (an import): each entry
    refers to its event's roll, so listing a long session's rolls would keep every one of them alive."""

    def append(self, item: Any) -> None:
        pass


def verify(events: Sequence[Any], ruleset: Ruleset, components: Mapping[str, Any], seed_carried: bool = False, listing: bool = True) -> dict[str, Any]:
    """The session re-derived; ``listing``: the report lists every roll and shuffle (False: only counts them).
    ``seed_carried``: the session's events hold its seed though it is in play (an imported backup, checked against
    the commitment): every roll, shuffle and random action so far is then re-derived with it, the session still
    ``pending`` and the report showing no order the seed gives."""
    started = events[0]
    ended = next((e for e in events if type(e).__name__ == "SessionEnded"), None)
    seed_hex = ended.seed if ended else None
    report: dict[str, Any] = {
        "seed_commitment": started.seed_commitment,
        "seed": seed_hex,
        "ruleset": dict(started.ruleset),
        "ruleset_in_code": rulesets.get(ruleset.id).pin,
        "ruleset_used": ruleset.pin,
        "rolls": [] if listing else _Unlisted(),
        "shuffles": [] if listing else _Unlisted(),
        "checked": {"events": len(events), "digital_rolls": 0, "reported_rolls": 0, "shuffles": 0, "actions": 0},
        "first_mismatch": None,
    }
    ruled = next((e for e in events if type(e).__name__ == "OutcomeRuled"), None)
    # An outcome the table imposed over the rules is shown as its ruling, never as a plain result.
    report["ruling"] = None if ruled is None else {
        "position": ruled.originator_version, "outcome": ruled.outcome, "ruling": ruled.ruling, "overrules": ruled.overrules}
    if started.ruleset.get("hash") != ruleset.hash:
        report["status"] = "ruleset-changed"
        report["detail"] = (
            f"The campaign pinned {ruleset.id} {started.ruleset.get('version')} with hash {started.ruleset.get('hash')}, "
            f"but this server runs {ruleset.version} with hash {ruleset.hash} and keeps no earlier version with the pinned hash "
            f"(tracker/rulesets/versions/{ruleset.id}/); the session cannot be re-derived with different rules."
        )
        return report
    seed = None
    try:
        seed = _check_seed(started, ended)
        held = seed or (_carried(started) if seed_carried else None)
        _replay(events, held, ruleset, components, report)
    except Mismatch as mismatch:
        report["status"] = "mismatch"
        report["first_mismatch"] = mismatch.report
        return report
    finally:
        if seed is None:
            for shuffle in report["shuffles"]:  # an order a carried seed gave is still the table's secret
                shuffle.pop("order", None)
    if seed is None:
        report["status"] = "pending"
        report["detail"] = "Every event follows from the ones before it; the rolls can be recomputed once the seed is revealed at the end of the session."
    else:
        report["status"] = "verified"
    return report


def _check_seed(started: Any, ended: Any) -> bytes | None:
    """Every copy of the seed the log holds must hash to the commitment: the start's own copy too,
    since a session in play (or an imported one) rolls from it. Returns the revealed seed, if any."""
    copies = [(event, getattr(event, "seed", None)) for event in (started, ended) if event is not None]
    for event, seed_hex in copies:
        if seed_hex is None:  # not kept in this event (an old or sealed record)
            continue
        try:
            seed = bytes.fromhex(seed_hex)
        except (TypeError, ValueError):
            seed = None
        if seed is None or commitment(seed) != started.seed_commitment:
            name = type(event).__name__
            raise Mismatch(event.originator_version, name, f"The seed {name} records does not hash to the commitment published at the start")
    return bytes.fromhex(ended.seed) if ended is not None and ended.seed is not None else None


def _carried(started: Any) -> bytes | None:
    seed_hex = getattr(started, "seed", None)
    return bytes.fromhex(seed_hex) if seed_hex else None


def _replay(events: Sequence[Any], seed: bytes | None, ruleset: Ruleset, components: Mapping[str, Any], report: dict[str, Any]) -> None:
    dice = ruleset.dice(components)
    deck_specs = ruleset.decks(components)
    judged_by = Given(rules_for=lambda pin: ruleset.rules)
    session: Session | None = None
    expected: list[dict[str, Any]] = []  # changes an action said would follow
    effects = _DECK_EVENT_NAMES | {"TurnEnded", "DiceRolled", "QuestDecided"} | set(ruleset.rules.events_by_name)
    unchecked_action = False  # a random action before the seed is revealed: its effects are checked one by one
    before_command: dict[int, dict[str, Any]] = {}  # the state an undo of each command puts back
    # Kept only for the commands an undo names (an undo naming another is refused before it is compared): a copy
    # of the whole state before every command held a long session's state thousands of times over.
    undone = {e.reverses.get("from") for e in events if type(e).__name__ == "ActionUndone"}
    unverified = False  # the event is a game change taken as recorded (an effect of an action not re-run)
    for index, event in enumerate(events):
        name = type(event).__name__
        position = event.originator_version
        expected_position = index + 1
        if position != expected_position:
            raise Mismatch(expected_position, name, f"Event {expected_position} is missing, or events were inserted or reordered (found event {position} in its place)")
        if session is not None and position in undone and (getattr(event, "meta", None) or {}).get("command") == position:
            before_command[position] = copy.deepcopy(undo.restored(session))
        if name not in effects:
            unchecked_action = False
        _check_values(event, name, session, ruleset, effect=bool(expected) or unchecked_action)
        if session is not None:
            if expected and name not in effects:
                raise Mismatch(position, name, f"The action before this event should have been followed by {expected[0]['kind']}")
            if name == "DiceRolled":
                _check_roll(event, session, seed, dice, report)
                if expected:
                    _check_expected(event, {"kind": "rolled", "roll": event.roll}, expected)
            elif name in _DECK_EVENT_NAMES:
                _check_deck_change(event, session, seed, report)
                if expected:
                    _check_expected(event, event.change, expected)
            elif name == "TurnEnded" and expected:
                _check_expected(event, {"kind": "turn-ended", "turn": event.turn}, expected)
            elif hasattr(event, "change"):  # a ruleset's own game event: only ever an action's effect
                if "counter_start" in event.change:
                    _check_game_draw(event, session, seed, report)
                if expected:
                    _check_expected(event, event.change, expected)
                elif not unchecked_action:
                    raise Mismatch(position, name, "A game event that no action caused")
                else:
                    unverified = True
            elif name == "SessionEnded":
                _check_end(event, session)
            elif name == "ActionUndone":
                _check_undo(event, events[:index], before_command, session)
            elif name == "SessionComponentsSupplied":
                components = component_data.supplement(components, event.components)
                if content_hash(components) != event.components_hash:
                    raise Mismatch(position, name, "The component data supplied in play does not hash to the pin it records")
                dice, deck_specs = ruleset.dice(components), ruleset.decks(components)
                expected = decks.listings(session.decks, deck_specs, event.components)  # the decks it names follow, listed
            elif name == "ActionTaken":
                rerun = _rerun_action(event, session, seed, ActionContext(session_state(session), ruleset, deck_specs, dice, components), report)
                expected, unchecked_action = rerun or [], rerun is None
        try:
            session = event.mutate(session)
            if index == 0:
                session.give(judged_by)  # its game events are folded by the rules it is verified with
        except ValueError as error:  # e.g. a reported draw of a card the pile does not hold: the log was edited
            raise Mismatch(position, name, f"The event cannot follow the ones before it: {error}") from None
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            # The one fold of content nothing checked: the effects of an action that drew from a seed not yet
            # revealed are taken as recorded (each is shaped as its type needs, tracker/portability/event_shapes.py), and a
            # game's fold reads the fields its own resolvers write. A change its fold cannot take was not written
            # by them. Anywhere else such an error is a fault of the code, and is not turned into a verdict.
            if not unverified:
                raise
            raise Mismatch(position, name, f"The game's rules cannot fold this change ({type(error).__name__}: {error}); "
                           "its action drew from a seed not yet revealed, so it was taken as recorded, and no resolver records it so") from None
        unverified = False
    if expected:
        raise Mismatch(events[-1].originator_version, type(events[-1]).__name__, "The log ends before the last action's effects")


def _check_values(event: Any, name: str, session: Session | None, ruleset: Ruleset, effect: bool) -> None:
    """The values a command would have refused (tracker/core/inputs.py, tracker/play/party.py), refused in a log too: an import
    re-derives its sessions here, so a file cannot bring in a party, a holder, a count or a text no command takes, and
    a roll's count is bounded before the seed re-rolls it."""
    try:
        if name == "SessionStarted":
            party_rules.check(ruleset, list(event.party), whole=True)
        elif name == "DiceRolled":
            roll = event.roll
            if roll.get("source") == "digital":
                inputs.dice_counts(roll.get("dice") or {}, least=0)
            else:
                inputs.reported_faces(roll.get("results") or {}, least=0)
            # A roll the table asked for (its own command: meta "command" is its position) has the purpose it typed; an
            # action's roll has the one its resolver wrote, with figures' names in it, bounded more widely.
            most = inputs.NAME_LENGTH if _typed(event, effect) else inputs.SAYING_LENGTH
            inputs.optional_text(roll.get("purpose"), "purpose", most, said="roll's purpose", least=0)
        elif name in _DECK_EVENT_NAMES and session is not None and _typed(event, effect):
            # Only a holder the table named: an action's resolver gives cards to figures the party does not list
            # (Journey's rescued Monk Sha), and its effects are re-derived from the action itself.
            party_rules.check_holder(session.party, ruleset, event.change.get("holder"))
        elif name == "OutcomeRuled":
            inputs.text(event.ruling, "ruling", inputs.SAYING_LENGTH, said="ruling")
        elif name == "SessionAbandoned":
            inputs.text(event.reason, "reason", inputs.SAYING_LENGTH, said="reason")
    except Unprocessable as refused:
        raise Mismatch(event.originator_version, name, f"A value no command accepts: {refused.title}") from None


def _typed(event: Any, effect: bool) -> bool:
    """Whether the table gave this event's values in its own command (meta "command" is its own position), rather
    than an action's resolver writing them as an effect."""
    command = (getattr(event, "meta", None) or {}).get("command")
    return command == event.originator_version if command is not None else not effect


def _check_undo(event: Any, earlier: Sequence[Any], before_command: Mapping[int, dict[str, Any]], session: Session) -> None:
    group = undo.last_undoable(earlier)
    if group is None or event.reverses != undo.reverses(group):
        wanted = f"events {group[0].originator_version} to {group[-1].originator_version}" if group else "nothing"
        raise Mismatch(event.originator_version, "ActionUndone", f"The undo names events {event.reverses.get('from')} to {event.reverses.get('to')}, but the last action not undone is {wanted}")
    if event.restored != before_command.get(group[0].originator_version):
        raise Mismatch(event.originator_version, "ActionUndone", "The undo puts back a state that is not the one from before the action")


def with_chain(report: dict[str, Any], chain: dict[str, Any], recorded_head: str | None) -> dict[str, Any]:
    """Add the stored events' hash chain to a report; a break (or a session end the campaign recorded
    differently) is a mismatch, reported if it comes no later than the first re-derivation mismatch."""
    report = {**report, "chain": chain, "recorded_session_head": recorded_head}
    found = None
    if chain["status"] == "broken":
        found = {**chain["break"], "check": "hash chain"}
    elif chain["status"] == "intact" and recorded_head is not None and recorded_head != chain["head"]:
        last = report["checked"]["events"]
        found = {"position": last, "type": "SessionEnded", "check": "hash chain", "reason": "The session's stored events do not end with the event the campaign recorded when the quest ended: the end was changed or removed"}
    elif recorded_head is not None and report.get("seed") is None:  # the seed is revealed by SessionEnded alone
        last = report["checked"]["events"]
        found = {"position": last, "type": "SessionEnded", "check": "hash chain", "reason": "The campaign recorded the end of this quest, but the session's events stop before its SessionEnded: they were cut back"}
    if found is None:
        return report
    current = report.get("first_mismatch")
    if current is None or found["position"] <= current["position"]:
        report["first_mismatch"] = found
    if report.get("status") == "pending":
        report.pop("detail", None)
    report["status"] = "mismatch"
    return report


def _check_expected(event: Any, actual: Mapping[str, Any], expected: list[dict[str, Any]]) -> None:
    want = expected.pop(0)
    if dict(actual) != want:
        raise Mismatch(event.originator_version, type(event).__name__, f"The action resolves to {want}, but the log records {dict(actual)}")


def _check_counter(event: Any, start: int, session: Session) -> None:
    if start != session.counter:
        raise Mismatch(
            event.originator_version,
            type(event).__name__,
            f"Random counter starts at {start} but the previous draw ended at {session.counter}",
        )


def _check_roll(event: Any, session: Session, seed: bytes | None, dice: Mapping[str, Any], report: dict[str, Any]) -> None:
    roll = event.roll
    report["rolls"].append({"position": event.originator_version, **roll})
    if roll["source"] == "reported":
        report["checked"]["reported_rolls"] += 1
        for die_id, faces in roll["results"].items():
            if die_id not in dice or any(face not in dice[die_id].results for face in faces):
                raise Mismatch(event.originator_version, "DiceRolled", f"Reported faces {faces} are not faces of die '{die_id}'")
        return
    report["checked"]["digital_rolls"] += 1
    _check_counter(event, roll["counter_start"], session)
    for die_id, layout in roll["layouts"].items():
        if die_id not in dice or dice[die_id].faces != layout:
            raise Mismatch(event.originator_version, "DiceRolled", f"Die '{die_id}' was rolled with a layout the campaign does not pin")
    try:
        order = roll_order(roll)
    except ValueError as error:
        raise Mismatch(event.originator_version, "DiceRolled", str(error)) from None
    if seed is None:
        return
    stream = RandomStream(seed, roll["counter_start"])
    results = {die_id: [stream.roll(roll["layouts"][die_id]) for _ in range(roll["dice"][die_id])] for die_id in order}
    if results != roll["results"] or stream.counter != roll["counter_end"]:
        raise Mismatch(event.originator_version, "DiceRolled", f"The seed gives {results} at counter {roll['counter_start']}, the log records {roll['results']}")


def _check_deck_change(event: Any, session: Session, seed: bytes | None, report: dict[str, Any]) -> None:
    change = event.change
    state = session.decks.get(change["deck"])
    if state is None:
        raise Mismatch(event.originator_version, type(event).__name__, f"Unknown deck '{change['deck']}'")
    if change["kind"] == "shuffled":
        report["checked"]["shuffles"] += 1
        # The order a shuffle left the pile in is sealed until the seed is revealed (tracker/core/sealing.py).
        shown = change if seed is not None else {key: value for key, value in change.items() if key != "order"}
        report["shuffles"].append({"position": event.originator_version, **shown})
        _check_counter(event, change["counter_start"], session)
        source = list(state["draw"]) + (list(state["discard"]) if change["with_discard"] else [])
        if change.get("input") == "sorted":  # shuffles since sealing take the cards in sorted order
            source = sorted(source)
        if not _shuffled_the_pile(change["before"], source, state["unknown"]):
            raise Mismatch(event.originator_version, "DeckShuffled", "The shuffle started from cards that were not in the pile")
        if seed is not None:
            stream = RandomStream(seed, change["counter_start"])
            order = stream.shuffle(change["before"])
            if order != change.get("order") or stream.counter != change["counter_end"]:  # (a file may drop the order and its seal)
                raise Mismatch(event.originator_version, "DeckShuffled", "The seed gives a different order for this shuffle")
    elif change["kind"] == "drawn" and change["source"] == "digital":
        if seed is None and state["unknown"]:
            return  # the pile's order is sealed and its seed not held here (a public import of a session in play)
        top = state["draw"][: len(change["cards"])]
        if state["needs_shuffle"] or top != change["cards"]:
            raise Mismatch(event.originator_version, "CardsDrawn", f"A digital draw took {change['cards']} but the top of the pile was {top}")


def _shuffled_the_pile(before: Sequence[str], source: Sequence[str], face_down: int | None) -> bool:
    """A shuffle took the pile as it stood. A session imported without its seed (a public export of a session in
    play) holds an earlier shuffle's cards face down, unnamed (tracker/core/decks.py): the shuffle then took the named
    cards and as many others as lie face down."""
    if not face_down:
        return list(before) == list(source)
    return not Counter(source) - Counter(before) and len(before) == len(source) + face_down


def _check_game_draw(event: Any, session: Session, seed: bytes | None, report: dict[str, Any]) -> None:
    """A ruleset's change that drew from the stream (Journey's initiative order) records the draw as a
    shuffle; it is counted and recomputed like any deck's, so both verifiers count the same uses."""
    change = event.change
    shuffle = change.get("shuffle")
    report["checked"]["shuffles"] += 1
    _check_counter(event, change["counter_start"], session)
    if not isinstance(shuffle, Mapping) or shuffle.get("counter_start") != change["counter_start"]:
        raise Mismatch(event.originator_version, type(event).__name__, "The draw does not record what it shuffled")
    # Listed as the deck shuffles are (their order shown once the seed is); its kind, for the ruleset's secret_to.
    shown = {key: value for key, value in shuffle.items() if key != "order" or seed is not None}
    report["shuffles"].append({"position": event.originator_version, "kind": change["kind"], **shown})
    if seed is not None:
        stream = RandomStream(seed, change["counter_start"])
        if stream.shuffle(shuffle["before"]) != shuffle["order"] or stream.counter != change["counter_end"]:
            raise Mismatch(event.originator_version, type(event).__name__, "The seed shuffles this draw into a different order")


def _check_end(event: Any, session: Session) -> None:
    """The stream ended where the session's last use of it did: a digital roll relabelled as reported
    (which carries no counters) would leave the counter short of the one the end recorded."""
    counter_end = getattr(event, "counter_end", None)
    if counter_end is not None and counter_end != session.counter:
        raise Mismatch(
            event.originator_version,
            "SessionEnded",
            f"The session ended with the random counter at {counter_end}, but its recorded draws end at {session.counter}",
        )
    _check_end_against_verdict(event, session)


def _check_end_against_verdict(event: Any, session: Session) -> None:
    """Where the rules decided the quest (a QuestDecided, itself re-derived with the action that caused it), the
    end records their outcome, unless the owner overruled them (OutcomeRuled) or the table abandoned the session."""
    verdict = session.__dict__.get("verdict")
    if verdict is None or event.outcome == ABANDONED or session.__dict__.get("ruling") is not None:
        return
    if event.outcome != verdict["outcome"]:
        raise Mismatch(
            event.originator_version,
            "SessionEnded",
            f"The session ended in {event.outcome}, but the rules decided the quest at event {verdict['position']}: {verdict['outcome']} ({verdict['reason']})",
        )


_validators: dict[int, tuple[Any, jsonschema.Draft202012Validator]] = {}


def _action_errors(schema: dict[str, Any], action: Mapping[str, Any]) -> list[Any]:
    """The action's departures from its type's schema, as the command found them (tracker/application/commands.py); one
    validator per schema, kept with it (a long session re-runs thousands of actions of a few types)."""
    kept = _validators.get(id(schema))
    if kept is None or kept[0] is not schema:
        kept = _validators[id(schema)] = (schema, jsonschema.Draft202012Validator(schema))
    return sorted(kept[1].iter_errors(action), key=lambda error: list(error.absolute_path))


def _rerun_action(event: Any, session: Session, seed: bytes | None, ctx: ActionContext, report: dict[str, Any]) -> list[dict[str, Any]] | None:
    ruleset = ctx.ruleset
    report["checked"]["actions"] += 1
    _check_counter(event, event.counter_start, session)
    try:
        action_type = ruleset.action(event.action.get("type"))
    except TrackerError:
        raise Mismatch(event.originator_version, "ActionTaken", f"The ruleset has no action '{event.action.get('type')}'") from None
    errors = _action_errors(action_type.schema, event.action)
    if errors:  # what the command checked before it resolved: the resolvers read an action of this shape
        raise Mismatch(event.originator_version, "ActionTaken", f"The action does not fit the schema of '{action_type.name}': {errors[0].message}")
    if action_type.random and seed is None:
        return None  # cannot re-resolve before the seed is revealed; its effects are checked one by one
    stream = RandomStream(seed or b"\0", event.counter_start)
    try:
        return [dict(change) for change in ruleset.resolve(ctx, event.action, stream)]
    except TrackerError as error:
        raise Mismatch(event.originator_version, "ActionTaken", f"The action is not legal in the state before it: {error.title}") from None
