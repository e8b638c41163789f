"""What may be done now in a Journey session, and by whom: the turn's phases (L202-L210, L349-L390).

The phase and the active Pilgrim come from the state; each resolver still checks its own conditions
(a Mystical Box once per activation, Tripitaka only ...), so an entry here is "legal in this part of
the turn", not a promise that every body will be accepted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.engine import allowed
from tracker.rulesets.engine.deck_actions import NAMES as DECK_ACTIONS

# L362: "Pilgrims activate one at a time in initiative order"; the active Pilgrim's actions cost AP.
ACTIVE_PILGRIM = (
    "pilgrim-attack", "rest", "pray", "meditate", "recover", "rescue-villager", "collect-sutra", "break-door", "master-skill",
)
TRIPITAKA = ("close-gate", "revive", "sealing-ritual")  # L374, L440, L1096: Tripitaka's own actions
# What the table reports whenever it happens (cards played, quest rules, Red Lines, lost profile values).
ANYTIME = (
    "play-card", "discard-condition", "take-starting-skills", "red-line-damage", "report-health",
    "gate-activation", "remove-demon", "place-demon", "correct", "state-reading",
)
# L380: "Demon Phase": spawn, then the Demons act. A reading: Kei Lun acts "right after the Pilgrims" (L852, L934),
# so once none is left to activate, and in the Demon Phase.
DEMON_PHASE = ("spawn-demons", "demon-attack", "end-of-turn")


def allowed_now(game: Mapping[str, Any], actions: Sequence[str], quest: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """``quest``: the quest's rules data; an action only some quests have is listed only in those."""
    phase = game.get("phase")
    entries: list[dict[str, Any]] = []
    heroes = game.get("heroes") or {}
    if phase == "maintenance":
        entries.append(allowed.entry("maintenance"))
    elif phase == "pilgrim":
        waiting = [h for h in game.get("initiative", []) if h not in game.get("activated", []) and (heroes.get(h) or {}).get("status") == "conscious"]
        active = game.get("active")
        if waiting:
            entries.append(allowed.entry("activate-pilgrim", [waiting[0]]))
        if active:
            entries.append(allowed.entry("end-activation", [active]))
            if game.get("ap", 0) > 0:
                entries.extend(allowed.entry(name, [active]) for name in ACTIVE_PILGRIM)
                if active == "tripitaka":
                    entries.extend(allowed.entry(name, [active]) for name in TRIPITAKA if _in_quest(name, quest or {}))
        if game.get("fortune_choice"):
            entries.append(allowed.entry("keep-fortune", [game["fortune_choice"]]))
        if not waiting and _kei_lun_acts(game):
            entries.append(allowed.entry("kei-lun-attack"))
        entries.append(allowed.entry("demon-phase"))
    elif phase == "demon":
        entries.extend(allowed.entry(name) for name in DEMON_PHASE)
        if _kei_lun_acts(game):
            entries.append(allowed.entry("kei-lun-attack"))
    entries.extend(allowed.anyone(ANYTIME, actions))
    entries.extend(allowed.anyone(DECK_ACTIONS, actions))
    return [e for e in entries if e["type"] in actions]


def _in_quest(action_type: str, quest: Mapping[str, Any]) -> bool:
    """Whether the quest has this action at all (its resolver refuses it elsewhere, whatever the state)."""
    if action_type == "sealing-ritual":
        return bool(quest.get("sealing_ritual"))  # L1096: "This Quest ends when Tripitaka completes the Sealing Ritual" (Quest 10 Part 2 alone)
    if action_type == "close-gate":
        return quest.get("gates_sealable") is not False  # L1008: "None of the Gates can be sealed, even with the Prayer of Sealing."
    return True


def _kei_lun_acts(game: Mapping[str, Any]) -> bool:
    kei_lun = game.get("kei_lun")
    return bool(kei_lun) and kei_lun.get("status") == "in-play"
