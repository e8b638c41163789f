"""Hostile edits named one by one: each once raised inside the import's check (a 500 through POST /campaigns/import)
instead of being refused with a line. The Hypothesis tests of tests/test_hostile_files.py meet them only when their
source text derives these examples; here each is written out, so it is tried on every run."""

from __future__ import annotations

import copy
import sys

import pytest

from tests.kit.forgery_kit import events, rechain, text_of
from tests.kit.hostile_files import LINE, genuine, holder  # noqa: F401  (genuine: a fixture)
from tracker.portability import campaign_files as portability
from tracker.integrity import verify_export
from tracker.application.service import Tracker
from tracker.adapters.config import persistence_env
from tracker.core.errors import Unprocessable
from tracker.core.sealing import holds

DROP = object()


def _edit(event: dict, path: tuple, value) -> None:
    held_in = holder(event, path)
    if value is DROP:
        del held_in[path[-1]]
    else:
        held_in[path[-1]] = value


EDITS = [
    ("CampaignCreated", ("state", "originator_topic"), DROP),
    ("CampaignCreated", ("state", "originator_topic"), ["x"]),
    ("CampaignCreated", ("state", "originator_topic"), "x"),
    ("CampaignCreated", ("state", "originator_topic"), ""),
    ("CampaignCreated", ("state", "originator_topic"), None),
    ("SessionStarted", ("state", "meta", "command"), ["x"]),
    ("ActionTaken", ("state", "action", "quest"), DROP),
]


@pytest.fixture(scope="module")
def importer(genuine):
    app = Tracker(env=persistence_env(f"sqlite:///{genuine['path'] / 'named.sqlite3'}"))
    yield app
    app.close()


@pytest.mark.parametrize(("name", "path", "value"), EDITS, ids=[f"{n}.{'.'.join(p[1:])}={'dropped' if v is DROP else repr(v)}" for n, p, v in EDITS])
def test_the_edit_is_refused_naming_a_line_and_nothing_is_written(genuine, importer, name, path, value):
    lines = copy.deepcopy(genuine["public"])
    chosen = [e for e in events(lines) if verify_export.event_name(e["topic"]) == name and holds(e, ".".join(path[:-1]))]
    assert chosen, f"the genuine file holds no {name} with {path[:-1]}"
    _edit(chosen[0], path, value)
    text = text_of(rechain(lines, unsigned=True))
    before = importer.recorder.max_notification_id()
    with pytest.raises(Unprocessable) as refused:
        portability.import_text(importer, text)
    assert LINE.search(f"{refused.value.title} {refused.value.detail}"), (refused.value.title, refused.value.detail)
    assert importer.recorder.max_notification_id() == before


def test_a_topic_outside_the_service_s_events_is_refused_without_importing_its_module(genuine, importer):
    """Resolving a topic imports the module it names: a file naming any installed module's class is refused first."""
    lines = copy.deepcopy(genuine["public"])
    index, event = next((i, e) for i, e in enumerate(events(lines)) if verify_export.event_name(e["topic"]) == "DiceRolled")
    event["topic"] = event["topic"].replace(event["topic"].partition(":")[0], "antigravity")  # its import opens a web browser
    text = text_of(rechain(lines, unsigned=True))
    with pytest.raises(Unprocessable) as refused:
        portability.import_text(importer, text)
    assert "cannot read" in refused.value.title and f"Line {index + 2} " in refused.value.title
    assert "antigravity" not in sys.modules
