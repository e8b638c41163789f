"""Moving a campaign to another shard: a backup export, an import on the new shard, and the placement flip.

1. The placement row is marked ``moving`` under the campaign's move lock taken exclusively. That waits
   for every write holding the lock (each holds it shared while its command runs, tracker/placement.py),
   and every write after it answers 503.
2. The campaign is exported as a backup (its sealed seeds, shuffle orders and token grants) from the
   shard it is on, and imported on the new one: the import checks the whole file and writes it in one
   transaction, or nothing.
3. The row names the new shard and is no longer ``moving``: writes go there.

Every write acknowledged before step 1 is in the export; none is acknowledged between 1 and 3. When
the import fails, the row goes back to the old shard, which still holds everything. The old shard
keeps its copy afterwards (events are never deleted), unread: placement routes every request to the
new one. Moving the campaign back there later continues that copy: the import checks it is exactly the
start of the backup's streams and writes only what came after (tracker/portability.py).

The backup carries the campaign's Idempotency-Key answers (tracker/stored_answers.py): a client that
retries a write acknowledged before the move gets its answer from the new shard, not a second roll.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.utils import get_topic

from tracker import stored_answers
from tracker.application import Tracker
from tracker.config import persistence_env
from tracker.domain import Campaign
from tracker.placement import HOME, Placement


class MoveFailed(Exception):
    pass


def move(placement: Placement, campaign_id: str, to: str) -> dict[str, Any]:
    shards = placement.shards()
    if to not in shards:
        raise MoveFailed(f"No shard named {to!r}: `tracker shards list` names them")
    placed = placement.of(campaign_id)
    if placed is None:
        raise MoveFailed(f"Campaign {campaign_id} is not placed on any shard: check the id (`tracker shards list`)")
    if placed.shard == to:
        raise MoveFailed(f"Campaign {campaign_id} is on {to} already")
    source = Tracker(env=persistence_env(shards[placed.shard]))
    try:
        # Read while its writes still run: the fenced part reads only the answers recorded after these.
        answers = stored_answers.gather_before_move(source, campaign_id)
        began = placement.begin_move(campaign_id)
    except ValueError as error:
        source.close()
        raise MoveFailed(str(error)) from None
    except BaseException:
        source.close()
        raise
    if began.shard != placed.shard:  # moved by someone else meanwhile
        source.close()
        placement.end_move(campaign_id, began.shard)
        raise MoveFailed(f"Campaign {campaign_id} moved to {began.shard} meanwhile: run the move again")
    target = Tracker(env=persistence_env(shards[to]))
    try:
        lines = source.export_campaign(campaign_id, backup=True, answers=answers)
        imported = target.import_campaign(lines, continuing=True).body
    except Exception as error:  # TrackerError from the import's checks, or the database's own
        placement.end_move(campaign_id, began.shard)  # it stays where it was, writable again
        title = getattr(error, "title", None) or str(error)
        raise MoveFailed(f"Campaign {campaign_id} stays on {began.shard}: the import on {to} failed: {title}") from error
    finally:
        source.close()
    try:
        placement.end_move(campaign_id, to)
    finally:
        target.close()
    return {"campaign_id": campaign_id, "from": began.shard, "to": to, "events": imported.get("events"), "sessions": imported.get("sessions")}


def place_existing(placement: Placement, home_env: dict[str, str]) -> int:
    """Every campaign the home database holds already is placed on it, so that its writes fence like any other's."""
    app = Tracker(env={**home_env, "CREATE_TABLE": "y"})
    try:
        created = get_topic(Campaign.CampaignCreated)
        ids: list[str] = []
        after = 0
        while True:
            page = app.recorder.select_notifications(start=after, limit=1000, inclusive_of_start=False, topics=[created])
            ids.extend(str(n.originator_id) for n in page)
            if len(page) < 1000:
                break
            after = page[-1].id
        for campaign_id in ids:
            placement.place(campaign_id, HOME)
        return len(ids)
    finally:
        app.close()
