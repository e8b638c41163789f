"""Kung Fu Panda's round and tiles as the table says them on the play page.

- L71: "The game is played in three-minute rounds ... with pauses in between": the mission is counted in rounds and
  pauses, not turns.
- Tiles are named (the rules data's "tiles", e.g. "s": Gatehouse); a mission lists the scene tiles it needs
  ("Scene tiles needed: a, d, G, ...", L242), so a field naming a tile offers those, by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TILE_FIELDS = ("to", "tile", "from", "spread_to", "start_tile")
# fields whose values (or whose map's keys and values) are tiles, in a set-up or an action: said by the tiles' names
TILE_MAPS = ("tiles", "spawn_points", "villagers", "carts", "figures", "end_tile", "guard_wall", "enemies", "moved", "line",
             "levers")


def turn_said(game: Mapping[str, Any]) -> str:
    number = int(game.get("round") or 0)
    phase = game.get("phase")
    if phase == "ready" or number == 0:
        return "Before the first round"
    if phase == "pause":
        return f"Pause after round {number}"
    if phase == "round":
        return f"Round {number}"
    return f"After round {number}"


def tile_name(tiles: Mapping[str, Any], tile: str) -> str:
    name = (tiles.get(tile) or {}).get("name")
    return f"{name} ({tile})" if name else str(tile)


def tile_names(tiles: Mapping[str, Any]) -> dict[str, str]:
    """Every tile's letter to its name as the table says it ("J": "Kitchen (J)"), for a refusal's lists of tiles."""
    return {tile: tile_name(tiles, tile) for tile in tiles}


# how the table enters a round (start-round's "entry"): each roll and spend as it happens, or the round's summary after
ENTRY = {"detail": "roll by roll", "summary": "as a summary"}


def field_names(tiles: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """Each field naming a tile, with every tile's name: "to": "t" is said "to Training Ground (t)"."""
    named = tile_names(tiles)
    return {**{field: named for field in (*TILE_FIELDS, *TILE_MAPS)}, "entry": ENTRY}


def choices(data: Mapping[str, Any], mission: Mapping[str, Any] | None, game: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    tiles = data.get("tiles") or {}
    needed = list((mission or {}).get("tiles") or tiles)
    on_board = [str(sheet.get("tile")) for sheet in (game.get("heroes") or {}).values() if sheet.get("tile")]
    offered = {tile: tile_name(tiles, tile) for tile in dict.fromkeys([*needed, *on_board])}
    out = {field: offered for field in TILE_FIELDS}
    named = {c["id"]: c.get("name") or c["id"] for c in data.get("characters", [])}
    for field, source in (("villager", "villagers"), ("cart", "carts")):
        found = game.get(source) or {}
        if isinstance(found, Mapping) and found:
            out[field] = {str(key): named.get(str(key), str(key).replace("-", " ").title()) for key in found}
    return out
