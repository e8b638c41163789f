"""A session's receipt: what a player keeps so that nobody, the operator included, rewrites the session unseen.

While the session is in play its receipt records its start: the seed commitment, and the hashes of the set-up's
last event and of the campaign's QuestStarted. Once it ended, its end: the SessionEnded's hash, where the random
stream stopped, the outcome, the rules' verdict and the table's ruling, and the hash of the campaign's record of
the end. The service signs it (tracker/integrity/signing.py); tracker/integrity/verify_export.py ``check_receipt`` finds any later
export that disagrees with it, however well that export was re-chained and re-signed.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from tracker.integrity import hash_chain
from tracker.integrity.verify_export import QUEST_ENDS, event_name

STARTED, ENDED = "session-started", "session-ended"


def receipt(app: Any, session: Any, service: str | None) -> dict[str, Any]:
    """The receipt of ``session`` (an aggregate) as its stored events stand, unsigned."""
    sid = str(session.id)
    stored = app.recorder.select_events(session.id)
    records = [hash_chain.record(app.mapper, event) for event in stored]
    hashes = [hash_chain.record_hash(app.mapper, event) for event in stored]
    campaign = app.recorder.select_events(UUID(session.campaign_id))
    ended = session.ended and event_name(records[-1]["topic"]) == "SessionEnded"
    if ended:
        at = len(records)
        names = QUEST_ENDS
    else:
        # The start: the last event the starting command saved (the set-up), which QuestStarted records as its head.
        at = max(record["position"] for record in records if (record["state"].get("meta") or {}).get("command", 1) == 1)
        names = ("QuestStarted",)
    noted = [event for event in campaign if event_name(event.topic) in names and hash_chain.stored_state(app.mapper, event).get("session_id") == sid]
    body: dict[str, Any] = {
        "receipt": ENDED if ended else STARTED,
        "campaign_id": session.campaign_id,
        "session_id": sid,
        "quest": session.quest,
        "ruleset": dict(session.ruleset),
        "seed_commitment": session.seed_commitment,
        "session_position": at,
        "session_head": hashes[at - 1],
        "campaign_position": noted[-1].originator_version if noted else None,
        "campaign_head": hash_chain.record_hash(app.mapper, noted[-1]) if noted else None,
    }
    if ended:
        end = records[-1]["state"]
        quest_end = hash_chain.stored_state(app.mapper, noted[-1]) if noted else {}
        body.update(outcome=end.get("outcome"), counter_end=end.get("counter_end"),
                    verdict=session.__dict__.get("verdict"), ruling=quest_end.get("ruling"))
    if service:
        body["service"] = service
    return body
