"""Condition tokens on monster figures (L294-L323; rules data 1.3.0 on): an attack that deals a monster at least 1
damage before armour (L325 †) leaves its Burn, Bleed, Daze, Stun or Web token, as on a hero; "Named monsters cannot be
stunned" (L317), and Ironskin and Unstoppable keep theirs off (L305, L322). At the start of the overlord's turn each
figure with tokens rolls them off as a hero does (monster_turn.py), and then:
- Stun (L317): "Normal monsters that begin a turn with a stun token may do nothing else, while ... master monsters may
  move or attack once. Figures discard 1 stun token each turn." A stunned normal monster's attack is refused; a
  stunned master's second attack is (whether it moved instead is the table's to see: the map is not tracked).
- Daze (L300): it rolls 1 fewer die per token left (dazed.py, as for a hero).
- Web (L323): it may not spend movement points (not tracked: monsters' moves are on the map).
Poison and Frost are the heroes' (L312 speaks of healing; L220: "Monsters are not affected by Frost")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import refuse
from tracker.rulesets.engine.ruleset import ActionContext

ON_MONSTERS = ("burn", "bleed", "daze", "stun", "web")


def immune(ctx: ActionContext, target: Mapping[str, Any]) -> set[str]:
    """The conditions a monster figure is immune to for being a named monster: "Named monsters cannot be stunned" (L317),
    where the data's Stun says so (named_monsters_immune)."""
    stun = next((c for c in ctx.ruleset.data["conditions"] if c["id"] == "stun"), {})
    return {"stun"} if target.get("named") and stun.get("named_monsters_immune") else set()


def placed(params: Mapping[str, Any], target: Mapping[str, Any], named: set[str]) -> list[dict[str, Any]]:
    """Tokens an attack leaves on a monster figure; ``named`` the conditions the attack names, less the immune ones
    (Ironskin and Unstoppable, a named monster's, ``immune``)."""
    changes = []
    for condition in ON_MONSTERS:
        if condition not in named:
            continue
        changes.append({"kind": "monster-tokens-placed", "figure": params["target"], "condition": condition, "count": 1, "source": f"attack by {params['attacker']}"})
    return changes


def may_attack(ctx: ActionContext, attacker_id: str, attacker: Mapping[str, Any]) -> None:
    """L317: a stunned normal monster does nothing else; a stunned master monster moves or attacks once."""
    turn = ctx.state["turn"]
    if attacker.get("stunned_turn") != turn:
        return
    if not attacker.get("master"):
        raise refuse(f"{attacker_id} is stunned: it may do nothing else this turn", "Normal monsters that begin a turn with a stun token may do nothing else (L317).", "attacker")
    if attacker.get("attacked_turn") == turn:
        raise refuse(f"{attacker_id} is stunned: it already attacked this turn", "A stunned master monster may move or attack once (L317).", "attacker")
