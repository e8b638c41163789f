"""Spending dice results: all at once, from the heroes' own pools; heroes on one tile may pay
together, except for Special Moves, which only the card holder's own dice pay."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from tracker.errors import Unprocessable
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.costs import require_payment
from tracker.rulesets.kung_fu_panda.plan import Plan, tile_terrain


def spend(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_round()
    spent = {hero: list(results) for hero, results in params["heroes"].items()}
    tiles = set()
    for hero, results in spent.items():
        h = plan.able(hero, "heroes")
        tiles.add(h["tile"])
        pool = Counter(plan.game["pools"].get(hero, []))
        if "Claws" in pool and plan.dials_used():
            raise Unprocessable(
                f"{hero} must resolve the Claws rolled before spending anything else",
                detail="Each Claws moves the Dial of Destiny one space first (resolve-claws).",
                errors={"heroes": ["Claws to resolve."]},
            )
        missing = Counter(results) - pool
        if missing:
            raise Unprocessable(
                f"{hero}'s pool does not hold {dict(missing)}",
                detail=f"{hero}'s pool: {plan.game['pools'].get(hero, [])}. A result can be spent once per roll.",
                errors={"heroes": [f"Not in {hero}'s pool."]},
            )
    if len(tiles) > 1:
        raise Unprocessable(
            "Only heroes on the same tile can spend together",
            detail=f"These heroes are on tiles {sorted(tiles)}.",
            errors={"heroes": ["Not on one tile."]},
        )
    tile = tiles.pop()
    purpose = params["for"]
    effects = PURPOSES[purpose](plan, params, spent, tile)
    plan.add({"kind": "dice-spent", "heroes": spent, "for": purpose, "tile": tile, **{k: params[k] for k in ("enemy", "hero", "to", "token", "card") if k in params}})
    for change in effects:
        plan.add(change)
    return plan.changes


def _need(params: Mapping[str, Any], field: str, purpose: str) -> Any:
    if field not in params:
        raise Unprocessable(f'Say which {field} the spend is for', detail=f'A spend "for": "{purpose}" needs "{field}".', errors={field: ["Missing."]})
    return params[field]


def _knock_out(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    enemy = _need(params, "enemy", "knock-out")
    if enemy == "tai-lung":
        raise Unprocessable("Tai Lung is not knocked out like other enemies", detail='Spend "for": "wound-tai-lung" where the mission allows it.', errors={"enemy": ["Tai Lung."]})
    plan.enemies_required(tile, enemy, 1, "enemy")
    cost = next(c["ko_cost"] for c in plan.data["characters"] if c["id"] == enemy)
    if cost is not None:
        require_payment(plan.data, spent, cost, f"knocking out a {enemy}")
    return [{"kind": "enemy-knocked-out", "enemy": enemy, "tile": tile, "count": 1, "cost_known": cost is not None}]


def _revive(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    target = _need(params, "hero", "revive")
    h = plan.hero(target)
    if not h["ko"] or h["tile"] != tile:
        raise Unprocessable(
            f"{target} is not KO'd on this tile",
            detail="A hero on the same tile revives a KO'd hero for 2 Chi.",
            errors={"hero": ["Not KO'd here."]},
        )
    require_payment(plan.data, spent, plan.data["health"]["revive_cost"], "reviving a hero")
    return [{"kind": "hero-revived", "hero": target, "by": sorted(spent), "health": plan.data["health"]["start"]}]


def _heal(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    healers = [c for c in plan.data["characters"] if c.get("ability", {}).get("kind") == "heal"]
    healer = healers[0]
    if list(spent) != [healer["id"]]:
        raise Unprocessable(f"Only {healer['name']} heals, with his own Chi", detail=healer["ability"]["text"], errors={"heroes": ["Not Po."]})
    chi = spent[healer["id"]].count("Chi")
    require_payment(plan.data, spent, {"Chi": chi or 1}, "regaining health")
    health = plan.game["heroes"][healer["id"]]["health"] + chi
    if health > healer["ability"]["cap"]:
        raise Unprocessable(
            f"{healer['name']}'s health may not go above {healer['ability']['cap']}",
            detail=f"He is on {plan.game['heroes'][healer['id']]['health']}; spend fewer Chi.",
            errors={"heroes": ["Too much healing."]},
        )
    return [{"kind": "health-regained", "hero": healer["id"], "amount": chi, "health": health}]


def _move(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    to = _need(params, "to", "move")
    if len(spent) != 1:
        raise Unprocessable("Each hero pays for their own move", detail="One hero's Move results move that hero.", errors={"heroes": ["One hero."]})
    hero = next(iter(spent))
    terrain = tile_terrain(plan.data, to)
    if terrain == "guard-tower":
        raise Unprocessable("The Guard Tower allows no entry", detail="No hero may move onto it unless the mission says so.", errors={"to": ["No entry."]})
    ability = next(c["ability"] for c in plan.data["characters"] if c["id"] == hero)
    extra = 0 if ability["kind"] == "ignore-enemy-move-cost" else sum(game_state.enemies_on(plan.game, tile).values())
    overrides = plan.mission.get("costs", {})
    if terrain:
        entry = dict(overrides.get(terrain) or plan.data["terrain"][terrain]["entry"])
    else:
        entry = dict(overrides.get("normal-tile-move") or plan.data["costs"]["move"])
    cost = dict(entry)
    cost["Move"] = cost.get("Move", 0) + extra
    alternatives = [cost]
    if ability["kind"] == "hard-going-for-chi" and terrain and plan.data["terrain"][terrain].get("hard_going"):
        alternatives.append({"Chi": 1, **({"Move": extra} if extra else {})})
    for option in alternatives[1:]:
        try:
            require_payment(plan.data, spent, option, f"moving onto {to}")
            break
        except Unprocessable:
            continue
    else:
        require_payment(plan.data, spent, alternatives[0], f"moving onto {to} (with {extra} enemies on {tile})")
    return [{"kind": "hero-moved", "hero": hero, "from": tile, "to": to}]


def _token(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    token = _need(params, "token", "token")
    mission_tokens = plan.mission.get("tokens", {})
    cost = mission_tokens.get(token) or plan.data["costs"].get(token)
    if token == "dragon-scroll" and token not in mission_tokens:
        raise Unprocessable("There is no Dragon Scroll in this mission", detail=f"Tokens of this mission: {sorted(mission_tokens)}.", errors={"token": ["Not in this mission."]})
    if token == "dumplings":
        if plan.mission.get("no_kitchen"):
            raise Unprocessable("This mission has no Kitchen and no dumplings", detail="Its Kitchen tile is turned to the Dragon Scroll side.", errors={"token": ["No dumplings."]})
        if plan.game["dumplings"]:
            raise Unprocessable("The dumplings were already collected", detail=f"{plan.game['dumplings']} collected them.", errors={"token": ["Collected."]})
        kitchen = next(code for code, t in plan.data["tiles"].items() if t["name"] == "Kitchen")
        if tile != kitchen:
            raise Unprocessable("The dumplings are on the Kitchen tile", detail=f"Collect them standing on tile {kitchen} (Kitchen).", errors={"heroes": ["Not on the Kitchen."]})
    require_payment(plan.data, spent, cost, f"the {token}")
    return [{"kind": "token-collected", "token": token, "tile": tile, "by": sorted(spent)[0] if len(spent) == 1 else sorted(spent)}]


def _special_move(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    card = _need(params, "card", "special-move")
    if len(spent) != 1:
        raise Unprocessable(
            "Special Moves are paid with the card holder's own dice only",
            detail="Combining dice is never allowed for a Special Move.",
            errors={"heroes": ["One hero only."]},
        )
    hero = next(iter(spent))
    if plan.game.get("special_moves", {}).get(hero) != card:
        raise Unprocessable(
            f"{hero} does not hold '{card}'",
            detail=f"Special Move cards held: {plan.game.get('special_moves', {})}.",
            errors={"card": ["Not held."]},
        )
    chi = spent[hero].count("Chi")
    if chi not in plan.data["costs"]["special_move_chi"]:
        raise Unprocessable("A Special Move costs 2 or 3 Chi", detail="The card says which; spend exactly that.", errors={"heroes": ["2 or 3 Chi."]})
    require_payment(plan.data, spent, {"Chi": chi}, "a Special Move")
    return [{"kind": "special-move-used", "hero": hero, "card": card, "chi": chi}]


def _wound_tai_lung(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    tai_lung = next(c for c in plan.data["characters"] if c["id"] == "tai-lung")
    if plan.mission.get("tai_lung_can_be_hurt") is False or "tai-lung" not in plan.mission.get("tokens", {}):
        raise Unprocessable("Tai Lung cannot be hurt in this mission", detail="Only the Tai Lung Showdown lets the heroes wound him.", errors={"for": ["Not in this mission."]})
    if not plan.game["tokens"].get("dragon-scroll"):
        raise Unprocessable("Tai Lung cannot be wounded before the Dragon Scroll is read", detail="Read the Dragon Scroll (6 Chi) first.", errors={"for": ["Scroll not read."]})
    plan.enemies_required(tile, "tai-lung", 1, "heroes")
    cost = tai_lung["affect_cost_by_players"][str(plan.game["players"])]
    require_payment(plan.data, spent, cost, "wounding Tai Lung")
    to = _need(params, "to", "wound-tai-lung")
    return [{"kind": "tai-lung-wounded", "from": tile, "to": to, "by": sorted(spent)}]


PURPOSES = {
    "knock-out": _knock_out,
    "revive": _revive,
    "heal": _heal,
    "move": _move,
    "token": _token,
    "special-move": _special_move,
    "wound-tai-lung": _wound_tai_lung,
}
