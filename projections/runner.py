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

import gc
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.utils import get_topic, resolve_topic

from projections import sessions, views
from projections.log import Decoder, EventLog, Record, select_records
from projections.store import LostRace, ViewStore
from projections.timeline import SESSION_EVENTS
from tracker.domain import Campaign, Session
from tracker.domain.events import GameEvent
from tracker.rulesets.engine.view import At, CampaignFold, View

log = logging.getLogger(__name__)

QuestEnded = Campaign.QuestEnded
SessionStarted = Session.SessionStarted

# Notifications per transaction when `tracker rebuild` replays the whole log: fewer commits and
# round trips than the live runner's batches, and a batch's rows are still only a few megabytes.
REBUILD_BATCH_SIZE = 5000

# The events the views read; other campaign events and the idempotency records are read and passed over.
PROJECTED = [*SESSION_EVENTS, Campaign.QuestEnded]

# What every campaign fold reads besides its game's events: an undo drops records, an end sets their outcome.
FOLDS_ALSO_READ = (Session.ActionUndone, Session.SessionEnded)


class ProjectionRunner:
    def __init__(self, app: EventLog, store: ViewStore, batch_size: int = 500) -> None:
        self.app = app
        self.store = store
        self.batch_size = batch_size
        self.topics = {get_topic(cls) for cls in PROJECTED}
        self.decoder = Decoder(app.mapper)
        self._projected: dict[str, bool] = {}  # topic -> whether the views read its events
        self.views = views.registered()
        self._handlers: dict[type, tuple[View, ...]] = {}  # event class -> the views that handle it, in order
        self.stall: Stall | None = None  # the batch that keeps failing, while it does
        self.running = False  # whether run_forever runs in this process (readers then wait for it)
        self._moved = threading.Condition()  # notified whenever this runner writes a batch

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
        self._wake_readers()
        return len(records)

    def rows(self, records: list[Record], folded: Folded | None = None, earlier: Folded | None = None) -> list[tuple[Any, ...]]:
        """The view rows of a batch of notifications, in log order.

        What the batch learns of its sessions goes into ``folded``; ``earlier`` is what the batch
        before it learned, when that batch is not written yet (the views do not have it)."""
        folded = folded if folded is not None else Folded()
        earlier = earlier if earlier is not None else Folded()
        store = self.store
        views_by_name = {view.name: view for view in self.views}

        def session_of(session_id: str) -> tuple[str, str] | None:
            return earlier.sessions.get(session_id) or sessions.session_of(store, session_id)

        def state(view: str, key: str) -> Any:
            for known in (folded.states, earlier.states):
                if (view, key) in known:
                    return known[(view, key)]
            return views_by_name[view].stored_state(store, key)

        def put(view: str, key: str, value: Any) -> None:
            folded.states[(view, key)] = value
            folded.touched.setdefault(view, {})[key] = value

        rows: list[tuple[Any, ...]] = []
        append, extend = rows.append, rows.extend
        projected, projects, decode, originator = self._projected, self._projects, self.decoder.decode_timed, self.decoder.originator
        handlers, handled_by, known_sessions = self._handlers, self._handled_by, folded.sessions
        for record in records:
            notification_id, originator_id, _, topic, _ = record
            is_projected = projected.get(topic)
            if is_projected is None:
                is_projected = projects(topic)
            if not is_projected:
                continue
            event, occurred_at = decode(record)
            cls = type(event)
            by = handlers.get(cls)
            if by is None:
                by = handled_by(cls)
            if not by:
                continue
            if cls is QuestEnded:
                campaign_id, session_id, quest = originator(originator_id)[1], event.session_id, event.quest
            else:
                session_id = originator(originator_id)[1]
                known = known_sessions.get(session_id)
                if known is None:
                    known = (event.campaign_id, event.quest) if cls is SessionStarted else session_of(session_id)
                    if known is None:  # pragma: no cover - a session's first event always starts it
                        continue
                    known_sessions[session_id] = known
                campaign_id, quest = known
            meta = getattr(event, "meta", None)
            at = At(session_id, campaign_id, quest, occurred_at, notification_id, meta.get("ruleset_id") if meta else None, state, put)
            for view in by:
                found = view.rows(event, at)
                if found:
                    extend(found)
        for view in self.views:
            touched = folded.touched.get(view.name)
            if touched:
                view.finish(touched, append)
        return rows

    def _handled_by(self, cls: type) -> tuple[View, ...]:
        by = tuple(
            view for view in self.views
            if issubclass(cls, view.handles) or (isinstance(view, CampaignFold) and issubclass(cls, FOLDS_ALSO_READ))
        )
        self._handlers[cls] = by
        return by

    def _projects(self, topic: str) -> bool:
        projected = self._projected.get(topic)
        if projected is None:
            projected = self._projected[topic] = topic in self.topics or _is_game_event(topic)
        return projected

    def catch_up(self, pause: float = 0.0, progress: Callable[[int], None] | None = None) -> int:
        """Project every notification after the position; returns how many this runner covered.

        Batches commit one by one with their positions, as run_once's do, but the next batch is
        read and the last one written while this one's rows are built: the database works on one
        core while Python decodes on the other."""
        total = 0
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="projections") as threads:
            while True:
                covered, lost = self._overlapped(threads, pause, progress)
                total += covered
                if not lost:
                    return total

    def _overlapped(self, threads: ThreadPoolExecutor, pause: float, progress: Callable[[int], None] | None = None) -> tuple[int, bool]:
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
                    covered += self._told(writing.result(), progress)
                writing = threads.submit(self._write, rows, start, end, len(records))
                earlier, start = folded, end
                if pause:
                    time.sleep(pause)
            if writing is not None:
                covered += self._told(writing.result(), progress)
        except LostRace:
            log.info("another runner moved past position %s first; reading on from its position", start)
            return covered, True
        return covered, False

    def _write(self, rows: list[tuple[Any, ...]], start: int, end: int, count: int) -> int:
        self.store.write(rows, start, Tracking(self.app.name, end))
        self._wake_readers()
        return count

    def _wake_readers(self) -> None:
        with self._moved:
            self._moved.notify_all()

    def wait_for(self, position: int, seconds: float) -> int | None:
        """Read your writes: the views' position once it is at least ``position``, or None if it is not
        there within ``seconds``. Where the runner runs in this process, wait for its batches; where it
        does not (a worker beside a `tracker project` process, the tests), project the missing batches
        here: the tracking position keeps each notification counted once, whoever projects it."""
        deadline = time.monotonic() + seconds
        while True:
            reached = self.position
            if reached >= position:
                return reached
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if self.running:
                with self._moved:
                    self._moved.wait(min(left, 0.05))
                continue
            try:
                covered = self.run_once()
            except Exception:  # noqa: BLE001 - the views cannot get there now: the reader is told to retry
                log.exception("projecting for a read that waits for position %s failed", position)
                return None
            if covered == 0:  # nothing more in the log yet (or another runner is writing it): look again shortly
                time.sleep(min(left, 0.02))

    @staticmethod
    def _told(written: int, progress: Callable[[int], None] | None) -> int:
        """A batch written: told to whoever shows the progress (`tracker rebuild` on a terminal)."""
        if progress is not None:
            progress(written)
        return written

    def rebuild(self, pause: float = 0.0, progress: Callable[[int], None] | None = None) -> str:
        """Clear every view and replay the whole log; returns the views' digest. ``progress`` is told each batch's
        count of notifications as it is written."""
        self.replay(pause, progress)
        return self.store.digest()

    def replay(self, pause: float = 0.0, progress: Callable[[int], None] | None = None) -> int:
        """Clear every view and project the whole log again; returns how many notifications it covered.

        Each batch commits with its position, so a replay that is stopped part-way is
        simply continued by the next run (``tracker project`` or another rebuild)."""
        self.store.clear(self.app.name)
        with _collector_set_aside():
            return self.catch_up(pause, progress)

    def run_forever(self, stop: threading.Event, interval: float = 0.2) -> None:
        """Project batch after batch until ``stop``. Caught up, it waits for the log to grow: on PostgreSQL
        it LISTENs on the events table's channel (every insert NOTIFYs it, tracker/adapters/postgres.py) and wakes
        when a commit lands; on SQLite it polls every ``interval`` seconds."""
        self.running = True
        try:
            with self._listening() as (wake, listens):
                while not stop.is_set():
                    pause = self.step(interval)
                    if pause:
                        wake(stop, max(pause, IDLE_LISTEN_SECONDS) if listens and self.stall is None else pause)
        finally:
            self.running = False

    @contextmanager
    def _listening(self) -> Iterator[tuple[Callable[[threading.Event, float], None], bool]]:
        """How the runner waits for new events: LISTEN on PostgreSQL, a plain wait (polling) on SQLite or
        when the LISTEN connection cannot be had or breaks (the database away: a failing batch then says so)."""

        def poll(stop: threading.Event, seconds: float) -> None:
            stop.wait(seconds)

        recorder = self.app.recorder
        channel = getattr(recorder, "channel_name", None)
        if channel is None or not hasattr(recorder.datastore, "get_connection"):
            yield poll, False
            return
        from psycopg.sql import SQL, Identifier

        try:
            held = recorder.datastore.get_connection()
            conn = held.__enter__()
            conn.execute(SQL("LISTEN {0}").format(Identifier(channel)))
            conn.commit()
        except Exception:  # noqa: BLE001 - the runner still works by polling
            log.warning("could not LISTEN for new events; polling instead", exc_info=True)
            yield poll, False
            return
        broken = False

        def wake(stop: threading.Event, seconds: float) -> None:
            # At most a second at a time, so a stop is seen; a NOTIFY (a commit of new events) ends the wait.
            nonlocal broken
            deadline = time.monotonic() + seconds
            while not broken and not stop.is_set() and (left := deadline - time.monotonic()) > 0:
                try:
                    for _ in conn.notifies(timeout=min(left, 1.0), stop_after=1):
                        return
                except Exception:  # noqa: BLE001 - the LISTEN connection broke: poll from here on
                    log.warning("the LISTEN connection broke; polling instead", exc_info=True)
                    broken = True
            if broken:
                poll(stop, min(seconds, 0.2))

        try:
            yield wake, True
        finally:
            try:
                held.__exit__(None, None, None)
            except Exception:  # noqa: BLE001 - a broken connection is dropped by the pool
                pass

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


@contextmanager
def _collector_set_aside() -> Iterator[None]:
    """While a replay runs, the garbage collector leaves what the process held before it alone (gc.freeze) and
    looks at the young objects less often. A replay makes millions of short-lived objects (states, events, rows),
    and the collections they set off walked the whole heap of modules, rulesets and caches again and again. Both
    are put back afterwards; a process whose collector was frozen already (a worker, api/warming.py) keeps it so."""
    frozen_before = gc.get_freeze_count()
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(REPLAY_GC_THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if not frozen_before:
            gc.unfreeze()


REPLAY_GC_THRESHOLD = 20_000  # allocations between collections of the youngest generation during a replay (700 by default)


def _is_game_event(topic: str) -> bool:
    """A ruleset's own session events (GameEvent subclasses) are part of the session's timeline."""
    try:
        return issubclass(resolve_topic(topic), GameEvent)
    except Exception:  # noqa: BLE001 - a topic this code no longer knows is not a game event it can show
        return False


MAX_RETRY_SECONDS = 30.0
IDLE_LISTEN_SECONDS = 5.0  # on PostgreSQL a NOTIFY wakes the runner; this only bounds a wait whose NOTIFY was lost


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
    """What a batch learned: its sessions' campaigns and quests, and the views' states folded but not yet written."""

    def __init__(self) -> None:
        self.sessions: dict[str, tuple[str, str]] = {}
        self.states: dict[tuple[str, str], Any] = {}  # (view, key) -> state
        self.touched: dict[str, dict[str, Any]] = {}  # view -> key -> the state this batch left

    @property
    def campaigns(self) -> dict[str, str]:
        return {session: campaign for session, (campaign, _) in self.sessions.items()}
