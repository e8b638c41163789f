"""A hero's activation: what it may still do, and who may activate next.

L398 "Each hero has a basic movement of up to three squares and may take up to two actions; those may be performed
in any order, but each hero's activation must be completed before a new hero is activated. Heroes can use their
actions to perform a run, a basic attack, use an ability or use an item."
L158 "Then the players decide the order in which the heroes activate. [...] players may not save actions or basic
movement for later."
L423 "A quick reaction is the use of an ability or item that does not have the requirement of an action in their
activation cost. These kinds of abilities or items can be used anytime, provided other activation costs are met."

The rules data states the costs it knows (hero_rules.activation.action_costs: a run and a basic attack cost one
action); an ability's or an item's action cost was printed on its card and lost (L416 "One or two of the actions"),
so the table states it with each use. Scenes set up under rules data without this (1.1.0 and before) were played
without it: there is no "activation" in their state, and nothing here applies to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.yokai_quest import entrance, lookup
from tracker.rulesets.yokai_quest.plan import Plan


def rules(data: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The activation rules of the pinned data; None under data from before they were kept."""
    return data["hero_rules"].get("activation")


def at_set_up(data: Mapping[str, Any]) -> dict[str, Any]:
    """What a scene's state tracks of the activations (under the versions that keep them, versions.py)."""
    return {"activation": None, "activated": [], "used_this_turn": {}}


def _open(plan: Plan, hero_id: str, what: str) -> dict[str, Any]:
    """The hero's activation under way, begun now if no other hero's is (L398)."""
    game = plan.game
    if game["phase"] != "hero":
        raise Unprocessable(
            f"{what} is a hero's action: it belongs to the Hero phase",
            detail=f"Turn {plan.turn} is in its Yōkai phase; heroes act in the next turn's Hero phase (L152, L398). "
            "Only a quick reaction (an ability or item whose cost has no action, L423) is used at any time: send \"actions\": 0.",
        )
    current = game["activation"]
    if current is not None and current["hero"] != hero_id:
        raise Unprocessable(
            f"{current['hero']}'s activation is under way",
            detail=f"Each hero's activation must be completed before a new hero is activated (L398): end it with "
            f"{{\"type\": \"end-activation\", \"hero\": \"{current['hero']}\"}} before {hero_id} acts.",
            errors={"hero": [f"Not the active hero: {hero_id}"]},
        )
    if current is None:
        if hero_id in game["activated"]:
            raise Unprocessable(
                f"{hero_id} has activated this turn",
                detail=f"The heroes activate one by one in the Hero phase, each once (L158, L781); {hero_id} acts again in turn {plan.turn + 1}. "
                f"Still to activate: {still_to_activate(game) or 'nobody'}.",
                errors={"hero": [f"Activated this turn: {hero_id}"]},
            )
        plan.add({"kind": "activation-began", "hero": hero_id, "turn": plan.turn, "source": "L158, L398"})
    return plan.game["activation"]


def take_action(plan: Plan, hero_id: str, action: str, cost: int, name: str | None = None) -> None:
    """Spend ``cost`` of the hero's two actions (L398) on ``action``: run, basic-attack, ability or item."""
    known = rules(plan.ctx.ruleset.data)
    activation = _open(plan, hero_id, name or action)
    entrance.require_entered(plan, hero_id, _WHAT.get(action, f"Using {name or action}"))
    # "the hero may take up to two actions" (L398): each hero's own record says how many
    limit = lookup.character(plan.ctx.ruleset.data, hero_id)["actions_per_activation"]
    if activation["actions_used"] + cost > limit:
        left = limit - activation["actions_used"]
        raise Unprocessable(
            f"{hero_id} has {left} of {limit} actions left in this activation, not {cost}",
            detail=f"A hero \"may take up to two actions\" per activation (L398); taken: {activation['taken']}. "
            f"End the activation with 'end-activation'; a quick reaction (no action in its cost, L423) is still allowed.",
            errors={"actions": [f"Only {left} left."]},
        )
    source = (known["action_costs"].get(action) or {}).get("source", "L416")
    plan.add(
        {
            "kind": "hero-acted",
            "hero": hero_id,
            "action": action,
            "name": name,
            "actions": cost,
            "actions_used": activation["actions_used"] + cost,
            "of": limit,
            "source": source,
        }
    )


_WHAT = {"run": "A run", "basic-attack": "A basic attack"}


def basic_movement(plan: Plan, hero_id: str) -> None:
    """The one basic movement of the activation (L398 "a basic movement of up to three squares")."""
    activation = _open(plan, hero_id, "A basic movement")
    # "a basic movement" (L398, L781): as many an activation as hero_rules.activation.basic_movements; the state counts
    # the basic movements made (True, in a state folded before it counted, was the one)
    if int(activation["basic_movement"]) >= rules(plan.ctx.ruleset.data)["basic_movements"]:
        raise Unprocessable(
            f"{hero_id} has made the basic movement of this activation",
            detail="Each activation has one basic movement of up to three squares, not saved for later (L158, L398); "
            "a run costs one action (L404): send \"movement\": \"run\".",
            errors={"movement": ["The basic movement is used."]},
        )


def cost_of(plan: Plan, params: Mapping[str, Any], what: str) -> int:
    """An ability's or item's action cost, stated by the table: the card printed it and the text lost it (L416)."""
    if "actions" not in params:
        raise Unprocessable(
            f"Say how many actions {what} costs",
            detail="Its card prints the cost (\"One or two of the actions\", L416, or none for a quick reaction, L423); the "
            "transcription lost it. Send \"actions\": 0, 1 or 2.",
            errors={"actions": ["Missing: the card's action cost is not in the rules data."]},
        )
    return params["actions"]


def use(plan: Plan, hero_id: str, kind: str, name: str, cost: int) -> None:
    """An ability or item used: its actions spent in the hero's activation, or a quick reaction at any time (L423), but
    not from the entrance point (L214, a reading: hero_rules.entering.readings.quick_reactions)."""
    if cost:
        take_action(plan, hero_id, kind, cost, name)
    else:
        entrance.require_entered(plan, hero_id, f"Using {name}, even as a quick reaction,")


def attack_by(plan: Plan, hero_id: str, params: Mapping[str, Any]) -> None:
    """A hero's attack: a basic attack costs an action and has one target (L398, L408); an attack of an ability or item
    names it, used by this hero this turn (its costs paid with 'use-ability' or 'use-item')."""
    named = params.get("ability") or params.get("item")
    if named is None:
        if len(params["targets"]) != 1:
            raise Unprocessable(
                "A basic attack has one target",
                detail="\"For a basic attack, the hero must have a valid target\" (L408). An ability or item that damages several "
                "foes is used first ('use-ability', 'use-item'), then its attack names it: \"ability\" or \"item\".",
                errors={"targets": [f"{len(params['targets'])} targets for a basic attack."]},
            )
        take_action(plan, hero_id, "basic-attack", rules(plan.ctx.ruleset.data)["action_costs"]["basic-attack"]["actions"], "basic attack")
        return
    used = plan.game["used_this_turn"].get(hero_id, [])
    if named not in used:
        field = "ability" if params.get("ability") else "item"
        raise Unprocessable(
            f"{hero_id} has not used {named} this turn",
            detail=f"Use it first with 'use-{field}' (its costs are paid there), then roll its attack. Used this turn: {used or 'nothing'}.",
            errors={field: [f"Not used this turn: {named}"]},
        )


def end(plan: Plan, hero_id: str) -> None:
    """The hero's activation ends: the one under way, or one in which the hero renounced everything (L400)."""
    current = plan.game["activation"]
    if current is None or current["hero"] != hero_id:
        _open(plan, hero_id, "An activation")


def still_to_activate(game: Mapping[str, Any]) -> list[str]:
    return sorted(h for h, hero in game["heroes"].items() if not hero["defeated"] and h not in game["activated"])


def require_hero_phase_over(plan: Plan) -> None:
    """The Yōkai phase follows the Hero phase (L152): every hero standing has activated (L158, L781)."""
    game = plan.game
    if game["activation"] is not None:
        hero = game["activation"]["hero"]
        raise Unprocessable(
            f"{hero}'s activation is under way",
            detail=f"End it first: {{\"type\": \"end-activation\", \"hero\": \"{hero}\"}} (L160, L398).",
        )
    waiting = still_to_activate(game)
    if waiting:
        raise Unprocessable(
            f"{', '.join(waiting)} {'has' if len(waiting) == 1 else 'have'} not activated this turn",
            detail="In the Hero phase each hero activates (L158, L781), even one that renounces its movement and actions (L400): "
            "send 'end-activation' for each; it removes their altered-state and reload tokens (L160).",
            errors={"heroes": waiting},
        )
