"""Hero progress across a campaign: each Pilgrim's sheet and the events behind every change.

The same sheet folds the sessions use (``fold_hero``, state.py), over every session's game events in campaign order, so
what a Pilgrim carries is what the log says happened to them. Weapon levels and Corruption
Cards come with the events that changed them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracker.rulesets.journey.state import HERO_KINDS, fold_hero

WINS = ("victory", "heroic-victory")


def _ref(entry: dict[str, Any]) -> dict[str, Any]:
    return {"session_id": entry["session_id"], "quest": entry["quest"], "position": entry["position"], "event": entry["type"]}


# The sheet's fields and the names the progress shows them by.
BEHIND = {
    "good": "good_karma", "bad": "bad_karma", "skills": "skills", "weapon_level": "weapon_level", "corruption": "corruption",
    "fortune": "fortune", "misfortune": "misfortune", "hp": "hp", "max_hp": "max_hp", "chi": "chi", "conditions": "conditions",
    "status": "status",
}


def _quest_started(record: dict[str, Any], entry: dict[str, Any], change: dict[str, Any]) -> None:
    if change["start"] != "carried":
        record["cards"] = {}  # a fresh start holds none of the cards taken before
    record["quests"].append({"session_id": entry["session_id"], "quest": entry["quest"], "outcome": entry["outcome"], "start": change["start"]})
    if change["start"] != "carried" and change.get("weapon_level"):
        record["weapon_history"].append({**_ref(entry), "level": change["weapon_level"], "start": change["start"]})


def _weapon_upgraded(record: dict[str, Any], entry: dict[str, Any], change: dict[str, Any]) -> None:
    record["weapon_history"].append({**_ref(entry), "level": change["to_level"], "from_level": change["from_level"]})


def _corruption_drawn(record: dict[str, Any], entry: dict[str, Any], change: dict[str, Any]) -> None:
    record["corruption_history"].append({**_ref(entry), "card": change["card"], "reason": change["reason"]})


def _karma_threshold_reached(record: dict[str, Any], entry: dict[str, Any], change: dict[str, Any]) -> None:
    record["karma_thresholds"].append({**_ref(entry), "wheel": change["wheel"], "value": change["value"]})


# What the progress lists beside the sheet, by the kind of change that makes it: quests, weapon, Corruption, Karma thresholds.
HISTORY: dict[str, Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], None]] = {
    "pilgrim-set-up": _quest_started,
    "weapon-upgraded": _weapon_upgraded,
    "corruption-drawn": _corruption_drawn,
    "karma-threshold-reached": _karma_threshold_reached,
}


def hero_progress(history: list[dict[str, Any]]) -> dict[str, Any]:
    heroes: dict[str, dict[str, Any]] = {}
    for entry in history:
        change = entry["change"]
        hero = change.get("hero")
        if hero is None or change["kind"] not in HERO_KINDS:
            continue
        record = heroes.setdefault(hero, {"sheet": {}, "quests": [], "weapon_history": [], "corruption_history": [], "karma_thresholds": [], "behind": {},
                                          "cards": {}})
        before = record["sheet"]
        record["sheet"] = fold_hero(before, change)
        for field, shown in BEHIND.items():  # each value on the sheet names the events that made it
            if record["sheet"].get(field) != before.get(field):
                record["behind"].setdefault(shown, []).append(_ref(entry))
        if change["kind"] in ("card-taken", "corruption-drawn") and isinstance(change.get("card"), str):
            record["cards"][change["card"]] = _ref(entry)  # the event that put the card in the Pilgrim's hand
        listed = HISTORY.get(change["kind"])
        if listed is not None:
            listed(record, entry, change)
    return {hero: _view(hero, record) for hero, record in sorted(heroes.items())}


def _view(hero: str, record: dict[str, Any]) -> dict[str, Any]:
    sheet = record["sheet"]
    return {
        "hero": hero,
        "good_karma": sheet["good"],
        "bad_karma": sheet["bad"],
        "skills": {
            "one-time": [s["name"] for s in sheet["skills"] if s.get("kind") == "one-time"],
            "permanent": [s["name"] for s in sheet["skills"] if s.get("kind") == "permanent"],
            "kind-unknown": [s["name"] for s in sheet["skills"] if s.get("kind") not in ("one-time", "permanent")],
        },
        "weapon_level": sheet["weapon_level"],
        "corruption": list(sheet["corruption"]),
        "fortune": list(sheet["fortune"]),
        "misfortune": list(sheet["misfortune"]),
        "hp": sheet["hp"],
        "max_hp": sheet["max_hp"],
        "chi": sheet["chi"],
        "conditions": [c["id"] for c in sheet["conditions"]],
        "status": sheet["status"],
        "skill_draws_owed": sheet.get("skill_draws_owed", 0),
        "corrections": sheet.get("corrections", []),  # values the table corrected, each with what it was and why
        "quests_played": [q["quest"] for q in record["quests"]],
        "quests_won": [q["quest"] for q in record["quests"] if q["outcome"] in WINS],
        "sessions": record["quests"],
        "weapon_history": record["weapon_history"],
        "corruption_history": record["corruption_history"],
        "karma_thresholds": record["karma_thresholds"],
        "events_behind": record["behind"],
        "cards_behind": _cards_behind(sheet, record["cards"]),
    }


def _cards_behind(sheet: dict[str, Any], taken: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each card the Pilgrim holds now (skills, Fortune, Misfortune, Corruption) with the event that gave it."""
    held = [s["name"] for s in sheet["skills"]] + list(sheet["fortune"]) + list(sheet["misfortune"]) + list(sheet["corruption"])
    return {card: taken[card] for card in sorted(set(held)) if card in taken}
