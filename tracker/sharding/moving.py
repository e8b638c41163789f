"""Moving a campaign to another shard: a backup export, an import on the new shard, and the placement flip.

1. The placement row is marked ``moving`` under the campaign's move lock taken exclusively, and the move
   takes a lease (tracker/sharding/placement.py). That waits for every write holding the lock (each holds it
   shared while its command runs), and every write after it answers 503 while the lease is live.
2. The campaign is exported as a backup (its sealed seeds, shuffle orders and token grants) from the
   shard it is on, and imported on the new one: the import checks the whole file and writes it in one
   transaction, or nothing.
3. The flip: the row names the new shard and is no longer ``moving``: writes go there.

Every write acknowledged before step 1 is in the export; none is acknowledged between 1 and 3 while the
lease is live. When the import fails, the row goes back to the old shard, which still holds everything.
The old shard keeps its copy afterwards (events are never deleted), unread: placement routes every
request to the new one. Moving the campaign back there later continues that copy: the import checks it
is exactly the start of the backup's streams and writes only what came after (tracker/portability/campaign_files.py).

The lease: a thread renews it every quarter of its length while the move works. A mover that dies leaves
it to expire; then writes go on on the old shard (the placement still names it), and the next
``tracker shards move`` of the campaign takes the abandoned move over. An abandoned move is rolled
back, never resumed from its step: writes went on on the old shard since its lease expired, so what it
copied may be behind. A copy it committed on the target is the start of the campaign's streams, so the
new move continues it (only what came after is written); a copy it had not committed is not there (one
transaction). A move to the shard the campaign is on only clears the abandoned move. The flip is one
transaction (the placement and the lease together), so a move that flipped has completed. A mover held
up past its lease (stopped, cut off from the home database) finds it lost at its next renewal or at the
flip, which refuses, and gives up: the campaign stays on the old shard with the writes it took meanwhile.

The backup carries the campaign's Idempotency-Key answers (tracker/portability/stored_answers.py): a client that
retries a write acknowledged before the move gets its answer from the new shard, not a second roll.

``TRACKER_MOVE_PAUSE_AT`` (one of PAUSE_STEPS) with ``TRACKER_MOVE_PAUSE_FILE``: the mover writes that
file on reaching the step and waits, renewing its lease, until it is removed. For tests (and drills) that
stop a mover at a known step; unset, nothing pauses.
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from eventsourcing.utils import get_topic

from tracker.portability import stored_answers
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.domain import Campaign
from tracker.sharding.placement import HOME, LeaseLost, NewLease, Placed, Placement
from tracker.settings import MoveSettings

PAUSE_POLL_SECONDS = 0.05
RENEWALS = 4  # per lease length: a mover starved of the CPU for most of a lease still keeps it


class MoveFailed(Exception):
    pass


class _Keeper:
    """Renews the move's lease every quarter of its length until stopped; ``lost`` once a renewal finds it expired."""

    def __init__(self, placement: Placement, campaign_id: str, lease: NewLease) -> None:
        self.placement, self.campaign_id, self.lease = placement, campaign_id, lease
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"move-lease-{campaign_id}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.lease.seconds / RENEWALS):
            try:
                self.placement.renew(self.campaign_id, self.lease)
            except LeaseLost:
                self.lost.set()
                return
            except Exception as error:  # noqa: BLE001 - the home database did not answer: try again; if it stays away the lease runs out
                print(f"renewing the move's lease failed ({error}); trying again", file=sys.stderr, flush=True)

    def reached(self, step: str) -> None:
        """Record the step (a renewal too); LeaseLost when the lease is gone."""
        if self.lost.is_set():
            raise LeaseLost(self.campaign_id)
        self.placement.renew(self.campaign_id, self.lease, step=step)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _pause(settings: MoveSettings, step: str, keeper: _Keeper) -> None:
    if settings.pause_at != step or settings.pause_file is None:
        return
    path = Path(settings.pause_file)
    path.write_text(f"{os.getpid()} {step}\n", encoding="utf-8")
    print(f"move of {keeper.campaign_id} paused at {step}: remove {path} to go on", file=sys.stderr, flush=True)
    while path.exists():
        if keeper.lost.is_set():
            raise LeaseLost(keeper.campaign_id)
        time.sleep(PAUSE_POLL_SECONDS)


class _Told:
    """The export's lines as the import reads them, each told to ``progress`` (`tracker shards move` on a terminal);
    a second pass over them (the import checks the whole file, then writes) starts the count again."""

    def __init__(self, lines: list[str], progress: Callable[..., None]) -> None:
        self.lines, self.progress = lines, progress

    def __iter__(self) -> Iterator[str]:
        self.progress(reset=True, total=len(self.lines))
        for line in self.lines:
            yield line
            self.progress(1)


def move(placement: Placement, campaign_id: str, to: str, settings: MoveSettings | None = None,
         progress: Callable[..., None] | None = None) -> dict[str, Any]:
    """``progress``: told the lines copied (``progress(n)``; ``progress(reset=True, total=n)`` as a pass begins)."""
    settings = settings or MoveSettings()
    shards = placement.shards()
    if to not in shards:
        raise MoveFailed(f"No shard named {to!r}: `tracker shards list` names them")
    placed = placement.of(campaign_id)
    if placed is None:
        raise MoveFailed(f"Campaign {campaign_id} is not placed on any shard: check the id (`tracker shards list`)")
    if placed.shard == to:
        try:
            found = placement.roll_back_abandoned(campaign_id)
        except ValueError as error:
            raise MoveFailed(str(error)) from None
        if found is None:
            raise MoveFailed(f"Campaign {campaign_id} is on {to} already")
        return {"campaign_id": campaign_id, "from": to, "to": to, "events": 0, "sessions": {}, "abandoned_move": _abandoned(found)}
    lease = NewLease(socket.gethostname(), os.getpid(), secrets.token_hex(8), settings.lease_seconds)
    source = Tracker(env=persistence_env(shards[placed.shard]))
    try:
        # Read while its writes still run: the fenced part reads only the answers recorded after these.
        answers = stored_answers.gather_before_move(source, campaign_id)
        began, abandoned = placement.begin_move(campaign_id, to, lease)
    except ValueError as error:
        source.close()
        raise MoveFailed(str(error)) from None
    except BaseException:
        source.close()
        raise
    keeper = _Keeper(placement, campaign_id, lease)
    target = None
    try:
        if began.shard != placed.shard:  # moved by someone else meanwhile
            raise MoveFailed(f"Campaign {campaign_id} moved to {began.shard} meanwhile: run the move again")
        _pause(settings, "before-copy", keeper)
        keeper.reached("copying")
        target = Tracker(env=persistence_env(shards[to]))
        try:
            lines: Any = source.export_campaign(campaign_id, backup=True, answers=answers)
            if progress is not None:
                lines = _Told(lines, progress)
            paused = (lambda _campaign_id: _paused(settings, keeper)) if settings.pause_at == "during-copy" else None
            imported = target.import_campaign(lines, continuing=True, placing=paused).body
        except LeaseLost:
            raise
        except Exception as error:  # TrackerError from the import's checks, or the database's own
            title = getattr(error, "title", None) or str(error)
            raise MoveFailed(f"Campaign {campaign_id} stays on {began.shard}: the import on {to} failed: {title}") from error
        keeper.reached("copied")
        _pause(settings, "before-flip", keeper)
        placement.flip(campaign_id, lease, to)
    except LeaseLost:
        placement.release(campaign_id, lease)  # still this mover's (expired, not taken over): writable on the old shard, as it already was
        raise MoveFailed(
            f"Campaign {campaign_id} stays on {began.shard}: this move lost its lease (held up longer than {settings.lease_seconds:g} s, "
            f"or another move took it over), so writes may have gone on there; run the move again"
        ) from None
    except BaseException:
        placement.release(campaign_id, lease)  # it stays where it was, writable again
        raise
    finally:
        keeper.stop()
        source.close()
        if target is not None:
            target.close()
    report = {"campaign_id": campaign_id, "from": began.shard, "to": to, "events": imported.get("events"), "sessions": imported.get("sessions")}
    return report if abandoned is None else {**report, "abandoned_move": _abandoned(abandoned)}


@contextmanager
def _paused(settings: MoveSettings, keeper: _Keeper) -> Iterator[None]:
    """The import's write, entered: the file is checked and compared with the target's copy, nothing is committed."""
    _pause(settings, "during-copy", keeper)
    yield


def _abandoned(found: Placed | None) -> dict[str, Any] | None:
    """What an abandoned move had done, and what became of it: it was rolled back (see the module's docstring)."""
    if found is None:
        return None
    lease = found.lease
    stayed = f"rolled back: its copy was never flipped, so the campaign stayed on {found.shard}, and writes went on there once its lease expired"
    if lease is None:
        return {"owner": None, "to": None, "step": None, "lease_expired_at": None,
                "outcome": f"rolled back: a move left by a mover from before leases; the campaign stayed on {found.shard}"}
    return {"owner": {"host": lease.host, "pid": lease.pid, "lease_id": lease.lease_id}, "to": lease.to, "step": lease.step,
            "lease_expired_at": lease.expires_at.isoformat(), "outcome": stayed}


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
