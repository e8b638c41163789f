"""The session's game state: folded from Kung Fu Panda's events, plain JSON throughout.

The reserve supply is not stored: it is each enemy's miniatures less those on the board,
so a knock-out (back to the reserve) or a spawn (out of it) can never make the counts disagree.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

RESERVE_ENEMIES = ("wolf-spearman", "wolf-slasher", "ox-grunt")


def enemies_on(game: Mapping[str, Any], tile: str) -> dict[str, int]:
    return {enemy: n for enemy, n in game.get("enemies", {}).get(tile, {}).items() if n}


def on_board(game: Mapping[str, Any], enemy: str) -> int:
    return sum(tile.get(enemy, 0) for tile in game.get("enemies", {}).values())


def reserve(game: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, int]:
    miniatures = {c["id"]: c["miniatures"] for c in data["characters"] if c.get("in_reserve_supply")}
    return {enemy: miniatures[enemy] - on_board(game, enemy) for enemy in RESERVE_ENEMIES}


def limit_count(game: Mapping[str, Any], tile: str, excluded: list[str]) -> int:
    """Enemies on a tile that count toward its limit (Tai Lung, Wolf Boss and Ox Grunts do not)."""
    return sum(n for enemy, n in enemies_on(game, tile).items() if enemy not in excluded)


def standing_heroes(game: Mapping[str, Any]) -> list[str]:
    return [hero for hero, h in game["heroes"].items() if not h["ko"]]


def _add_enemies(game: dict[str, Any], tile: str, enemy: str, count: int) -> None:
    tiles = game.setdefault("enemies", {})
    here = tiles.setdefault(tile, {})
    here[enemy] = here.get(enemy, 0) + count
    if here[enemy] <= 0:
        del here[enemy]
    if not here:
        del tiles[tile]


FIGURES_ON_THE_BOARD = ("tai-lung", "wolf-boss")  # single figures kept both in ``figures`` and in the enemy map


def _move_figure(g: dict[str, Any], figure: str, to: str) -> None:
    """A figure moved by a Play space or a pause: Tai Lung and the Wolf Boss are enemies on a tile too, so Fight
    Back (L128, L356, L419) finds them where they now stand."""
    figures = g.setdefault("figures", {})
    if figure in FIGURES_ON_THE_BOARD:
        here = figures.get(figure) or next((t for t, counts in g.get("enemies", {}).items() if counts.get(figure)), None)
        if here is not None and game_on(g, here, figure):
            _add_enemies(g, here, figure, -1)
        _add_enemies(g, to, figure, 1)
    figures[figure] = to


def game_on(game: Mapping[str, Any], tile: str, enemy: str) -> bool:
    return bool(game.get("enemies", {}).get(tile, {}).get(enemy))


def _remove(pool: list[str], results: list[str]) -> list[str]:
    left = list(pool)
    for result in results:
        left.remove(result)
    return left


def fold(game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    kind = change["kind"]
    if kind == "mission-set-up":
        return {key: copy.deepcopy(value) for key, value in change.items() if key != "kind"} | {
            "round": 0,
            "phase": "ready",
            "entry": None,
            "rounds": [],
            "pools": {},
            "knocked_out": {},
            "tokens": {},
            "dumplings": None,
            "result": None,
            "villagers": {v: {"tile": tile, "rescued": False} for v, tile in change.get("villagers", {}).items()},
            "carts": dict(change.get("carts", {})),
            "carts_reached": [],
        }
    g = copy.deepcopy(dict(game))
    heroes = g.get("heroes", {})
    if kind == "round-started":
        g["round"] = change["round"]
        g["phase"] = "round"
        g["entry"] = change["entry"]
        g["pools"] = {hero: list(results) for hero, results in g.pop("kept", {}).items()}
        g["rounds"].append({"round": change["round"], "entry": change["entry"]})
    elif kind == "pool-rolled":
        g["pools"][change["hero"]] = list(change["pool"])
        if g["entry"] == "summary":
            g["entry"] = "mixed"
            g["rounds"][-1]["entry"] = "mixed"
    elif kind == "dial-advanced":
        heroes[change["hero"]]["dial"] = change["position"]
        if change.get("claws_spent"):
            g["pools"][change["hero"]] = [r for r in g["pools"].get(change["hero"], []) if r != "Claws"]
    elif kind == "enemy-spawned":
        _add_enemies(g, change["tile"], change["enemy"], change.get("count", 1))
    elif kind == "hero-damaged":
        heroes[change["hero"]]["health"] = change["health"]
    elif kind == "hero-knocked-out":
        heroes[change["hero"]]["ko"] = True
        g["pools"].pop(change["hero"], None)
    elif kind == "play-effect-resolved":
        if change.get("to"):
            _move_figure(g, change["figure"], change["to"])
        for villager, tile in change.get("villagers", {}).items():
            g["villagers"][villager]["tile"] = tile
        for move in change.get("grunts", []):
            _add_enemies(g, move["from"], "ox-grunt", -move["count"])
            _add_enemies(g, move["to"], "ox-grunt", move["count"])
    elif kind == "dice-spent":
        for hero, results in change["heroes"].items():
            g["pools"][hero] = _remove(g["pools"].get(hero, []), results)
    elif kind == "enemy-knocked-out":
        _add_enemies(g, change["tile"], change["enemy"], -change["count"])
        if change["enemy"] in FIGURES_ON_THE_BOARD:
            g.get("figures", {}).pop(change["enemy"], None)
        g["knocked_out"][change["enemy"]] = g["knocked_out"].get(change["enemy"], 0) + change["count"]
    elif kind == "hero-revived":
        heroes[change["hero"]].update(ko=False, health=change["health"])
    elif kind == "health-regained":
        heroes[change["hero"]]["health"] = change["health"]
    elif kind == "hero-moved":
        heroes[change["hero"]]["tile"] = change["to"]
    elif kind == "token-collected":
        g["tokens"][change["token"]] = g["tokens"].get(change["token"], 0) + change.get("count", 1)
        if change["token"] == "dumplings":
            g["dumplings"] = change["by"]
        if change["token"] == "lever" and change.get("tile"):
            g.setdefault("levers", []).append(change["tile"])
    elif kind == "tai-lung-wounded":
        _move_figure(g, "tai-lung", change["to"])
    elif kind == "villager-rescued":
        g["villagers"][change["villager"]] = {"tile": None, "rescued": True}  # off the board, to safety
    elif kind == "ox-grunt-moved":
        _add_enemies(g, change["from"], "ox-grunt", -change["count"])
        _add_enemies(g, change["to"], "ox-grunt", change["count"])
    elif kind in ("tile-cycled", "kitchen-lost"):
        for enemy, n in change["discarded"].items():
            _add_enemies(g, change["tile"], enemy, -n)
        for hero, tile in change["heroes_moved"].items():
            heroes[hero]["tile"] = tile
        g["line"] = list(change["line"])
        if kind == "kitchen-lost":
            g["kitchen_lost"] = True
    elif kind == "cart-pushed":
        g["carts"][change["cart"]] = change["to"]
        if change["to"] in g["spawn_points"].values() and change["to"] not in g.setdefault("carts_reached", []):
            g["carts_reached"].append(change["to"])
    elif kind == "special-move-used":
        g.setdefault("special_moves_used", []).append({"hero": change["hero"], "card": change["card"]})
    elif kind == "round-summarised":
        if g["entry"] == "detail":
            g["entry"] = "mixed"
            g["rounds"][-1]["entry"] = "mixed"
    elif kind == "round-ended":
        g["phase"] = "pause" if g["result"] is None else "over"
        g["pools"] = {}
    elif kind == "pause-resolved":
        g["paused_after"] = change["after_round"]
        if change.get("kept"):
            g["kept"] = {hero: list(results) for hero, results in change["kept"].items()}
        if change.get("figure") and change.get("to"):
            _move_figure(g, change["figure"], change["to"])
        for villager, tile in change.get("villagers", {}).items():
            g["villagers"][villager]["tile"] = tile
        if change.get("wandered_off"):
            g["villagers"][change["wandered_off"]] = {"tile": change["wandered_to"], "rescued": False}
    elif kind == "entry-corrected":
        _correct(g, change["amend"])
    elif kind == "mission-won":
        g["result"] = {"result": "won", "round": change["round"]}
        g["phase"] = "over"
    elif kind == "mission-lost":
        g["result"] = {"result": "lost", "loss": change["loss"], "condition": change.get("condition"), "round": change["round"]}
        g["phase"] = "over"
    # dice-rolled-style records that change nothing else: spawn-skipped
    return g


def _correct(g: dict[str, Any], amend: Mapping[str, Any]) -> None:
    for hero, health in amend.get("health", {}).items():
        g["heroes"][hero]["health"] = health
        g["heroes"][hero]["ko"] = health == 0
    for hero, tile in amend.get("tiles", {}).items():
        g["heroes"][hero]["tile"] = tile
    for hero, position in amend.get("dials", {}).items():
        g["heroes"][hero]["dial"] = position
    for tile, counts in amend.get("enemies", {}).items():
        g.setdefault("enemies", {})[tile] = {enemy: n for enemy, n in counts.items() if n}
        if not g["enemies"][tile]:
            del g["enemies"][tile]
    for enemy, delta in amend.get("knocked_out", {}).items():
        g["knocked_out"][enemy] = g["knocked_out"].get(enemy, 0) + delta
    for token, count in amend.get("tokens", {}).items():
        g["tokens"][token] = count
    if "dumplings" in amend:
        g["dumplings"] = amend["dumplings"]
