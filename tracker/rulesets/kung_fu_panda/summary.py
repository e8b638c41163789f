"""A round entered as a summary: what happened (spawns, knock-outs, damage, revivals, moves,
tokens, Claws), without each roll. It may also close a round entered partly in detail."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.errors import Unprocessable
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.outcome import declare_won
from tracker.rulesets.kung_fu_panda.plan import Plan
from tracker.rulesets.kung_fu_panda.rounds import close

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
            plan.add({"kind": "dial-advanced", "hero": hero, "position": h["dial"] + claws, "claws": claws, "space": "summary", "claws_spent": False})
    for hero, amount in params.get("damage", {}).items():
        plan.hero(hero, "damage")
        plan.damage(hero, amount, "summary")
        if plan.game["result"]:
            break
    for hero in params.get("revived", []):
        if not plan.hero(hero, "revived")["ko"]:
            raise Unprocessable(f"{hero} is not KO'd", detail="Only a KO'd hero can be revived.", errors={"revived": [f"{hero} is standing."]})
        plan.add({"kind": "hero-revived", "hero": hero, "by": "summary", "health": plan.data["health"]["start"]})
    for hero, amount in params.get("healed", {}).items():
        h = plan.able(hero, "healed")
        plan.add({"kind": "health-regained", "hero": hero, "amount": amount, "health": min(plan.data["health"]["start"], h["health"] + amount)})
    for hero, tile in params.get("moved", {}).items():
        h = plan.able(hero, "moved")
        plan.tile(tile, "moved")
        plan.add({"kind": "hero-moved", "hero": hero, "from": h["tile"], "to": tile})
    for item in params.get("tokens", []):
        plan.able(item["by"], "tokens")
        plan.token(item["token"], "tokens")
        if item["token"] in ("villager", "cart", "lever"):
            raise Unprocessable(
                f"Enter the {item['token']} by name and place",
                detail='Rescued villagers go in "rescued", pushed carts in "carts"; activate a lever in detail (spend), on its tile.',
                errors={"tokens": [item["token"]]},
            )
        if item["token"] == "dumplings" and plan.game["dumplings"]:
            raise Unprocessable("The dumplings were already collected", detail=f"{plan.game['dumplings']} collected them.", errors={"tokens": ["Collected."]})
        plan.add({"kind": "token-collected", "token": item["token"], "by": item["by"], "count": item.get("count", 1), "entry": "summary"})
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


def _spawn_within_limit(plan: Plan, enemy: str, tile: str, count: int) -> None:
    """Spawns entered as a summary obey the same limits as a dial's (L124-L126): the reserve, and the tile's
    limit; those over it "do not spawn" (each mission's Maximum enemies) unless the summary names the tile they spread to."""
    limit, excluded = plan.mission["tile_limit"], plan.mission["tile_limit_excludes"]
    room = count if enemy in excluded else max(0, limit - game_state.limit_count(plan.game, tile, excluded))
    if room:
        plan.spawn(enemy, tile, min(count, room), "summary")
    if count > room:
        plan.add({"kind": "spawn-skipped", "enemy": enemy, "count": count - room, "reason": "tile-full", "tile": tile, "cause": "summary"})
