"""Three-minute rounds: started together, dice pools rolled (digitally or reported from the table),
and ended when the sand runs out; the pools are cleared at the end unless a pause kept results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.kung_fu_panda.plan import Plan

DIE = "action-die"


def refuse_unplayable(data: Mapping[str, Any]) -> None:
    """L213: "Unless otherwise stated in the mission instructions, players may not keep results in their dice pool once a
    round has ended": a round's end clears every pool (the round-ended fold), and only a mission's pause keeps results
    (its kept Chi); the service plays no round that keeps the pools (refused at load)."""
    if data["round"]["pool_cleared_at_round_end"] is not True:
        raise RulesDataError("round.pool_cleared_at_round_end: a round's end clears every dice pool; the service keeps pools only where a mission's pause says so")


def start_round(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_playing()
    if plan.game["phase"] == "round":
        raise Unprocessable(f"Round {plan.game['round']} is still under way", detail="End it first (the sand has run out).")
    number = plan.game["round"] + 1
    plan.add(
        {
            "kind": "round-started",
            "round": number,
            "entry": params.get("entry", "detail"),
            "timer_seconds": plan.data["round"]["seconds"],
        }
    )
    return plan.changes


def roll(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Roll a hero's dice: all four at the start of a round, then the spent dice plus any saved ones chosen."""
    plan = Plan(ctx)
    plan.require_round()
    hero = params["hero"]
    plan.able(hero)
    pool = list(plan.game["pools"].get(hero, []))
    if "Claws" in pool and plan.dials_used():
        raise Unprocessable(
            f"{hero} must resolve the Claws rolled before anything else",
            detail="Claws are spent at once: each moves the Dial of Destiny one space (resolve-claws).",
            errors={"hero": ["Claws to resolve."]},
        )
    reroll = list(params.get("reroll", []))
    saved = list(pool)
    for result in reroll:
        if result not in saved:
            raise Unprocessable(
                f"{hero} has no saved {result} to reroll",
                detail=f"{hero}'s pool: {pool}.",
                errors={"reroll": [f"Not in the pool: {result}"]},
            )
        saved.remove(result)
    count = plan.data["round"]["dice_per_player"] - len(saved)
    if count == 0:
        raise Unprocessable(
            f"{hero} has no dice in hand to roll",
            detail="Spend results, or name saved results to reroll.",
            errors={"reroll": ["Nothing to roll."]},
        )
    faces = params.get("faces")
    if faces is not None and len(faces) != count:
        raise Unprocessable(
            f"{hero} rolls {count} dice, so report {count} faces",
            detail=f"{len(saved)} results are saved ({saved}); the rest are rolled.",
            errors={"faces": [f"Expected {count} faces."]},
        )
    rolled = dice.roll_change(ctx.dice, {DIE: count}, {DIE: list(faces)} if faces is not None else None, rng, f"{hero}, round {plan.game['round']}")
    results = rolled["roll"]["results"][DIE]
    plan.add(rolled)
    plan.add(
        {
            "kind": "pool-rolled",
            "hero": hero,
            "round": plan.game["round"],
            "saved": saved,
            "rerolled": reroll,
            "results": results,
            "pool": saved + results,
            "source": rolled["roll"]["source"],
        }
    )
    return plan.changes


def end_round(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_round()
    close(plan)
    return plan.changes


def close(plan: Plan) -> None:
    """The sand has run out: pools are cleared, and on the final round a mission not yet won is lost."""
    number = plan.game["round"]
    plan.add({"kind": "round-ended", "round": number, "entry": plan.game["entry"]})
    limit = plan.mission["round_limit"]
    # Young Masters: "Players cannot lose by running out of rounds" (L203), the mode's round_limit; time's up is a loss
    # only where the mission lists it (L193)
    no_limit = (
        plan.mission.get("no_round_limit")
        or plan.data["modes"][plan.game["mode"]].get("round_limit", True) is False
        or "times-up" not in plan.mission["loss_conditions"]
    )
    if not no_limit and number >= limit and plan.game["result"] is None:
        # L193: time's up, unless every win condition holds on the board as the sand runs out (1.1.0, read in versions.py)
        plan.add(plan.ctx.ruleset.rules.version.time_runs_out(plan.mission, plan.game, number))
