"""What may be done now in a Yōkai Quest scene, and by whom: "a turn is a Hero phase, then a Yōkai phase" (L152).

Each resolver still checks its own conditions (energy, a yōkai in play); an entry here is "legal in this
phase", not a promise that every body will be accepted. Attacks go both ways: heroes attack in their
phase, yōkai attack heroes in theirs, so ``attack`` is listed in both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.engine import allowed
from tracker.rulesets.engine.deck_actions import NAMES as DECK_ACTIONS

# A hero's activation: the basic movement (entering from the entrance first, L214) and two actions (L398).
HEROES_ACT = ("move", "attack", "draw-energy", "use-ability", "use-item", "end-activation", "equip", "unequip", "discard-item", "draw-treasure")
HERO_PHASE = ("foe-appeared", "foe-recovered", "lose-tokens", "begin-yokai-phase")
YOKAI_PHASE = ("draw-appearance", "yokai-appear", "yokai-token", "attack", "lose-tokens", "foe-appeared", "foe-recovered", "end-turn")


def allowed_now(game: Mapping[str, Any], actions: Sequence[str]) -> list[dict[str, Any]]:
    phase = game.get("phase")
    standing = [hero for hero, sheet in sorted((game.get("heroes") or {}).items()) if not sheet.get("defeated")]
    entries: list[dict[str, Any]] = []
    if phase == "hero":
        # "each hero activates" (L158, L781): where the scene tracks activations, those still to activate act,
        # and the Yōkai phase begins once none is left (L152, L164).
        waiting = [hero for hero in standing if hero not in game.get("activated", [])] if "activated" in game else standing
        entries.extend(allowed.entry(name, waiting) for name in HEROES_ACT if waiting and (name != "draw-energy" or "energy_drawn" not in game))
        if "energy_drawn" in game:
            # "First, all the heroes replenish energy", one card each (L156), before the activations begin (L158).
            begun = game.get("activation") or game.get("activated")
            drawing = [] if begun else [hero for hero in standing if hero not in game["energy_drawn"]]
            if drawing:
                entries.append(allowed.entry("draw-energy", drawing))
        entries.extend(allowed.entry(name) for name in HERO_PHASE if name != "begin-yokai-phase" or not waiting or "activated" not in game)
    elif phase == "yokai":
        entries.extend(allowed.entry(name) for name in YOKAI_PHASE)
    if phase in ("hero", "yokai"):
        entries.append(allowed.entry("end-scene"))
        entries.append(allowed.entry("correct", sorted(game.get("heroes") or {})))
        entries.extend(allowed.anyone(DECK_ACTIONS, [a for a in actions if a != "end-turn"]))
    return [e for e in entries if e["type"] in actions]
