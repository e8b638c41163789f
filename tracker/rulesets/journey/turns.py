"""The turn (L202-L210, L349-L390): Maintenance, Pilgrim Phase, Demon Phase, End of Turn.

- Maintenance: expire conditions by Turn Tokens, apply ongoing effects, turn Unconscious
  Pilgrims (face down -> side -> back -> dead), remove the Rage Card, discard special Demon
  cards without a stated duration.
- Pilgrim Phase: Pilgrims activate one at a time in initiative order with 2 AP each; unused AP
  are lost when the activation ends.
- End of Turn: a Turn Token on every multi-turn card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.journey import conditions, iron_fan, lair, transformation
from tracker.rulesets.journey.resolution import Resolution
from tracker.rulesets.journey.setup import rage_card

ORDER = ("maintenance", "pilgrim", "demon", "end")


def _phase(res: Resolution, wanted: str) -> None:
    phase = res.game.get("phase")
    if phase != wanted:
        raise Unprocessable(
            f"This is the {phase} phase, not the {wanted} phase",
            detail=f"Each turn runs {' -> '.join(ORDER)}.",
            errors={"type": [f"Not in the {wanted} phase."]},
        )


def maintenance(res: Resolution, params: Mapping[str, Any]) -> None:
    _phase(res, "maintenance")
    reported = params.get("ongoing_damage") or {}
    for hero in res.game["initiative"]:
        conditions.maintain(res, hero, reported.get(hero) or {})
    # "If an Unconscious Pilgrim is face down, turn them on their side..." (L355): the rotation is the rules data's
    rotation = res.rule("pilgrim_rules", "unconscious", "rotation")
    turned = dict(zip(rotation, rotation[1:]))
    for hero in res.game["initiative"]:
        status = res.hero(hero)["status"]
        if status in turned:
            res.add({"kind": "unconscious-pilgrim-turned", "hero": hero, "from": status, "to": turned[status]})
            if turned[status] == rotation[-1]:
                res.add({"kind": "pilgrim-died", "hero": hero, "cause": "not revived"})
    if res.game.get("rage") and res.game.get("rage_until") is None:  # Q9's lasts until Kogaiji falls (L1020)
        res.extend(decks.resolve_move(res.decks["demon"], "removed", [rage_card(res)], "draw"))
        res.add({"kind": "demon-rage-ended", "turn": res.ctx.state["turn"]})
    lasting = set(params.get("special_cards_lasting") or [])
    expiring = [card for card in res.game.get("special_cards", []) if card not in lasting]
    if expiring:
        res.extend(decks.resolve_move(res.decks["demon"], "discarded", expiring, "held"))
        res.add({"kind": "special-demon-cards-discarded", "cards": expiring})
    transformation.maintenance(res)  # Q1: a Villager with no Turn Tokens left becomes a Bull Warrior (L706)
    lair.lords_respawn(res)  # Q10 Part 2: Killed Demon Lords whose Turn Tokens ran out (L1090)
    res.add({"kind": "phase-started", "phase": "pilgrim", "turn": res.ctx.state["turn"]})


def activate(res: Resolution, params: Mapping[str, Any]) -> None:
    _phase(res, "pilgrim")
    _end_activation(res)
    hero = params["hero"]
    waiting = [h for h in res.game["initiative"] if h not in res.game["activated"] and res.hero(h)["status"] == "conscious"]
    if not waiting or waiting[0] != hero:
        named = {c["id"]: c.get("name") or c["id"] for c in res.ctx.ruleset.data["characters"]}  # said by name, not id
        order = ", ".join(named.get(h, h) for h in res.game["initiative"])
        raise Unprocessable(
            f"It is not {named.get(hero, hero)}'s turn to activate",
            detail=f"Pilgrims activate in initiative order ({order}); next: {named.get(waiting[0], waiting[0]) if waiting else 'nobody (start the Demon Phase)'}.",
            errors={"hero": ["Out of initiative order, already activated, or unconscious."]},
        )
    ap = res.rule("pilgrim_rules", "action_points") + params.get("extra_ap", 0)  # 2 AP per activation (L364), by the data
    if conditions.forbidding(res, hero, "act"):
        ap = 0  # "While Paralyzed, the Pilgrim cannot make any actions" (L302): by the condition's effect in the data
    res.add({"kind": "pilgrim-activated", "hero": hero, "ap": ap})


def _end_activation(res: Resolution) -> None:
    active = res.game.get("active")
    if active:
        res.add({"kind": "activation-ended", "hero": active, "ap_unused": res.game["ap"]})


def end_activation(res: Resolution, params: Mapping[str, Any]) -> None:
    _phase(res, "pilgrim")
    if not res.game.get("active"):
        raise Unprocessable("No Pilgrim is active", detail="Activate a Pilgrim first.")
    _end_activation(res)


def demon_phase(res: Resolution, params: Mapping[str, Any]) -> None:
    _phase(res, "pilgrim")
    _end_activation(res)
    res.add({"kind": "phase-started", "phase": "demon", "turn": res.ctx.state["turn"]})
    iron_fan.respawn(res)  # Q8: after a Defeat she returns with new allies at the start of the Demon Phase (L972)


def end_of_turn(res: Resolution, params: Mapping[str, Any]) -> None:
    _phase(res, "demon")
    turn = res.ctx.state["turn"]
    res.add({"kind": "turn-tokens-added", "turn": turn})
    transformation.end_phase(res)  # Q1's Villager timer (L706)
    lair.gate_turn_tokens(res)  # Q10 Part 1's timed Gates (L1057)
    lair.lord_turn_tokens(res)  # Q10 Part 2's Killed Demon Lords (L1090)
    res.add({"kind": "phase-started", "phase": "maintenance", "turn": turn + 1})
    res.add({"kind": "turn-ended", "turn": turn})


def action_cost(res: Resolution) -> int:
    """What one action costs: "Each action costs 1 AP" (L364), by the rules data (pilgrim_rules.actions_cost_ap)."""
    return res.rule("pilgrim_rules", "actions_cost_ap")


def spend(res: Resolution, hero: str, ap: int | None = None) -> int:
    """An action of ``hero`` costing ``ap`` (one action's cost when not given): the Pilgrim must be the active one with
    AP left. The AP it costs."""
    ap = action_cost(res) if ap is None else ap
    if res.game.get("phase") != "pilgrim" or res.game.get("active") != hero:
        raise Unprocessable(
            f"{hero} is not the active Pilgrim",
            detail="Actions are taken by the active Pilgrim in the Pilgrim Phase (activate them first).",
            errors={"hero": ["Not active."]},
        )
    if res.game["ap"] < ap:
        raise Unprocessable(f"{hero} has {res.game['ap']} Action Point(s) left", detail=f"This action costs {ap}.", errors={"hero": ["No Action Points left."]})
    return ap
