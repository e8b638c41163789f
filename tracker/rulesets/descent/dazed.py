"""How many dice a dazed hero rolls: L300, "Victim must roll a power die for each daze token next turn: Discard a daze
token for each power surge, then victim rolls 1 fewer die for each daze token that remains when making attacks."

The dice a hero's attack rolls come from his weapon card, which the log does not hold, so the attack states them
("dice_without_daze") and the roll must hold that many fewer, the table choosing which (the rules data's reading).
The tokens that remain are those left on him by his start-of-turn roll (the data's reading): a token placed since
(during the overlord's turn, before a guard attack) is rolled first at his next turn; a hero with tokens left by an
earlier roll attacks only after this turn's roll (condition-turn-start). A dazed monster figure likewise
(monster-condition-turn-start)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import refuse
from tracker.rulesets.engine.ruleset import ActionContext


def _rule(ctx: ActionContext) -> Mapping[str, Any]:
    return next(c for c in ctx.ruleset.data["conditions"] if c["id"] == "daze")


def check(ctx: ActionContext, params: Mapping[str, Any], side: str, attacker: Mapping[str, Any], rolled: Mapping[str, list[str]]) -> dict[str, Any] | None:
    """None for an attacker without daze tokens; else the daze on record for the attack, once the roll is checked."""
    held = (attacker.get("tokens") or {}).get("daze", 0)  # a hero's, or a monster figure's (monster_conditions.py)
    tokens = min(held, attacker.get("daze_rolled", 0))  # a token placed since the last roll has not been rolled yet
    undazed = params.get("dice_without_daze")
    if not tokens:
        if undazed is not None:
            raise refuse(f"{params['attacker']} has no daze token left from a start-of-turn roll", 'Leave "dice_without_daze" out (L300).', "dice_without_daze")
        return None
    if attacker.get("tokens_resolved_turn") != ctx.state["turn"]:
        raise refuse(f"Roll {params['attacker']}'s daze tokens first", f"{tokens} on it: a surge discards one at the start of its turn, then it rolls 1 fewer die per token left (L300). Record "
                     f"{'condition-turn-start' if side == 'hero' else 'monster-condition-turn-start'}.", "attacker")
    if undazed is None:
        raise refuse(f"{params['attacker']} is dazed: say the dice his attack rolls without daze",
                     f'Send "dice_without_daze" (e.g. {{"red": 1, "power": 2}}): he rolls {tokens} fewer (L300).', "dice_without_daze")
    fewer = tokens * _rule(ctx)["attack_dice_fewer_per_token"]
    counts = {die: len(faces) for die, faces in rolled.items()}
    extra = sorted(die for die, n in counts.items() if n > undazed.get(die, 0))
    if extra:
        raise refuse(f"A dazed attack rolls no more {extra[0]} dice than it would undazed", f"Rolled {counts}; undazed {dict(undazed)}.", "dice_without_daze")
    if sum(counts.values()) != sum(undazed.values()) - fewer:
        raise refuse(f"{params['attacker']} rolls {max(0, sum(undazed.values()) - fewer)} dice, not {sum(counts.values())}",
                     f"{sum(undazed.values())} undazed, 1 fewer for each of his {tokens} daze tokens (L300).", "faces")
    return {"tokens": tokens, "dice_without_daze": dict(undazed), "fewer": fewer}
