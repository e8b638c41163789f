"""The play page folds each action's "What the rules say" inside the action's own fold (templates/play.html); a
phone whose player opened one of them keeps that one open, and only that one, when another device's roll draws the
page again (static/live.js keeps what the visitor opened by the fold's id, or its summary under the nearest named
part of the page). In a real headless Chromium at 390 px, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.kit.live_table import phone, shows, table  # noqa: F401  (fixture)
from tests.kit.pages_browser import chromium, live_server, open_to  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

RULES = "#action-maintenance details.rules"  # the turn's first action (Journey's Maintenance) and its rules text


def _open_rules(page) -> list[str]:
    """The actions whose "What the rules say" fold is open on the page."""
    return page.evaluate("Array.from(document.querySelectorAll('main details.rules')).filter(d => d.open)"
                         ".map(d => d.closest('details.action').id)")


def test_one_rules_fold_opened_stays_the_only_one_open_when_another_device_rolls(client, chromium, table):  # noqa: F811
    base, sid = table["base"], table["sid"]
    here, roller = phone(chromium, base, table["owner"], sid)
    there, reader = phone(chromium, base, table["player"], sid)
    try:
        assert reader.locator("main details.rules").count() > 1  # many actions, each with its own rules fold
        open_to(reader, RULES)
        assert _open_rules(reader) == ["action-maintenance"]
        rolled = client.post(f"/sessions/{sid}/rolls", json={"dice": {"d6": 2}})
        assert rolled.status_code == 201, rolled.json
        shows(reader, "Rolled " + ", ".join(str(face) for face in rolled.json["results"]["d6"]), 2000)
        assert reader.evaluate("Number(document.documentElement.dataset.liveVersion)") == client.get(f"/sessions/{sid}").json["version"]
        assert _open_rules(reader) == ["action-maintenance"]
        assert roller.evaluate("window.notReloaded") is True and reader.evaluate("window.notReloaded") is True
    finally:
        here.close()
        there.close()
