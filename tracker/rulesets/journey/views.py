"""Journey's read views: each Pilgrim's progress across the campaign, and the Karma on both wheels after every
change. Folded by the projections as the log grows (tracker/rulesets/engine/view.py), never per request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.journey.events import CHANGES
from tracker.rulesets.journey.progress import hero_progress
from tracker.rulesets.journey.state import HERO_KINDS
from tracker.rulesets.engine.view import At, CampaignFold

JOURNEY = "journey"
GAME_EVENTS = tuple(CHANGES.events.values())


class HeroProgress(CampaignFold):
    """Karma, skills, weapon level, Corruption, Health and Chi where known, quests played and won, each value with
    the events behind it: the same fold_hero the sessions use, over every session's changes in campaign order."""

    name = "journey-hero-progress"
    version = 2  # 2: each card held names the event that gave it (cards_behind)
    kind = "hero-progress"
    game = JOURNEY
    handles = GAME_EVENTS

    def keep(self, event: Any, at: At) -> dict[str, Any] | None:
        change = event.change
        return {"change": change} if change["kind"] in HERO_KINDS and change.get("hero") is not None else None

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> dict[str, Any]:
        return hero_progress(records)  # Journey hides nothing from any side

    def hero_said(self, sheet: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
        return [f"Now: Good Karma {sheet['good_karma']} · Bad Karma {sheet['bad_karma']} · Weapon level {sheet['weapon_level']}",
                f"{len(sheet['quests_won'])} of {len(sheet['quests_played'])} quests won"]


KARMA_KINDS = ("pilgrim-set-up", "karma-gained", "karma-lost", "karma-traded")


def karma_series(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per Pilgrim, Good and Bad Karma after every change to either wheel, in campaign order, each point with its
    event; a set-up takes the wheels as it sets them (a carried start keeps the last quest's)."""
    series: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        change = record["change"]
        points = series.setdefault(change["hero"], [])
        good, bad = (points[-1]["good"], points[-1]["bad"]) if points else (0, 0)
        if change["kind"] == "pilgrim-set-up":
            good, bad = change.get("good", good), change.get("bad", bad)
        elif change["wheel"] == "good":
            good = change["after"]
        else:
            bad = change["after"]
        points.append({"good": good, "bad": bad, "quest": record["quest"], "session_id": record["session_id"],
                       "position": record["position"], "event": record["type"], "change": change})
    return series


class KarmaSeries(CampaignFold):
    name = "journey-karma-series"
    kind = "karma-series"
    game = JOURNEY
    handles = GAME_EVENTS

    def keep(self, event: Any, at: At) -> dict[str, Any] | None:
        change = event.change
        return {"change": change} if change["kind"] in KARMA_KINDS and isinstance(change.get("hero"), str) else None

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> dict[str, Any]:
        return karma_series(records)


VIEWS = (HeroProgress(), KarmaSeries())
