"""One line per Kung Fu Panda event for the session timeline, in the game's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.kung_fu_panda.table_words import ENTRY, TILE_FIELDS, tile_name


def describe(change: Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str | None:
    """The change's line; given the rules data, its tiles said by their names ("Hot Springs (r)", the data's "tiles"),
    never a bare letter ("to r")."""
    tiles = (data or {}).get("tiles")
    if tiles:
        change = {**change, **{f: tile_name(tiles, change[f]) for f in TILE_FIELDS if isinstance(change.get(f), str)}}
    try:
        return _line(change)
    except (KeyError, TypeError):
        return None  # a change of another shape: the timeline's generic line says its fields


def _line(change: Mapping[str, Any]) -> str | None:
    kind = change["kind"]
    if kind == "mission-set-up":
        # the set-up's own line says the mission was set up (the timeline's): this one says how it is played, once
        return f"Played in {change['mode']} mode by {change['players']} heroes"
    if kind == "round-started":
        return f"Round {change['round']}: 1, 2, KUNG FU! (entered {ENTRY.get(change['entry'], change['entry'])})"
    if kind == "pool-rolled":
        return f"{change['hero']} rolled {', '.join(change['results'])}; pool {', '.join(change['pool'])}"
    if kind == "dial-advanced":
        return f"{change['hero']}'s dial moved to space {change['position']} ({change['space']})"
    if kind == "enemy-spawned":
        return f"{change['count']} {change['enemy']} spawned on {change['tile']}"
    if kind == "spawn-skipped":
        return f"No {change['enemy']} spawned ({change['reason']})"
    if kind == "hero-damaged":
        return f"{change['hero']} lost {change['amount']} health ({change['health']} left)"
    if kind == "hero-knocked-out":
        return f"{change['hero']} is KO'd"
    if kind == "dice-spent":
        spent = "; ".join(f"{hero}: {', '.join(results)}" for hero, results in change["heroes"].items())
        return f"Spent for {change['for']}: {spent}"
    if kind == "enemy-knocked-out":
        return f"{change['count']} {change['enemy']} knocked out on {change['tile']}"
    if kind == "hero-revived":
        return f"{change['hero']} revived to {change['health']} health"
    if kind == "round-summarised":
        return f"Round {change['round']} entered as a summary"
    if kind == "round-ended":
        return f"Round {change['round']} ended; dice pools cleared"
    if kind == "pause-resolved":
        return f"Pause after round {change['after_round']}: {change['chi']} Chi, {change['claws']} Claws, {change['effect']}"
    if kind == "entry-corrected":
        return f"Correction of event {change['refers_to']}: {change['reason']}"
    if kind == "villager-rescued":
        return f"Villager {change['villager']} rescued from {change['tile']}"
    if kind == "cart-pushed":
        return f"Cart {change['cart']} pushed from {change['from']} to {change['to']}"
    if kind == "ox-grunt-moved":
        return f"{change['count']} Ox Grunt moved from {change['from']} to {change['to']} ({change['cause']})"
    if kind == "tile-cycled":
        return f"The {change['tile']} tile moved in front of the Wolf Boss; discarded {change['discarded'] or 'no enemies'}"
    if kind == "kitchen-lost":
        return "The Kitchen reached the beginning of the line and was lost" + (" with the dumplings" if change["dumplings_lost"] else "")
    if kind == "health-regained":
        return f"{change['hero']} regained {change['amount']} health ({change['health']} now)"
    if kind == "hero-moved":
        return f"{change['hero']} moved from {change['from']} to {change['to']}"
    if kind == "play-effect-resolved":
        who = f"{change['hero']}'s Play" if change.get("hero") else "The Play"
        return f"{who} moved {change['figure']} {change['direction']} from {change['from']} to {change['to']}"
    if kind == "special-move-used":
        return f"{change['hero']} used the Special Move {change['card']} ({change['chi']} Chi)"
    if kind == "tai-lung-wounded":
        return f"{_who(change['by'])} wounded Tai Lung: he fell back from {change['from']} to {change['to']}"
    if kind == "token-collected":
        return f"{_who(change['by'])} collected {change.get('count', 1)} {change['token']} token(s)" + (f" on {change['tile']}" if change.get("tile") else "")
    if kind == "mission-won":
        return f"Mission won in round {change['round']}"
    if kind == "mission-lost":
        return f"Mission lost ({change['loss']}) in round {change['round']}"
    return None


def _who(by: Any) -> str:
    """One hero, or several (a spend shared by heroes on one tile)."""
    return " and ".join(by) if isinstance(by, list) else str(by)
