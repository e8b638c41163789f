"""A round entered as a summary: what happened (spawns, knock-outs, damage, revivals, moves,
tokens, Claws), without each roll. It may also close a round entered partly in detail."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.declared import declare_won
from tracker.rulesets.kung_fu_panda.plan import Plan
from tracker.rulesets.kung_fu_panda.rounds import close
from tracker.rulesets.kung_fu_panda.spends import lever_tiles, require_levers

FIELDS = ("spawned", "knocked_out", "damage", "revived", "healed", "moved", "tokens", "rescued", "carts", "claws", "special_moves", "figures", "villagers", "mission_won", "note")


def round_summary(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_playing()
    if plan.game["phase"] != "round":
        plan.add({"kind": "round-started", "round": plan.game["round"] + 1, "entry": "summary", "timer_seconds": plan.data["round"]["seconds"]})
    summary = {key: params[key] for key in FIELDS if key in params}
    plan.add({"kind": "round-summarised", "round": plan.game["round"], "summary": summary})
    for item in params.get("spawned", []):
        _spawn_within_limit(plan, item["enemy"], plan.tile(item["tile"], "spawned"), item.get("count", 1))
    for item in params.get("knocked_out", []):
        plan.tile(item["tile"], "knocked_out")
        count = item.get("count", 1)
        plan.enemies_required(item["tile"], item["enemy"], count, "knocked_out")
        plan.add({"kind": "enemy-knocked-out", "enemy": item["enemy"], "tile": item["tile"], "count": count, "entry": "summary"})
    for hero, claws in params.get("claws", {}).items():
        h = plan.hero(hero, "claws")
        if claws:
            # "For each Claws result on the Action Dice, the counter moves one space clockwise" (L120)
            moves = claws * plan.data["destiny"]["moves_per_claws"]
            plan.add({"kind": "dial-advanced", "hero": hero, "position": h["dial"] + moves, "claws": claws, "space": "summary", "claws_spent": False})
    for hero, amount in params.get("damage", {}).items():
        plan.hero(hero, "damage")
        plan.damage(hero, amount, "summary")
        if plan.game["result"]:
            break
    for hero in params.get("revived", []):
        if not plan.hero(hero, "revived")["ko"]:
            raise Unprocessable(f"{hero} is not KO'd", detail="Only a KO'd hero can be revived.", errors={"revived": [f"{hero} is standing."]})
        plan.add({"kind": "hero-revived", "hero": hero, "by": "summary", "health": plan.character(hero)["max_health"]})  # full health (L143)
    for hero, amount in params.get("healed", {}).items():
        h = plan.able(hero, "healed")
        plan.add({"kind": "health-regained", "hero": hero, "amount": amount, "health": min(plan.character(hero)["max_health"], h["health"] + amount)})
    stood = {hero: h["tile"] for hero, h in plan.game["heroes"].items()}  # where each hero began the summary's moves
    for hero, tile in params.get("moved", {}).items():
        h = plan.able(hero, "moved")
        plan.tile(tile, "moved")
        plan.add({"kind": "hero-moved", "hero": hero, "from": h["tile"], "to": tile})
    for item in params.get("tokens", []):
        plan.able(item["by"], "tokens")
        plan.token(item["token"], "tokens")
        if item["token"] == "lever" and plan.mission.get("levers"):
            plan.add(_lever(plan, item["by"], stood[item["by"]]))
            continue
        if item["token"] in ("villager", "cart"):
            raise Unprocessable(
                f"Enter the {item['token']} by name and place",
                detail='Rescued villagers go in "rescued", pushed carts in "carts".',
                errors={"tokens": [item["token"]]},
            )
        if item["token"] == "dumplings" and plan.game["dumplings"]:
            raise Unprocessable("The dumplings were already collected", detail=f"{plan.game['dumplings']} collected them.", errors={"tokens": ["Collected."]})
        plan.add({"kind": "token-collected", "token": item["token"], "by": item["by"], "count": item.get("count", 1), "entry": "summary"})
    for hero, tile in params.get("moved", {}).items():
        # the stairs open only once both levers are activated (L268), this summary's levers included
        if tile != stood[hero]:
            require_levers(plan, tile)
    for name in params.get("rescued", []):
        villager = plan.villager(name, "rescued")
        if villager["rescued"]:
            raise Unprocessable(f"Villager {name} was already rescued", detail="A rescued villager is off the board until one wanders off (L258).", errors={"rescued": [name]})
        plan.add({"kind": "villager-rescued", "villager": name, "tile": villager["tile"], "by": "summary"})
    for cart, tile in params.get("carts", {}).items():
        plan.add({"kind": "cart-pushed", "cart": cart, "from": plan.cart(cart, "carts"), "to": plan.tile(tile, "carts"), "by": "summary"})
    for item in params.get("special_moves", []):
        if plan.game.get("special_moves", {}).get(item["hero"]) != item["card"]:
            raise Unprocessable(f"{item['hero']} does not hold '{item['card']}'", detail=f"Held: {plan.game.get('special_moves', {})}.", errors={"special_moves": ["Not held."]})
        plan.add({"kind": "special-move-used", "hero": item["hero"], "card": item["card"], "entry": "summary"})
    for figure, tile in params.get("figures", {}).items():
        if figure not in plan.game.get("figures", {}):
            raise Unprocessable(f"The {figure} is not on the board", detail=f"Figures on the board: {plan.game.get('figures', {})}.", errors={"figures": [figure]})
        plan.add({"kind": "play-effect-resolved", "figure": figure, "to": plan.tile(tile, "figures"), "entry": "summary"})
        if plan.game["result"]:
            break
    if params.get("villagers"):
        for name, tile in params["villagers"].items():
            plan.villager(name, "villagers")
            plan.tile(tile, "villagers")
        plan.add({"kind": "play-effect-resolved", "figure": "villagers", "villagers": dict(params["villagers"]), "entry": "summary"})
    if params.get("mission_won") and plan.game["result"] is None:
        # won within the round it summarises: declared (and checked) before the sand runs out (L193)
        declare_won(plan)
    if plan.game["phase"] == "round":
        close(plan)
    return plan.changes


def _lever(plan: Plan, hero: str, stood: str) -> dict[str, Any]:
    """1.2: 'To activate each lever, you must spend 1x Chi and 2x Punch while on each lever's tile' (L268): a lever
    entered in a summary is the one on the tile the hero who activated it stood on in the round, before or after
    the summary's move, so the stairs open exactly as they do in detail."""
    levers = [t for t in lever_tiles(plan) if t not in plan.game.get("levers", [])]
    tiles = sorted({stood, plan.game["heroes"][hero]["tile"]} & set(levers))
    if len(tiles) != 1:
        raise Unprocessable(
            f"There is no lever left to activate where {hero} stood" if not tiles else f"{hero} stood on two lever tiles: enter the levers in detail",
            detail=f"Levers not yet activated: {wording.listed(levers, plan.tile_names)}; {hero} stood on {plan.said(stood)} and ends on {plan.said(plan.game['heroes'][hero]['tile'])}. "
            "A lever is activated on its tile (L268): enter the move onto it in \"moved\".",
            errors={"tokens": ["No single lever on the hero's tiles."]},
        )
    return {"kind": "token-collected", "token": "lever", "tile": tiles[0], "by": hero, "entry": "summary"}


def _spawn_within_limit(plan: Plan, enemy: str, tile: str, count: int) -> None:
    """Spawns entered as a summary obey the same limits as a dial's (L124-L126): the reserve, and the tile's
    limit; those over it "do not spawn" (each mission's Maximum enemies) unless the summary names the tile they spread to."""
    limit, excluded = plan.tile_limit()
    room = count if enemy in excluded else max(0, limit - game_state.limit_count(plan.game, tile, excluded))
    if room:
        plan.spawn(enemy, tile, min(count, room), "summary")
    if count > room:
        plan.add({"kind": "spawn-skipped", "enemy": enemy, "count": count - room, "reason": "tile-full", "tile": tile, "cause": "summary"})
