"""The pause between rounds: the mission's pause action, decided by the dice rolled in it
(Chi against Claws, totalled over the table), with KO'd heroes taking no part."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.allowed import pauses_any_time
from tracker.rulesets.kung_fu_panda.destiny import figure_moves
from tracker.rulesets.kung_fu_panda.plan import Plan, tile_terrain
from tracker.rulesets.kung_fu_panda.spends import guard_wall_and_six
from tracker.rulesets.kung_fu_panda.rounds import DIE

BOUNDS = {"up-to-four-each": (0, 4), "at-least-one-each": (1, 4), "one-each": (1, 1), "at-least-one": (0, 4)}
# How a mission's pause counts its dice (its pause's totals): Chi and Claws over the whole table. 1.1 says so
# ("collective", L258: "if players collectively roll a total of 4x Claws or more"); 2.2's "per claws" (L346: "For each
# Claws rolled, 1x Ox Grunt is moved") is the same count, its effect repeated per Claws by the unfavourable's when
# (each-claws); where the text does not say ("not stated", L280: "If the result is more Claws than Chi") the service
# counts over the table too (a reading).
TOTALS = ("collective", "per claws", "not stated")


def refuse_unplayable(data: Mapping[str, Any]) -> None:
    """A pause whose dice are counted another way (per hero, say) the service cannot play: refused at load."""
    for mission in data["quests"]:
        totals = (mission.get("pause") or {}).get("totals")
        if totals is not None and totals not in TOTALS:
            raise RulesDataError(f"{mission['id']}: pause.totals '{totals}': the service counts a pause's Chi and Claws over the table ({', '.join(TOTALS)})")


def pause(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_playing()
    rule = plan.mission["pause"]
    during_round = plan.game["phase"] == "round"
    if rule["roll"] == "none":
        raise Unprocessable("This mission has no pause action", detail="The training lessons last one round.", errors={"type": ["No pause action."]})
    if plan.game["phase"] != "pause" and not (during_round and pauses_any_time(plan.data["modes"], plan.game["mode"])):
        raise Unprocessable(
            "Pause actions are taken in the pause between rounds",
            detail="Only Young Masters may use them during a round; end the round first.",
            errors={"type": ["Not in a pause."]},
        )
    if plan.game.get("paused_after") == plan.game["round"] and not during_round:
        raise Unprocessable(f"The pause after round {plan.game['round']} was already resolved", detail="Start the next round.")
    rolled = _roll(plan, params, rng, rule)
    totals = Counter(r for results in rolled.values() for r in results)
    chi, claws = totals["Chi"], totals["Claws"]
    outcome, effect = _outcome(rule, chi, claws)
    resolved: dict[str, Any] = {
        "kind": "pause-resolved",
        "after_round": plan.game["round"],
        "rolled": rolled,
        "chi": chi,
        "claws": claws,
        "outcome": outcome,
        "effect": effect["effect"],
    }
    follow: list[dict[str, Any]] = []
    if effect["effect"] == "chi-to-any-result" or (outcome == "unfavourable" and effect.get("also_favourable")):
        # 1.1: the Chi may be changed, and 4 or more Claws ALSO sends a villager off (L258)
        resolved["kept"] = _kept(plan, params, rolled)
    if effect["effect"] == "spawn":
        tile = _spawn_tile(plan, effect, params)
        resolved["tile"] = tile
        follow.append(("spawn", effect["enemy"], tile, effect["count"]))
    elif effect["effect"] == "move-figure":
        resolved["figure"] = effect["figure"]
        resolved["direction"] = effect.get("direction", effect.get("to"))  # 2.2 names where, not a direction (L346)
        resolved["times"] = claws if rule["unfavourable"].get("when") == "each-claws" and outcome == "unfavourable" else 1
        if effect["figure"] == "ox-grunt" and plan.mission.get("guard_wall"):
            follow_grunts = _grunts_to_the_guard_wall(plan, claws)
            resolved["moved"] = follow_grunts["count"] if follow_grunts else 0
        else:
            resolved.update(figure_moves(plan, effect["figure"], params, "to", effect.get("direction")))
    elif effect["effect"] == "villager-wanders-off":
        resolved["spawn_point"] = effect["spawn_point"]
        resolved.update(_wandered_off(plan, params, effect["spawn_point"]))
        resolved["villager_returned"] = "wandered_off" in resolved
    elif effect["effect"] == "move-cart":
        follow_cart = _cart_move(plan, params)
        if follow_cart:
            resolved["cart"], resolved["to"] = follow_cart["cart"], follow_cart["to"]
    plan.add(resolved)
    if resolved.get("moved"):
        plan.add(follow_grunts)
    if resolved.get("cart"):
        plan.add(follow_cart)
    for _, enemy, tile, count in follow:
        plan.spawn(enemy, tile, count, "pause")
    return plan.changes


def _spawn_tile(plan: Plan, effect: Mapping[str, Any], params: Mapping[str, Any]) -> str:
    """Where a pause spawns is where the mission's text says: 1.2's Jade Gallery (L280), 2.1's end tile (L323), or
    3.1's 'either the Rooftops or the Flagstones tile' (L387), of which the table picks one. A tile the table names
    elsewhere is refused: the text leaves no choice beyond those."""
    named = effect["tile"]
    if named in plan.data["tiles"]:
        allowed = [named]
    elif named == "end tile":
        allowed = [plan.game["end_tile"]] if plan.game.get("end_tile") else []
    else:
        kinds = named.split(" or ")
        allowed = [t for t in plan.mission["tiles"] if any(kind in plan.data["tiles"][t]["name"] for kind in kinds)]
    tile = params.get("tile")
    if tile is not None:
        plan.tile(tile, "tile")
        if allowed and tile not in allowed:
            raise Unprocessable(
                f"The {effect['enemy']} spawn on {wording.either(allowed, plan.tile_names)}, not {plan.said(tile)}",
                detail=f"Mission {plan.mission['number']}'s pause spawns on the {plan.said(named) if named in plan.data['tiles'] else named} ({plan.mission['source']}).",
                errors={"tile": [f"One of {wording.either(allowed, plan.tile_names)}."]},
            )
        return tile
    if len(allowed) != 1:
        raise Unprocessable(
            f"Say which tile the {effect['enemy']} spawn on ({named})",
            detail=f'Send "tile": {wording.either(allowed, plan.tile_names)}.' if allowed else 'Send "tile": the mission maps are lost, so the table names it.',
            errors={"tile": ["Missing."]},
        )
    return allowed[0]


def _wandered_off(plan: Plan, params: Mapping[str, Any], spawn_point: int) -> dict[str, Any]:
    """'one rescued villager has wandered off ... placed back on the board on spawn point 4. If no villagers have
    been rescued so far, nothing happens' (L258): the rescued count goes down by one."""
    rescued = sorted(v for v, villager in plan.game.get("villagers", {}).items() if villager["rescued"])
    if not rescued:
        return {}
    name = params.get("villager") or (rescued[0] if len(rescued) == 1 else None)
    if name is None or name not in rescued:
        raise Unprocessable(
            "Say which rescued villager wandered off",
            detail=f'Send "villager": one of the rescued {rescued}.',
            errors={"villager": ["One of the rescued villagers."]},
        )
    tile = plan.game["spawn_points"].get(str(spawn_point))
    if tile is None:
        raise Unprocessable(f"Spawn point {spawn_point} has no tile", detail="Name it at set-up (setup.spawn_points), or correct it.", errors={"villager": ["No spawn point 4."]})
    return {"wandered_off": name, "wandered_to": tile}


def _grunts_to_the_guard_wall(plan: Plan, claws: int) -> dict[str, Any] | None:
    """2.2: 'For each Claws rolled, 1x Ox Grunt is moved from spawn point 6 to the guard wall. Ignore this roll if
    there are no Ox Grunts on spawn point 6' (L346)."""
    wall, six = guard_wall_and_six(plan)
    count = min(claws, game_state.enemies_on(plan.game, six).get("ox-grunt", 0))
    return {"kind": "ox-grunt-moved", "from": six, "to": wall, "count": count, "cause": "pause"} if count else None


def _cart_move(plan: Plan, params: Mapping[str, Any]) -> dict[str, Any] | None:
    """3.1's favourable pause: 'move a cart of your choice to an adjacent square' (L387), never onto a Rooftop (L377)."""
    if not params.get("cart"):
        return None
    at = plan.cart(params["cart"])
    if not params.get("to"):
        raise Unprocessable("Say where the cart moves", detail='Send "to": the adjacent tile.', errors={"to": ["Missing."]})
    to = plan.tile(params["to"], "to")
    if tile_terrain(plan.data, to) in plan.mission.get("cart_forbidden_terrain", []):
        raise Unprocessable(f"Carts cannot be pushed onto {plan.said(to)}", detail="'Carts cannot be pushed onto Rooftop scene tiles' (L377).", errors={"to": ["No carts here."]})
    return {"kind": "cart-pushed", "cart": params["cart"], "from": at, "to": to, "by": "pause"}


def _roll(plan: Plan, params: Mapping[str, Any], rng: Any, rule: Mapping[str, Any]) -> dict[str, list[str]]:
    able = game_state.standing_heroes(plan.game)
    reported = params.get("faces")
    counts = params.get("dice")
    if (reported is None) == (counts is None):
        raise Unprocessable(
            "Send the pause dice as faces or as counts",
            detail='"faces": {hero: [...]} for dice rolled on the table, or "dice": {hero: n} to roll them here.',
            errors={"faces": ["One of faces or dice."]},
        )
    wanted = {hero: len(f) for hero, f in reported.items()} if reported is not None else dict(counts)
    low, high = BOUNDS[rule["roll"]]
    for hero, n in wanted.items():
        plan.able(hero, "faces")
    for hero in able:
        n = wanted.get(hero, 0)
        if not low <= n <= high:
            raise Unprocessable(
                f"{hero} must roll {low if low == high else f'{low} to {high}'} dice in this pause",
                detail=f"The mission's pause roll: {rule['roll']}.",
                errors={"faces": [f"{hero}: {n} dice."]},
            )
    if rule["roll"] == "at-least-one" and sum(wanted.values()) < 1:
        raise Unprocessable("Roll at least one die in this pause", detail="The mission's pause roll needs at least one die.", errors={"faces": ["No dice."]})
    rolled: dict[str, list[str]] = {}
    for hero in able:
        n = wanted.get(hero, 0)
        if not n:
            continue
        faces = {DIE: list(reported[hero])} if reported is not None else None
        change = dice.roll_change(plan.ctx.dice, {DIE: n}, faces, rng, f"{hero}, pause after round {plan.game['round']}")
        plan.add(change)
        rolled[hero] = change["roll"]["results"][DIE]
    return rolled


def _outcome(rule: Mapping[str, Any], chi: int, claws: int) -> tuple[str, dict[str, Any]]:
    bad = rule["unfavourable"]
    good = rule["favourable"]
    when = bad["when"]
    unfavourable = (
        (when == "claws-more-than-chi" and claws > chi)
        or (when == "claws-at-least-4" and claws >= 4)
        or (when == "each-claws" and claws > 0)
    )
    if unfavourable:
        return "unfavourable", bad
    if good["when"] in ("always", "chi-at-least-claws"):
        return "favourable", good
    return "none", {"effect": "none"}


def _kept(plan: Plan, params: Mapping[str, Any], rolled: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Rolled Chi turned into results of each player's choice, ready to spend when the next round starts."""
    convert = params.get("convert", {})
    for hero, results in convert.items():
        if len(results) > rolled.get(hero, []).count("Chi"):
            raise Unprocessable(
                f"{hero} rolled {rolled.get(hero, []).count('Chi')} Chi, so can keep at most that many results",
                detail="Only the Chi rolled in the pause may be turned into other results.",
                errors={"convert": [f"Too many for {hero}."]},
            )
    return {hero: list(results) for hero, results in convert.items() if results}
