"""What the hostile-file tests share: a campaign holding every kind of event an import meets, its public export
and backup (built once per test file), and the forger's edits as a Hypothesis strategy: an event's topic swapped
for another of the same file, a field dropped or given another type, then every hash recomputed
(tests/kit/forgery_kit.py's rechain, unsigned), so the chain checks pass."""

from __future__ import annotations

import json
import marshal
import re
from typing import Any

import pytest
from hypothesis import strategies as st

from tests.kit.journey import JOURNEY_TEST_COMPONENTS
from tests.kit.forgery_kit import events, rechain
from tracker.integrity import verify_export
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env

LINE = re.compile(r"\bline (\d+)", re.IGNORECASE)
# Values of every JSON type, and numbers no counter or position can be.
OTHER_VALUES = [None, True, False, 0, -1, 1.5, 2**70, "", "x", [], ["x"], {}, {"kind": "x"}]


def _play(app: Tracker, cid: str, quest: str, end: str | None) -> str:
    """A session with every kind of event an import meets: set-up draws, digital and reported rolls, draws, a
    reshuffle, a discard, a turn's end, an undo, component data supplied in play; ended, abandoned, or in play."""
    sid = app.start_session(cid, quest).body["id"]
    app.roll(sid, dice={"attack": 2, "d6": 1}, purpose="attack")
    app.roll(sid, faces={"defense": ["3"]})
    cards = app.draw(sid, "fortune", count=19, holder="monkey-king").body["cards"]
    app.act(sid, {"type": "discard", "deck": "fortune", "cards": cards[:5], "holder": "monkey-king"})
    app.draw(sid, "fortune", count=3)  # reshuffles the discards
    app.act(sid, {"type": "end-turn"})
    app.roll(sid, dice={"d20": 1})
    app.undo(sid)
    if end == "ended":
        app.end_session(sid, "victory", ruling="the table rules the quest won")
    elif end == "abandoned":
        app.abandon_session(sid, "time ran out")
    return sid


@pytest.fixture(scope="module")
def genuine(tmp_path_factory) -> dict[str, Any]:
    """A campaign's public export and its backup, built once: one session ended, one abandoned, one in play
    (whose seed no public file holds, so its random actions' effects are taken as recorded)."""
    path = tmp_path_factory.mktemp("hostile")
    app = Tracker(env=persistence_env(f"sqlite:///{path / 'genuine.sqlite3'}"))
    cid = app.create_campaign("journey", "Hostile", ["tripitaka", "monkey-king"], {"dice": JOURNEY_TEST_COMPONENTS["dice"]}).body["id"]
    app.supply_components(cid, {"decks": JOURNEY_TEST_COMPONENTS["decks"]})
    _play(app, cid, "q1-meeting", "ended")
    _play(app, cid, "q2-rescue", "abandoned")
    _play(app, cid, "q2-rescue", None)
    public = [json.loads(line) for line in app.export_campaign(cid)]
    backup = [json.loads(line) for line in app.export_campaign(cid, backup=True)]
    app.close()
    return {"public": public, "backup": backup, "path": path}


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a JSON value (keys and list indexes), the value itself excluded."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append(prefix + (key,))
            found += _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append(prefix + (index,))
            found += _paths(item, prefix + (index,))
    return found


def holder(value: Any, path: tuple) -> Any:
    """The dict or list that holds the last part of ``path`` inside ``value``."""
    for part in path[:-1]:
        value = value[part]
    return value


class Forged(tuple):
    def __repr__(self) -> str:  # what was done, not the whole file
        return repr(self[0])


@st.composite
def hostile(draw, lines: list[dict], swaps_only: bool = False) -> tuple[str, list[dict], int]:
    """(what was done, the forged lines re-hashed, the forged event's line number)."""
    forged = marshal.loads(marshal.dumps(lines))  # a deep copy of the JSON values, a third of copy.deepcopy's time
    file_events = events(forged)
    index = draw(st.integers(0, len(file_events) - 1))
    event = file_events[index]
    topics = sorted({e["topic"] for e in file_events} - {event["topic"]})
    how = "swap" if swaps_only else draw(st.sampled_from(["swap", "drop", "retype", "retype"]))
    if how == "swap":
        event["topic"] = draw(st.sampled_from(topics))
        done = f"topic of line {index + 2} -> {event['topic']}"
    else:
        paths = [p for p in _paths(event["state"]) if p[0] != "timestamp"] or [("meta",)]
        path = draw(st.sampled_from(paths))
        held_in = holder(event["state"], path)
        if how == "drop":
            del held_in[path[-1]]
        else:
            held_in[path[-1]] = draw(st.sampled_from(OTHER_VALUES))
        done = f"{how} {'.'.join(map(str, path))} of line {index + 2} ({verify_export.event_name(event['topic'])})"
    return Forged((done, rechain(forged, unsigned=True), index + 2))


def checked_by_the_verifier(text: str, done: str, must_fail: bool) -> None:
    """The verifier's report on the file: FAILED naming a line, or (for an edit it cannot see) verified; never a raise."""
    report = verify_export.verify_lines(text.splitlines())
    if report["status"] == "failed":
        assert report["failure"]["line"] is not None, (done, report["failure"])
    else:
        assert not must_fail, f"{done}: verified"
