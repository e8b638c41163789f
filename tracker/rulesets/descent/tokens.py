"""The heroes' condition tokens (L294-L323): Burn, Bleed, Daze, Web, Stun and Poison, placed by attacks and quest
effects, and resolved at the start of the victim's next turn as the Special Abilities Summary says.

- Burn (L297): a power die per token, a surge discards one, then a wound (ignoring armour) per token left.
- Bleed (L294): a white die per token, wounds equal to the total damage shown (ignoring armour), then all discarded.
- Daze (L300) and Web (L323): a power die per token, a surge discards one; while any are left the hero rolls 1 fewer
  attack die per daze token, or spends no movement points.
- Stun (L317): one token is discarded each turn, and a stunned hero takes one half action (L141, L249).
- Poison (L312) has no roll: its tokens stand for wounds until healing removes them.
Frost has its own rules (conditions.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import dice
from tracker.rulesets.descent import conquest
from tracker.rulesets.descent.combat import DEATH
from tracker.rulesets.descent.common import COUNT, NAME, refuse, require_hero, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

TOKENS = ("burn", "bleed", "daze", "web", "stun", "poison")


def _rules(ctx: ActionContext) -> dict[str, Mapping[str, Any]]:
    return {c["id"]: c for c in ctx.ruleset.data["conditions"]}


def held(hero: Mapping[str, Any]) -> dict[str, int]:
    return dict(hero.get("tokens") or {})


def place(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """Tokens placed on a hero: by an attack that dealt at least 1 damage before armour (L325 †), or a quest's effect."""
    require_hero(ctx, params["hero"])
    if params["condition"] not in _rules(ctx):
        raise refuse(f"'{params['condition']}' is not a condition token", f"Tokens: {wording.listed(sorted(_rules(ctx)))}; frost has gain-frost.", "condition")
    return [{"kind": "condition-tokens-placed", "hero": params["hero"], "condition": params["condition"], "count": params["count"],
             "source": params.get("source", "attack")}]


def _wounds_shown(faces: list[str]) -> int:
    """The damage (D) a die result shows: '2D 1R 1S' shows 2; 'X' (a miss) shows none."""
    return sum(int(part[:-1]) for face in faces for part in face.split() if part.endswith("D"))


def turn_start(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The start of a hero's turn with condition tokens: each is rolled and resolved once a turn."""
    hero = require_hero(ctx, params["hero"])
    tokens = {c: n for c, n in held(hero).items() if n}
    turn = ctx.state["turn"]
    if not any(c in tokens for c in ("burn", "bleed", "daze", "web", "stun")):
        raise refuse(f"{params['hero']} has no token to resolve at the start of a turn", f"Tokens: {tokens or 'none'}.", "hero")
    if hero.get("tokens_resolved_turn") == turn:
        raise refuse(f"{params['hero']}'s tokens were already resolved on turn {turn}", "They are resolved once, at the start of the hero's turn.", "hero")
    changes, discarded, wounds, left, effects = roll_off(ctx, params["hero"], tokens, params.get("faces") or {}, rng)
    changes.append({"kind": "condition-tokens-resolved", "hero": params["hero"], "turn": turn, "discarded": {c: n for c, n in discarded.items() if n},
                    "left": {c: n for c, n in left.items() if n}, "wounds": wounds, "ignores_armour": True, "this_turn": effects})
    if wounds and hero.get("wounds") is not None and wounds >= hero["wounds"]:  # burned or bled to 0 wounds: killed (L192-L193)
        changes += conquest.hero_killed(ctx, {"hero": params["hero"], **(params.get("death") or {})}, rng)
    return changes


def roll_off(ctx: ActionContext, who: str, tokens: Mapping[str, int], reported: Mapping[str, list[str]], rng: Any
             ) -> tuple[list[dict[str, Any]], dict[str, int], int, dict[str, int], list[str]]:
    """A victim's start-of-turn rolls (L294-L323), hero or monster: the rolls, the tokens discarded, the wounds suffered
    (ignoring armour), the tokens left and what they mean this turn."""
    rules = _rules(ctx)
    changes: list[dict[str, Any]] = []
    discarded: dict[str, int] = {}
    wounds = 0
    for condition in reported:
        if not tokens.get(condition):
            raise refuse(f"{who} has no {condition} token", f"Tokens: {dict(tokens)}.", f"faces.{condition}")
    for condition in ("burn", "bleed", "daze", "web"):
        count = tokens.get(condition, 0)
        if not count:
            continue
        rule = rules[condition]
        die = rule["roll"]["die"]
        faces = reported.get(condition)
        if faces is not None and len(faces) != count * rule["roll"]["per_token"]:
            raise refuse(f"Roll one {die} die per {condition} token ({count})", f"Reported {len(faces)}.", f"faces.{condition}")
        rolled = dice.roll_change(ctx.dice, {die: count}, {die: faces} if faces is not None else None, rng, f"{condition} at turn start")
        shown = rolled["roll"]["results"][die]
        changes.append(rolled)
        if rule.get("discard_all"):
            discarded[condition] = count
            wounds += _wounds_shown(shown)
        else:
            discarded[condition] = min(count, shown.count("surge") * rule["discard_per_surge"])
            wounds += (count - discarded[condition]) * rule.get("wounds_per_remaining_token", 0)
    if tokens.get("stun"):
        discarded["stun"] = rules["stun"]["discard_per_turn"]
    left = {c: tokens.get(c, 0) - discarded.get(c, 0) for c in tokens}
    effects = [rules[c]["while_remaining"] for c in ("daze", "web") if left.get(c)]
    if tokens.get("stun"):
        effects.append(rules["stun"]["hero_effect"])
    return changes, discarded, wounds, left, effects


ACTIONS = [
    ActionType("place-condition", "Condition tokens placed on a hero (Burn, Bleed, Daze, Web, Stun, Poison): an attack that dealt 1 or more damage before armour, or a quest's effect.",
               schema({"hero": NAME, "condition": {"enum": list(TOKENS)}, "count": COUNT, "source": NAME}, ["hero", "condition", "count"]), place, random=False),
    ActionType("condition-turn-start", "The start of a hero's turn: Burn, Bleed, Daze and Web tokens are rolled (report the faces, or the stream rolls where the faces are known) and Stun discards one (L294-L323).",
               schema({"hero": NAME, "faces": {"type": "object", "properties": {c: {"type": "array", "items": {"type": "string", "maxLength": 20}, "minItems": 1, "maxItems": 20} for c in ("burn", "bleed", "daze", "web")},
                                               "additionalProperties": False},
                       "death": {**DEATH, "description": "If the tokens' wounds kill the hero: what hero-killed needs (conquest_value, cursed_items)."}},
                      ["hero"]), turn_start, random=True),
]
