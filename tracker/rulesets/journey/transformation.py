"""Quest 1's Transformation (L706): the Villager becomes a Bull Warrior if the Pilgrims are too slow.

5 Turn Tokens go on the Villager token at set-up (the quest's ``timers.villager_transformation_turn_tokens``); one
comes off in each End Phase; in a Maintenance Phase with none left, a Bull Warrior (Berrok) replaces the token. A
rescued Villager leaves the board with its tokens, and a replaced one can no longer be rescued.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.journey.resolution import Resolution

BULL_WARRIOR = "berrok"


def turn_tokens(quest: Mapping[str, Any], villagers: list[str]) -> dict[str, int]:
    """The Turn Tokens stacked on each Villager token at set-up."""
    count = (quest.get("timers") or {}).get("villager_transformation_turn_tokens")
    return {villager: count for villager in villagers} if count else {}


def _waiting(res: Resolution) -> dict[str, int]:
    rescued = {v for sheet in res.game["heroes"].values() for v in sheet["villagers"]}
    gone = rescued | set(res.game.get("villagers_replaced") or [])
    return {v: left for v, left in (res.game.get("villager_turn_tokens") or {}).items() if v not in gone}


def end_phase(res: Resolution) -> None:
    for villager, left in sorted(_waiting(res).items()):
        if left > 0:
            res.add({"kind": "villager-turn-token-removed", "villager": villager, "left": left - 1})


def maintenance(res: Resolution) -> None:
    for villager, left in sorted(_waiting(res).items()):
        if left == 0:
            res.add({"kind": "villager-token-replaced", "villager": villager, "by": BULL_WARRIOR, "facing": None, "reason": "Transformation (L706)"})
            n = 1
            while f"{BULL_WARRIOR}-{n}" in res.game["demons"]:
                n += 1
            res.add({"kind": "demon-spawned", "demon": f"{BULL_WARRIOR}-{n}", "character": BULL_WARRIOR, "gate": None, "card": None, "reason": f"{villager} transformed (L706)", "promoted_from": None})
