"""What the figures' special abilities do to an attack (combat.py), step by step: none before Descent rules data 1.3.0
(``NoAbilities``), the abilities, daze, Undying and the named monsters' rules from 1.3.0 on (``Applied``), and from 1.5.0 on
one dodge re-roll per leap (``AppliedOneDodgePerLeap``). The version a campaign pinned picks one (versions.py:
``attack_abilities``), a later one overriding only the steps that changed, so the attack holds no version check of its
own: it calls each step, and a step the version does not play does nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.descent import abilities, dazed, monster_conditions, named_deaths
from tracker.rulesets.descent.common import refuse
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.engine.working_copy import WorkingCopy


class NoAbilities:
    """An attack under rules that apply no special abilities (rules data before 1.3.0: its attacks re-derive as played)."""

    def of_target(self, rules: Mapping[str, Any], params: Mapping[str, Any], target: Mapping[str, Any]) -> dict[str, int]:
        """The target's abilities the attack reckons with."""
        return {}

    def daze(self, ctx: ActionContext, params: Mapping[str, Any], side: str, attacker: Mapping[str, Any], results: Mapping[str, list[str]]) -> dict[str, Any] | None:
        """A dazed attacker's die lost (dazed.py), or None."""
        return None

    def before_roll(self, ctx: ActionContext, params: Mapping[str, Any], attacker_side: str, attacker: Mapping[str, Any],
                    of_target: Mapping[str, int], results: Mapping[str, list[str]]) -> dict[str, Any] | None:
        """What the dice rolled must be, checked; the leap the attack makes, if it is one (else None)."""
        return None

    # -- the arithmetic (combat.resolve) ---------------------------------------

    def bonuses(self, params: Mapping[str, Any], attacker: Mapping[str, int], target: Mapping[str, int], attack: Mapping[str, int],
                power: list[str], bonus: dict[str, int], applied: list[dict[str, Any]]) -> None:
        """Range, damage and pierce the abilities add or take away (changes ``bonus``)."""

    def miss(self, params: Mapping[str, Any], attacker: Mapping[str, int], target: Mapping[str, int], power: list[str]) -> str | None:
        """Why the abilities leave the target unaffected, or None."""
        return None

    def ignores_range(self, params: Mapping[str, Any], attacker: Mapping[str, int], applied: list[dict[str, Any]]) -> bool:
        """Whether the attack ignores rolled range (a Leap attack, L224)."""
        return False

    def zero_damage(self, params: Mapping[str, Any], target: Mapping[str, int], applied: list[dict[str, Any]]) -> bool:
        """Whether the target takes 0 damage from this attack (Ironskin, L305)."""
        return False

    def record_applied(self, result: dict[str, Any], applied: list[dict[str, Any]]) -> None:
        """The abilities the arithmetic applied, kept in the attack's result."""

    # -- after the arithmetic ----------------------------------------------------

    def named_rules(self, ctx: ActionContext, params: Mapping[str, Any], attacker: Mapping[str, Any], target: Mapping[str, Any],
                    rolled: Mapping[str, list[str]], result: dict[str, Any]) -> None:
        """What the quest text says of a named monster's fights (changes ``result``)."""

    def undying(self, ctx: ActionContext, params: Mapping[str, Any], side: str, target: Mapping[str, Any], of_target: Mapping[str, int],
                killed: bool, rng: Any) -> list[dict[str, Any]]:
        """A killed figure's Undying roll, as changes."""
        return []

    def attack_made(self, ctx: ActionContext, made: dict[str, Any]) -> None:
        """What the attack's record keeps beyond its result (changes ``made``)."""

    def immune_to(self, of_target: Mapping[str, int]) -> set[str]:
        """The conditions the target is immune to."""
        return set()

    def monster_conditions(self, params: Mapping[str, Any], target: Mapping[str, Any], named: set[str]) -> list[dict[str, Any]]:
        """The condition tokens a monster figure hit for 1 damage or more is given."""
        return []

    def after_wounds(self, params: Mapping[str, Any], attacker: Mapping[str, Any], target: Mapping[str, Any], of_attacker: Mapping[str, int],
                     lost: int | None) -> list[dict[str, Any]]:
        """What follows the wounds the target lost (Leech, L308)."""
        return []

    def after_kill(self, ctx: ActionContext, params: Mapping[str, Any], attacker_side: str, target_side: str, target: Mapping[str, Any],
                   of_target: Mapping[str, int], changes: list[dict[str, Any]], working: WorkingCopy) -> list[dict[str, Any]]:
        """What follows the target's death, after ``changes`` (the attack's own, the kill among them; ``working``: the
        attack's working copy, for what reads the state after them)."""
        return []


NONE = NoAbilities()


class Applied(NoAbilities):
    """Rules data 1.3.0 on: the figures' special abilities (L211-L325), daze, Undying and the named monsters' own rules."""

    def __init__(self, known: Mapping[str, Any]) -> None:
        self.known = known  # the abilities of the rules data's combat part

    def of_target(self, rules, params, target):
        """The target's abilities: on record from when it entered play, or stated for this attack; the two must agree."""
        recorded = dict(target.get("abilities") or {})
        stated = abilities.stated_abilities(rules, params.get("target_abilities"), "target_abilities")
        for name, rank in stated.items():
            if name in recorded and recorded[name] != rank:
                raise refuse(f"{params['target']} has {name} {recorded[name]}, not {rank}", "Leave target_abilities out: they are on record.", "target_abilities")
        return {**stated, **recorded}

    def daze(self, ctx, params, side, attacker, results):
        return dazed.check(ctx, params, side, attacker, results)

    def before_roll(self, ctx, params, attacker_side, attacker, of_target, results):
        if attacker_side == "monster":
            monster_conditions.may_attack(ctx, params["attacker"], attacker)
        abilities.before_roll(self.known, params, attacker, of_target, results)
        return self.leap(ctx.state["turn"], params, attacker, results)

    def leap(self, turn: int, params: Mapping[str, Any], attacker: Mapping[str, Any], results: Mapping[str, list[str]]) -> dict[str, Any] | None:
        """The Leap attack's record (L224), or None."""
        return abilities.leap(turn, params, params["attacker"], attacker, results, self.known["leap"]["same_roll_for_each_figure"])

    def bonuses(self, params, attacker, target, attack, power, bonus, applied):
        abilities.bonuses(self.known, params, attacker, target, attack, power, bonus, applied)

    def miss(self, params, attacker, target, power):
        return abilities.miss(self.known, params, attacker, target, power)

    def ignores_range(self, params, attacker, applied):
        if not abilities.ignores_range(params, attacker):
            return False
        applied.append({"ability": "leap", "effect": "ignores rolled range", "source": self.known["leap"]["source"]})  # L224
        return True

    def zero_damage(self, params, target, applied):
        zeroed = abilities.zero_damage(self.known, params, target)
        if zeroed:
            applied.append({"ability": "ironskin", "effect": zeroed, "source": self.known["ironskin"]["source"]})
        return bool(zeroed)

    def record_applied(self, result, applied):
        result["abilities_applied"] = applied

    def named_rules(self, ctx, params, attacker, target, rolled, result):
        """The power dice a named monster rolls (the Zone 8 ogre's 3, L661; Zorek's 5, L684), and Zorek, whom "No attack
        can harm" (L684)."""
        dice_rolled = _named(ctx, attacker).get("power_dice")
        if dice_rolled is not None and len(rolled.get("power", [])) != dice_rolled and not abilities.bash_excused(self.known, abilities.named(params.get("abilities", []), "bash")):
            raise refuse(f"{params['attacker']} rolls {dice_rolled} power dice", f"Rolled {len(rolled.get('power', []))} ({', '.join(s.split(' ')[-1] for s in _named(ctx, attacker)['source'])}).", "faces.power")
        if _named(ctx, target).get("unharmed"):
            result.update(hit=False, miss="No attack can harm Zorek, and he is immune to all effects (L684)", damage=0, wounds=0)

    def undying(self, ctx, params, side, target, of_target, killed, rng):
        return undying(ctx, params, side, target, of_target, killed, rng)

    def attack_made(self, ctx, made):
        made["turn"] = ctx.state["turn"]

    def immune_to(self, of_target):
        return abilities.immune_to(self.known, of_target)

    def monster_conditions(self, params, target, named):
        return monster_conditions.placed(params, target, named)

    def after_wounds(self, params, attacker, target, of_attacker, lost):
        if lost and abilities.attacker_has(params, of_attacker, "leech"):
            return [_leeched(params, attacker, target, lost, self.known["leech"])]
        return []

    def after_kill(self, ctx, params, attacker_side, target_side, target, of_target, changes, working):
        added: list[dict[str, Any]] = []
        if "black-curse" in of_target and attacker_side == "hero":  # L216: only if it actually dies
            added.append({"kind": "curses-gained", "hero": params["attacker"], "count": self.known["black-curse"]["killer_curses"], "source": "black-curse"})
        if target_side == "monster":
            added += named_deaths.award(ctx, target, changes + added, working)
        return added


class AppliedOneDodgePerLeap(Applied):
    """Rules data 1.5.0 on: one dodge re-roll per Leap attack (L224-L225)."""

    def leap(self, turn, params, attacker, results):
        return abilities.dodged_once(super().leap(turn, params, attacker, results), params, attacker, self.known["leap"]["dodge_rerolls"])


def _named(ctx: ActionContext, figure: Mapping[str, Any]) -> Mapping[str, Any]:
    return next((m for m in ctx.ruleset.data["combat"]["named_monsters"] if m["id"] == figure.get("named")), {}) if figure.get("named") else {}


def undying(ctx: ActionContext, params: Mapping[str, Any], side: str, target: Mapping[str, Any], of_target: Mapping[str, int], killed: bool, rng: Any) -> list[dict[str, Any]]:
    """L321: "A figure with Undying rolls 1 power die when killed. On a power surge, the figure is instantly restored to full health."
    Its full health is the wounds it entered play with, where they are on record."""
    face = params.get("undying_face")
    which = next((a for a in ("superior-undying", "undying") if a in of_target), None)
    if which is None or not killed:
        if face is not None:
            raise refuse("Only a figure with Undying that the attack kills rolls for it", "Leave undying_face out (L321).", "undying_face")
        return []
    rule = ctx.ruleset.data["combat"]["abilities"][which]
    if face is None and ctx.dice[rule["die"]].faces is None:
        raise refuse(f"Say the Undying power die's face for {params['target']}", 'Send "undying_face" as rolled (L321), or supply the power die\'s faces to roll it here.', "undying_face")
    rolled = dice.roll_change(ctx.dice, {rule["die"]: 1}, {rule["die"]: [face]} if face is not None else None, rng, f"undying: {params['target']}")
    shown_face = rolled["roll"]["results"][rule["die"]][0]
    restored = shown_face in rule["restored_on"] if "restored_on" in rule else shown_face not in rule["destroyed_on"]  # Superior Undying: L618
    return [rolled, {"kind": "undying-rolled", "figure": params["target"], "face": shown_face, "restored": restored,
                     "wounds": target.get("max_wounds") if restored else 0}]


def _leeched(params: Mapping[str, Any], attacker: Mapping[str, Any], target: Mapping[str, Any], lost: int, rule: Mapping[str, Any]) -> dict[str, Any]:
    """L308: "For every wound token lost due to a Leech attack, the target also loses 1 fatigue, and the attacker is healed of 1 wound."
    Fatigue and healing go as far as the sheet allows where it is on record."""
    per = rule["per_wound_lost"]
    fatigue = target.get("fatigue")
    if "fatigue" not in target:  # a monster has no fatigue to lose
        lost_fatigue = 0
    else:
        lost_fatigue = min(fatigue, lost * per["target_fatigue"]) if fatigue is not None else lost * per["target_fatigue"]
    healed = lost * per["attacker_heals"]
    if attacker.get("wounds") is not None and attacker.get("max_wounds") is not None:
        healed = min(healed, attacker["max_wounds"] - attacker["wounds"])
    return {"kind": "leeched", "attacker": params["attacker"], "target": params["target"], "wounds_lost": lost, "fatigue_lost": lost_fatigue, "attacker_healed": healed}
