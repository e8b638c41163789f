"""Runs the projections over the tracker's notification log.

The runner reads notifications after its tracking position, turns each into
view rows with the pure projection modules, and writes a batch's rows together
with the batch's last position in one transaction (a catch-up or rebuild reads
the next batch and writes the last while it builds one). If another runner got there
first, the tracking insert fails, the batch rolls back, and this runner reads
the new position and carries on: each notification counts once. The position
is the last notification read, projected or not (campaign and idempotency
events are read and passed over), so it reaches the end of the log.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.utils import get_topic, resolve_topic

from projections import dice_statistics, game_events, standing, timeline
from projections.log import Decoder, EventLog, Record, select_records
from projections.store import LostRace, ViewStore
from tracker.domain import Campaign, Session
from tracker.domain.session import DECK_EVENTS, GameEvent

log = logging.getLogger(__name__)

QuestEnded = Campaign.QuestEnded

# Notifications per transaction when `tracker rebuild` replays the whole log: fewer commits and
# round trips than the live runner's batches, and a batch's rows are still only a few megabytes.
REBUILD_BATCH_SIZE = 5000

# The session events the views read; campaign and idempotency events are skipped.
PROJECTED = [
    Session.SessionStarted,
    Session.DiceRolled,
    Session.ActionTaken,
    Session.TurnEnded,
    Session.SessionEnded,
    Session.ActionUndone,
    Session.QuestDecided,
    Session.OutcomeRuled,
    Session.FactsReported,
    *DECK_EVENTS.values(),
    Campaign.QuestEnded,
]


class ProjectionRunner:
    def __init__(self, app: EventLog, store: ViewStore, batch_size: int = 500) -> None:
        self.app = app
        self.store = store
        self.batch_size = batch_size
        self.topics = {get_topic(cls) for cls in PROJECTED}
        self.decoder = Decoder(app.mapper)
        self._projected: dict[str, bool] = {}  # topic -> whether the views read its events
        self.stall: Stall | None = None  # the batch that keeps failing, while it does

    @property
    def position(self) -> int:
        return self.store.max_tracking_id(self.app.name) or 0

    def run_once(self) -> int:
        """Process one batch; returns how many notifications it covered (0 when caught up or beaten to it)."""
        start = self.position
        records = select_records(self.app.recorder, start, self.batch_size)
        if not records:
            return 0
        try:
            self.store.write(self.rows(records), start, Tracking(self.app.name, records[-1].id))
        except LostRace:
            log.info("another runner moved past position %s first; reading on from its position", start)
            return -1
        return len(records)

    def rows(self, records: list[Record], folded: Folded | None = None, earlier: Folded | None = None) -> list[tuple[Any, ...]]:
        """The view rows of a batch of notifications, in log order.

        What the batch learns of its sessions goes into ``folded``; ``earlier`` is what the batch
        before it learned, when that batch is not written yet (the views do not have it)."""
        folded = folded if folded is not None else Folded()
        earlier = earlier if earlier is not None else Folded()
        store = self.store

        def campaign_of(session_id: str) -> str | None:
            return earlier.campaigns.get(session_id) or store.campaign_of(session_id)

        def game_state(session_id: str) -> dict[str, Any]:
            return earlier.games[session_id] if session_id in earlier.games else store.game_state(session_id)

        rows: list[tuple[Any, ...]] = []
        dice: dict[tuple[Any, ...], int] = {}  # the batch's dice rows, summed per face as they come
        projected, projects, decode, originator = self._projected, self._projects, self.decoder.decode_timed, self.decoder.originator
        for record in records:
            is_projected = projected.get(record.topic)
            if is_projected is None:
                is_projected = projects(record.topic)
            if not is_projected:
                continue
            event, occurred_at = decode(record)
            if isinstance(event, QuestEnded):
                rows.extend(standing.progress_rows(event))
                continue
            session_id = originator(record.originator_id)[1]
            rows.extend(_rows(event, session_id, occurred_at, folded, campaign_of, game_state, record.id, dice))
        rows.extend(("dice", *key, count) for key, count in dice.items())
        return rows

    def _projects(self, topic: str) -> bool:
        projected = self._projected.get(topic)
        if projected is None:
            projected = self._projected[topic] = topic in self.topics or _is_game_event(topic)
        return projected

    def catch_up(self, pause: float = 0.0) -> int:
        """Project every notification after the position; returns how many this runner covered.

        Batches commit one by one with their positions, as run_once's do, but the next batch is
        read and the last one written while this one's rows are built: the database works on one
        core while Python decodes on the other."""
        total = 0
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="projections") as threads:
            while True:
                covered, lost = self._overlapped(threads, pause)
                total += covered
                if not lost:
                    return total

    def _overlapped(self, threads: ThreadPoolExecutor, pause: float) -> tuple[int, bool]:
        """Batches from the position to the end of the log; returns how many notifications were
        written and whether another runner moved the position first (the batch built on one that
        lost is dropped unwritten, and the caller reads on from the new position)."""
        start = self.position
        reading = threads.submit(select_records, self.app.recorder, start, self.batch_size)
        writing: Future[int] | None = None
        earlier = Folded()  # what the batch being written learned
        covered = 0
        try:
            while records := reading.result():
                end = records[-1].id
                reading = threads.submit(select_records, self.app.recorder, end, self.batch_size)
                folded = Folded()
                rows = self.rows(records, folded, earlier)
                if writing is not None:
                    covered += writing.result()
                writing = threads.submit(self._write, rows, start, end, len(records))
                earlier, start = folded, end
                if pause:
                    time.sleep(pause)
            if writing is not None:
                covered += writing.result()
        except LostRace:
            log.info("another runner moved past position %s first; reading on from its position", start)
            return covered, True
        return covered, False

    def _write(self, rows: list[tuple[Any, ...]], start: int, end: int, count: int) -> int:
        self.store.write(rows, start, Tracking(self.app.name, end))
        return count

    def rebuild(self, pause: float = 0.0) -> str:
        """Clear every view and replay the whole log; returns the views' digest."""
        self.replay(pause)
        return self.store.digest()

    def replay(self, pause: float = 0.0) -> int:
        """Clear every view and project the whole log again; returns how many notifications it covered.

        Each batch commits with its position, so a replay that is stopped part-way is
        simply continued by the next run (``tracker project`` or another rebuild)."""
        self.store.clear(self.app.name)
        return self.catch_up(pause)

    def run_forever(self, stop: threading.Event, interval: float = 0.2) -> None:
        while not stop.is_set():
            pause = self.step(interval)
            if pause:
                stop.wait(pause)

    def step(self, interval: float = 0.2) -> float:
        """One batch, failures kept in ``stall`` (so /health can say the views stopped); returns how
        long to wait before the next. A batch that keeps failing is retried ever more slowly: the
        same error every 0.2 s logged megabytes and held the database for nothing."""
        try:
            covered = self.run_once()
        except Exception as error:  # keep serving; the next poll retries from the tracked position
            stall = self.stall = self.stall or Stall(position=self.position_or_none())
            stall.failed(error)
            return min(MAX_RETRY_SECONDS, interval * 5 * 2 ** min(stall.failures - 1, 10))
        if self.stall is not None:
            log.warning("projections moved on past position %s after %s failed batches", self.stall.position, self.stall.failures)
            self.stall = None
        return interval if covered == 0 else 0.0

    def position_or_none(self) -> int | None:
        try:
            return self.position
        except Exception:  # noqa: BLE001 - the database may be what failed; the stall is reported without it
            return None

    def start_in_thread(self) -> tuple[threading.Thread, threading.Event]:
        stop = threading.Event()
        thread = threading.Thread(target=self.run_forever, args=(stop,), name="projections", daemon=True)
        thread.start()
        return thread, stop


def _is_game_event(topic: str) -> bool:
    """A ruleset's own session events (GameEvent subclasses) are part of the session's timeline."""
    try:
        return issubclass(resolve_topic(topic), GameEvent)
    except Exception:  # noqa: BLE001 - a topic this code no longer knows is not a game event it can show
        return False


MAX_RETRY_SECONDS = 30.0


class Stall:
    """A batch that failed and has not been written since: where, why, since when, how often."""

    def __init__(self, position: int | None) -> None:
        self.position = position  # the views hold everything up to here; the failing batch starts after it
        self.since = time.monotonic()
        self.failures = 0
        self.error = ""

    def failed(self, error: Exception) -> None:
        self.failures += 1
        described = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"[:300]
        # The traceback once per distinct error, then one line at the 2nd, 4th, 8th... failure.
        if described != self.error:
            log.exception("projection batch after position %s failed; retrying", self.position)
        elif self.failures & (self.failures - 1) == 0:
            log.warning("projection batch after position %s failed %s times: %s", self.position, self.failures, described)
        self.error = described

    def seconds(self) -> float:
        return time.monotonic() - self.since

    def describe(self) -> dict[str, Any]:
        return {"position": self.position, "error": self.error, "failures": self.failures, "stalled_seconds": round(self.seconds(), 1)}


class Folded:
    """What a batch learned of its sessions: their campaigns, and game states folded but not yet written."""

    def __init__(self) -> None:
        self.campaigns: dict[str, str] = {}
        self.games: dict[str, dict[str, Any]] = {}


def _rows(
    event: Any,
    session_id: str,
    occurred_at: str,
    folded: Folded,
    campaign_of: Callable[[str], str | None],
    game_state: Callable[[str], dict[str, Any]],
    notification_id: int,
    dice: dict[tuple[Any, ...], int],
) -> list[tuple[Any, ...]]:
    """The event's rows in every view, but for its dice faces, which are added to ``dice``;
    ``session_id`` is ``str(event.originator_id)``, ``occurred_at`` is ``event.timestamp.isoformat()``."""
    name = type(event).__name__
    rows: list[tuple[Any, ...]] = []
    campaigns = folded.campaigns
    if name == "SessionStarted":
        campaigns[session_id] = event.campaign_id
        rows.append(("session", session_id, event.campaign_id, event.quest))
    campaign_id = campaigns.get(session_id) or campaign_of(session_id)
    if campaign_id is None:  # pragma: no cover - a session's first event always starts it
        return rows
    campaigns[session_id] = campaign_id
    if name == "SessionEnded":
        rows.append(("session_end", event.outcome, session_id))
    rows.extend(timeline.rows(event, campaign_id, session_id, occurred_at))
    for row in dice_statistics.rows(event, campaign_id):  # counted here, not kept: far fewer rows for the GC to see
        key = row[1:5]
        dice[key] = dice.get(key, 0) + row[5]
    rows.extend(game_events.rows(event, campaign_id, notification_id, session_id))
    rows.extend(standing.rows(event, campaign_id, notification_id, folded.games, game_state, session_id))
    return rows
