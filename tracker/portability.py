"""Export a campaign as JSON Lines, and import such a file into another database.

The file (format documented in the README; checked by tracker/verify_export.py):
    {"header": {"format", "format_version", "campaign_id", "ruleset": {id, version, hash},
                "components", "components_hash", "sessions": [ids]}}
    {"event": {"stream", "position", "topic", "state", "hash"}}      one per event
    {"trailer": {"events": count, "heads": {stream: hash of its last event}}}
Events are the stored records exactly as the event store keeps them (before any
upcasting), so hashes recompute anywhere; the campaign's and its sessions' streams
are merged by time, each stream in position order.

An import checks the whole file first (hash chain, seeds, rolls and shuffles, then
each session re-derived with the pinned rules) and writes all its events in one
transaction, or nothing.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import TopicError

from tracker import export_file, hash_chain, hiding, rulesets, sealing, stored_answers, unsealing, verification, verify_export
from tracker.domain import Campaign, Grant, Session
from tracker.domain.events import TrackerCreated, TrackerEvent
from tracker.domain.session import GameEvent
from tracker.errors import Conflict, Unprocessable
from tracker.rulesets.data import content_hash


def export_lines(app: Any, campaign: Campaign, backup: bool = False, answers: stored_answers.Gathered | None = None) -> list[str]:
    """The campaign as JSON Lines. A public export holds each event's public form (tracker/sealing.py): no
    reader learns an unrevealed seed or a pile's order from it. A ``backup`` (the operator's CLI only) also
    carries each event's sealed values, the campaign's token grants (their hashes) and its Idempotency-Key
    answers (tracker/stored_answers.py), to move the campaign to another server with its sessions in play,
    every token still working and every acknowledged write answered as before when a client retries it
    (``answers``: those a move gathered before it held the campaign's writes back, tracker/moving.py)."""
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
    if backup:
        header["backup"] = True
        header["grants"] = [_grant(app, token) for token in campaign.tokens.values()]
        header["answers"] = stored_answers.of_campaign(app, str(campaign.id), header["sessions"], gathered=answers)
    trailer = {"events": len(events), "heads": {str(stream): records[-1]["hash"] for stream, records in zip(streams, per_stream) if records}}
    lines = [_line({"header": header})]
    lines += [_line({"event": event}) for event in events]
    lines.append(_line({"trailer": trailer}))
    return lines


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


def import_text(app: Any, text: str | Iterable[str], also: Any = None, continuing: bool = False, placing: Any = None) -> dict[str, Any]:
    """``text``: the file, or its lines to be read twice (tracker/export_file.py reads them from disk).
    ``also(campaign_id)``: aggregates (the importer's owner grant) written in the same transaction as the file.
    ``continuing``: a backup of a campaign moving back to a database that still holds its earlier copy
    (tracker/moving.py): only what came after that copy is written. ``placing(campaign_id)``: a context the
    write runs in (with shards, the campaign placed on this one; tracker/placement.py ``Placement.placing``)."""
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
    del checked
    header, entries = _read(app, lines)
    campaign_id = header.get("campaign_id")
    try:
        entries = unsealing.unseal(entries, lambda entry: _decode(app, _stored(app, entry), entry, campaign_id) if isinstance(entry, dict)
                                   else app.mapper.to_domain_event(entry))
    except ValueError as error:  # replaying a session met an event that cannot follow the ones before it: an edited file
        raise Unprocessable("A session does not re-derive; nothing was imported", detail=f"The event cannot follow the ones before it: {error}.") from None
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
        campaign = event.mutate(campaign)
    if created.ruleset != header.get("ruleset") or content_hash(header.get("components") or {}) != campaign.components_hash:
        raise Unprocessable("The header does not match the campaign", detail="Its ruleset pin or component data differs from what the campaign recorded.")
    ruleset = rulesets.resolve(created.ruleset)
    if ruleset is None:
        raise Unprocessable(
            f"This server does not have the rules the campaign pinned ({created.ruleset['id']} {created.ruleset['version']})",
            detail=f"Its hash is {created.ruleset['hash']}; the campaign cannot be re-derived here. Import it into a server that has that version.",
        )
    sessions = _sessions(app, streams, campaign_events, str(campaign_id), header)
    del campaign_events
    statuses = {}
    for session_id in list(sessions):
        events = [app.mapper.to_domain_event(event) for event in sessions.pop(session_id)]
        report = verification.verify(events, ruleset, campaign.components_for(session_id))
        del events  # verified, a session's events are not needed again (the stored ones are written)
        if report["status"] not in ("verified", "pending"):
            mismatch = report.get("first_mismatch") or {}
            raise Unprocessable(
                f"Session {session_id} does not re-derive; nothing was imported",
                detail=f"{report.get('detail') or mismatch.get('reason')} (position {mismatch.get('position')}).",
            )
        statuses[session_id] = report["status"]
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
    which is what gets written, except those unsealing needs whole (tracker/unsealing.py), kept as records. Only
    the stored forms of a large file are held, never every line's parsed JSON or every event's domain object."""
    header: dict[str, Any] = {}
    entries: list[Any] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        kind, value = next(iter(export_file.lean_loads(line).items()))
        if kind == "header":
            header = value
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
            event = _decode(app, stored, record, header.get("campaign_id"))  # a line this server cannot read, or in the wrong stream, is refused here
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
            grant = Grant(campaign_id=campaign_id, token_id=listed["token_id"], token_hash=listed["token_hash"], role=listed["role"],
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


def _stored(app: Any, record: dict[str, Any]) -> StoredEvent:
    try:
        stream = UUID(record["stream"])
    except ValueError:
        raise Unprocessable("An event's stream is not a UUID", detail=f"Line {record['line']}.") from None
    return StoredEvent(originator_id=stream, originator_version=record["position"], topic=record["topic"], state=hash_chain.state_bytes(app.mapper, record["state"]))


def _decode(app: Any, stored: StoredEvent, record: dict[str, Any], campaign_id: str | None) -> Any:
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
