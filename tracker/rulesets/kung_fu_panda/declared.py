"""What the table declares: a mission won (accepted only when every win condition holds, verdict.py), lost by a
failure condition of its own, and corrections: the table's honest judgement amending what was entered, without deleting
anything. What the rules decide on their own (time's up, full KO, a failure the board shows) is the verdict's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.plan import Plan
from tracker.rulesets.kung_fu_panda.verdict import unmet_wins


def mission_won(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_playing()
    if plan.game["round"] == 0:
        raise Unprocessable("No round has been played", detail="A mission is won during its rounds.")
    declare_won(plan)
    return plan.changes


def declare_won(plan: Plan) -> None:
    """The table's declaration, accepted only when every win condition the text states holds on the board."""
    unmet = unmet_wins(plan.mission, plan.game, plan.data["tiles"])
    if unmet:
        raise Unprocessable(
            f"Mission {plan.mission['number']} is not won yet: {unmet[0]}",
            detail=f"Every win condition must hold on the recorded board: {'; '.join(unmet)}. A correction can fix a board entered wrongly.",
            errors={"type": unmet},
        )
    plan.add({"kind": "mission-won", "round": plan.game["round"], "objective": plan.mission["win"]})


def mission_failed(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_playing()
    conditions = {c["id"]: c for c in plan.mission["failure_conditions"]}
    condition = params["condition"]
    if condition not in conditions:
        raise Unprocessable(
            f"Mission {plan.mission['number']} has no failure condition '{condition}'",
            detail=f"Its conditions: {wording.listed(sorted(conditions), none='none besides time and full KO, which the tracker detects')}.",
            errors={"condition": ["Unknown for this mission."]},
        )
    if conditions[condition].get("check"):
        # the tracker records this failure itself the moment the board shows it (L192)
        raise Unprocessable(
            f"The board does not show '{condition}': {conditions[condition]['text']} ({conditions[condition]['source']})",
            detail="The tracker records this failure as it happens; if the board was entered wrongly, correct it.",
            errors={"condition": ["Not shown by the board."]},
        )
    plan.add({"kind": "mission-lost", "loss": "mission-failure", "condition": condition, "round": plan.game["round"]})
    return plan.changes


def correct(ctx: Any, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    refers_to = params["refers_to"]
    if refers_to > ctx.state["version"]:
        raise Unprocessable(
            f"There is no event {refers_to} yet",
            detail=f"The session is at version {ctx.state['version']}; refer to the event being corrected.",
            errors={"refers_to": ["Not yet recorded."]},
        )
    amend = params["amend"]
    for hero, tile in amend.get("tiles", {}).items():
        plan.tile(tile, f"amend.tiles.{hero}")
    for tile in amend.get("enemies", {}):
        plan.tile(tile, "amend.enemies")
    for field in ("health", "tiles", "dials"):
        for hero in amend.get(field, {}):
            plan.hero(hero, f"amend.{field}")
    for enemy, delta in amend.get("knocked_out", {}).items():
        if plan.game["knocked_out"].get(enemy, 0) + delta < 0:
            raise Unprocessable(f"Fewer than {-delta} {enemy} were knocked out", detail=f"Knocked out so far: {plan.game['knocked_out']}.", errors={"amend.knocked_out": ["Below zero."]})
    plan.add({"kind": "entry-corrected", "refers_to": refers_to, "reason": params["reason"], "agreed_by": list(params.get("agreed_by", [])), "amend": dict(amend)})
    over = {enemy: -n for enemy, n in game_state.reserve(plan.game, plan.data).items() if n < 0}
    if over:
        raise Unprocessable(
            f"The corrected board holds more enemies than there are miniatures: {over} too many",
            detail="The reserve supply is finite (12 Spearmen, 8 Slashers, 4 Ox Grunts).",
            errors={"amend.enemies": ["More than the miniatures."]},
        )
    return plan.changes
