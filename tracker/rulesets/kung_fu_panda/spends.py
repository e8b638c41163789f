"""Spending dice results: all at once, from the heroes' own pools; heroes on one tile may pay
together, except for Special Moves, which only the card holder's own dice pay."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.components import table as component_table
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.costs import require_payment
from tracker.rulesets.kung_fu_panda.plan import Plan, tile_terrain
from tracker.rulesets.kung_fu_panda.table_words import tile_name


SPAWN_POINT = "spawn-point-"  # a place a mission names by its numbered spawn point: spawn-point-6


def refuse_unplayable(data: Mapping[str, Any]) -> None:
    """What the spends cannot play, refused when the ruleset is loaded (never at play time)."""
    # "Heroes on the same tile can spend dice simultaneously as a group" (L98): a group's spend acts on its one tile
    # (the tile of every effect below); heroes on several tiles have no one tile to act on
    if data["combining"]["same_tile"] is not True:
        raise RulesDataError("combining.same_tile: heroes combine dice on their one tile, where the spend acts; the service plays no other combining")
    for character in data["characters"]:
        ability = character.get("ability") or {}
        # Crane: "spend any 1x Chi result to replace any and all other dice results" (L163): the move's whole cost (rules
        # data 1.0.0 does not say what it replaces, and played it so)
        if ability.get("kind") == "hard-going-for-chi" and ability.get("replaces", "all-dice-results") != "all-dice-results":
            raise RulesDataError(f"{character['id']}: ability.replaces '{ability.get('replaces')}': the ability's spend replaces the move's whole cost (all-dice-results), no part of it")
    for mission in data["quests"]:
        # 2.2: "Doing so moves 1x Ox Grunt" (L334): what a gong moves is recorded as an Ox Grunt's move (ox-grunt-moved)
        if mission.get("gongs") and mission["gongs"]["moves"] != "ox-grunt":
            raise RulesDataError(f"{mission['id']}: gongs.moves '{mission['gongs']['moves']}': a gong's strike is recorded as an Ox Grunt's move")
        places = (mission.get("gongs") or {}).get("between", [])
        if mission.get("gongs") and (len(places) != 2 or not all(place == "guard-wall" or place.startswith(SPAWN_POINT) for place in places)):
            raise RulesDataError(f"{mission['id']}: gongs.between {places}: a gong moves its figure between two places, the guard wall or a spawn point ('{SPAWN_POINT}<n>')")


def spend(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_round()
    spent = {hero: list(results) for hero, results in params["heroes"].items()}
    tiles = set()
    for hero, results in spent.items():
        h = plan.able(hero, "heroes")
        tiles.add(h["tile"])
        pool = Counter(plan.game["pools"].get(hero, []))
        # "If a player rolls any Claws results, the player must IMMEDIATELY stop and spend these dice results before
        # choosing whether to spend any other dice results" (L86): the round's data says Claws come first
        if "Claws" in pool and plan.dials_used() and plan.data["round"]["claws_first"]:
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
    # "Heroes on the same tile can spend dice simultaneously as a group" (L98)
    if len(tiles) > 1:
        raise Unprocessable(
            "Only heroes on the same tile can spend together",
            detail=f"These heroes are on {wording.listed(sorted(tiles), plan.tile_names)}.",
            errors={"heroes": ["Not on one tile."]},
        )
    tile = tiles.pop()
    purpose = params["for"]
    # "Special moves are the only exception to this" (L99): "only your dice results may be used" (L176)
    if len(spent) > 1 and purpose in plan.data["combining"]["never_for"]:
        raise Unprocessable(
            "Special Moves are paid with the card holder's own dice only",
            detail="Combining dice is never allowed for a Special Move.",
            errors={"heroes": ["One hero only."]},
        )
    effects = PURPOSES[purpose](plan, params, spent, tile)
    plan.add({"kind": "dice-spent", "heroes": spent, "for": purpose, "tile": tile, **{k: params[k] for k in ("enemy", "hero", "to", "token", "card", "villager", "cart") if k in params}})
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
    cost = plan.character(enemy)["ko_cost"]
    if cost is None and enemy == "wolf-boss":
        # lost from the text (L151-L153): the campaign's component data may supply it; else the table's spend stands
        cost = dict(component_table(plan.ctx.components, "wolf-boss-ko-cost")) or None
    if cost is not None:
        require_payment(plan.data, spent, cost, f"knocking out a {enemy}")
    return [{"kind": "enemy-knocked-out", "enemy": enemy, "tile": tile, "count": 1, "cost_known": cost is not None}]


def _revive(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    target = _need(params, "hero", "revive")
    h = plan.hero(target)
    # "To revive a fellow hero from a KO, you must be on the same scene tile and spend 2x Chi results" (L142)
    if not h["ko"] or (plan.data["health"]["revive_same_tile"] and h["tile"] != tile):
        raise Unprocessable(
            f"{target} is not KO'd on this tile",
            detail="A hero on the same tile revives a KO'd hero for 2 Chi.",
            errors={"hero": ["Not KO'd here."]},
        )
    require_payment(plan.data, spent, plan.data["health"]["revive_cost"], "reviving a hero")
    # "Revived heroes move their health counter back up to full health" (L143): the hero's board's highest number
    return [{"kind": "hero-revived", "hero": target, "by": sorted(spent), "health": plan.character(target)["max_health"]}]


def _heal(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    healers = [c for c in plan.data["characters"] if c.get("ability", {}).get("kind") == "heal"]
    healer = healers[0]
    if list(spent) != [healer["id"]]:
        raise Unprocessable(f"Only {healer['name']} heals, with his own Chi", detail=healer["ability"]["text"], errors={"heroes": ["Not Po."]})
    chi = spent[healer["id"]].count("Chi")
    require_payment(plan.data, spent, {"Chi": chi or 1}, "regaining health")
    # "spend one of the Chi results you have rolled to regain one health" (L172): what each Chi gives is the data's
    health = plan.game["heroes"][healer["id"]]["health"] + chi * healer["ability"]["gives"]["health"]
    if health > healer["ability"]["cap"]:
        raise Unprocessable(
            f"{healer['name']}'s health may not go above {healer['ability']['cap']}",
            detail=f"He is on {plan.game['heroes'][healer['id']]['health']}; spend fewer Chi.",
            errors={"heroes": ["Too much healing."]},
        )
    return [{"kind": "health-regained", "hero": healer["id"], "amount": health - plan.game["heroes"][healer["id"]]["health"], "health": health}]


def _move(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    to = plan.tile(_need(params, "to", "move"), "to")
    if len(spent) != 1:
        raise Unprocessable("Each hero pays for their own move", detail="One hero's Move results move that hero.", errors={"heroes": ["One hero."]})
    hero = next(iter(spent))
    terrain = tile_terrain(plan.data, to)
    if terrain == "guard-tower":
        raise Unprocessable("The Guard Tower allows no entry", detail="No hero may move onto it unless the mission says so.", errors={"to": ["No entry."]})
    _require_cart_for_great_wall(plan, tile, to)
    require_levers(plan, to)
    if plan.game.get("line") and to not in plan.game["line"]:
        raise Unprocessable(f"Tile {to} is no longer on the board", detail=f"The line now runs {plan.game['line']} (L290-L291).", errors={"to": ["Off the board."]})
    ability = plan.character(hero)["ability"]
    # "one additional Move result for each enemy present" (L95); Mantis ignores them (L159)
    per_enemy = plan.data["costs"]["extra_move_per_enemy_on_tile"]
    extra = 0 if ability["kind"] == "ignore-enemy-move-cost" else per_enemy * sum(game_state.enemies_on(plan.game, tile).values())
    overrides = plan.mission.get("costs", {})
    if terrain:
        entry = dict(overrides.get(terrain) or plan.data["terrain"][terrain]["entry"])
    else:
        entry = dict(overrides.get("normal-tile-move") or plan.data["costs"]["move"])
    cost = dict(entry)
    cost["Move"] = cost.get("Move", 0) + extra
    alternatives = [cost]
    if ability["kind"] == "hard-going-for-chi" and terrain and plan.data["terrain"][terrain].get("hard_going"):
        # "any and all other dice results" (L163): the enemies' extra Moves too (the data's reading crane.hard_going); the
        # ability's spend in place of the whole cost (its replaces, all-dice-results: refuse_unplayable)
        alternatives.append(dict(ability["spend"]))
    for option in alternatives[1:]:
        try:
            require_payment(plan.data, spent, option, f"moving onto {tile_name(plan.data['tiles'], to)}")
            break
        except Unprocessable:
            continue
    else:
        onto, here = tile_name(plan.data["tiles"], to), tile_name(plan.data["tiles"], tile)
        require_payment(plan.data, spent, alternatives[0], f"moving onto {onto}" + (f" (with {extra} enemies on {here})" if extra else f" from {here}"))
    return [{"kind": "hero-moved", "hero": hero, "from": tile, "to": to}]


def _require_cart_for_great_wall(plan: Plan, tile: str, to: str) -> None:
    """Great Wall: 'a cart token on the tile they are moving from or to' (L107, L312); Crane too (L164)."""
    walls = [t for t in (tile, to) if plan.data["terrain"].get(tile_terrain(plan.data, t) or "", {}).get("needs_cart")]
    if not walls:
        return
    carted = set(plan.game.get("carts", {}).values())
    if not carted & set(walls):
        raise Unprocessable(
            f"No cart on {wording.either(walls, plan.tile_names)}: heroes move onto or off a Great Wall only where a cart stands",
            detail=f"'a cart token on the tile they are moving from or to' (L107, L312). Carts: {_carts_said(plan)}.",
            errors={"to": ["Needs a cart."]},
        )


def _carts_said(plan: Plan) -> str:
    carts = plan.game.get("carts") or {}
    return wording.listed([f"{cart} on {plan.said(tile)}" for cart, tile in carts.items()], none="none placed (setup.carts)")


def require_levers(plan: Plan, to: str) -> None:
    """1.2: 'The heroes cannot gain entry to the first stairs tile until they have activated both levers' (L268)."""
    levers = plan.mission.get("levers")
    if not levers or to != levers["gate_tile"]:
        return
    wanted = lever_tiles(plan)
    if set(plan.game.get("levers", [])) != set(wanted):
        raise Unprocessable(
            f"The stairs, {plan.said(to)}, are locked until both levers are activated",
            detail=f"Activate the levers on {wording.listed(sorted(wanted), plan.tile_names)} (1x Chi and 2x Punch each, L268); activated: {wording.listed(plan.game.get('levers', []), plan.tile_names)}.",
            errors={"to": ["Locked."]},
        )


def lever_tiles(plan: Plan) -> list[str]:
    tiles = [plan.game["spawn_points"].get(str(n)) for n in plan.mission["levers"]["on_spawn_points"]]
    if None in tiles:
        raise Unprocessable(
            "The levers are on the tiles of spawn points 2 and 4, which were not placed",
            detail="Name spawn points 2 and 4 at set-up (setup.spawn_points), or correct the board.",
            errors={"token": ["No lever tiles."]},
        )
    return tiles


def _lever(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str, cost: Mapping[str, int]) -> list[dict[str, Any]]:
    """'To activate each lever, you must spend 1x Chi and 2x Punch while on each lever's tile' (L268)."""
    if plan.mission.get("levers"):
        if tile not in lever_tiles(plan) or tile in plan.game.get("levers", []):
            raise Unprocessable(
                f"There is no lever left to activate on {plan.said(tile)}",
                detail=f"Levers are on {wording.listed(sorted(lever_tiles(plan)), plan.tile_names)}; activated: {wording.listed(plan.game.get('levers', []), plan.tile_names)}.",
                errors={"heroes": ["No lever here."]},
            )
    require_payment(plan.data, spent, cost, "a lever")
    return [{"kind": "token-collected", "token": "lever", "tile": tile, "by": sorted(spent)[0] if len(spent) == 1 else sorted(spent)}]


def _gong(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str, cost: Mapping[str, int]) -> list[dict[str, Any]]:
    """2.2: 'Striking one of the gongs requires 1x Chi and 1x Punch. Doing so moves 1x Ox Grunt on the guard wall ...
    to the tile containing spawn point 6 OR moves 1x Ox Grunt from spawn point 6 to the guard wall' (L334)."""
    gongs = plan.mission["gongs"]
    if tile not in gongs["tiles"]:
        raise Unprocessable(f"There is no gong on {plan.said(tile)}", detail=f"The gongs are on {wording.listed(gongs['tiles'], plan.tile_names)} (L340).", errors={"heroes": ["No gong here."]})
    # the two places a gong moves its figure between, as the mission's data names them (gongs.between)
    one, other = (_place(plan, place) for place in gongs["between"])
    direction = _need(params, "to", "token")
    if direction not in (one, other):
        said = " or to the ".join(f"{place.replace('-', ' ')}, {plan.said(tile_of)}" for place, tile_of in zip(gongs["between"], (one, other)))
        raise Unprocessable(
            f"A gong moves an Ox Grunt to the {said}, not to {plan.said(direction)}",
            detail="The player striking the gong chooses which (L334).",
            errors={"to": [f"One of {wording.either([one, other], plan.tile_names)}."]},
        )
    source = other if direction == one else one
    plan.enemies_required(source, gongs["moves"], 1, "to")
    require_payment(plan.data, spent, cost, "a gong")
    return [
        {"kind": "token-collected", "token": "gong", "tile": tile, "by": sorted(spent)[0] if len(spent) == 1 else sorted(spent)},
        {"kind": "ox-grunt-moved", "from": source, "to": direction, "count": 1, "cause": "gong"},
    ]


def _place(plan: Plan, place: str) -> str:
    """The tile of a place a mission names: the guard wall, or a numbered spawn point ("spawn-point-6")."""
    if place == "guard-wall":
        tile = plan.game.get("guard_wall")
    else:  # a spawn point, as refuse_unplayable checked
        tile = plan.game["spawn_points"].get(place.removeprefix(SPAWN_POINT))
    if tile is None:
        raise Unprocessable(
            f"The {place.replace('-', ' ')} must be on the board",
            detail="Name it at set-up (setup.guard_wall, setup.spawn_points): the map is lost.",
            errors={"setup": [place]},
        )
    return tile


def guard_wall_and_six(plan: Plan) -> tuple[str, str]:
    wall, six = plan.game.get("guard_wall"), plan.game["spawn_points"].get("6")
    if wall is None or six is None:
        raise Unprocessable(
            "The guard wall and spawn point 6 must be on the board",
            detail="Name them at set-up (setup.guard_wall, setup.spawn_points): the map is lost.",
            errors={"setup": ["guard_wall and spawn point 6."]},
        )
    return wall, six


def _token(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    token = plan.token(_need(params, "token", "token"))
    mission_tokens = plan.mission.get("tokens", {})
    cost = mission_tokens.get(token) or plan.data["costs"].get(token)
    if token == "dragon-scroll" and token not in mission_tokens:
        raise Unprocessable("There is no Dragon Scroll in this mission", detail=f"Tokens of this mission: {wording.listed(sorted(mission_tokens))}.", errors={"token": ["Not in this mission."]})
    if token == "dumplings":
        if plan.mission.get("no_kitchen"):
            raise Unprocessable("This mission has no Kitchen and no dumplings", detail="Its Kitchen tile is turned to the Dragon Scroll side.", errors={"token": ["No dumplings."]})
        if plan.game.get("kitchen_lost"):
            raise Unprocessable("The Kitchen was lost, and the dumplings with it", detail="'If the Kitchen tile reaches the beginning of the line, it will be lost' (L291).", errors={"token": ["Lost."]})
        if plan.game["dumplings"]:
            raise Unprocessable("The dumplings were already collected", detail=f"{plan.game['dumplings']} collected them.", errors={"token": ["Collected."]})
        kitchen = next(code for code, t in plan.data["tiles"].items() if t["name"] == "Kitchen")
        if tile != kitchen:
            raise Unprocessable("The dumplings are on the Kitchen tile", detail=f"Collect them standing on {plan.said(kitchen)}.", errors={"heroes": ["Not on the Kitchen."]})
    if token == "villager":
        return _rescue(plan, params, spent, tile, cost)
    if token == "lever":
        return _lever(plan, params, spent, tile, cost)
    if token == "gong" and plan.mission.get("gongs"):
        return _gong(plan, params, spent, tile, cost)
    if token == "cart":
        return _push_cart(plan, params, spent, tile, cost)
    require_payment(plan.data, spent, cost, f"the {token}")
    return [{"kind": "token-collected", "token": token, "tile": tile, "by": sorted(spent)[0] if len(spent) == 1 else sorted(spent)}]


def _rescue(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str, cost: Mapping[str, int]) -> list[dict[str, Any]]:
    """'spend 1x Punch and 1x Chi while you are on their tile to rescue villagers' (1.1, L248)."""
    if "villager" not in plan.mission.get("tokens", {}):
        raise Unprocessable(
            f"Villagers are not rescued in Mission {plan.mission['number']}",
            detail="Only Mission 1.1 states a rescue (L248); 3.1's villagers cannot be removed from the board (L379).",
            errors={"token": ["No rescue in this mission."]},
        )
    name = _need(params, "villager", "token")
    villager = plan.villager(name)
    if villager["rescued"] or villager["tile"] != tile:
        raise Unprocessable(
            f"Villager {name} is not on {plan.said(tile)}",
            detail=f"Rescue a villager standing on their tile (L248); {name} is {'already rescued' if villager['rescued'] else 'on ' + plan.said(villager['tile'])}.",
            errors={"villager": ["Not on this tile."]},
        )
    require_payment(plan.data, spent, cost, "rescuing a villager")
    return [{"kind": "villager-rescued", "villager": name, "tile": tile, "by": sorted(spent)}]


def _push_cart(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str, cost: Mapping[str, int]) -> list[dict[str, Any]]:
    """'4x Move and 2x Chi ... to push them to an adjacent tile' (L315, L377, L458): the heroes do not move with it."""
    name = _need(params, "cart", "token")
    at = plan.cart(name)
    if at != tile:
        raise Unprocessable(f"Cart {name} is on {plan.said(at)}, not {plan.said(tile)}", detail="Heroes push a cart standing on its tile.", errors={"cart": ["Not on this tile."]})
    to = plan.tile(_need(params, "to", "token"), "to")
    forbidden = plan.mission.get("cart_forbidden_terrain", [])
    if tile_terrain(plan.data, to) in forbidden:
        raise Unprocessable(
            f"Carts cannot be pushed onto {plan.said(to)}",
            detail=f"'Carts cannot be pushed onto Rooftop scene tiles' (L377): {plan.said(to)} is {tile_terrain(plan.data, to)}.",
            errors={"to": ["No carts here."]},
        )
    require_payment(plan.data, spent, cost, "pushing a cart")
    return [{"kind": "cart-pushed", "cart": name, "from": tile, "to": to, "by": sorted(spent)}]


def _special_move(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    card = _need(params, "card", "special-move")
    held = plan.game.get("special_moves", {})
    hero = next((h for h in spent if held.get(h) == card), next(iter(spent)))  # the card's holder among the spenders
    if held.get(hero) != card:
        raise Unprocessable(
            f"{hero} does not hold '{card}'",
            detail=f"Special Move cards held: {plan.game.get('special_moves', {})}.",
            errors={"card": ["Not held."]},
        )
    chi = sum(results.count("Chi") for results in spent.values())
    costs = plan.data["costs"]["special_move_chi"]
    if chi not in costs:
        said = wording.listed([str(n) for n in costs], last="or")
        raise Unprocessable(f"A Special Move costs {said} Chi", detail="The card says which; spend exactly that.", errors={"heroes": [f"{said} Chi."]})
    require_payment(plan.data, spent, {"Chi": chi}, "a Special Move")
    return [{"kind": "special-move-used", "hero": hero, "card": card, "chi": chi}]


def _wound_tai_lung(plan: Plan, params: Mapping[str, Any], spent: dict[str, list[str]], tile: str) -> list[dict[str, Any]]:
    tai_lung = plan.character("tai-lung")
    if plan.mission.get("tai_lung_can_be_hurt") is False or "tai-lung" not in plan.mission.get("tokens", {}):
        raise Unprocessable("Tai Lung cannot be hurt in this mission", detail="Only the Tai Lung Showdown lets the heroes wound him.", errors={"for": ["Not in this mission."]})
    if not plan.game["tokens"].get("dragon-scroll"):
        raise Unprocessable("Tai Lung cannot be wounded before the Dragon Scroll is read", detail="Read the Dragon Scroll (6 Chi) first.", errors={"for": ["Scroll not read."]})
    plan.enemies_required(tile, "tai-lung", 1, "heroes")
    # "the cost to have any effect on him" (L154-L156) may be paid by the heroes on his tile together where his data says
    # so (affect_cost_combinable)
    if len(spent) > 1 and not tai_lung["affect_cost_combinable"]:
        raise Unprocessable("Tai Lung is wounded with one hero's own dice", detail="Heroes may not combine dice to affect him.", errors={"heroes": ["One hero only."]})
    cost = tai_lung["affect_cost_by_players"][str(plan.game["players"])]
    require_payment(plan.data, spent, cost, "wounding Tai Lung")
    to = plan.tile(_need(params, "to", "wound-tai-lung"), "to")
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
