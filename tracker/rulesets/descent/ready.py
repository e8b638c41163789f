"""The Ready action as revised (L133-L139): two different half actions, one of them an order; a stunned hero takes one
half action instead of his action (L140-L141, L249), a move half action if he wants movement points (L268).

The orders' own effects (guard, aim, dodge, rest) are base-game text the transcription does not hold (digest §10.1
item 2): the order token is recorded on the hero, an attack records the order it uses up (combat.py), and what it did
is the result the table reports."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import NAME, plays_only, refuse, require_hero, schema
from tracker.rulesets.descent.figures import combat_rules
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

# L139: "A hero with a prolonged order token on him may take a concentrate half action to roll power dice": the one
# need of a concentrate half action the code plays (a prolonged action under way counts, see _check).
CONCENTRATE_NEEDS = "prolonged order"


def check_rules_data(data: Mapping[str, Any]) -> None:
    """A Ready rule the code plays one way only, refused at load otherwise (issue 31; rules data 1.2.0 on, versions.py):
    concentrate needs a prolonged order token (L139). Another need would be a rule the text never states."""
    plays_only(data, "ready.concentrate_needs", data["ready"]["concentrate_needs"], CONCENTRATE_NEEDS,
               "a concentrate half action rolls power dice for a prolonged action (L139)")


def _stunned_now(hero: Mapping[str, Any], turn: int) -> bool:
    return hero.get("stunned_turn") == turn


def _check(ctx: ActionContext, params: Mapping[str, Any], halves: list[str]) -> None:
    rules = ctx.ruleset.data["ready"]
    strangers = [h for h in halves if h not in rules["half_actions"]]
    if strangers:
        raise refuse(f"{strangers[0]} is not a half action", f"Half actions: {rules['half_actions']} (L135-L139).", "half_actions")
    order = params.get("order")
    if ("order" in halves) != (order is not None):
        raise refuse("An order half action places one order" if order is None else "Only an order half action places an order",
                     'Send "order" with the "order" half action, and only then (L137).', "order")
    under_way = any(params["hero"] in p["heroes"] for p in ctx.game.get("prolonged", {}).values())
    if "concentrate" in halves and not (order == "prolonged" or under_way):
        # L139 wants a prolonged order token on the hero; read as: placed by this Ready's order, or a prolonged action
        # of his under way (so a stunned hero may concentrate, as L141 allows)
        raise refuse("Concentrate needs a prolonged order token on the hero", "Place a prolonged order with the other half action (L139).", "half_actions")


def choices(data: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The half actions a Ready (two of them) or a stunned hero's half action picks from, as the rules data lists them
    (L135-L139: move, attack, order, concentrate), for the play page's pickers; none where the data keeps no Ready."""
    halves = (data.get("ready") or {}).get("half_actions") or []
    offered = {half: half for half in halves}
    return {"half_actions": offered, "half_action": offered} if offered else {}


def ready(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    combat_rules(ctx)
    hero = require_hero(ctx, params["hero"])
    rules = ctx.ruleset.data["ready"]
    halves = list(params["half_actions"])
    if _stunned_now(hero, ctx.state["turn"]):
        raise refuse(f"{params['hero']} discarded a stun token this turn: one half action, not a Ready action", 'Record it with "stunned-half-action" (L141, L249).', "hero")
    # L134: "when a hero readies, he receives two different half actions, one of which must be an order half action"
    # (different: the data's word on whether the two may be the same)
    if len(halves) != rules["per_ready"] or (rules["different"] and len(set(halves)) != len(halves)):
        raise refuse(f"A Ready action is {rules['per_ready']}{' different' if rules['different'] else ''} half actions", f"Got {halves} (L134).", "half_actions")
    if rules["one_must_be"] not in halves:
        raise refuse("One of a Ready action's half actions must be an order", f"Got {halves} (L135).", "half_actions")
    _check(ctx, params, halves)
    return [{"kind": "hero-readied", "hero": params["hero"], "half_actions": halves, "order": params.get("order"), "turn": ctx.state["turn"], "stunned": False}]


def stunned_half_action(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    combat_rules(ctx)
    hero = require_hero(ctx, params["hero"])
    if not _stunned_now(hero, ctx.state["turn"]):
        raise refuse(f"{params['hero']} is not stunned this turn", "A hero who discards a stun token at the start of his turn takes one half action (L249); resolve his tokens first.", "hero")
    # L141: "A stunned hero now effectively receives one half action instead of his normal action" (stunned_half_actions)
    allowed = ctx.ruleset.data["ready"]["stunned_half_actions"]
    if sum(r["turn"] == ctx.state["turn"] and r["stunned"] for r in hero.get("readied") or []) >= allowed:
        taken = "his half action" if allowed == 1 else f"his {allowed} half actions"
        raise refuse(f"{params['hero']} already took {taken} this turn", f"A stunned hero takes {taken.removeprefix('his ')} (L141).", "hero")
    _check(ctx, params, [params["half_action"]])
    return [{"kind": "hero-readied", "hero": params["hero"], "half_actions": [params["half_action"]], "order": params.get("order"), "turn": ctx.state["turn"], "stunned": True}]


ORDER = {"enum": ["guard", "aim", "dodge", "rest", "prolonged"]}
ACTIONS = [
    ActionType("ready", "A hero readies: two different half actions (move, attack, order, concentrate), one of them an order (guard, aim, dodge, rest or prolonged) (L133-L139).",
               schema({"hero": NAME, "half_actions": {"type": "array", "items": NAME, "minItems": 1, "maxItems": 4}, "order": ORDER}, ["hero", "half_actions"]), ready, random=False),
    ActionType("stunned-half-action", "A hero who discarded a stun token this turn takes one half action instead of his action (L141, L249).",
               schema({"hero": NAME, "half_action": NAME, "order": ORDER}, ["hero", "half_action"]), stunned_half_action, random=False),
]
