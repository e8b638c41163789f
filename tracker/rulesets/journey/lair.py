"""Quest 10, the Lair: Part 1's timed Gates and Part 2's Demon Lords, Summoning Mantra and Sealing Ritual.

Part 1 (L1055-L1057): the lower-left Gate starts with 4 Turn Tokens and the top-right with 8; each End of Turn
Phase one comes off each Gate that still has some, and a Gate with Turn Tokens is inactive.

Part 2 (L1084-L1099):
- Only the two single Gates spawn; the 3-square Gate is the broken Seal of the Underworld (set up as data).
- Summoning Mantra: each Demon Lord with no Pilgrim on its Map Tile chants at the start of the Demon Phase; per
  chanting Lord 2 Spawn Cards, spawned alternately from the two single Gates (L1087-L1088). The table names the
  chanting Lords, since the service does not see the Map Tiles.
- A Killed Demon Lord leaves the board with Turn Tokens (Kogaiji 10, Iron Fan 7, the Bull Demon King 2); one
  comes off each End of Turn Phase and it respawns in the Maintenance Phase when none remain. A Cleansed Lord is
  gone for good (L1089-L1094).
- The Sealing Ritual is in seal_of_the_underworld.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey.resolution import Resolution


def quest_of(res: Resolution) -> Mapping[str, Any]:
    return res.ctx.ruleset.quest(res.game["quest"])


def gate_turn_tokens(res: Resolution) -> None:
    """End of Turn: a Turn Token off each timed Gate; the Gate activates when its last one goes (L1057)."""
    for gate, left in sorted((res.game.get("gate_turn_tokens") or {}).items()):
        if left <= 0:
            continue
        res.add({"kind": "gate-turn-token-removed", "gate": gate, "left": left - 1})
        if left - 1 == 0 and res.game["gates"].get(gate) == "inactive":
            res.add({"kind": "gate-state-changed", "gate": gate, "from": "inactive", "to": "active", "reason": "its last Turn Token was removed (L1057)"})


def refuse_timed_gate(res: Resolution, gate: str, to: str) -> None:
    left = (res.game.get("gate_turn_tokens") or {}).get(gate, 0)
    if to == "active" and left > 0:
        raise Unprocessable(
            f"{gate} still holds {left} Turn Token(s)",
            detail="Gates with Turn Tokens are inactive; one comes off each End of Turn Phase (L1057).",
            errors={"gate": [gate]},
        )


def lords(res: Resolution) -> list[str]:
    return list(quest_of(res).get("demon_lords") or [])


def lord_killed(res: Resolution, character: str) -> None:
    """A Killed Demon Lord waits off the board behind the Seal with its Turn Tokens (L1089-L1093)."""
    timers = quest_of(res).get("lord_respawn_turn_tokens") or {}
    if character in lords(res) and character in timers:
        res.add({"kind": "demon-lord-banished", "character": character, "turn_tokens": timers[character], "reason": "Killed: the earthly body respawns (L1089-L1090)"})


def lord_turn_tokens(res: Resolution) -> None:
    for character, left in sorted((res.game.get("banished") or {}).items()):
        if left > 0:
            res.add({"kind": "demon-lord-turn-token-removed", "character": character, "left": left - 1})


def lords_respawn(res: Resolution) -> None:
    """Maintenance: Lords with no Turn Tokens left return on (or near) their starting square (L1090, L1094)."""
    for character, left in sorted((res.game.get("banished") or {}).items()):
        if left == 0:
            res.add({"kind": "demon-lord-returned", "character": character})
            n = 1
            while f"{character}-{n}" in res.game["demons"]:
                n += 1
            res.add({"kind": "demon-spawned", "demon": f"{character}-{n}", "character": character, "gate": None, "card": None, "reason": "Demon Lord respawns (L1090)", "promoted_from": None})


def mantra_order(res: Resolution, params: Mapping[str, Any], gates: list[str]) -> list[str] | None:
    """Where each Spawn Card goes under the Summoning Mantra: 2 per chanting Lord, alternately from the two single
    Gates in the order the table gives (L1088); None when this quest has no Summoning Mantra."""
    per_lord = quest_of(res).get("summoning_mantra_cards_per_lord")
    if not per_lord:
        if params.get("chanting"):
            raise Unprocessable("Only Demon Lords in Quest 10 Part 2 chant the Summoning Mantra", detail="L1087-L1088.", errors={"chanting": ["Not in this quest."]})
        return None
    chanting = list(params.get("chanting") or [])
    for demon in chanting:
        if res.game["demons"].get(demon) not in lords(res):
            in_lair = sorted(d for d, c in res.game["demons"].items() if c in lords(res))
            raise Unprocessable(
                f"'{demon}' is not a Demon Lord in the lair",
                detail=f"Demon Lords in the lair: {in_lair or 'none'} (L1087).",
                errors={"chanting": [f"Unknown or not a Lord in play: {demon}; Lords in the lair: {in_lair}"]},
            )
    return [gates[i % len(gates)] for i in range(per_lord * len(chanting))]
