"""Which side takes an action: tokens bound to a side may only act for it (the access layer asks GameRules.acting_side).

The overlord plays, discards and relics his cards, spends threat, places dark glyphs, draws for a Power glyph and
attacks glyphs with his monsters (Zorek in quest 6); anything done with his deck is his. The heroes roll for prolonged
actions, activate glyphs, open chests, restore glyphs (quest 3), shop, and drink potions. Records either side may
make at the table (threat from corrupted terrain, conquest awards, deaths, curses, frost, disruption, the end of a turn)
belong to no side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import OVERLORD

OVERLORD_ACTIONS = frozenset({
    "discard-for-threat", "play-overlord-card", "play-dark-relic", "spend-threat", "power-glyph-draw", "power-glyph-keep",
    "place-glyph", "damage-glyph", "summoning-spawn", "zorek-gaze", "sacrifice-clock", "thing-devours", "monkey-kings-line", "move-fissures", "turn-description", "move-crushing-walls",
})
HERO_ACTIONS = frozenset({
    "prolonged-roll", "complete-prolonged", "activate-glyph", "open-chest", "restore-glyph", "buy-treasure", "sell-chest-treasure",
    "drink-potion", "use-invulnerability", "frost-turn-start", "town-travel", "close-stone-door", "buy-potion", "open-cell", "condition-turn-start", "open-zone-2-door", "activate-altar", "spirit-convinced", "push-crushing-wall", "disarm-crushing-trap",
})


def acting_side(action: Mapping[str, Any]) -> str | None:
    kind = action.get("type")
    if kind in OVERLORD_ACTIONS or action.get("deck") == OVERLORD or action.get("holder") == OVERLORD:
        return OVERLORD
    if kind in HERO_ACTIONS:
        return "heroes"
    return None
