"""Which side takes an action: tokens bound to a side may only act for it (the access layer asks GameRules.acting_side).

The overlord plays, discards and relics his cards, spends threat, places dark glyphs, draws for a Power glyph and
attacks glyphs with his monsters (Zorek in quest 6); anything done with his deck is his. The heroes roll for prolonged
actions, activate glyphs, open chests, restore glyphs (quest 3), shop, and drink potions. Records either side may
make at the table (threat from corrupted terrain, conquest awards, deaths, curses, frost, disruption, the end of a turn)
belong to no side."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tracker.rulesets.descent.common import OVERLORD

HEROES = frozenset(c["id"] for c in json.loads((Path(__file__).parent / "ruleset.json").read_text(encoding="utf-8"))["characters"])

OVERLORD_ACTIONS = frozenset({
    "discard-for-threat", "play-overlord-card", "play-dark-relic", "spend-threat", "power-glyph-draw", "power-glyph-keep",
    "place-glyph", "damage-glyph", "summoning-spawn", "zorek-gaze", "sacrifice-clock", "thing-devours", "monkey-kings-line", "move-fissures", "turn-description", "move-crushing-walls", "place-monsters", "move-monsters", "secret-room-roll", "monster-condition-turn-start",
    "start-overlord-turn",
})
HERO_ACTIONS = frozenset({
    "prolonged-roll", "complete-prolonged", "activate-glyph", "open-chest", "restore-glyph", "buy-treasure", "sell-chest-treasure",
    "drink-potion", "use-invulnerability", "frost-turn-start", "town-travel", "close-stone-door", "buy-potion", "open-cell", "condition-turn-start", "open-zone-2-door", "activate-altar", "spirit-convinced", "push-crushing-wall", "disarm-crushing-trap", "ready", "stunned-half-action", "spend-fatigue", "recover", "sharr-cleanses-glyph",
    "start-hero-turn", "end-hero-turn",
    "correct",  # a hero's sheet: the owner, or the heroes' side for their own heroes
})


def acting_side(action: Mapping[str, Any]) -> str | None:
    kind = action.get("type")
    if not isinstance(kind, str):
        return None  # not an action at all: the schema check that follows refuses it
    if kind == "attack":  # the attacker's side acts: a hero of the game's data, else a monster figure, the overlord's
        attacker = action.get("attacker")
        return "heroes" if isinstance(attacker, str) and attacker in HEROES and not action.get("dark_charm") else OVERLORD
    if kind in OVERLORD_ACTIONS or action.get("deck") == OVERLORD or action.get("holder") == OVERLORD:
        return OVERLORD
    if kind in HERO_ACTIONS:
        return "heroes"
    return None


def side_of_action_type(kind: str) -> str | None:
    """The side that takes an action of this type whatever its body says; None where either side may (an attack
    is the attacker's side's; records either side makes at the table)."""
    if kind == "attack":
        return None
    return acting_side({"type": kind})
