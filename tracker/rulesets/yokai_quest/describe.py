"""One timeline line per game change, in the game's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine import correction


def _attacker(change: Mapping[str, Any]) -> str:
    initiative = change.get("initiative")
    return change["attacker"] if initiative is None else f"{change['attacker']} (initiative {initiative})"


_LINES = {
    "scene-set-up": lambda c: f"Scene {c['game']['scene']} set up (attempt {c['game']['attempt']}, health {c['game']['health_policy']})",
    "energy-gained": lambda c: f"{c['hero']} gains {c['amount']} energy ({c['reason']}), now {c['energy']}",
    "energy-lost": lambda c: f"{c['hero']} {'spends' if c.get('spent') else 'loses'} {c['amount']} energy ({c['reason']}), now {c['energy']}",
    "health-lost": lambda c: f"{c['hero']} loses {c['amount']} health ({c['reason']}), now {c['health']}",
    "health-recovered": lambda c: f"{c['hero']} recovers {c['amount']} health ({c['reason']}), now {c['health']}",
    "attack-resolved": lambda c: f"{_attacker(c)} attacks {c['defender']}: {c['katanas']} katana, {c['helmets']} helmet, {c['blows']} blow(s)",
    "chief-wounded": lambda c: f"{c['foe']} takes {c['blows']} blow(s), {c['health']} health left",
    "yokai-defeated": lambda c: f"{c['foe'] or c['yokai']} defeated on turn {c['turn']}",
    "foe-appeared": lambda c: f"{c['foe']} appears with {c['health']} health",
    "yokai-phase-began": lambda c: f"Yōkai phase of turn {c['turn']}: coins {c['coins']}; cards due at {c['appearance_points'] or 'no point'}; initiative {c['initiative']}",
    "appearance-drawn": lambda c: f"Appearance card {c['card']} drawn for the {c['point']} point",
    "yokai-appeared": lambda c: f"{c['yokai']} appear at {c['at']} ({c['reason']})" + (f", {c['discarded']} discarded: no miniature left" if c["discarded"] else ""),
    "yokai-token-placed": lambda c: f"{c['count']} {c['token']} token(s) on {c['yokai']}",
    "coin-turned": lambda c: f"The {c['coin']} coin turns to {c['face']} ({c['reason']})",
    "yokai-phase-ended": lambda c: f"Yōkai phase of turn {c['turn']} ends" + (f": {c['tokens_removed']} removed" if c["tokens_removed"] else ""),
    "foe-recovered": lambda c: f"{c['foe']} recovers {c['amount']} health ({c['ability']}, {c['source']}), now {c['health']}",
    "treasure-token-added": lambda c: f"Treasure token added ({c['reason']}): reserve {c['reserve']}",
    "treasure-found": lambda c: f"Treasure reserve reached {c['reserve_emptied']}: each hero draws a treasure card",
    "treasure-card-drawn": lambda c: f"{c['hero']} draws {c['card']} ({c['reason']})",
    "treasure-card-discarded": lambda c: f"{c['hero']} discards {c['card']} ({c['reason']})",
    "item-equipped": lambda c: f"{c['hero']} equips {c['card']} as {c['slot']}" + (f", {c['replaced']} back to hand" if c["replaced"] else ""),
    "item-unequipped": lambda c: f"{c['hero']} takes {c['card']} back into hand",
    "ability-used": lambda c: f"{c['hero']} uses {c['ability']}",
    "item-used": lambda c: f"{c['hero']} uses {c['item']}",
    "altered-state-received": lambda c: f"{c['hero']} receives a {c['state']} token",
    "activation-began": lambda c: f"{c['hero']} activates (turn {c['turn']})",
    "hero-acted": lambda c: f"{c['hero']} spends {c['actions']} action(s) on {c['name'] or c['action']}: {c['actions_used']} of {c['of']} used",
    "hero-moved": lambda c: f"{c['hero']} makes the {'basic movement' if c['movement'] == 'basic' else 'run'}" + (" and enters the board" if c.get("entered") else ""),
    "activation-ended": lambda c: f"{c['hero']}'s activation ends",
    "hero-defeated": lambda c: f"{c['hero']} is defeated",
    "hero-revived": lambda c: f"{c['hero']} is brought back by {c['by']} with {c['health']} health",
    "turn-effects-expired": lambda c: f"Turn {c['turn']}: empowerments expire",
    "achievement-earned": lambda c: f"Achievement earned: {c['achievement']}",
    "scene-ended": lambda c: f"Scene ended in {c['outcome']}" + (f": {c['reason']}" if c.get("reason") else ""),
    "hero-returned": lambda c: f"{c['hero']} returns for the next scene with {c['health']} health",
    "defeat-penalty-applied": lambda c: f"Defeat penalty: {c['text']}",
}


def describe(change: Mapping[str, Any]) -> str | None:
    if change["kind"] == correction.KIND:
        return correction.describe(change)
    say = _LINES.get(change["kind"])
    return say(change) if say else None
