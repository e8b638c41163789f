"""The session's game state: folded from Kung Fu Panda's events, plain JSON throughout.

The reserve supply is not stored: it is each enemy's miniatures less those on the board,
so a knock-out (back to the reserve) or a spawn (out of it) can never make the counts disagree.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine.changes import Changes

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


# Each kind of change Kung Fu Panda records, declared once with its fold (tracker/rulesets/engine/changes.py).
CHANGES = Changes("tracker.rulesets.kung_fu_panda.events")
fold = CHANGES.fold


@CHANGES("mission-set-up", "MissionSetUp")
def _mission_set_up(g: dict[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
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


def _heroes(g: dict[str, Any]) -> dict[str, Any]:
    return g.get("heroes", {})


@CHANGES("round-started", "RoundStarted")
def _round_started(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["round"] = change["round"]
    g["phase"] = "round"
    g["entry"] = change["entry"]
    g["pools"] = {hero: list(results) for hero, results in g.pop("kept", {}).items()}
    g["rounds"].append({"round": change["round"], "entry": change["entry"]})


@CHANGES("pool-rolled", "DicePoolRolled")
def _pool_rolled(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["pools"][change["hero"]] = list(change["pool"])
    if g["entry"] == "summary":
        g["entry"] = "mixed"
        g["rounds"][-1]["entry"] = "mixed"


@CHANGES("dial-advanced", "DialAdvanced")
def _dial_advanced(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _heroes(g)[change["hero"]]["dial"] = change["position"]
    if change.get("claws_spent"):
        g["pools"][change["hero"]] = [r for r in g["pools"].get(change["hero"], []) if r != "Claws"]


@CHANGES("enemy-spawned", "EnemySpawned")
def _enemy_spawned(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _add_enemies(g, change["tile"], change["enemy"], change.get("count", 1))


CHANGES.declare("spawn-skipped", "SpawnSkipped")  # a record of a spawn that did not happen: nothing else changes


@CHANGES("hero-damaged", "HeroDamaged")
@CHANGES("health-regained", "HealthRegained")
def _health(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _heroes(g)[change["hero"]]["health"] = change["health"]


@CHANGES("hero-knocked-out", "HeroKnockedOut")
def _hero_knocked_out(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _heroes(g)[change["hero"]]["ko"] = True
    g["pools"].pop(change["hero"], None)


@CHANGES("play-effect-resolved", "PlayEffectResolved")
def _play_effect_resolved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change.get("to"):
        _move_figure(g, change["figure"], change["to"])
    for villager, tile in change.get("villagers", {}).items():
        g["villagers"][villager]["tile"] = tile
    for move in change.get("grunts", []):
        _add_enemies(g, move["from"], "ox-grunt", -move["count"])
        _add_enemies(g, move["to"], "ox-grunt", move["count"])


@CHANGES("dice-spent", "DiceSpent")
def _dice_spent(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    for hero, results in change["heroes"].items():
        g["pools"][hero] = _remove(g["pools"].get(hero, []), results)


@CHANGES("enemy-knocked-out", "EnemyKnockedOut")
def _enemy_knocked_out(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _add_enemies(g, change["tile"], change["enemy"], -change["count"])
    if change["enemy"] in FIGURES_ON_THE_BOARD:
        g.get("figures", {}).pop(change["enemy"], None)
    g["knocked_out"][change["enemy"]] = g["knocked_out"].get(change["enemy"], 0) + change["count"]


@CHANGES("hero-revived", "HeroRevived")
def _hero_revived(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _heroes(g)[change["hero"]].update(ko=False, health=change["health"])


@CHANGES("hero-moved", "HeroMoved")
def _hero_moved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _heroes(g)[change["hero"]]["tile"] = change["to"]


@CHANGES("token-collected", "TokenCollected")
def _token_collected(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["tokens"][change["token"]] = g["tokens"].get(change["token"], 0) + change.get("count", 1)
    if change["token"] == "dumplings":
        g["dumplings"] = change["by"]
    if change["token"] == "lever" and change.get("tile"):
        g.setdefault("levers", []).append(change["tile"])


@CHANGES("tai-lung-wounded", "TaiLungWounded")
def _tai_lung_wounded(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _move_figure(g, "tai-lung", change["to"])


@CHANGES("villager-rescued", "VillagerRescued")
def _villager_rescued(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["villagers"][change["villager"]] = {"tile": None, "rescued": True}  # off the board, to safety


@CHANGES("ox-grunt-moved", "OxGruntMoved")
def _ox_grunt_moved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _add_enemies(g, change["from"], "ox-grunt", -change["count"])
    _add_enemies(g, change["to"], "ox-grunt", change["count"])


@CHANGES("tile-cycled", "TileCycled")
@CHANGES("kitchen-lost", "KitchenLost")
def _tile_left(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    for enemy, n in change["discarded"].items():
        _add_enemies(g, change["tile"], enemy, -n)
    for hero, tile in change["heroes_moved"].items():
        _heroes(g)[hero]["tile"] = tile
    g["line"] = list(change["line"])
    if change["kind"] == "kitchen-lost":
        g["kitchen_lost"] = True


@CHANGES("cart-pushed", "CartPushed")
def _cart_pushed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["carts"][change["cart"]] = change["to"]
    if change["to"] in g["spawn_points"].values() and change["to"] not in g.setdefault("carts_reached", []):
        g["carts_reached"].append(change["to"])


@CHANGES("special-move-used", "SpecialMoveUsed")
def _special_move_used(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("special_moves_used", []).append({"hero": change["hero"], "card": change["card"]})


@CHANGES("round-summarised", "RoundSummarised")
def _round_summarised(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if g["entry"] == "detail":
        g["entry"] = "mixed"
        g["rounds"][-1]["entry"] = "mixed"


@CHANGES("round-ended", "RoundEnded")
def _round_ended(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["phase"] = "pause" if g["result"] is None else "over"
    g["pools"] = {}


@CHANGES("pause-resolved", "PauseResolved")
def _pause_resolved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["paused_after"] = change["after_round"]
    if change.get("kept"):
        g["kept"] = {hero: list(results) for hero, results in change["kept"].items()}
    if change.get("figure") and change.get("to"):
        _move_figure(g, change["figure"], change["to"])
    for villager, tile in change.get("villagers", {}).items():
        g["villagers"][villager]["tile"] = tile
    if change.get("wandered_off"):
        g["villagers"][change["wandered_off"]] = {"tile": change["wandered_to"], "rescued": False}


@CHANGES("entry-corrected", "EntryCorrected")
def _entry_corrected(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    _correct(g, change["amend"])


@CHANGES("mission-won", "MissionWon")
def _mission_won(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["result"] = {"result": "won", "round": change["round"]}
    g["phase"] = "over"


@CHANGES("mission-lost", "MissionLost")
def _mission_lost(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["result"] = {"result": "lost", "loss": change["loss"], "condition": change.get("condition"), "round": change["round"]}
    g["phase"] = "over"


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
