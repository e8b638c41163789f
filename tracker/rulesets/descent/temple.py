"""Hold the Position (L518-L563): the turn descriptions the overlord reads at the start of his turn (the waves of
monsters, the crypts' doors, the new zones), and the altars the heroes activate for 250 coins, each once a turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.rulesets.descent.common import NAME, quest, refuse, require_hero, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType


def read_turn(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The description of this turn (L528), as printed: turns 2 and 6 have none (L500), and none follows turn 9."""
    q = quest(ctx)
    schedule = q.get("turn_descriptions")
    if schedule is None:
        raise refuse(f"{q['name']} has no turn descriptions", "Only Hold the Position reads one at the start of the overlord's turn (L527-L528).", "type")
    turn = ctx.state["turn"]
    if turn in ctx.game.get("turns_read", []):
        raise refuse(f"Turn {turn}'s description was already read", "It is read once, at the start of the overlord's turn (L528).", "type")
    printed = next((t for t in schedule["turns"] if t["turn"] == turn), None)
    if printed is None:
        if turn in schedule["without_text"]:
            return [{"kind": "turn-description-read", "turn": turn, "printed": False, "spawns": []}]
        raise refuse(f"Hold the Position describes no turn {turn}", f"Descriptions: turns {wording.listed([t['turn'] for t in schedule['turns']])}.", "type")
    return [{"kind": "turn-description-read", "turn": turn, "printed": True, "spawns": printed["spawns"],
             **{k: printed[k] for k in ("doors_removed", "zones_added") if k in printed}}]


def activate_altar(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A hero on an altar spends 250 coins and 2 movement points: 2 wounds ignoring armour and 2 burn tokens on every
    enemy within 5 spaces; each altar once a turn (L526)."""
    q = quest(ctx)
    rule = q.get("temple_altars")
    if rule is None:
        raise refuse(f"{q['name']} has no altars to activate", "Only Hold the Position's altars are activated for coins (L526).", "type")
    altars = ctx.game.get("temple_altars")
    if altars is None:
        raise refuse("Say how many altars the map has", "Start the session with setup.altars: the map is not in the transcription.", "altar")
    if params["altar"] not in altars["ids"]:
        raise refuse(f"'{params['altar']}' is not an altar of this quest", f"Altars: {altars['ids']}.", "altar")
    hero = require_hero(ctx, params["hero"])
    turn = ctx.state["turn"]
    if altars["used"].get(params["altar"]) == turn:
        raise refuse(f"{params['altar']} was already used on turn {turn}", "An altar may only be used once per turn (L526).", "altar")
    if hero["coins"] < rule["cost_coins"]:
        raise refuse(f"{params['hero']} has {hero['coins']} coins, not {rule['cost_coins']}", "Activating an altar costs 250 coins (L526).", "hero")
    return [{"kind": "coins-changed", "hero": params["hero"], "amount": -rule["cost_coins"], "reason": f"activated {params['altar']}"},
            {"kind": "temple-altar-activated", "altar": params["altar"], "hero": params["hero"], "turn": turn, "movement_points": rule["movement_points"],
             "wounds": rule["wounds"], "ignores_armour": rule["ignores_armour"], "burn": rule["burn"], "within_spaces": rule["within_spaces"]}]


ACTIONS = [
    ActionType("turn-description", "Hold the Position, start of the overlord's turn: this turn's description, its spawns, doors and zones, as printed (L527-L563).",
               schema({}, []), read_turn, random=False),
    ActionType("activate-altar", "Hold the Position: a hero on an altar spends 250 coins and 2 movement points; 2 wounds ignoring armour and 2 burn to every enemy within 5 spaces, each altar once a turn (L526).",
               schema({"altar": NAME, "hero": NAME}, ["altar", "hero"]), activate_altar, random=False),
]
