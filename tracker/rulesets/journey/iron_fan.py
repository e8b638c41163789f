"""Quest 8, Iron Fan's Interruption (L972-L979): her Defeats and her respawns with set allies.

- The Demon Deck is not used (L972). When Iron Fan is Defeated she is removed with every other Demon on the board;
  she is not Killed or Cleansed, so no Karma for her or for the Demons removed with her (L976).
- At the start of the next Demon Phase she respawns with new allies, placed first: 4 Bull Archers, then 3
  Bullserkers, then 2 Bull Generals (L973-L975, the quest's ``iron_fan_respawns``).
- Her fourth Defeat ends the quest (L979), which verdict.py reads from the Defeats recorded here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey.resolution import Resolution

IRON_FAN = "yazuiji"


def _respawns(res: Resolution) -> list[Mapping[str, Any]] | None:
    return res.ctx.ruleset.quest(res.game["quest"]).get("iron_fan_respawns")


def defeated(res: Resolution, target: str, outcome: str | None) -> bool:
    """Iron Fan Defeated in Quest 8: she and every other Demon leave the board without Karma. True when handled."""
    if _respawns(res) is None or res.game["demons"].get(target) != IRON_FAN:
        return False
    if outcome in ("kill", "cleanse"):
        raise Unprocessable(
            "Iron Fan is not Killed or Cleansed in Quest 8",
            detail='She and her minions are removed as soon as she is Defeated, with no Karma (L976): send no "outcome", or "interrupted".',
            errors={"outcome": [outcome]},
        )
    res.add({"kind": "demon-removed", "demon": target, "character": IRON_FAN, "reason": "Iron Fan Defeated (L976)", "karma": False})
    for demon, character in sorted(res.game["demons"].items()):
        res.add({"kind": "demon-removed", "demon": demon, "character": character, "reason": "removed with Iron Fan (L972, L976)", "karma": False})
    return True


def respawn(res: Resolution) -> None:
    """The start of the Demon Phase after a Defeat: the allies of this respawn, then Iron Fan (L972-L975)."""
    schedule = _respawns(res)
    defeats = ((res.game.get("record") or {}).get("defeats") or {}).get(IRON_FAN, 0)
    if not schedule or IRON_FAN in res.game["demons"].values() or defeats == 0 or defeats > len(schedule):
        return
    allies = schedule[defeats - 1]
    for entry in allies["allies"]:
        for _ in range(entry["count"]):
            _place(res, entry["character"], f"Iron Fan's respawn {allies['respawn']}: her allies first (L973-L975)")
    _place(res, IRON_FAN, f"Iron Fan's respawn {allies['respawn']} (L972)")


def _place(res: Resolution, character: str, reason: str) -> None:
    n = 1
    while f"{character}-{n}" in res.game["demons"]:
        n += 1
    res.add({"kind": "demon-spawned", "demon": f"{character}-{n}", "character": character, "gate": None, "card": None, "reason": reason, "promoted_from": None})
