#!/usr/bin/env python3
"""Check a campaign export with nothing but Python's standard library.

    python verify_export.py campaign.jsonl [--jwks jwks.json] [--receipt receipt.json ...] [--allow-unsigned]

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
  ended at the counter SessionEnded records; in a backup, every sealed shuffle
  order, and a session in play's rolls and shuffles with the seed it carries;
- the rules' verdicts as the file records them (QuestDecided): each session's end
  and the campaign's QuestEnded give that outcome, unless a ruling or an abandon;
- then the trailer's Ed25519 signature (over the campaign id, the header's hash and every head)
  against trusted keys: a saved copy of the service's key set (--jwks), else the set fetched from
  the service the header names (a key inside the file is never trusted); and each receipt given
  (--receipt: the service's signed record of a session's start or end) against the file.

It prints the keys it trusted and a verdict, and exits 0 when everything checks
("verified", or "pending" for sessions still in play, whose seed is not revealed
yet), 1 on the first failure (naming its line, stream and position) and 2 when
the file, the key set or a receipt cannot be read at all. The service's own verification additionally re-runs every
action with the pinned rules; that needs the rules, so it is not done here.

The derivation (the same as tracker/core/randomness.py, re-implemented here):
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

import argparse
import base64
import hashlib
import hmac
import json
import sys
import tempfile
import urllib.request
from array import array
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


class Located(dict):
    """The trailer as the file holds it, remembering its line so a failure of its signature can name it."""

    def __init__(self, value: dict[str, Any], line: int) -> None:
        super().__init__(value)
        self.line = line


def event_name(topic: str) -> str:
    return topic.rsplit(".", 1)[-1].rsplit(":", 1)[-1]


def parse(lines: Iterable[str], loads: Callable[[str], Any], check: FileCheck) -> tuple[dict[str, Any], dict[str, Any]]:
    """Header and trailer; each event (with its line number and hash) is handed to ``check`` as it is read, and
    not kept. Failure names the first line that is not right."""
    header: dict[str, Any] | None = None
    trailer: dict[str, Any] | None = None
    number = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if trailer is not None:
            raise Failure("There are lines after the trailer", line=number)
        kind, value = _item(line, number, loads)
        if kind == "header" and header is None and number == 1:
            if not isinstance(value, dict):
                raise Failure("The header line holds no header", line=number)
            header = check.header = value
        elif kind == "event" and header is not None:
            check.add(_event_record(value, number))
        elif kind == "trailer" and header is not None:
            if not isinstance(value, dict):
                raise Failure("The trailer line holds no trailer", line=number)
            trailer = Located(value, number)
        else:
            raise Failure(f"Line {number} is a '{kind}' where it does not belong", line=number)
    if header is None:
        raise Failure("The file has no header line", line=1)
    if header.get("format") != FORMAT or header.get("format_version") != FORMAT_VERSION:
        raise Failure(f"Not a {FORMAT} file of format version {FORMAT_VERSION}", line=1)
    if trailer is None:
        raise Failure("The file ends before its trailer: it was cut short", line=number + 1)
    return header, trailer


def _item(line: str, number: int, loads: Callable[[str], Any]) -> tuple[str, Any]:
    """One line's kind (header, event, trailer) and value."""
    try:
        item = loads(line)
    except ValueError as error:
        raise Failure(f"Line {number} is not JSON ({getattr(error, 'msg', error)}): the file is damaged or cut short", line=number) from None
    except RecursionError:  # json.loads recurses once per level: no export nests near Python's limit
        raise Failure(f"Line {number} nests deeper than any export does", line=number) from None
    if not isinstance(item, dict) or len(item) != 1:
        raise Failure(f"Line {number} is not a header, event or trailer", line=number)
    return next(iter(item.items()))


def _event_record(value: Any, number: int) -> dict[str, Any]:
    """An event line's event, checked for the fields the checks read, with its line number and hash (``_hash``, of its
    public form) and the values it reveals put back."""
    _check_event_shape(value, number)
    _check_fields(value, number)
    record = {**value, "line": number}
    record.pop("_hash", None)  # only ever the hash computed here, never one the file brings
    record.pop("_unopened", None)
    _open(record)
    if "opened" in record:  # the values it revealed, read as the checks read them
        _check_fields(record, number)
    if "_hash" not in record:
        try:
            record["_hash"] = line_hash(record)
        except UnicodeEncodeError:  # a lone surrogate (\ud800) is JSON, but no UTF-8 text: nothing hashes it
            raise Failure("The event holds text that is not Unicode", line=number, stream=record["stream"], position=record["position"]) from None
    return record


def revealed_seeds(lines: Iterable[str], loads: Callable[[str], Any]) -> dict[str, bytes]:
    """A first reading of the file: the seed each session's SessionEnded reveals (the last copy, as the check of
    the seed copies takes it), so that the one reading that checks everything recomputes each roll and shuffle as
    it reads it. Only the lines that may hold a SessionEnded are decoded (its name, or a \\u escape that could spell
    it); a line that does not read is left to that reading, which names it."""
    seeds: dict[str, bytes] = {}
    for number, line in enumerate(lines, start=1):
        if "SessionEnded" not in line and "\\u" not in line:
            continue
        try:
            kind, value = _item(line, number, loads)
            record = _event_record(value, number) if kind == "event" else None
        except Failure:
            continue
        if record is None or event_name(record["topic"]) != "SessionEnded":
            continue
        for copy in (record["state"].get("seed"), (record.get("sealed") or {}).get("seed")):
            try:
                seeds[record["stream"]] = bytes.fromhex(copy)
            except (TypeError, ValueError):
                continue  # not a seed: the check of the seed copies says so
    return seeds


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
    if not isinstance(event.get("stream"), str) or not _is_count(event.get("position")):
        raise Failure("An event lacks its stream or position", line=line)
    if not isinstance(event.get("topic"), str) or not isinstance(event.get("state"), dict):
        raise Failure("An event lacks its topic or state", line=line, stream=event.get("stream"), position=event.get("position"))


def _is_count(value: Any) -> bool:
    """A position or a random counter: a whole number from 0 (not a bool, which JSON keeps apart), below 2**64."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _SPACE


def _is_list_of(value: Any, kind: type) -> bool:
    return isinstance(value, list) and all(isinstance(item, kind) for item in value)


def _field_problem(name: str, state: dict[str, Any]) -> str | None:
    """What is wrong with the fields the checks below read of one event (None: nothing). A file is anyone's to
    edit, so each is read in the type the checks need before any check reads it: a topic swapped for another
    event's, a field dropped or retyped, is then a failure naming the line, never a crash."""
    meta = state.get("meta")
    if meta is not None and not isinstance(meta, dict):
        return "its meta is not an object"
    meta = meta or {}
    if "commitments" in meta and not isinstance(meta["commitments"], dict):
        return "its commitments are not an object of paths"
    # A value committed to and not revealed on this line (a side's secret in play) is absent by design: what the
    # checks read of it is checked once a line reveals it (parse checks an opened event again).
    hidden = {path for path in (meta.get("commitments") or {}) if path not in state}
    if "change" in hidden or "roll" in hidden:
        return None
    if meta.get("prev_hash") is not None and not isinstance(meta["prev_hash"], str):
        return "its prev_hash is not a hash"
    if "session_head" in meta and not isinstance(meta["session_head"], str):
        return "its session_head is not a hash"
    if "sealed" in meta and not _is_list_of(meta["sealed"], str):
        return "its list of sealed fields is not a list of paths"
    if "session_id" in state and not isinstance(state["session_id"], str):
        return "its session_id is not a session's id"
    for key in ("seed", "seed_commitment", "components_hash"):
        if state.get(key) is not None and not isinstance(state[key], str):
            return f"its {key} is not text"
    if name == "SessionStarted" and not isinstance(state.get("seed_commitment"), str):
        return "a session's start records no seed commitment"
    if name in ("CampaignCreated", "ComponentsSupplied") and not isinstance(state.get("components"), dict):
        return "it records no component data"
    if name == "ActionTaken" and "counter_start" not in hidden and not _is_count(state.get("counter_start")):
        return "an action records no random counter it starts at"
    if name == "SessionEnded" and state.get("counter_end") is not None and not _is_count(state["counter_end"]):
        return "a session's end records a random counter that is not a count"
    if name == "DiceRolled":
        return _roll_problem(state.get("roll"))
    change = state.get("change")
    if name == "DeckShuffled":
        if not isinstance(change, dict) or not _is_list_of(change.get("before"), str):
            return "a shuffle records no cards it shuffled"
        if not (_is_count(change.get("counter_start")) and _is_count(change.get("counter_end"))):
            return "a shuffle records no random counters"
        if "order" in change and not _is_list_of(change["order"], str):
            return "a shuffle's order is not a list of cards"
    elif isinstance(change, dict) and "counter_start" in change:
        shuffle = change.get("shuffle")
        if not (_is_count(change["counter_start"]) and _is_count(change.get("counter_end"))):
            return f"the {name} draw records random counters that are not counts"
        if isinstance(shuffle, dict) and not (isinstance(shuffle.get("before"), list) and isinstance(shuffle.get("order"), list)):
            return f"the {name} draw does not record the order it shuffled into"
    return None


def _roll_problem(roll: Any) -> str | None:
    if not isinstance(roll, dict) or roll.get("source") not in ("digital", "reported"):
        return "a roll records no roll (digital or reported)"
    if roll["source"] == "reported":
        return None
    dice, layouts, results = roll.get("dice"), roll.get("layouts"), roll.get("results")
    if not (_is_count(roll.get("counter_start")) and _is_count(roll.get("counter_end"))):
        return "a digital roll records no random counters"
    if not isinstance(dice, dict) or not isinstance(layouts, dict) or not isinstance(results, dict):
        return "a digital roll records no dice, layouts or results"
    for die, count in dice.items():
        if not _is_count(count) or not isinstance(layouts.get(die), list) or not layouts[die]:
            return f"a digital roll records no count or face layout of die {die!r}"
        if not isinstance(results.get(die), list) or len(results[die]) != count:
            return f"a digital roll records {count} dice of {die!r} but not as many results"
    if roll.get("order") is not None and not _is_list_of(roll["order"], str):
        return "a digital roll's order is not a list of dice"
    return None


def _check_fields(event: dict[str, Any], line: int) -> None:
    where = {"line": line, "stream": event["stream"], "position": event["position"]}
    if event.get("sealed") is not None and not isinstance(event["sealed"], dict):
        raise Failure("The line's sealed values are not an object", **where)
    if event.get("withheld") and not isinstance(event.get("hash"), str):
        raise Failure("The line withholds a field but carries no hash of its event", **where)
    name = event_name(event["topic"])
    if (name in ("CampaignCreated", "SessionStarted")) != (event["position"] == 1):
        raise Failure(f"A stream starts with its {name}, and only its first event does: found {name} at position {event['position']}", **where)
    problem = _field_problem(name, event["state"])
    if problem:
        raise Failure(f"The event cannot be checked: {problem}", **where)


# -- checking ----------------------------------------------------------------
#
# Every check reads the file one event at a time (``FileCheck.add``, as ``parse`` reads each line) and keeps only
# what later events and the file's end need: each stream's hashes and line numbers, its random counter, the
# campaign's component data, what each session and quest ended as. No event is kept, so a file of any length is
# checked in memory that grows by a few dozen bytes an event. Each check keeps its first failure; they are reported
# in the order the checks were made one after the other over the whole file (the hash chain, the lines' hashes,
# the header, the randomness, the ends), so a file breaking several is refused for the same one as before.


class Hashes:
    """One stream's event hashes in position order, 32 bytes each (a list of hex strings took four times as much).
    A hash as a withheld line gives it (taken on trust, so maybe not a SHA-256 in hex) is kept aside as given."""

    def __init__(self) -> None:
        self.packed = bytearray()
        self.given: dict[int, str] = {}

    def append(self, hex_hash: str) -> None:
        packed = _packed(hex_hash)
        if packed is None:
            self.given[len(self)] = hex_hash
            packed = bytes(32)
        self.packed += packed

    def __len__(self) -> int:
        return len(self.packed) // 32

    def __getitem__(self, index: int) -> str:
        index = index + len(self) if index < 0 else index
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.given[index] if index in self.given else self.packed[32 * index : 32 * index + 32].hex()

    def __contains__(self, value: Any) -> bool:
        if not isinstance(value, str):
            return False
        if value in self.given.values():
            return True
        packed = _packed(value)
        at = self.packed.find(packed) if packed is not None else -1
        while at >= 0:
            if at % 32 == 0 and at // 32 not in self.given:
                return True
            at = self.packed.find(packed, at + 1)
        return False


def _packed(hex_hash: str) -> bytes | None:
    try:
        packed = bytes.fromhex(hex_hash)
    except (TypeError, ValueError):
        return None
    return packed if len(packed) == 32 and packed.hex() == hex_hash else None


class Chain:
    """What the checks keep of one stream: its hashes and lines, its chain's first break, its first and last event."""

    def __init__(self, stream: str) -> None:
        self.stream = stream
        self.hashes = Hashes()
        self.lines = array("Q")
        self.pending: tuple[int, Any] | None = None  # a break at this index, named once the next event (or none) shows where
        self.broken: Failure | None = None
        self.first_commitment: Any = None
        self.last: dict[str, Any] = {}

    def where(self, index: int) -> dict[str, Any]:
        return {"line": self.lines[index], "stream": self.stream, "position": index + 1}

    def add(self, event: dict[str, Any], name: str) -> None:
        """Positions run 1, 2, 3... and each event records its predecessor's hash. At a break, which event to name:
        if the next event still links to this one, this one is as it was saved, so its predecessor changed; if this
        one records the hash of another event of the stream, it was moved there; otherwise this one changed (its
        recorded previous hash is part of its own content)."""
        index = len(self.hashes)
        self.hashes.append(line_hash(event))
        self.lines.append(event["line"])
        state = event["state"]
        if index == 0:
            self.first_commitment = state.get("seed_commitment")
        self.last = {"name": name, "line": event["line"], "position": event["position"], "outcome": state.get("outcome"), "counter_end": state.get("counter_end")}
        if self.broken is not None:
            return
        prev = (state.get("meta") or {}).get("prev_hash", "absent")
        if self.pending is not None:
            broken_at = self.pending[0]
            self._break(broken_at - 1 if prev == self.hashes[broken_at] else broken_at, broken_at)
        elif event["position"] != index + 1:
            self.broken = Failure(f"Event {index + 1} is missing, or events were inserted or reordered (found event {event['position']} in its place)", **self.where(index))
        elif prev == "absent":
            self.broken = Failure("The event records no prev_hash: it is not part of a hash chain", **self.where(index))
        elif prev != (self.hashes[index - 1] if index else None):
            if index == 0:
                self.broken = Failure("The first event of the stream records a previous hash", **self.where(index))
            else:
                self.pending = (index, prev)

    def finish(self) -> Failure | None:
        if self.pending is not None and self.broken is None:
            broken_at, prev = self.pending
            self._break(broken_at if prev in self.hashes else broken_at - 1, broken_at)
        return self.broken

    def _break(self, named: int, index: int) -> None:
        self.pending = None
        self.broken = Failure(f"Event {named + 1} is not the event that was saved there: the chain breaks between events {index} and {index + 1}", **self.where(named))


def chain_break(stream: Sequence[dict[str, Any]]) -> tuple[int, str] | None:
    """The first break of one stream's chain, its events given in a list: (index of the event to name, reason)."""
    chain = Chain("")
    for index, event in enumerate(stream):
        chain.add({**event, "line": index + 1}, event_name(event["topic"]))
        if chain.broken is not None:
            break
    broken = chain.finish()
    return None if broken is None else (broken.report["position"] - 1, broken.report["reason"])


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


def carried_seed(started: dict[str, Any]) -> bytes | None:
    """The seed a backup carries for a session in play (SessionStarted's sealed ``seed``), or one kept in the event
    (stored before sealing). check_seed_copies has checked it against the commitment: it is the seed the session
    rolls from, so every digital roll and shuffle so far (and every sealed order) is checked with it."""
    copy = (started.get("sealed") or {}).get("seed") or started["state"].get("seed")
    return bytes.fromhex(copy) if isinstance(copy, str) else None


def sealed_order(event: dict[str, Any]) -> Any:
    """A shuffle's order as the file records it: in the state (never in an export), else a backup's sealed value."""
    change = event["state"]["change"]
    return change["order"] if "order" in change else (event.get("sealed") or {}).get("change.order")


class SessionDraws:
    """One session's randomness: the seed against its commitment, every digital roll and shuffle recomputed, the
    counters running on without gaps. ``seed``: the one its SessionEnded reveals (``revealed_seeds``), if any."""

    def __init__(self, started: dict[str, Any], seed: bytes | None) -> None:
        self.stream, self.commitment = started["stream"], started["state"]["seed_commitment"]
        self.seed_failure: Failure | None = None
        self.revealed: bytes | None = None
        self.copies(started)
        self.expected = seed
        self.seed = seed or (carried_seed(started) if self.seed_failure is None else None)
        self.unopened = False  # a value the file keeps hidden: the session's draws cannot be followed
        self.failure: Failure | None = None
        self.counter = 0
        self.checked = {"digital_rolls": 0, "shuffles": 0}

    def copies(self, event: dict[str, Any]) -> None:
        if self.seed_failure is not None:
            return
        try:
            revealed = check_seed_copies(self.stream, self.commitment, [event])
        except Failure as failure:
            self.seed_failure = failure
            return
        if revealed is not None:
            self.revealed = revealed

    def add(self, event: dict[str, Any], name: str) -> None:
        self.copies(event)
        self.unopened = self.unopened or bool(event.get("_unopened"))
        if self.unopened or self.failure is not None:
            return
        try:
            self._draws(event, name)
        except Failure as failure:
            self.failure = failure

    def _draws(self, event: dict[str, Any], name: str) -> None:
        state, seed, counter = event["state"], self.seed, self.counter
        where = {"line": event["line"], "stream": self.stream, "position": event["position"]}
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
            self.counter = roll["counter_end"]
            self.checked["digital_rolls"] += 1
        elif name == "DeckShuffled":
            change = state["change"]
            if change["counter_start"] != counter:
                raise Failure(f"The shuffle starts at random counter {change['counter_start']}, not {counter}", **where)
            if seed is not None:
                # The order is sealed (absent) in exports: the seed gives it; an order present must agree.
                rng = Stream(seed, counter)
                order = rng.shuffle(change["before"])
                recorded = sealed_order(event)
                if (recorded is not None and recorded != order) or rng.counter != change["counter_end"]:
                    raise Failure("The seed shuffles the cards into a different order", **where)
            self.counter = change["counter_end"]
            self.checked["shuffles"] += 1
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
            self.counter = change["counter_end"]
            self.checked["shuffles"] += 1
        elif name == "SessionEnded" and state.get("counter_end") not in (None, counter):
            # Absent in sessions ended before it was recorded. Without it a last digital roll could be
            # relabelled as reported (no counters) and nothing after it would show the counters skipped.
            raise Failure(f"The session ended with the random counter at {state['counter_end']}, but its recorded draws end at {counter}", **where)

    def verdict(self) -> dict[str, Any]:
        if self.seed_failure is not None:
            raise self.seed_failure
        if self.unopened:
            return {"status": "pending", "checked": {"digital_rolls": 0, "shuffles": 0}}
        if self.failure is not None:
            raise self.failure
        if self.revealed != self.expected:  # the first reading found another seed than this one: never, unless a bug
            raise Failure("The seed the session's end reveals is not the one a first reading of the file found", stream=self.stream)
        revealed = self.revealed
        # A session in play stays pending (its seed is not revealed) even when a backup's seed checked its rolls.
        return {"status": "verified" if revealed is not None else "pending", "checked": self.checked,
                "seed": "revealed" if revealed is not None else "carried by the backup" if self.seed is not None else None}


# What a SessionEnded records for a session the table stopped without an outcome (after its SessionAbandoned).
ABANDONED = "abandoned"


class FileCheck:
    """The whole file's checks, fed one event at a time (``add``), then judged at its end (``finish``):

    - the hash chain: each stream's positions and links; each quest end's ``meta.session_head`` against the
      session's last event (which must be its SessionEnded), and a SessionEnded needs its quest's end; the trailer's
      count and heads;
    - each line's ``hash`` is the hash of its event, so a reader taking it on trust is not misled;
    - the header's ruleset and components are what the campaign's own (hash-chained) events pin: CampaignCreated's
      components, merged with each ComponentsSupplied, each step matching its hash;
    - per session (``SessionDraws``), the seed, the rolls and shuffles, the counters;
    - the ends: each agrees with what the file records the rules decided. A session's verdict is its last
      QuestDecided (``change.outcome``), or what an undo put back (``restored.verdict``, none if it names none); a
      session that has one ends with that outcome, unless the owner overruled the rules (an OutcomeRuled, whose
      outcome the end then records) or abandoned it (a SessionAbandoned, then ``outcome`` "abandoned"). The
      campaign's QuestEnded records the outcome its session's SessionEnded does, and a QuestAbandoned an abandoned
      session. (That the verdict itself follows from the actions needs the rules: the import and the service re-run
      them.)"""

    def __init__(self, seeds: dict[str, bytes]) -> None:
        self.seeds = seeds
        self.header: dict[str, Any] = {}
        self.events = 0
        self.streams: dict[str, Chain] = {}
        self.session_heads: list[tuple[str, str, int, bool]] = []  # (head, session, line, whether a quest's end)
        self.ended_quests: set[Any] = set()
        self.line_hash_failure: Failure | None = None
        self.campaign_seen, self.components, self.pin, self.header_failure = False, None, None, None
        self.sessions: dict[str, SessionDraws] = {}
        self.verdicts: dict[str, dict[str, Any] | None] = {}
        self.ruled: dict[str, Any] = {}
        self.abandoned: set[str] = set()
        self.ended: dict[str, Any] = {}
        self.ends_failure: Failure | None = None
        self.quest_ends: list[tuple[Any, Any, dict[str, Any]]] = []  # (session, outcome recorded, where)

    def add(self, event: dict[str, Any]) -> None:
        self.events += 1
        name, stream, state = event_name(event["topic"]), event["stream"], event["state"]
        if stream not in self.streams:
            self.streams[stream] = Chain(stream)
        self.streams[stream].add(event, name)
        session_head = (state.get("meta") or {}).get("session_head")
        if session_head is not None:
            self.session_heads.append((session_head, state.get("session_id"), event["line"], name in QUEST_ENDS))
        if name in QUEST_ENDS:
            self.ended_quests.add(state.get("session_id"))
        if self.line_hash_failure is None and event.get("hash") != line_hash(event):  # a withheld line's hash is taken as given
            self.line_hash_failure = Failure("The line's hash field is not the hash of its event", line=event["line"], stream=stream, position=event["position"])
        if stream == self.header.get("campaign_id") and self.header_failure is None:
            try:
                self._pins(event, name)
            except Failure as failure:
                self.header_failure = failure
        if name == "SessionStarted":
            self.sessions[stream] = SessionDraws(event, self.seeds.get(stream))
        elif stream in self.sessions:
            self.sessions[stream].add(event, name)
        if self.ends_failure is None:
            try:
                self._end(event, name)
            except Failure as failure:
                self.ends_failure = failure

    def _pins(self, event: dict[str, Any], name: str) -> None:
        state = event["state"]
        where = {"line": event["line"], "stream": event["stream"], "position": event["position"]}
        if not self.campaign_seen:
            self.campaign_seen = True
            if name != "CampaignCreated":
                raise Failure("The file holds no event creating the campaign its header names", line=1)
            if self.header.get("ruleset") != state.get("ruleset"):
                raise Failure("The header's ruleset is not the one the campaign pinned when it was created", line=1)
            self.components = state.get("components")
        elif name != "ComponentsSupplied":
            return
        else:
            try:
                self.components = merge_components(self.components, state.get("components") or {})
            except ValueError as error:
                raise Failure(str(error), **where) from None
        if state.get("components_hash") != components_hash(self.components):
            raise Failure("The campaign's component data does not hash to the pin recorded with it", **where)
        self.pin = state["components_hash"]

    def _end(self, event: dict[str, Any], name: str) -> None:
        state, stream = event["state"], event["stream"]
        where = {"line": event["line"], "stream": stream, "position": event["position"]}
        if name == "QuestDecided" and isinstance(state.get("change"), dict):
            self.verdicts[stream] = {"outcome": state["change"].get("outcome"), "position": event["position"]}
        elif name == "ActionUndone" and isinstance(state.get("restored"), dict):
            self.verdicts[stream] = state["restored"].get("verdict")
        elif name == "OutcomeRuled":
            self.ruled[stream] = state.get("outcome")
        elif name == "SessionAbandoned":
            self.abandoned.add(stream)
        elif name == "SessionEnded":
            outcome, verdict = state.get("outcome"), self.verdicts.get(stream)
            if (outcome == ABANDONED) != (stream in self.abandoned):
                raise Failure(f"The session ended as {outcome!r}, but it was {'' if stream in self.abandoned else 'not '}abandoned", **where)
            if stream in self.ruled and self.ruled[stream] != outcome:
                raise Failure(f"The session ended in {outcome}, but the owner's ruling before it says {self.ruled[stream]}", **where)
            if verdict and outcome != ABANDONED and stream not in self.ruled and verdict.get("outcome") != outcome:
                raise Failure(f"The session ended in {outcome}, but the rules decided the quest at event {verdict.get('position')}: {verdict.get('outcome')}", **where)
            self.ended[stream] = outcome
        elif name in QUEST_ENDS:
            self.quest_ends.append((state.get("session_id"), ABANDONED if name == "QuestAbandoned" else state.get("outcome"), where))

    def finish(self, trailer: dict[str, Any]) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
        """The first failure, in the order the checks come; else the heads and each session's verdict."""
        heads = self._chain_end(trailer)
        if self.line_hash_failure is not None:
            raise self.line_hash_failure
        if not self.campaign_seen:
            raise Failure("The file holds no event creating the campaign its header names", line=1)
        if self.header_failure is not None:
            raise self.header_failure
        if self.header.get("components") != self.components or self.header.get("components_hash") != self.pin:
            raise Failure("The header's components are not the ones the campaign's events pin", line=1)
        verdicts = {stream: session.verdict() for stream, session in self.sessions.items()}
        if self.ends_failure is not None:
            raise self.ends_failure
        for session, recorded, where in self.quest_ends:
            if session in self.ended and recorded != self.ended[session]:  # a quest end without its session's end is the chain's finding
                raise Failure(f"The campaign records the quest of session {session} as {recorded}, but the session ended as {self.ended[session]}", **where)
        return heads, verdicts

    def _chain_end(self, trailer: dict[str, Any]) -> dict[str, str]:
        failures = [failure for failure in (chain.finish() for chain in self.streams.values()) if failure is not None]
        if failures:
            raise min(failures, key=lambda failure: failure.report["line"])
        heads = {stream: chain.hashes[-1] for stream, chain in self.streams.items()}
        for session_head, session, line, ended in self.session_heads:
            if session not in self.streams:
                continue
            chain = self.streams[session]
            last = {"line": chain.last["line"], "stream": session, "position": chain.last["position"]}
            # A quest's end records the session's last event; its start, the session's set-up.
            if session_head not in chain.hashes or (ended and session_head != chain.hashes[-1]):
                raise Failure(f"The campaign recorded a last event of session {session} (at line {line}) that the session does not have: it was changed or cut", **last)
            if ended and chain.last["name"] != "SessionEnded":
                # Cut back and re-hashed, an ended session would pass for one still in play.
                raise Failure(f"The campaign recorded the end of session {session} (at line {line}), but the session's events stop before its SessionEnded: it was cut back", **last)
        for session, chain in self.streams.items():
            if chain.last["name"] == "SessionEnded" and session not in self.ended_quests:
                # The campaign's QuestEnded is saved with the session's end: without it the file says both
                # that the session ended and that its quest is still being played.
                raise Failure(f"Session {session} ended, but the campaign records no end of its quest: the campaign's record of it was removed",
                              line=chain.last["line"], stream=session, position=chain.last["position"])
        if trailer.get("events") != self.events:
            raise Failure(f"The trailer counts {trailer.get('events')} events but the file holds {self.events}")
        if trailer.get("heads") != heads:
            raise Failure("The trailer's head hashes differ from the events: an event was changed, added or removed at the end of a stream")
        return heads


# -- Ed25519 signature verification (RFC 8032) ----------------------------------
#
# The service signs with a well-kept library (tracker/integrity/signing.py, `cryptography`); this file checks with
# nothing but the standard library, so it carries its own verification: RFC 8032 section 5.1.7, after the
# reference code of its section 6, in extended twisted Edwards coordinates (RFC 8032 section 5.1.4).
# Verification handles only public values, so it need not run in constant time.

_ED_P = 2**255 - 19
_ED_L = 2**252 + 27742317777372353535851937790883648493  # the order of the base point
_ED_D = -121665 * pow(121666, _ED_P - 2, _ED_P) % _ED_P
_ED_SQRT_M1 = pow(2, (_ED_P - 1) // 4, _ED_P)


def _ed_add(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    p = _ED_P
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % p
    bb = (y1 + x1) * (y2 + x2) % p
    cc = 2 * t1 * t2 * _ED_D % p
    dd = 2 * z1 * z2 % p
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return e * f % p, g * h % p, f * g % p, e * h % p


def _ed_multiply(scalar: int, point: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    result = (0, 1, 1, 0)  # the neutral element
    while scalar > 0:
        if scalar & 1:
            result = _ed_add(result, point)
        point = _ed_add(point, point)
        scalar >>= 1
    return result


def _ed_same(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % _ED_P == 0 and (a[1] * b[2] - b[1] * a[2]) % _ED_P == 0


def _ed_recover_x(y: int, sign: int) -> int | None:
    if y >= _ED_P:
        return None  # not a canonical encoding
    x2 = (y * y - 1) * pow(_ED_D * y * y + 1, _ED_P - 2, _ED_P) % _ED_P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (_ED_P + 3) // 8, _ED_P)
    if (x * x - x2) % _ED_P:
        x = x * _ED_SQRT_M1 % _ED_P
    if (x * x - x2) % _ED_P:
        return None  # no square root: not a point of the curve
    if x & 1 != sign:
        x = _ED_P - x
    return x


def _ed_decode(encoded: bytes) -> tuple[int, int, int, int] | None:
    y = int.from_bytes(encoded, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _ed_recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % _ED_P)


_ED_BASE_Y = 4 * pow(5, _ED_P - 2, _ED_P) % _ED_P
_ED_BASE_X = _ed_recover_x(_ED_BASE_Y, 0) or 0  # the base point B: y = 4/5, x even
_ED_BASE = (_ED_BASE_X, _ED_BASE_Y, 1, _ED_BASE_X * _ED_BASE_Y % _ED_P)


def ed25519_verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """RFC 8032 5.1.7: [S]B = R + [SHA-512(R || A || M)]A, with R, A decoded strictly and S below L."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    a = _ed_decode(public_key)
    r = _ed_decode(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= _ED_L:
        return False  # a malleable (non-canonical) S
    k = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % _ED_L
    return _ed_same(_ed_multiply(s, _ED_BASE), _ed_add(r, _ed_multiply(k, a)))


# -- signatures and receipts --------------------------------------------------
#
# A signature is {"kid": KEY ID, "sig": base64url Ed25519 signature} under the key "signature" of the object it
# signs, over the canonical JSON of that object without its "signature". The service signs each export's trailer
# (which names the campaign, the header's hash and every stream's head) and each session receipt. Only keys from
# outside the file count: a saved copy of the service's key set (--jwks) or the set its URL serves.

RECEIPT_KINDS = ("session-started", "session-ended")


def b64url_decode(text: str) -> bytes:
    if not isinstance(text, str):
        raise ValueError("not text")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def trusted_keys(jwks: Any) -> dict[str, bytes]:
    """The Ed25519 public keys of a JSON Web Key Set (RFC 7517; OKP keys, RFC 8037), by kid."""
    keys: dict[str, bytes] = {}
    for key in (jwks.get("keys") if isinstance(jwks, dict) else None) or []:
        if not isinstance(key, dict) or key.get("kty") != "OKP" or key.get("crv") != "Ed25519" or not isinstance(key.get("kid"), str):
            continue
        try:
            public = b64url_decode(key.get("x"))
        except ValueError:
            continue
        if len(public) == 32:
            keys[key["kid"]] = public
    return keys


def signed_bytes(value: dict[str, Any]) -> bytes:
    """What a signature covers: the canonical JSON of its object without the signature."""
    return canonical_json({key: item for key, item in value.items() if key != "signature"})


def signature_problem(value: dict[str, Any], keys: dict[str, bytes]) -> str | None:
    """Why the object's signature does not show that a trusted key signed it as it stands, or None."""
    signature = value.get("signature")
    if signature is None:
        return "it carries no signature"
    if not isinstance(signature, dict) or not isinstance(signature.get("kid"), str) or not isinstance(signature.get("sig"), str):
        return 'its signature is not of the form {"kid": ..., "sig": ...}'
    if signature["kid"] not in keys:
        trusted = ", ".join(sorted(keys)) or "none"
        return f"it is signed with key {signature['kid']}, which is not among the trusted keys ({trusted})"
    try:
        sig = b64url_decode(signature["sig"])
    except ValueError:
        sig = b""
    if not ed25519_verify(keys[signature["kid"]], signed_bytes(value), sig):
        return f"its signature (key {signature['kid']}) does not verify: it was changed after it was signed, or not signed by that key"
    return None


def header_hash(header: dict[str, Any]) -> str:
    return "sha256:" + hashlib.sha256(canonical_json(header)).hexdigest()


def signed_part(header: dict[str, Any], trailer: dict[str, Any]) -> dict[str, Any]:
    """What the trailer's signature check needs of a file already checked: kept small, so an import holds it
    while it re-derives the sessions."""
    return {"campaign_id": header.get("campaign_id"), "header_hash": header_hash(header), "trailer": dict(trailer), "line": getattr(trailer, "line", None)}


def check_trailer_signature(signed: dict[str, Any], keys: dict[str, bytes], allow_unsigned: bool = False) -> dict[str, Any]:
    """The trailer names this file's campaign and header and is signed by a trusted key. A file made before the
    service signed its exports has no signature: it passes only with ``allow_unsigned``, and says so."""
    trailer, line = signed["trailer"], signed["line"]
    if trailer.get("signature") is None and allow_unsigned:
        return {"status": "unsigned", "kid": None}
    if trailer.get("signature") is not None:
        if trailer.get("campaign_id") != signed["campaign_id"]:
            raise Failure(f"The signed trailer is for campaign {trailer.get('campaign_id')}, not the header's {signed['campaign_id']}", line=line)
        if trailer.get("header_hash") != signed["header_hash"]:
            raise Failure("The header is not the one the trailer's signature covers: it was changed", line=1)
    problem = signature_problem(trailer, keys)
    if problem == "it carries no signature":
        raise Failure("The trailer carries no signature, so nothing shows the service wrote this file (a file made before exports were signed verifies only with --allow-unsigned)", line=line)
    if problem:
        raise Failure(f"The trailer's signature fails: {problem}", line=line)
    return {"status": "verified", "kid": trailer["signature"]["kid"]}


def _receipt_failure(name: str, reason: str, where: dict[str, Any] | None = None, line: int | None = None) -> Failure:
    return Failure(f"Receipt {name}: {reason}", **(where or {"line": line}))


def check_receipt(name: str, receipt: Any, header: dict[str, Any], streams: dict[str, Chain], keys: dict[str, bytes]) -> dict[str, Any]:
    """A receipt the service signed at a session's start or end, against the file (``streams``: what its check kept of
    each stream): the file must still hold what the receipt recorded (its commitment, its head hashes, how it ended),
    whoever rewrote and re-signed the file since."""
    if not isinstance(receipt, dict) or receipt.get("receipt") not in RECEIPT_KINDS:
        raise _receipt_failure(name, "it is not a session receipt")
    problem = signature_problem(receipt, keys)
    if problem:
        raise _receipt_failure(name, problem)
    if receipt.get("campaign_id") != header.get("campaign_id"):
        raise _receipt_failure(name, f"it is a receipt of campaign {receipt.get('campaign_id')}; the file holds campaign {header.get('campaign_id')}", line=1)
    sid = receipt.get("session_id")
    session = streams.get(sid) if isinstance(sid, str) else None
    campaign = streams[header["campaign_id"]]  # the file's check found the campaign's events
    if session is None:
        raise _receipt_failure(name, f"the file has no session {sid}, which the receipt shows was played: it was removed", line=1)
    if session.first_commitment != receipt.get("seed_commitment"):
        raise _receipt_failure(name, "the session's seed commitment is not the one the receipt recorded: its seed was replaced", session.where(0))
    ended = receipt["receipt"] == "session-ended"
    last = session.where(len(session.hashes) - 1)
    if ended:
        if session.last["name"] != "SessionEnded":
            raise _receipt_failure(name, "the receipt shows the session ended, but the file's session does not end", last)
        if session.last["outcome"] != receipt.get("outcome"):
            raise _receipt_failure(name, f"the session ends in {session.last['outcome']}, but the receipt recorded {receipt.get('outcome')}", last)
        if session.last["counter_end"] != receipt.get("counter_end"):
            raise _receipt_failure(name, f"the session's random stream ends at {session.last['counter_end']}, but the receipt recorded {receipt.get('counter_end')}", last)
    position = receipt.get("session_position")
    held = position - 1 if isinstance(position, int) and 0 < position <= len(session.hashes) else None
    if held is None or session.hashes[held] != receipt.get("session_head"):
        raise _receipt_failure(name, f"the session's event {position} is not the one the receipt recorded (hash {receipt.get('session_head')}): the session was rewritten",
                               session.where(held) if held is not None else last)
    if ended and held != len(session.hashes) - 1:
        raise _receipt_failure(name, "the session goes on past the end the receipt recorded", last)
    position = receipt.get("campaign_position")
    held = position - 1 if isinstance(position, int) and 0 < position <= len(campaign.hashes) else None
    if held is None or campaign.hashes[held] != receipt.get("campaign_head"):
        raise _receipt_failure(name, f"the campaign's event {position} is not the one the receipt recorded: the campaign's record of the session was rewritten",
                               campaign.where(held if held is not None else len(campaign.hashes) - 1))
    return {"receipt": receipt["receipt"], "session": sid, "kid": receipt["signature"]["kid"]}


def verify_lines(
    lines: Iterable[str],
    loads: Callable[[str], Any] = json.loads,
    keys: Any = None,
    receipts: Sequence[tuple[str, Any]] = (),
    allow_unsigned: bool = False,
) -> dict[str, Any]:
    """The whole check; returns a report with status "verified", "pending" or "failed" (with the first failure).

    ``lines``: a list, or a file (read twice, from its start: a first reading finds each session's revealed seed).
    ``keys``: the trusted key set (a JSON Web Key Set) the trailer's signature and each receipt's must verify
    against, after the file's own checks; None checks the file's content only and leaves the signature to the
    caller (the report's ``signed``, for ``check_trailer_signature``: the import checks it once it has re-derived
    every session). ``receipts``: (name, receipt) pairs. ``allow_unsigned``: a file made before exports were signed."""
    if iter(lines) is lines and not _seekable(lines):
        lines = _spooled(lines)  # read once only (a pipe, a generator): copied to a temporary file, to be read twice
    try:
        check = FileCheck(revealed_seeds(_from_start(lines), loads))
        header, trailer = parse(_from_start(lines), loads, check)
        heads, sessions = check.finish(trailer)
        signed = signed_part(header, trailer)
        signature = {"status": "not checked", "kid": None}
        checked_receipts = []
        if keys is not None:
            trusted = trusted_keys(keys)
            signature = check_trailer_signature(signed, trusted, allow_unsigned)
            checked_receipts = [check_receipt(name, receipt, header, check.streams, trusted) for name, receipt in receipts]
    except Failure as failure:
        return {"status": "failed", "failure": failure.report}
    pending = [stream for stream, verdict in sessions.items() if verdict["status"] == "pending"]
    return {
        "status": "pending" if pending else "verified",
        "campaign": header.get("campaign_id"),
        "ruleset": header.get("ruleset"),
        "events": check.events,
        "sessions": sessions,
        "heads": heads,
        "signed": signed,
        "signature": signature,
        "receipts": checked_receipts,
        "failure": None,
    }


def _seekable(lines: Any) -> bool:
    return callable(getattr(lines, "seekable", None)) and lines.seekable()


def _spooled(lines: Iterable[str]) -> Any:
    """The lines of a source that can be read once only (standard input, a pipe), in a temporary file that can be
    read again: kept in memory up to 8 MB, on disk beyond."""
    spool = tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8")
    spool.writelines(lines)
    spool.seek(0)
    return spool


def _from_start(lines: Iterable[str]) -> Iterable[str]:
    if _seekable(lines):
        lines.seek(0)
    return lines


JWKS_PATH = "/.well-known/jwks.json"


def fetch_jwks(service: str) -> tuple[Any, str]:
    """The key set the service publishes, fetched from the URL the file's header names."""
    url = service.rstrip("/") + JWKS_PATH
    if not url.startswith(("https://", "http://")):
        raise ValueError(f"the header names {service!r}, not an http(s) URL")
    with urllib.request.urlopen(url, timeout=20) as response:
        return json.loads(response.read().decode("utf-8")), url


def _first_line(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        first = json.loads(f.readline() or "{}")
    return first.get("header") or {} if isinstance(first, dict) else {}


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="verify_export.py", description="Check a campaign export, its signature and your session receipts.")
    parser.add_argument("export", help="the campaign's .jsonl export")
    parser.add_argument("--jwks", help="a saved copy of the service's key set (GET /.well-known/jwks.json); without it the set is fetched from the service the file names")
    parser.add_argument("--receipt", action="append", default=[], help="a session receipt (GET /sessions/{sid}/receipt); any number")
    parser.add_argument("--allow-unsigned", action="store_true", help="accept a file made before exports were signed (nothing then shows who wrote it)")
    return parser.parse_args(list(argv[1:]))


def main(argv: Sequence[str]) -> int:
    try:
        args = _arguments(argv)
    except SystemExit as stop:
        return 2 if stop.code else 0
    try:
        if args.jwks:
            with open(args.jwks, encoding="utf-8") as f:
                keys, source = json.load(f), args.jwks
        else:
            service = _first_line(args.export).get("service")
            if not service:
                print("The file names no service to fetch its keys from: pass --jwks FILE, a saved copy of the service's key set", file=sys.stderr)
                return 2
            keys, source = fetch_jwks(service)
        receipts = []
        for name in args.receipt:
            with open(name, encoding="utf-8") as f:
                receipts.append((name, json.load(f)))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"cannot read the key set or a receipt: {error}", file=sys.stderr)
        return 2
    print(f"Trusted keys (from {source}): {', '.join(sorted(trusted_keys(keys))) or 'none'}")
    try:
        with open(args.export, encoding="utf-8") as f:
            report = verify_lines(f, keys=keys, receipts=receipts, allow_unsigned=args.allow_unsigned)
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.export}: {error}", file=sys.stderr)
        return 2
    if report["status"] == "failed":
        failure = report["failure"]
        where = ", ".join(f"{key} {failure[key]}" for key in ("line", "stream", "position") if failure[key] is not None)
        print(f"FAILED: {failure['reason']}" + (f" ({where})" if where else ""))
        return 1
    signature = report["signature"]
    signed = f"signed with key {signature['kid']}" if signature["status"] == "verified" else "UNSIGNED: nothing shows who wrote it"
    print(f"{report['status'].upper()}: {report['events']} events, hash chain intact, {signed}")
    for stream, verdict in report["sessions"].items():
        counts = verdict["checked"]
        print(f"  session {stream}: {verdict['status']} ({counts['digital_rolls']} digital rolls, {counts['shuffles']} shuffles recomputed)")
    for checked in report["receipts"]:
        print(f"  receipt {checked['receipt']} of session {checked['session']}: agrees (key {checked['kid']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
