"""The start of the overlord's turn for a monster figure with condition tokens (L294-L323): it rolls them off as a hero
does (tokens.roll_off); the wounds they deal ignore armour and may kill it (Undying still rolls, L321; a named monster's
death decides what its quest ties to it). What the tokens left mean this turn is monster_conditions.py's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent import attack_abilities, named_deaths, tokens
from tracker.rulesets.descent.common import NAME, refuse, schema
from tracker.rulesets.descent.figures import combat_rules, in_play
from tracker.rulesets.engine.ruleset import ActionContext, ActionType
from tracker.rulesets.engine.working_copy import WorkingCopy


def turn_start(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    combat_rules(ctx)  # a version without combat refuses it
    ctx.ruleset.rules.version.require(ctx, "abilities", "This campaign's rules data keeps no tokens on monsters", "They are kept", "type")
    figures = in_play(ctx.game)
    figure = figures.get(params["figure"])
    if figure is None:
        raise refuse(f"'{params['figure']}' is not a monster figure in play", f"Monsters in play: {sorted(figures)}.", "figure")
    held = {c: n for c, n in (figure.get("tokens") or {}).items() if n}
    turn = ctx.state["turn"]
    if not held:
        raise refuse(f"{params['figure']} has no token to resolve at the start of a turn", f"Monsters with tokens: {sorted(f for f, m in figures.items() if m.get('tokens'))}.", "figure")
    if figure.get("tokens_resolved_turn") == turn:
        raise refuse(f"{params['figure']}'s tokens were already resolved on turn {turn}", "They are resolved once, at the start of the overlord's turn.", "figure")
    changes, discarded, wounds, left, effects = tokens.roll_off(ctx, params["figure"], held, params.get("faces") or {}, rng)
    if held.get("stun"):
        effects[-1] = "does nothing else this turn" if not figure["master"] else "moves or attacks once this turn"
    before = figure.get("wounds")
    after = max(0, before - wounds) if before is not None else None
    changes.append({"kind": "monster-tokens-resolved", "figure": params["figure"], "turn": turn, "discarded": {c: n for c, n in discarded.items() if n},
                    "left": {c: n for c, n in left.items() if n}, "wounds": wounds, "ignores_armour": True, "wounds_left": after, "this_turn": effects})
    if after == 0:
        undying = attack_abilities.undying(ctx, {"target": params["figure"], "undying_face": params.get("undying_face")}, "monster", figure, figure.get("abilities") or {}, True, rng)
        changes += undying
        if not (undying and undying[-1]["restored"]):
            changes.append({"kind": "monster-killed", "figure": params["figure"], "monster": figure["monster"], "by": "its condition tokens"})
            working = WorkingCopy(ctx)  # the award reads the state after the kill: each change folded once, here
            changes += named_deaths.award(ctx, figure, changes, working)
            return working.catch_up(changes)
    return changes


_FACES = {c: {"type": "array", "items": {"type": "string", "maxLength": 20}, "minItems": 1, "maxItems": 20} for c in ("burn", "bleed", "daze", "web")}
ACTIONS = [
    ActionType("monster-condition-turn-start", "The start of the overlord's turn: a monster figure's Burn, Bleed, Daze and Web tokens are rolled (report the faces, or the stream rolls them where the faces are known) and Stun discards one; a stunned normal monster does nothing else, a stunned master moves or attacks once (L294-L323).",
               schema({"figure": NAME, "faces": {"type": "object", "properties": _FACES, "additionalProperties": False},
                       "undying_face": {"enum": ["blank", "surge", "enhancement"]}}, ["figure"]), turn_start, random=True),
]
