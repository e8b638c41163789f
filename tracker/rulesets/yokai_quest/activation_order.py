"""The yōkai's activation order within a Yōkai phase: which initiative groups have had their turn.

L168 "After all the yōkai appear in their phase, they activate in decreasing order of initiative: when several yōkai
have the same initiative, the players must decide which goes first". L586 "The yōkai always activate from highest to
lowest initiative." L588 "After the group with the highest initiative value has acted, the group with the next highest
acts, and so on until all yōkai have acted." L574 "Initiative: The order in which yōkai activate in the Yōkai phase.
Higher numbers go first."

What the log records of a yōkai's activation is its attacks: a yōkai attacks in its activation, by its behaviour chart
(L192, L600). So once a yōkai of initiative n has attacked in the phase, every group above n has had its turn, and an
attack by one of them is refused. Equal initiatives are one group, in the players' order. What a yōkai does without
attacking (moving, empowering, recovering) is not recorded as an activation: its place in the order is the table's
(yokai_rules.activation_order.table). Scenes set up under rules data without yokai_rules.activation_order (1.3.0 and
before) have no "initiative_acted" in their state, and nothing here applies to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.yokai_quest import lookup, yokai_phase
from tracker.rulesets.yokai_quest.plan import Plan


def at_set_up(data: Mapping[str, Any]) -> dict[str, Any]:
    """The initiative of the last group that acted this Yōkai phase (none yet) (under the versions that keep the order, versions.py)."""
    return {"initiative_acted": None}


def initiative_of(plan: Plan, attacker: str) -> int | None:
    """A basic yōkai's initiative from its roster entry (L574); a chief's from the scene's chief configuration where the
    roster marks its stats set per scene (lookup.chief_stats: it prints "Initiative: ?", L743); None for an attack of the
    scene itself (L936), which belongs to no yōkai."""
    character = lookup.character(plan.ctx.ruleset.data, attacker)
    if character is not None and character["role"] == "yokai":
        return character["stats"]["initiative"]
    return lookup.chief_stats(plan.ctx.ruleset.data, plan.ctx.ruleset.quest(plan.game["scene"]), attacker).get("initiative")


def require_turn(plan: Plan, attacker: str) -> int | None:
    """The attacker's initiative, refused when a group of lower initiative has acted already this phase (L586, L588)."""
    rank = initiative_of(plan, attacker)
    acted = plan.game["initiative_acted"]
    if rank is not None and acted is not None and rank > acted:
        order = yokai_phase.initiative(plan, plan.ctx.ruleset.quest(plan.game["scene"]))
        raise Unprocessable(
            f"{attacker} (initiative {rank}) has had its turn in this Yōkai phase",
            detail=f"\"The yōkai always activate from highest to lowest initiative\" (L586), and \"After the group with the highest "
            f"initiative value has acted, the group with the next highest acts\" (L588): a yōkai of initiative {acted} has attacked, "
            f"so every group above it has acted. Groups in play, highest first: {order}. An attack left out earlier is recorded by "
            "undoing back to it.",
            errors={"attacker": [f"Initiative {rank} acts before initiative {acted}."]},
        )
    return rank
