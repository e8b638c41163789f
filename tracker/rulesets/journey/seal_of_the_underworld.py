"""Quest 10 Part 2's Sealing Ritual (L1096-L1099), the act that wins the campaign's finale.

With no Demon Lord in the lair, Tripitaka, adjacent to the broken Seal of the Underworld, spends 1 AP to throw the
4 Sutra Tokens collected in the Village into it. The service does not see the board: the request is the table's
word that he stands adjacent; the rest (the Lords, the Sutras, his Action Points) the log checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey.lair import lords, quest_of
from tracker.rulesets.journey.resolution import Resolution
from tracker.rulesets.journey.turns import spend


def sealing_ritual(res: Resolution, params: Mapping[str, Any]) -> None:
    hero = params["hero"]
    ritual = quest_of(res).get("sealing_ritual")
    if not ritual:
        raise Unprocessable("The Sealing Ritual belongs to Quest 10 Part 2", detail="L1096-L1099.", errors={"type": ["Not in this quest."]})
    if hero != "tripitaka":
        raise Unprocessable("Only Tripitaka completes the Sealing Ritual", detail="L1096-L1099.", errors={"hero": [hero]})
    spend(res, hero, ritual["ap"])
    in_lair = sorted(d for d, c in res.game["demons"].items() if c in lords(res))
    if in_lair:
        raise Unprocessable(
            f"Demon Lords are still in the lair: {', '.join(in_lair)}",
            detail="The Sealing Ritual needs no Demon Lords in the lair (L1097); a Killed Lord waits off the board until it respawns (L1089).",
            errors={"type": [f"Lords in the lair: {in_lair}"]},
        )
    held = list(res.hero(hero)["sutras"])
    if len(held) < ritual["sutras"]:
        raise Unprocessable(
            f"Tripitaka holds {len(held)} Sutra Token(s)",
            detail=f"He throws the {ritual['sutras']} Sutra Tokens collected in the Village into the Seal (L1099).",
            errors={"hero": [f"{len(held)} Sutras"]},
        )
    res.add({"kind": "sealing-ritual-completed", "hero": hero, "ap": ritual["ap"], "sutras": held})
