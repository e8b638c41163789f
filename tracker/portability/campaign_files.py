"""Export a campaign as JSON Lines, and import such a file into another database.

The file (format documented in the README; checked by tracker/integrity/verify_export.py):
    {"header": {"format", "format_version", "campaign_id", "ruleset": {id, version, hash},
                "components", "components_hash", "sessions": [ids], "service": URL}}
    {"event": {"stream", "position", "topic", "state", "hash"}}      one per event
    {"trailer": {"events": count, "heads": {stream: hash of its last event}, "campaign_id",
                 "header_hash", "signature": {"kid", "sig"}}}        signed by the service (tracker/integrity/signing.py)
Events are the stored records exactly as the event store keeps them (before any
upcasting), so hashes recompute anywhere; the campaign's and its sessions' streams
are merged by time, each stream in position order.

An import checks the whole file first (hash chain, seeds, rolls and shuffles, then
each session re-derived with the pinned rules, then the trailer's signature against
the keys this server trusts) and writes all its events in one transaction, or nothing.
"""

from __future__ import annotations

import heapq
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import nullcontext
from functools import lru_cache
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import TopicError, get_topic

from tracker.portability import event_shapes, export_file, stored_answers, unsealing

from tracker.integrity import hash_chain, hiding, signing, verification, verify_export

from tracker import rulesets

from tracker.core import sealing
from tracker.play import party as party_rules
from tracker.domain import Campaign, Grant, Session
from tracker.domain.events import TrackerCreated, TrackerEvent
from tracker.domain.session import GameEvent
from tracker.core.errors import Conflict, Unprocessable
from tracker.adapters.repository import mutate_each
from tracker.rulesets.engine.data import content_hash


def export_lines(app: Any, campaign: Campaign, backup: bool = False, answers: stored_answers.Gathered | None = None, service: str | None = None) -> list[str]:
    """The campaign as JSON Lines. A public export holds each event's public form (tracker/core/sealing.py): no
    reader learns an unrevealed seed or a pile's order from it. A ``backup`` (the operator's CLI only) also
    carries each event's sealed values, the campaign's token grants (their hashes) and its Idempotency-Key
    answers (tracker/portability/stored_answers.py), to move the campaign to another server with its sessions in play,
    every token still working and every acknowledged write answered as before when a client retries it
    (``answers``: those a move gathered before it held the campaign's writes back, tracker/sharding/moving.py). The trailer
    is signed (``_signed_trailer``); ``service``: the address the header names, where a verifier fetches the keys."""
    streams = [campaign.id] + [UUID(s["id"]) for s in campaign.sessions]
    in_play = {s["id"] for s in campaign.sessions if s["outcome"] is None}
    per_stream = [
        [_exported(hash_chain.record(app.mapper, stored, sealed=True), backup, str(stream) in in_play) for stored in app.recorder.select_events(stream)]
        for stream in streams
    ]
    # Sessions before the campaign when times are equal: a quest's start and end come after the session's events.
    events = list(heapq.merge(*per_stream[1:], per_stream[0], key=_when))
    header = {
        "format": verify_export.FORMAT,
        "format_version": verify_export.FORMAT_VERSION,
        "campaign_id": str(campaign.id),
        "ruleset": dict(campaign.ruleset),
        "components": campaign.components,
        "components_hash": campaign.components_hash,
        "sessions": [s["id"] for s in campaign.sessions],
    }
    if service:
        header["service"] = service
    if backup:
        header["backup"] = True
        header["grants"] = [_grant(app, token) for token in campaign.tokens.values()]
        header["answers"] = stored_answers.of_campaign(app, str(campaign.id), header["sessions"], gathered=answers)
    heads = {str(stream): records[-1]["hash"] for stream, records in zip(streams, per_stream) if records}
    trailer = _signed_trailer(app, header, {"events": len(events), "heads": heads})
    lines = [_line({"header": header})]
    lines += [_line({"event": event}) for event in events]
    lines.append(_line({"trailer": trailer}))
    return lines


def _signed_trailer(app: Any, header: dict[str, Any], trailer: dict[str, Any]) -> dict[str, Any]:
    """The trailer, naming the campaign and the header's hash beside every stream's head, signed by the service:
    a file edited and re-chained by anyone without the service's private key no longer verifies."""
    return app.signing.signed({**trailer, "campaign_id": header["campaign_id"], "header_hash": verify_export.header_hash(header)})


def _exported(full: dict[str, Any], backup: bool, in_play: bool) -> dict[str, Any]:
    """One event line: its public form and hash; a backup adds the sealed values. An event stored before
    sealing existed was hashed whole: while its session is in play its secret fields are withheld from a
    public export, and the line carries the stored hash (a verifier takes it as given for that line)."""
    state = full["state"]
    sealed = sealing.values(state)
    event = {**full, "state": sealing.public(state)}
    event["hash"] = verify_export.event_hash(event)
    withheld = [path for path in sealing.LEGACY.get(verify_export.event_name(full["topic"]), ()) if not sealed and sealing.holds(state, path)]
    if withheld and in_play and not backup:
        event["hash"] = verify_export.event_hash(full)
        event["state"] = sealing.public(state, withheld)
        event["withheld"] = withheld
    if backup and sealed:
        event["sealed"] = sealed
    opened = hiding.openings(state)
    if opened:  # a side's secrets, with the salts that open their commitments (an export is the owner's while they are secret)
        event["opened"] = opened
    return event


def _grant(app: Any, token: dict[str, Any]) -> dict[str, Any]:
    grant = app.repository.get(UUID(token["grant_id"]))
    return {"grant_id": token["grant_id"], "token_id": grant.token_id, "token_hash": grant.token_hash, "role": grant.role,
            "heroes": list(grant.heroes), "side": grant.side, "label": grant.label, "revoked": grant.revoked}


def _when(record: dict[str, Any]) -> str:
    timestamp = record["state"].get("timestamp")
    return timestamp.get("_data_", "") if isinstance(timestamp, dict) else str(timestamp)


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def import_text(app: Any, text: str | Iterable[str], also: Any = None, continuing: bool = False, placing: Any = None,
                trusted_files: Iterable[str] = (), allow_unsigned: bool = False) -> dict[str, Any]:
    """``text``: the file, or its lines to be read twice (tracker/portability/export_file.py reads them from disk).
    ``also(campaign_id)``: aggregates (the importer's owner grant) written in the same transaction as the file.
    ``continuing``: a backup of a campaign moving back to a database that still holds its earlier copy
    (tracker/sharding/moving.py): only what came after that copy is written. ``placing(campaign_id)``: a context the
    write runs in (with shards, the campaign placed on this one; tracker/sharding/placement.py ``Placement.placing``).
    ``trusted_files``: saved key sets whose signatures are trusted beside this service's own (``_check_signed``);
    ``allow_unsigned``: a file made before exports were signed (the operator's CLI only)."""
    lines = text.split("\n") if isinstance(text, str) else text
    checked = verify_export.verify_lines(lines, export_file.lean_loads)
    if checked["status"] == "failed":
        failure = checked["failure"]
        where = ", ".join(f"{key} {failure[key]}" for key in ("line", "stream", "position") if failure[key] is not None)
        raise Unprocessable(
            "The export file does not verify; nothing was imported",
            detail=failure["reason"] + (f" ({where})." if where else "."),
            errors={"file": [failure["reason"]]},
        )
    signed = checked["signed"]
    del checked
    header, entries = _read(app, lines)
    campaign_id = header.get("campaign_id")
    game_events = _game_events(header)
    try:
        entries = unsealing.unseal(entries, lambda entry: _decode(app, _stored(app, entry), entry, campaign_id, game_events) if isinstance(entry, dict)
                                   else app.mapper.to_domain_event(entry))
    except unsealing.CannotFollow as error:  # replaying a session met an event that cannot follow the ones before it: an edited file
        line = _line_of(lines, error.stream, error.position)
        raise Unprocessable(
            f"Line {line} cannot follow the events before it; nothing was imported",
            detail=f"{error} (stream {error.stream}, position {error.position}).",
            errors={"file": [f"line {line}: {error}"]},
        ) from None
    stored = [entry if isinstance(entry, StoredEvent) else _stored(app, entry) for entry in entries]
    del entries
    streams: dict[str, list[StoredEvent]] = {}
    for event in stored:
        streams.setdefault(str(event.originator_id), []).append(event)
    campaign_events = [app.mapper.to_domain_event(event) for event in streams.get(str(campaign_id), [])]
    if not campaign_events or type(campaign_events[0]).__name__ != "CampaignCreated":
        raise Unprocessable("The file holds no campaign", detail=f"The header names campaign {campaign_id} but no event creates it.")
    created = campaign_events[0]
    campaign = None
    for event in campaign_events:  # the campaign as the file leaves it: its component data and what each session started with
        if type(event).__name__ == "TokenRevoked" and event.token_id not in campaign.tokens:
            line = _line_of(lines, str(campaign_id), event.originator_version)
            raise Unprocessable(f"Line {line} revokes a token the campaign never minted; nothing was imported", detail=f"Token {event.token_id}.",
                                errors={"file": [f"line {line}: a revocation of a token never minted"]})
        campaign = event.mutate(campaign)
    if created.ruleset != header.get("ruleset") or content_hash(header.get("components") or {}) != campaign.components_hash:
        raise Unprocessable("The header does not match the campaign", detail="Its ruleset pin or component data differs from what the campaign recorded.")
    ruleset = rulesets.resolve(created.ruleset)
    if ruleset is None:
        raise Unprocessable(
            f"This server does not have the rules the campaign pinned ({created.ruleset['id']} {created.ruleset['version']})",
            detail=f"Its hash is {created.ruleset['hash']}; the campaign cannot be re-derived here. Import it into a server that has that version.",
        )
    party_rules.check(ruleset, list(campaign.party), whole=True)  # as creating it would (its sessions: tracker/integrity/verification.py)
    sessions = _sessions(app, streams, campaign_events, str(campaign_id), header)
    statuses, finals = {}, {}
    for session_id in list(sessions):
        # Decoded one at a time as the re-derivation reads them: a long session's domain events are never all held.
        events = _Decoded(app.mapper, sessions.pop(session_id))
        report = verification.verify(events, ruleset, campaign.components_for(session_id), seed_carried=bool(header.get("backup")), listing=False)
        if report["status"] not in ("verified", "pending"):
            mismatch = report.get("first_mismatch") or {}
            line = _line_of(lines, session_id, mismatch.get("position"))
            raise Unprocessable(
                f"Session {session_id} does not re-derive; nothing was imported",
                detail=f"{report.get('detail') or mismatch.get('reason')} (line {line}, position {mismatch.get('position')}).",
                errors={"file": [f"line {line}: {report.get('detail') or mismatch.get('reason')}"]},
            )
        if report["status"] == "verified":
            # Ended and wholly re-derived, so folding it cannot meet an effect nobody checked: the state its quest's
            # end is judged by (_check_quest_ends). A session in play has no QuestEnded to judge.
            finals[session_id] = mutate_each(None, events, app.given)
        del events
        statuses[session_id] = report["status"]
    _check_quest_ends(ruleset, campaign_events, finals)
    del campaign_events, finals
    _check_signed(app, signed, trusted_files, allow_unsigned)
    backup = bool(header.get("backup"))
    if continuing and not backup:
        raise Unprocessable("Only a backup continues a campaign's earlier copy", detail="Export it with tracker export --backup.")
    earlier = _earlier_copy(app, streams, campaign_id) if continuing else {}
    if not continuing and any(app.recorder.select_events(UUID(stream), limit=1) for stream in streams):
        raise _already_here(campaign_id)
    stored = [event for event in stored if event.originator_version > earlier.get(str(event.originator_id), 0)]
    grants = _grants(app, header, campaign_id) if backup else (also(campaign_id) if also else [])
    extra = [app.mapper.to_stored_event(event) for aggregate in grants for event in aggregate.collect_events()]
    answers = stored_answers.to_store(app, header.get("answers"), campaign_id, header.get("sessions") or []) if backup else []
    extra += [answer for answer in answers if not app.recorder.select_events(answer.originator_id, limit=1)]
    with placing(campaign_id) if placing else nullcontext():
        try:
            app.recorder.insert_events(stored + extra)
        except IntegrityError:
            raise _already_here(campaign_id) from None
    return {"campaign_id": campaign_id, "events": len(stored), "sessions": statuses, "backup": backup}


def _check_quest_ends(ruleset: Any, campaign_events: list[Any], finals: dict[str, Session]) -> None:
    """The campaign's record of each quest's end is what the rules make of its session: the outcome and ruling the
    session ended with (each re-derived with the session), and the progress the ruleset carries over from the
    session's final game state (``carry_over``, as the end command computed it), so a forged end cannot count a
    quest as won, or carry on what its session did not give."""
    campaign = None
    for event in campaign_events:
        if type(event).__name__ == "QuestEnded" and event.session_id in finals:
            session = finals[event.session_id]
            problem = None
            if not session.ended or event.outcome != session.outcome:
                problem = f"the campaign records it as {event.outcome}, but the session ended as {session.outcome}"
            elif event.ruling != session.__dict__.get("ruling"):
                problem = "the campaign records a table ruling the session does not (or another one)"
            elif event.progress is not None and event.progress != ruleset.rules.carry_over(campaign.progress, session.game, session.quest, event.outcome, campaign.options):
                problem = "the progress the campaign carries over is not what the rules give for the session's final state"
            if problem is not None:
                raise Unprocessable(
                    f"The end of session {event.session_id} does not re-derive; nothing was imported",
                    detail=f"Campaign event {event.originator_version}: {problem}.",
                )
        campaign = event.mutate(campaign)


def _check_signed(app: Any, signed: dict[str, Any], trusted_files: Iterable[str], allow_unsigned: bool) -> None:
    """The file's trailer is signed by a key this server trusts: its own, or one of a key set the operator saved
    (TRACKER_TRUSTED_JWKS, ``tracker import --jwks``). Checked after the file's content and every session's
    re-derivation, so a file that breaks a rule is refused naming that; one that breaks none, but that nobody
    trusted signed (edited and re-chained, or unsigned), is refused here. An unsigned file made before exports
    were signed passes only with ``allow_unsigned``."""
    try:
        trusted = verify_export.trusted_keys(signing.trusted_set(app.signing, trusted_files))
    except signing.KeysFileError as error:
        raise Unprocessable("A trusted key set cannot be read; nothing was imported", detail=f"{error}.") from None
    try:
        verify_export.check_trailer_signature(signed, trusted, allow_unsigned)
    except verify_export.Failure as failure:
        line = failure.report["line"]
        raise Unprocessable(
            "The export file is not signed by a key this server trusts; nothing was imported",
            detail=failure.report["reason"] + (f" (line {line})." if line else ".")
            + " A file from another server imports once its key set is trusted (TRACKER_TRUSTED_JWKS, or tracker import --jwks FILE).",
            errors={"file": [failure.report["reason"]]},
        ) from None


class _Decoded(Sequence[Any]):
    """A session's stored events read as domain events, each decoded when it is read (and not kept)."""

    def __init__(self, mapper: Any, stored: list[StoredEvent]) -> None:
        self.mapper, self.stored = mapper, stored

    def __len__(self) -> int:
        return len(self.stored)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return _Decoded(self.mapper, self.stored[index])
        return self.mapper.to_domain_event(self.stored[index])

    def __iter__(self) -> Iterator[Any]:
        return (self.mapper.to_domain_event(stored) for stored in self.stored)


def _line_of(lines: Iterable[str], stream: str, position: int | None) -> int | None:
    """The line of the file that holds an event, found again when a refusal names it (the file is read afresh:
    no line number is kept per event while the import runs)."""
    for number, line in enumerate(lines, start=1):
        if f'"position":{position},' in line.replace(" ", "") or f'"position":{position}}}' in line.replace(" ", ""):
            event = export_file.lean_loads(line).get("event")
            if isinstance(event, dict) and event.get("stream") == stream and event.get("position") == position:
                return number
    return None


def _earlier_copy(app: Any, streams: dict[str, list[StoredEvent]], campaign_id: str | None) -> dict[str, int]:
    """How many events of each of the file's streams this database holds already: a campaign moving back to a shard
    it left keeps the copy it left there, and that copy must be exactly the start of the file's streams (events are
    never changed, so it is, unless the file is not this campaign's backup). Compared by each event's hash over its
    whole stored record, sealed values included."""
    held: dict[str, int] = {}
    for stream, events in streams.items():
        here = app.recorder.select_events(UUID(stream))
        if not here:
            continue
        if len(here) > len(events) or any(_whole_hash(app, mine) != _whole_hash(app, theirs) for mine, theirs in zip(here, events)):
            raise Conflict(
                f"Campaign {campaign_id} has another history in this database; nothing was imported",
                detail=f"Stream {stream} here is not the start of the file's: the file is not a later backup of the copy held here.",
            )
        held[stream] = len(here)
    return held


def _whole_hash(app: Any, stored: StoredEvent) -> str:
    return verify_export.event_hash(hash_chain.record(app.mapper, stored, sealed=True))


def _read(app: Any, lines: Iterable[str]) -> tuple[dict[str, Any], list[Any]]:
    """The file (already checked whole) read again, line by line: its header, and each event in its stored form,
    which is what gets written, except those unsealing needs whole (tracker/portability/unsealing.py), kept as records. Only
    the stored forms of a large file are held, never every line's parsed JSON or every event's domain object."""
    header: dict[str, Any] = {}
    game_events = None
    entries: list[Any] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        kind, value = next(iter(export_file.lean_loads(line).items()))
        if kind == "header":
            header = value
            game_events = _game_events(header)
        elif kind == "event":
            record = {**value, "line": number}
            if record.get("withheld"):
                raise Unprocessable(
                    "The file withholds a secret of a session in play; nothing was imported",
                    detail=f"Line {number}: that session was stored before seeds were sealed, so only a backup can move it "
                    "(tracker export --backup on the server it came from).",
                )
            record = hiding.restore(record)  # the values it opens, checked against their commitments by the verifier
            stored = _stored(app, record)
            event = _decode(app, stored, record, header.get("campaign_id"), game_events)  # a line this server cannot read, or in the wrong stream, is refused here
            entries.append(record if type(event).__name__ in unsealing.KEPT else stored)
    return header, entries


def _grants(app: Any, header: dict[str, Any], campaign_id: str) -> list[Grant]:
    """A backup's token grants, so every token of the campaign keeps working on this server. A grant this database
    holds already (the campaign was here before, and moves back) is kept, and revoked if it was revoked since."""
    grants = []
    for listed in header.get("grants") or []:
        try:
            held = app.repository.get(Grant.create_id(token_hash=listed["token_hash"]))
        except AggregateNotFoundError:
            held = None
        except (KeyError, TypeError):
            held = None  # refused just below
        if held is not None:
            if held.campaign_id != campaign_id:
                raise Unprocessable("The backup's token grants are damaged; nothing was imported", detail="A grant names another campaign.")
            if listed.get("revoked") and not held.revoked:
                held.revoke(meta={"issued_by": "import:backup"})
                grants.append(held)
            continue
        try:
            grant = Grant.made(app.given, campaign_id=campaign_id, token_id=listed["token_id"], token_hash=listed["token_hash"], role=listed["role"],
                          heroes=list(listed["heroes"]), side=listed["side"], label=listed["label"], meta={"issued_by": "import:backup"})
        except (KeyError, TypeError):
            raise Unprocessable("The backup's token grants are damaged; nothing was imported", detail="Export the backup again.") from None
        if listed.get("revoked"):
            grant.revoke(meta={"issued_by": "import:backup"})
        grants.append(grant)
    return grants


def _already_here(campaign_id: str | None) -> Conflict:
    return Conflict(
        f"Campaign {campaign_id} is already in this database",
        detail="The file was imported before (or exported from here); nothing was imported twice. GET /campaigns/{id} shows it.",
    )


@lru_cache(maxsize=4096)
def _stream_id(stream: str) -> UUID:
    """One UUID object per stream (and one topic string per topic, below), shared by all its events held until
    they are written: a long session's thousands of stored events otherwise each carried their own copies."""
    return UUID(stream)


def _stored(app: Any, record: dict[str, Any]) -> StoredEvent:
    try:
        stream = _stream_id(record["stream"])
    except ValueError:
        raise Unprocessable(f"Line {record['line']}: an event's stream is not a UUID; nothing was imported", detail=f"Line {record['line']}.") from None
    return StoredEvent(originator_id=stream, originator_version=record["position"], topic=sys.intern(record["topic"]),
                       state=hash_chain.state_bytes(app.mapper, record["state"]))


class GameEvents(dict):
    """The change kinds of a game, each with the event class that records it, and the topics those classes are
    stored under."""

    def __init__(self, events: dict[str, type]) -> None:
        super().__init__(events)
        self.topics = frozenset(get_topic(cls) for cls in events.values())


def _game_events(header: dict[str, Any]) -> GameEvents | None:
    """The change kinds of the game the header pins (the file's check found it the campaign's own pin), each with
    the event class that records it; None when this server lacks those rules (the import refuses that by name)."""
    pin = header.get("ruleset")
    ruleset = rulesets.resolve(pin) if isinstance(pin, dict) else None
    return GameEvents(ruleset.rules.events) if ruleset is not None else None


DOMAIN_EVENTS = "tracker.domain."  # where the service's own event classes are declared (its aggregates')


def _readable(topic: Any, game_events: GameEvents | None) -> bool:
    """Whether ``topic`` names one of the service's own event classes or one of the pinned game's, as text: a
    file's topic is never imported to find out."""
    if not isinstance(topic, str):
        return False
    if topic.startswith(DOMAIN_EVENTS):
        return True
    if game_events is None:
        return topic.startswith("tracker.rulesets.")  # the game is not on this server: refused by name later
    return topic in game_events.topics


def _decode(app: Any, stored: StoredEvent, record: dict[str, Any], campaign_id: str | None, game_events: GameEvents | None) -> Any:
    """The line's domain event, refused (naming the line) unless this server can read it, it belongs in its stream,
    and it holds what its type needs (tracker/portability/event_shapes.py): nothing folds an event before this has passed it."""
    if not _readable(record["topic"], game_events):
        # Resolving a topic imports the module it names: a file's topic is looked up only among the service's own
        # events and those of the game the file pins.
        raise Unprocessable(
            f"Line {record['line']} holds an event this server cannot read",
            detail=f"{record['topic']}: not an event of this service nor of the game the file pins.",
        )
    try:
        event = app.mapper.to_domain_event(stored)
    except (TopicError, ValueError, TypeError, KeyError) as error:
        raise Unprocessable(
            f"Line {record['line']} holds an event this server cannot read",
            detail=f"{record['topic']}: {error}. The file may come from a server with rules this one lacks.",
        ) from None
    # Each stream takes only its own aggregate's events: a grant or a campaign event forged into a
    # session's stream would otherwise be written as it stands (and mutate the wrong aggregate).
    owner, kind = (Campaign, "a campaign") if record["stream"] == campaign_id else (Session, "a session")
    if not _is_event_of(type(event), owner):
        raise Unprocessable(
            f"Line {record['line']} is not an event of {kind}; nothing was imported",
            detail=f"{record['topic']} in stream {record['stream']}, position {record['position']}.",
        )
    wrong = event_shapes.problem(event, game_events)
    if wrong:
        raise Unprocessable(
            f"Line {record['line']} does not hold what a {type(event).__name__} records; nothing was imported",
            detail=f"{wrong.capitalize()} (stream {record['stream']}, position {record['position']}).",
            errors={"file": [f"line {record['line']}: {wrong}"]},
        )
    return event


def _is_event_of(cls: type, aggregate: type) -> bool:
    """An event class of the aggregate itself (Campaign.QuestEnded), or for a session, a ruleset's game event."""
    if aggregate is Session and issubclass(cls, GameEvent):
        return True
    return cls.__module__ == aggregate.__module__ and cls.__qualname__.startswith(aggregate.__qualname__ + ".") and issubclass(cls, (TrackerEvent, TrackerCreated))


def _sessions(app: Any, streams: dict[str, list[StoredEvent]], campaign_events: list[Any], campaign_id: str, header: dict[str, Any]) -> dict[str, list[StoredEvent]]:
    """The file's session streams (stored forms), each one the campaign started, listed in the header and begun by its start."""
    named = {e.session_id for e in campaign_events if type(e).__name__ == "QuestStarted"}
    sessions = {stream: events for stream, events in streams.items() if stream != campaign_id}
    if set(sessions) != named or set(header.get("sessions") or []) != named:
        raise Unprocessable("The file's sessions are not the campaign's", detail="Every session must be one the campaign started, and the header must list them.")
    for session_id, events in sessions.items():
        first = app.mapper.to_domain_event(events[0])
        if type(first).__name__ != "SessionStarted" or first.campaign_id != campaign_id:
            raise Unprocessable(f"Session {session_id} does not belong to the campaign", detail="Its first event must start it in this campaign.")
    return sessions
