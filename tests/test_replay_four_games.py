"""A replay (every view emptied and projected again from the log) rebuilds exactly the views that were built before the
replay path was made faster (issue 35), and exactly those a runner builds as the log grows, for all four games, on
SQLite and PostgreSQL.

The log: tests/fixtures/replay_four_games.json (written by make_replay_four_games.py: Journey, Descent with the
overlord's secret draws, Kung Fu Panda and Yōkai Quest played through the service), and every stored-events fixture."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from projections import runner as runner_module
from projections.runner import REBUILD_BATCH_SIZE, ProjectionRunner
from projections.store import LOCAL_COLUMNS, TABLES, open_view_store
from tracker.adapters.config import persistence_env
from tracker.application.service import Tracker

FIXTURES = Path(__file__).with_name("fixtures")
FOUR_GAMES = FIXTURES / "replay_four_games.json"

# The views' digest after a rebuild of each log, as the code before this round's replay changes made them (main at
# dc82d8c: each event's words looked up per event, wording.plain on every line, the collector left as it was), equal
# on SQLite and PostgreSQL and for batches of 1, 7 and 5,000 notifications. Only a change to what the views hold
# (a view's version) may change them: the timeline's version 3 (projections/timeline.py) changed only its set-up lines
# (a nested map in brackets, Yōkai Quest's abilities by name, Descent's quest and Kung Fu Panda's mission set up once),
# row for row in the four-game log, v6, v7 and v8's abilities log; v5, v8's evening and v9 hold none of them.
DIGESTS_BEFORE = {
    "replay_four_games.json": "27a0c79f270f3d95627cf080dd8e8a569c6b0489edec1312c5ed1a25c4d90da1",
    "stored_events_v5.json": "3ed7ac14560db48303e46c8a3377521e84d2aea07f1cd7637e4aa20882f7adf6",
    "stored_events_v6.json": "dfa52e6b26b663b4d17b34d9970ab555ec5ad6e9b9f453329c3169029e275650",
    "stored_events_v7_descent_combat.json": "a3deb16dfad6c113017081843ba8700539bce6eb9834a2c2c68c43ba2e6be022",
    "stored_events_v8_descent_abilities.json": "759937e1a78f164b2da54f15a0daa541c0983c9212d38b9cfa78fa41fc57c1c3",
    "stored_events_v8_evening.json": "e7a376ea1bd05b1add505edc951ab5dd3690d306e9df0b29b4a0242b696b321a",
    "stored_events_v9_deck_listed.json": "02ad71a6721754dd37642640b89bd9b71f086e9c461e519c0ecfed59104c0159",
}


def _stored(path: Path) -> list[StoredEvent]:
    return [
        StoredEvent(UUID(r["originator_id"]), r["originator_version"], r["topic"], json.dumps(r["state"], separators=(",", ":")).encode())
        for r in json.loads(path.read_text())["records"]
    ]


@pytest.fixture
def store(database_url: str):
    found = open_view_store(persistence_env(database_url))
    yield found
    found.datastore.close()


def _rows(store: Any) -> dict[str, list[dict[str, Any]]]:
    """Every row of every view, in the digest's order, less the columns local to this database."""
    return {
        table: [{k: v for k, v in row.items() if k not in LOCAL_COLUMNS}
                for row in store.query(f"SELECT * FROM {{{table}}} ORDER BY {', '.join(key)}")]
        for table, (_, key, *_) in TABLES.items()
    }


def test_the_log_holds_all_four_games():
    games = {r["state"].get("meta", {}).get("ruleset_id") for r in json.loads(FOUR_GAMES.read_text())["records"]}
    assert {"journey", "descent", "kung-fu-panda", "yokai-quest"} <= games


@pytest.mark.parametrize("fixture", sorted(DIGESTS_BEFORE), ids=str)
def test_a_replay_rebuilds_the_views_the_code_before_it_built(tracker: Tracker, store: Any, fixture: str):
    tracker.recorder.insert_events(_stored(FIXTURES / fixture))
    runner = ProjectionRunner(tracker, store, batch_size=REBUILD_BATCH_SIZE)
    assert runner.rebuild() == DIGESTS_BEFORE[fixture]
    assert runner.decoder.by_mapper == 0  # every event read the fast way
    runner.batch_size = 7  # batch boundaries fall elsewhere: the same views
    assert runner.rebuild() == DIGESTS_BEFORE[fixture]


def test_a_replay_gives_row_for_row_the_views_a_runner_built_as_the_log_grew(tracker: Tracker, store: Any):
    events = _stored(FOUR_GAMES)
    live = ProjectionRunner(tracker, store, batch_size=3)
    for start in range(0, len(events), 11):  # the log grows a few commands at a time; the runner follows in small batches
        tracker.recorder.insert_events(events[start : start + 11])
        while live.run_once():
            pass
    assert live.position == len(events)
    grown = _rows(store)
    assert all(grown[table] for table in ("view_timeline", "view_dice_faces", "view_game_events", "view_sessions", "view_game_states"))
    assert any(row["secret_to"] == "overlord" for row in grown["view_timeline"])  # Descent's secret draws are in it

    replayed = ProjectionRunner(tracker, store, batch_size=REBUILD_BATCH_SIZE)
    assert replayed.replay() == len(events)
    assert _rows(store) == grown


def test_the_collector_is_set_aside_only_while_a_replay_runs(tracker: Tracker, store: Any, monkeypatch):
    """gc.freeze and a rarer young collection while the replay runs; afterwards the collector is as it was."""
    tracker.recorder.insert_events(_stored(FOUR_GAMES))
    runner = ProjectionRunner(tracker, store, batch_size=REBUILD_BATCH_SIZE)
    seen: list[tuple[int, int]] = []
    catch_up = runner.catch_up

    def watched(*args: Any, **kwargs: Any) -> int:
        seen.append((gc.get_freeze_count(), gc.get_threshold()[0]))
        return catch_up(*args, **kwargs)

    monkeypatch.setattr(runner, "catch_up", watched)
    assert gc.get_freeze_count() == 0
    thresholds = gc.get_threshold()
    runner.replay()
    assert seen and seen[0][0] > 0 and seen[0][1] == runner_module.REPLAY_GC_THRESHOLD
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds
    runner.catch_up()  # a catch-up (the live runner's) leaves the collector alone
    assert seen[-1] == (0, thresholds[0])


def test_a_process_that_froze_its_collector_keeps_it_frozen_after_a_replay(tracker: Tracker, store: Any):
    """A worker freezes its heap at boot (api/warming.py): a replay there must not thaw it."""
    tracker.recorder.insert_events(_stored(FOUR_GAMES))
    runner = ProjectionRunner(tracker, store, batch_size=REBUILD_BATCH_SIZE)
    gc.freeze()
    try:
        assert gc.get_freeze_count() > 0
        runner.replay()
        assert gc.get_freeze_count() > 0  # thawed, it would be 0 (frozen objects a replay freed by their count aside)
    finally:
        gc.unfreeze()
