#!/usr/bin/env python3
"""Check a campaign export with nothing but Python's standard library.

    python verify_export.py campaign.jsonl

Needs no installed project: download it from the service (GET /verifier.py) or
copy this one file. It recomputes, from the file alone:

- the hash chain: every event's hash, each line's own ``hash`` field, each
  event's ``meta.prev_hash`` against the event before it in its stream, each
  quest end's ``meta.session_head`` against the session's last event (which
  must be its SessionEnded, and a SessionEnded needs its quest's end), and the
  trailer's event count and heads;
- the header's ruleset and components against the pins in the campaign's events;
- every copy of each session's seed: SHA-256(seed) == seed_commitment;
- every digital roll and every shuffle, from the revealed seed, that the random
  counters of a session run on without a gap or a reuse, and that the stream
  ended at the counter SessionEnded records.

It prints a verdict and exits 0 when everything checks ("verified", or
"pending" for sessions still in play, whose seed is not revealed yet), 1 on the
first failure (naming its line, stream and position) and 2 when the file cannot
be read at all. The service's own verification additionally re-runs every
action with the pinned rules; that needs the rules, so it is not done here.

The derivation (the same as tracker/randomness.py, re-implemented here):
block(counter) = HMAC-SHA256(key=seed, msg=counter as 8 bytes big-endian);
uniform(n) takes x = the first 8 bytes of block(counter), big-endian, advances
the counter, and returns x % n if x < 2**64 - (2**64 % n), else tries again;
a die with face layout F rolls F[uniform(len(F))]; a shuffle is Fisher-Yates:
for i from n-1 down to 1, j = uniform(i + 1), swap items i and j.

Event hash: SHA-256, hex, of the canonical JSON (keys sorted, no spaces,
UTF-8, non-ASCII kept) of {"stream", "position", "topic", "state"} taken from
the event's line. The first event of a stream has prev_hash null.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

FORMAT = "campaign-tracker-export"
FORMAT_VERSION = 1
_SPACE = 1 << 64
# The campaign events that record a session's end (and its last hash): played to an outcome, or abandoned.
QUEST_ENDS = ("QuestEnded", "QuestAbandoned")


# -- the derivation ----------------------------------------------------------


def accept(x: int, n: int) -> int | None:
    """x % n, or None (try the next counter) when x lies at or past 2**64 - (2**64 % n)."""
    limit = _SPACE - (_SPACE % n)
    return x % n if x < limit else None


class Stream:
    def __init__(self, seed: bytes, counter: int) -> None:
        self.seed = seed
        self.counter = counter

    def uniform(self, n: int) -> int:
        while True:
            block = hmac.new(self.seed, self.counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self.counter += 1
            outcome = accept(int.from_bytes(block[:8], "big"), n)
            if outcome is not None:
                return outcome

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.uniform(i + 1)
            result[i], result[j] = result[j], result[i]
        return result


def canonical_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def event_hash(event: dict[str, Any]) -> str:
    """The hash of one exported event: what the next event of its stream records as prev_hash."""
    body = {key: event[key] for key in ("stream", "position", "topic", "state")}
    return hashlib.sha256(canonical_json(body)).hexdigest()


def commitment(salt: str, value: Any) -> str:
    """A hidden value's commitment: SHA-256, hex, of the salt's bytes (given as hex) followed by the canonical
    JSON of the value. The event's public form carries it in ``meta.commitments`` in place of the value."""
    return hashlib.sha256(bytes.fromhex(salt) + canonical_json(value)).hexdigest()


def opened_state(event: dict[str, Any]) -> dict[str, Any]:
    """The event's state with the values its line reveals (``opened``: path -> {"salt", "value"}) put back, each
    first checked against the commitment the event's public form recorded for that path (``meta.commitments``)."""
    committed = _commitments(event["state"])
    opened = event.get("opened") or {}
    where = {"line": event.get("line"), "stream": event.get("stream"), "position": event.get("position")}
    if not isinstance(opened, dict) or not isinstance(committed, dict):
        raise Failure("The line's revealed values are not an object of paths", **where)
    state = dict(event["state"])
    for path, opening in opened.items():
        if path not in committed:
            raise Failure(f"The line reveals a value at {path}, which its event did not commit to", **where)
        try:
            matches = commitment(opening["salt"], opening["value"]) == committed[path]
        except (TypeError, ValueError, KeyError):
            matches = False
        if not matches:
            raise Failure(f"The value revealed at {path} does not match the commitment its event recorded", **where)
        state = put_path(state, path, opening["value"])
    return state


def _commitments(state: dict[str, Any]) -> Any:
    meta = state.get("meta")
    return (meta.get("commitments") or {}) if isinstance(meta, dict) else {}


def put_path(state: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``state`` with ``value`` at the dotted ``path`` (object keys), copying only the objects on the way."""
    head, _, rest = path.partition(".")
    inner = state.get(head)
    return {**state, head: put_path(inner if isinstance(inner, dict) else {}, rest, value) if rest else value}


def line_hash(event: dict[str, Any]) -> str:
    """The hash the chain links to. A line that withholds a field (an event stored before sealing, whose
    session is still in play) cannot be hashed by a reader: its recorded hash is taken as given."""
    if event.get("withheld"):
        return event["hash"]
    return event["_hash"] if "_hash" in event else event_hash(event)


# -- reading -----------------------------------------------------------------


class Failure(Exception):
    def __init__(self, reason: str, line: int | None = None, stream: str | None = None, position: int | None = None) -> None:
        super().__init__(reason)
        self.report = {"line": line, "stream": stream, "position": position, "reason": reason}


def event_name(topic: str) -> str:
    return topic.rsplit(".", 1)[-1].rsplit(":", 1)[-1]


# What the checks read of an event's state; ``parse(..., slim=True)`` keeps only these (and a change that drew
# from the stream), with each event's hash computed first, so a large file is checked in less memory.
_CHECKED = ("meta", "session_id", "seed_commitment", "seed", "counter_start", "counter_end", "roll", "ruleset", "components", "components_hash")


def _slim(topic: str, state: dict[str, Any]) -> dict[str, Any]:
    kept = {key: state[key] for key in _CHECKED if key in state}
    change = state.get("change")
    if isinstance(change, dict) and (event_name(topic) == "DeckShuffled" or "counter_start" in change):
        kept["change"] = change
    return kept


def parse(
    lines: Iterable[str], loads: Callable[[str], Any] = json.loads, slim: bool = False
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """Header, events (each with its line number) and trailer; Failure names the first line that is not right."""
    header: dict[str, Any] | None = None
    trailer: dict[str, Any] | None = None
    events: list[dict[str, Any]] = []
    number = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if trailer is not None:
            raise Failure("There are lines after the trailer", line=number)
        try:
            item = loads(line)
        except ValueError as error:
            raise Failure(f"Line {number} is not JSON ({error.msg}): the file is damaged or cut short", line=number) from None
        if not isinstance(item, dict) or len(item) != 1:
            raise Failure(f"Line {number} is not a header, event or trailer", line=number)
        kind, value = next(iter(item.items()))
        if kind == "header" and header is None and number == 1:
            header = value
        elif kind == "event" and header is not None:
            _check_event_shape(value, number)
            record = {**value, "line": number}
            record.pop("_hash", None)  # only ever the hash computed here, never one the file brings
            record.pop("_unopened", None)
            _open(record)
            if slim:
                record["_hash"] = line_hash(record)
                record["state"] = _slim(record["topic"], record["state"])
            events.append(record)
        elif kind == "trailer" and header is not None:
            trailer = value
        else:
            raise Failure(f"Line {number} is a '{kind}' where it does not belong", line=number)
    if header is None:
        raise Failure("The file has no header line", line=1)
    if header.get("format") != FORMAT or header.get("format_version") != FORMAT_VERSION:
        raise Failure(f"Not a {FORMAT} file of format version {FORMAT_VERSION}", line=1)
    if trailer is None:
        raise Failure("The file ends before its trailer: it was cut short", line=number + 1)
    return header, events, trailer


def _open(record: dict[str, Any]) -> None:
    """Hash the line as it is (its public form), then check and put back the hidden values it reveals, for the
    checks that need them; a value it leaves committed is noted, and its session's draws are not recomputed."""
    committed = _commitments(record["state"])
    if not committed and "opened" not in record:
        return
    record["_hash"] = line_hash(record)
    record["state"] = opened_state(record)
    if set(committed or ()) - set(record.get("opened") or ()):
        record["_unopened"] = True


def _check_event_shape(event: Any, line: int) -> None:
    if not isinstance(event, dict):
        raise Failure("An event line holds no event", line=line)
    if not isinstance(event.get("stream"), str) or not isinstance(event.get("position"), int):
        raise Failure("An event lacks its stream or position", line=line)
    if not isinstance(event.get("topic"), str) or not isinstance(event.get("state"), dict):
        raise Failure("An event lacks its topic or state", line=line, stream=event.get("stream"), position=event.get("position"))


# -- checking ----------------------------------------------------------------


def blame(hashes: Sequence[str], prevs: Sequence[Any], index: int) -> int:
    """Which event to name when event ``index`` does not record the hash of event ``index - 1``.

    If the next event still links to this one, this one is as it was saved, so its predecessor
    changed; if this one records the hash of another event of the stream, it was moved there;
    otherwise this one changed (its recorded previous hash is part of its own content).
    """
    if index + 1 < len(hashes):
        return index - 1 if prevs[index + 1] == hashes[index] else index
    return index if prevs[index] in hashes else index - 1


def chain_break(stream: Sequence[dict[str, Any]]) -> tuple[int, str] | None:
    """The first break of one stream's chain: (index into ``stream`` of the event to name, reason)."""
    hashes = [line_hash(event) for event in stream]
    prevs = [(event["state"].get("meta") or {}).get("prev_hash", "absent") for event in stream]
    for index, event in enumerate(stream):
        if event["position"] != index + 1:
            return index, f"Event {index + 1} is missing, or events were inserted or reordered (found event {event['position']} in its place)"
        if prevs[index] == "absent":
            return index, "The event records no prev_hash: it is not part of a hash chain"
        wanted = hashes[index - 1] if index else None
        if prevs[index] != wanted:
            if index == 0:
                return 0, "The first event of the stream records a previous hash"
            named = blame(hashes, prevs, index)
            return named, f"Event {named + 1} is not the event that was saved there: the chain breaks between events {index} and {index + 1}"
    return None


def check_chain(events: Sequence[dict[str, Any]], trailer: dict[str, Any]) -> dict[str, str]:
    """Positions run 1, 2, 3... per stream and each event records its predecessor's hash; returns the heads."""
    streams: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        streams.setdefault(event["stream"], []).append(event)
    failures = []
    for stream, stream_events in streams.items():
        found = chain_break(stream_events)
        if found:
            index, reason = found
            event = stream_events[index]
            failures.append(Failure(reason, line=event["line"], stream=stream, position=index + 1))
    if failures:
        raise min(failures, key=lambda failure: failure.report["line"])
    heads = {stream: line_hash(stream_events[-1]) for stream, stream_events in streams.items()}
    for event in events:
        session_head = (event["state"].get("meta") or {}).get("session_head")
        session = event["state"].get("session_id")
        if session_head is None or session not in streams:
            continue
        hashes = [line_hash(e) for e in streams[session]]
        # A quest's end records the session's last event; its start, the session's set-up.
        ended = event_name(event["topic"]) in QUEST_ENDS
        last = streams[session][-1]
        if session_head not in hashes or (ended and session_head != hashes[-1]):
            raise Failure(
                f"The campaign recorded a last event of session {session} (at line {event['line']}) that the session does not have: it was changed or cut",
                line=last["line"],
                stream=session,
                position=last["position"],
            )
        if ended and event_name(last["topic"]) != "SessionEnded":
            # Cut back and re-hashed, an ended session would pass for one still in play.
            raise Failure(
                f"The campaign recorded the end of session {session} (at line {event['line']}), but the session's events stop before its SessionEnded: it was cut back",
                line=last["line"],
                stream=session,
                position=last["position"],
            )
    ended_quests = {event["state"].get("session_id") for event in events if event_name(event["topic"]) in QUEST_ENDS}
    for session, stream_events in streams.items():
        last = stream_events[-1]
        if event_name(last["topic"]) == "SessionEnded" and session not in ended_quests:
            # The campaign's QuestEnded is saved with the session's end: without it the file says both
            # that the session ended and that its quest is still being played.
            raise Failure(
                f"Session {session} ended, but the campaign records no end of its quest: the campaign's record of it was removed",
                line=last["line"],
                stream=session,
                position=last["position"],
            )
    if trailer.get("events") != len(events):
        raise Failure(f"The trailer counts {trailer.get('events')} events but the file holds {len(events)}")
    if trailer.get("heads") != heads:
        raise Failure("The trailer's head hashes differ from the events: an event was changed, added or removed at the end of a stream")
    return heads


def check_line_hashes(events: Sequence[dict[str, Any]]) -> None:
    """Each line's ``hash`` is the hash of its event: a reader taking it on trust is not misled."""
    for event in events:
        if event.get("hash") != line_hash(event):  # a withheld line's hash is taken as given
            raise Failure("The line's hash field is not the hash of its event", line=event["line"], stream=event["stream"], position=event["position"])


def merge_components(known: dict[str, Any], supplied: dict[str, Any], path: str = "components") -> dict[str, Any]:
    """What ComponentsSupplied does to the campaign's component data: objects merge key by key, and a
    value the campaign already holds is never replaced (the service refuses such a supplement)."""
    merged = dict(known)
    for key, value in supplied.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_components(merged[key], value, f"{path}.{key}")
        elif key in merged:
            raise ValueError(f"Component data replaces {path}.{key}, which was pinned already")
        else:
            merged[key] = value
    return merged


def components_hash(components: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical_json(components)).hexdigest()


def check_header(header: dict[str, Any], events: Sequence[dict[str, Any]]) -> None:
    """The header's ruleset and components are what the campaign's own (hash-chained) events pin:
    CampaignCreated's components, merged with each ComponentsSupplied, each step matching its hash."""
    campaign = [event for event in events if event["stream"] == header.get("campaign_id")]
    if not campaign or event_name(campaign[0]["topic"]) != "CampaignCreated":
        raise Failure("The file holds no event creating the campaign its header names", line=1)
    created = campaign[0]["state"]
    if header.get("ruleset") != created.get("ruleset"):
        raise Failure("The header's ruleset is not the one the campaign pinned when it was created", line=1)
    components = created.get("components")
    for event in campaign:
        where = {"line": event["line"], "stream": event["stream"], "position": event["position"]}
        state = event["state"]
        if event is not campaign[0]:
            if event_name(event["topic"]) != "ComponentsSupplied":
                continue
            try:
                components = merge_components(components, state.get("components") or {})
            except ValueError as error:
                raise Failure(str(error), **where) from None
        if state.get("components_hash") != components_hash(components):
            raise Failure("The campaign's component data does not hash to the pin recorded with it", **where)
        pin = state["components_hash"]
    if header.get("components") != components or header.get("components_hash") != pin:
        raise Failure("The header's components are not the ones the campaign's events pin", line=1)


def check_randomness(events: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per session: the seed against its commitment, every digital roll and shuffle, counters without gaps."""
    sessions: dict[str, dict[str, Any]] = {}
    for event in events:
        name, state = event_name(event["topic"]), event["state"]
        if name == "SessionStarted":
            sessions[event["stream"]] = {"commitment": state["seed_commitment"], "started": event, "events": []}
        elif event["stream"] in sessions:
            sessions[event["stream"]]["events"].append(event)
    verdicts: dict[str, dict[str, Any]] = {}
    for stream, session in sessions.items():
        verdicts[stream] = _check_session(stream, session)
    return verdicts


def check_seed_copies(stream: str, commitment: str, events: Sequence[dict[str, Any]]) -> bytes | None:
    """Every copy of the seed in the file hashes to the commitment, the start's own copy too (a session in
    play carries on from it after an import); returns the seed SessionEnded revealed, if it did."""
    revealed = None
    for event in events:
        name = event_name(event["topic"])
        if name not in ("SessionStarted", "SessionEnded"):
            continue
        # In the state (revealed, or an event stored before sealing), or among a backup's sealed values.
        for copy in (event["state"].get("seed"), (event.get("sealed") or {}).get("seed")):
            if copy is None:
                continue
            try:
                seed = bytes.fromhex(copy)
            except (TypeError, ValueError):
                seed = None
            if seed is None or hashlib.sha256(seed).hexdigest() != commitment:
                raise Failure(f"The seed {name} records does not hash to the session's commitment", line=event["line"], stream=stream, position=event["position"])
            if name == "SessionEnded":
                revealed = seed
    return revealed


def roll_order(roll: dict[str, Any]) -> list[str]:
    """The dice in the order they drew from the stream: the roll's ``order`` list, since a rewrite of the
    file with sorted keys must not reorder them; rolls recorded before it had only the key order of ``dice``."""
    order = roll.get("order")
    if order is None:
        return list(roll["dice"])
    if not isinstance(order, list) or sorted(order) != sorted(roll["dice"]):
        raise ValueError(f"The roll's order {order} does not list the dice rolled, {sorted(roll['dice'])}")
    return order


def _check_session(stream: str, session: dict[str, Any]) -> dict[str, Any]:
    seed = check_seed_copies(stream, session["commitment"], [session["started"], *session["events"]])
    counter = 0
    checked = {"digital_rolls": 0, "shuffles": 0}
    if any(event.get("_unopened") for event in session["events"]):
        return {"status": "pending", "checked": checked}  # a value the file keeps hidden: its draws cannot be followed
    for event in session["events"]:
        name, state = event_name(event["topic"]), event["state"]
        where = {"line": event["line"], "stream": stream, "position": event["position"]}
        if name == "ActionTaken":
            if state["counter_start"] != counter:
                raise Failure(f"The action starts at random counter {state['counter_start']}, not {counter}", **where)
        elif name == "DiceRolled" and state["roll"]["source"] == "digital":
            roll = state["roll"]
            if roll["counter_start"] != counter:
                raise Failure(f"The roll starts at random counter {roll['counter_start']}, not {counter}", **where)
            try:
                order = roll_order(roll)
            except ValueError as error:
                raise Failure(str(error), **where) from None
            if seed is not None:
                rng = Stream(seed, counter)
                results = {}
                for die in order:  # each die draws from the counter in turn
                    layout = roll["layouts"][die]
                    results[die] = [layout[rng.uniform(len(layout))] for _ in range(roll["dice"][die])]
                if results != roll["results"] or rng.counter != roll["counter_end"]:
                    raise Failure(f"The seed rolls {results}, the file records {roll['results']}", **where)
            counter = roll["counter_end"]
            checked["digital_rolls"] += 1
        elif name == "DeckShuffled":
            change = state["change"]
            if change["counter_start"] != counter:
                raise Failure(f"The shuffle starts at random counter {change['counter_start']}, not {counter}", **where)
            if seed is not None:
                # The order is sealed (absent) in exports: the seed gives it; an order present must agree.
                rng = Stream(seed, counter)
                order = rng.shuffle(change["before"])
                if order != change.get("order", order) or rng.counter != change["counter_end"]:
                    raise Failure("The seed shuffles the cards into a different order", **where)
            counter = change["counter_end"]
            checked["shuffles"] += 1
        elif isinstance(state.get("change"), dict) and "counter_start" in state["change"]:
            # A ruleset's own change that drew from the stream records the draw as a shuffle
            # (before, order, counters), so it is recomputed like any other.
            change = state["change"]
            if change["counter_start"] != counter:
                raise Failure(f"The {name} draw starts at random counter {change['counter_start']}, not {counter}", **where)
            shuffle = change.get("shuffle")
            if not isinstance(shuffle, dict) or shuffle.get("counter_start") != change["counter_start"]:
                raise Failure(f"The {name} draw does not record what it shuffled", **where)
            if seed is not None:
                rng = Stream(seed, counter)
                if rng.shuffle(shuffle["before"]) != shuffle["order"] or rng.counter != change["counter_end"]:
                    raise Failure(f"The seed shuffles the {name} draw into a different order", **where)
            counter = change["counter_end"]
            checked["shuffles"] += 1
        elif name == "SessionEnded" and state.get("counter_end") not in (None, counter):
            # Absent in sessions ended before it was recorded. Without it a last digital roll could be
            # relabelled as reported (no counters) and nothing after it would show the counters skipped.
            raise Failure(f"The session ended with the random counter at {state['counter_end']}, but its recorded draws end at {counter}", **where)
    return {"status": "verified" if seed is not None else "pending", "checked": checked}


def verify_lines(lines: Iterable[str], loads: Callable[[str], Any] = json.loads) -> dict[str, Any]:
    """The whole check; returns a report with status "verified", "pending" or "failed" (with the first failure)."""
    try:
        header, events, trailer = parse(lines, loads, slim=True)
        heads = check_chain(events, trailer)
        check_line_hashes(events)
        check_header(header, events)
        sessions = check_randomness(events)
    except Failure as failure:
        return {"status": "failed", "failure": failure.report}
    pending = [stream for stream, verdict in sessions.items() if verdict["status"] == "pending"]
    return {
        "status": "pending" if pending else "verified",
        "campaign": header.get("campaign_id"),
        "ruleset": header.get("ruleset"),
        "events": len(events),
        "sessions": sessions,
        "heads": heads,
        "failure": None,
    }


def main(argv: Sequence[str]) -> int:
    if len(argv) != 2:
        print("usage: python verify_export.py campaign.jsonl", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            report = verify_lines(f)
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {argv[1]}: {error}", file=sys.stderr)
        return 2
    if report["status"] == "failed":
        failure = report["failure"]
        where = ", ".join(f"{key} {failure[key]}" for key in ("line", "stream", "position") if failure[key] is not None)
        print(f"FAILED: {failure['reason']}" + (f" ({where})" if where else ""))
        return 1
    print(f"{report['status'].upper()}: {report['events']} events, hash chain intact")
    for stream, verdict in report["sessions"].items():
        counts = verdict["checked"]
        print(f"  session {stream}: {verdict['status']} ({counts['digital_rolls']} digital rolls, {counts['shuffles']} shuffles recomputed)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
