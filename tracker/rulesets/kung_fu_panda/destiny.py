"""Claws: each moves the hero's Dial of Destiny one space clockwise and the new space's effect is
resolved in order, before any other result is spent. The dial faces are lost, so the table reads
each space off the physical dial."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.kung_fu_panda import rickshaw
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.plan import Plan, tile_terrain


def resolve_claws(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_round()
    hero = params["hero"]
    plan.able(hero)
    claws = plan.game["pools"].get(hero, []).count("Claws")
    if not claws:
        raise Unprocessable(f"{hero} has no Claws to resolve", detail=f"{hero}'s pool: {plan.game['pools'].get(hero, [])}.")
    spaces = params.get("spaces", [])
    ignore = bool(params.get("ignore_effects"))
    if ignore and plan.game["mode"] != "young-masters":
        raise Unprocessable(
            "Only Young Masters may ignore Claws effects",
            detail="'You can also choose to ignore Claws effects' is a Young Masters rule (L204).",
            errors={"ignore_effects": ["Young Masters only."]},
        )
    if not plan.dials_used():
        plan.add({"kind": "dial-advanced", "hero": hero, "position": plan.game["heroes"][hero]["dial"], "claws": claws, "space": "ignored", "claws_spent": True})
        return plan.changes
    # "For each Claws result on the Action Dice, the counter moves one space clockwise. When the counter enters each
    # space, the effect there must be resolved" (L120): one space named per move
    moves = claws * plan.data["destiny"]["moves_per_claws"]
    if len(spaces) != moves:
        raise Unprocessable(
            f"{hero} rolled {claws} Claws, so name {moves} dial spaces",
            detail="The dial faces were lost from the rulebook: read each space the counter enters off the physical dial, in order.",
            errors={"spaces": [f"Expected {moves} spaces."]},
        )
    for index, space in enumerate(spaces):
        h = plan.game["heroes"][hero]
        if h["ko"] or plan.game["result"]:
            break  # a KO'd hero takes no further part in the round
        last = index == len(spaces) - 1
        ignored = ignore and space["space"] != "play"  # Young Masters still use the Play space (L204)
        plan.add({"kind": "dial-advanced", "hero": hero, "position": h["dial"] + 1, "space": space["space"], "claws_spent": last, **({"ignored": True} if ignored else {})})
        if not ignored:
            _resolve_space(plan, hero, space)
    return plan.changes


def _resolve_space(plan: Plan, hero: str, space: Mapping[str, Any]) -> None:
    kind = space["space"]
    if kind == "spawn":
        spawn_from_dial(plan, hero, space)
    elif kind == "fight-back":
        fight_back(plan, hero)
    elif kind == "play":
        effect = plan.mission["play_effect"]
        if effect["effect"] == "move-figure":
            if _stops_on_a_hero(plan, effect, space):
                plan.add({"kind": "play-effect-resolved", "hero": hero, "figure": effect["figure"], "direction": effect["direction"], "stopped": True})
                return
            moves = figure_moves(plan, effect["figure"], space, "spaces", effect["direction"])
            plan.add({"kind": "play-effect-resolved", "hero": hero, "figure": effect["figure"], "direction": effect["direction"], **moves})


def _stops_on_a_hero(plan: Plan, effect: Mapping[str, Any], space: Mapping[str, Any]) -> bool:
    """3.3: 'After the heroes read the scroll, Tai Lung will still move towards the Dragon Scroll tile but he will
    stop on any tile with at least one hero on it' (L418)."""
    after = effect.get("stops_on_heroes_after")
    at = plan.game.get("figures", {}).get(effect["figure"])
    if not after or not plan.game["tokens"].get(after) or at is None:
        return False
    if not any(h["tile"] == at for h in plan.game["heroes"].values()):
        return False
    if space.get("to") and space["to"] != at:
        raise Unprocessable(
            f"The {effect['figure']} stops on {at}: a hero is there",
            detail="After the scroll is read he stops on any tile with at least one hero on it (L418); leave \"to\" out.",
            errors={"spaces": ["He stops."]},
        )
    return True


def figure_moves(plan: Plan, figure: str, params: Mapping[str, Any], field: str, direction: str | None = None) -> dict[str, Any]:
    """Where a moved figure now stands, named by the table (the mission maps are lost): Tai Lung and the Wolf Boss
    need their tile so Fight Back finds them there (L128, L356); 3.2's move is of ALL villagers (L396, L409)."""
    if figure in game_state.FIGURES_ON_THE_BOARD:
        if figure not in plan.game.get("figures", {}):
            return {}  # not on the board (knocked out, or never placed): nothing to move
        if figure == "wolf-boss" and plan.game.get("line"):
            return _along_the_line(plan, params, field, direction or "forward")
        if not params.get("to"):
            raise Unprocessable(
                f"Say which tile the {figure} moves to",
                detail=f'Send "to": the {figure} moves {plan.mission["play_effect"].get("direction", "")} one tile from {plan.said(plan.game["figures"][figure])}.',
                errors={field: ["to is missing."]},
            )
        return {"from": plan.game["figures"][figure], "to": plan.tile(params["to"], f"{field}.to")}
    if figure == "ox-grunt":
        return {"grunts": _grunt_moves(plan, params.get("grunts", []), field)}
    if figure == "villagers":
        on_board = sorted(v for v, villager in plan.game.get("villagers", {}).items() if not villager["rescued"])
        moved = dict(params.get("villagers", {}))
        for name, tile in moved.items():
            plan.villager(name, f"{field}.villagers")
            plan.tile(tile, f"{field}.villagers")
        if sorted(moved) != on_board:
            raise Unprocessable(
                "Move ALL villagers one tile forward",
                detail=f'Send "villagers": {{villager: tile}} for each of {on_board} ("move ALL villagers", L396, L409).',
                errors={field: ["Every villager moves."]},
            )
        return {"villagers": moved}
    return {"to": plan.tile(params["to"], f"{field}.to")} if params.get("to") else {}


def _along_the_line(plan: Plan, params: Mapping[str, Any], field: str, direction: str) -> dict[str, Any]:
    """1.3 with its line laid out: the tracker knows where the rickshaw goes, shifting the board when it must."""
    at = plan.game["figures"]["wolf-boss"]
    to = rickshaw.step(plan, direction)
    if params.get("to") and params["to"] != to:
        raise Unprocessable(
            f"The Wolf Boss moves {direction} to {plan.said(to)}, not {plan.said(params['to'])}",
            detail=f"Along the line laid out at set-up: {wording.listed(plan.game['line'], plan.tile_names)} (L289, L303). Leave \"to\" out, or correct the line.",
            errors={f"{field}.to": [f"He moves to {plan.said(to)}."]},
        )
    return {"from": at, "to": to}


def _grunt_moves(plan: Plan, moves: list[Mapping[str, Any]], field: str) -> list[dict[str, Any]]:
    """3.1: 'move ALL Ox Grunts one space closer to the villagers' (L384): the table says where each goes (the map
    is lost), and every Ox Grunt on the board moves."""
    on_board = {tile: counts["ox-grunt"] for tile, counts in plan.game.get("enemies", {}).items() if counts.get("ox-grunt")}
    moving: dict[str, int] = {}
    for move in moves:
        plan.tile(move["from"], f"{field}.grunts")
        plan.tile(move["to"], f"{field}.grunts")
        moving[move["from"]] = moving.get(move["from"], 0) + move.get("count", 1)
    if moving != on_board:
        raise Unprocessable(
            "Move ALL Ox Grunts one space closer to the villagers",
            detail=f'Send "grunts": [{{"from", "to", "count"}}] covering every Ox Grunt on the board: {wording.listed([f"{n} on {plan.said(t)}" for t, n in on_board.items()])} (L384).',
            errors={field: ["Every Ox Grunt moves."]},
        )
    return [{"from": m["from"], "to": m["to"], "count": m.get("count", 1)} for m in moves]


def spawn_from_dial(plan: Plan, hero: str, space: Mapping[str, Any]) -> None:
    enemy, number = space["enemy"], space["spawn_point"]
    used = plan.mission.get("spawn_points_used")
    if used and number not in used:
        plan.add({"kind": "spawn-skipped", "enemy": enemy, "count": 1, "reason": "spawn-point-not-used", "spawn_point": number, "cause": hero})
        return
    tile = plan.game["spawn_points"].get(str(number))
    if tile is not None and tile in plan.game.get("carts_reached", []) and plan.mission.get("carts_close_spawn_points"):
        # "When the cart is moved to a spawn point, no more enemies may subsequently spawn on that tile" (3.1, L377)
        plan.add({"kind": "spawn-skipped", "enemy": enemy, "count": 1, "reason": "cart-on-spawn-point", "spawn_point": number, "cause": hero})
        return
    if tile is None:
        raise Unprocessable(
            f"Spawn point {number} has no tile",
            detail="Name the tile of each spawn point at set-up (the mission maps are lost), or correct it.",
            errors={"spaces": [f"Spawn point {number} unknown."]},
        )
    guarded = plan.game.get("guard_wall") if (plan.mission.get("guard_wall") or {}).get("no_spawns") else None
    if guarded and guarded in (tile, space.get("spread_to")):
        if tile == guarded:
            # "Enemies cannot spawn on the Guard Wall tiles" (2.2, L343)
            plan.add({"kind": "spawn-skipped", "enemy": enemy, "count": 1, "reason": "guard-wall", "spawn_point": number, "cause": hero})
            return
        raise Unprocessable("Enemies cannot spawn on the guard wall", detail="'Enemies cannot spawn on the Guard Wall tiles' (L343).", errors={"spaces": ["Guard wall."]})
    if game_state.reserve(plan.game, plan.data)[enemy] == 0:
        plan.add({"kind": "spawn-skipped", "enemy": enemy, "count": 1, "reason": "reserve-empty", "spawn_point": number, "cause": hero})
        return
    limit, excluded = plan.tile_limit()
    full = enemy not in excluded and game_state.limit_count(plan.game, tile, excluded) >= limit
    spread = space.get("spread_to")
    if spread:
        plan.tile(spread, "spaces.spread_to")
    if spread and not full:
        raise Unprocessable(
            f"{plan.said(tile)} is not full, so the {enemy} spawns there",
            detail=f"Enemies spread to an adjacent tile only when the spawn tile already holds {limit}.",
            errors={"spaces": ["No spread needed."]},
        )
    if full and spread:
        if game_state.limit_count(plan.game, spread, excluded) >= limit:
            raise Unprocessable(
                f"{plan.said(spread)} is full too",
                detail=f"A spread may not exceed the adjacent tile's limit of {limit}; if every adjacent tile is full, leave spread_to out.",
                errors={"spaces": [f"{plan.said(spread)} is full."]},
            )
        plan.add({"kind": "enemy-spawned", "enemy": enemy, "tile": spread, "count": 1, "spawn_point": number, "spread_from": tile, "cause": hero})
    elif full and plan.mission.get("spread_until_placed"):
        # 3.1: "Any further enemies spawn on the next square closest to the villager. Keep selecting new tiles each
        # time one gets filled up" (L385): a full tile never stops the spawn there
        raise Unprocessable(
            f"{plan.said(tile)} is full: name the next tile toward the villagers",
            detail=f"In Mission {plan.mission['number']} further enemies spawn on the next square closest to the villager (L385); send spread_to.",
            errors={"spaces": ["spread_to is missing."]},
        )
    elif full:
        plan.add({"kind": "spawn-skipped", "enemy": enemy, "count": 1, "reason": "tile-full", "spawn_point": number, "cause": hero})
    else:
        plan.add({"kind": "enemy-spawned", "enemy": enemy, "tile": tile, "count": 1, "spawn_point": number, "cause": hero})


def fight_back(plan: Plan, hero: str) -> None:
    """Each enemy on the hero's tile attacks; a Mountain Path adds one more, even with no enemies."""
    tile = plan.game["heroes"][hero]["tile"]
    damage_of = {c["id"]: c.get("fight_back_damage", 0) for c in plan.data["characters"] if c["role"] == "enemy"}
    amount = sum(damage_of[enemy] * n for enemy, n in game_state.enemies_on(plan.game, tile).items())
    terrain = tile_terrain(plan.data, tile)
    if terrain:
        amount += plan.data["terrain"][terrain].get("extra_fight_back_damage", 0)
    plan.damage(hero, amount, "enemies-fight-back")
