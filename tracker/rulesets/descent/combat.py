"""An attack as the table plays it: who attacks whom, the dice rolled (reported faces, or digital where the faces are
known or supplied), the distance, the surges spent and the abilities used; the damage resolved against armour where
the facts are known, else the result as the table states it, marked as stated.

- A die showing the data's ``miss_face`` (X) is a miss (L211, L290); a ranged or magic attack also misses when the range
  rolled falls short of the distance, melee ignores range where ``melee_ignores_range`` says so (L215: the data's reading).
- Surges: those on the attack dice, a power surge on a power die (spent like one where ``power_surges_spent_as_surges``,
  L211, L290, L299), and free surges (Landrec's 2, L245); abilities bought with surges stack (L280: ``surges_stack``, the
  one way the code plays, checked when the data loads).
- Pierce ignores that much armour (L311, ``pierce_ignores_armour``); an invulnerability potion in effect gives the data's
  +10 armour against one attack (L185); armour reduces the wounds (L197, ``armour_reduces_wounds``); an exhausted shield
  absorbs what the table says it does (L197). Damage before armour decides Frost and the conditions (L196, L220, L325 †,
  ``damage_before_armour_decides_effects``; else the wounds after armour do); wounds after armour are lost.
- A hero brought to 0 wounds is killed with the consequences hero-killed records (L192-L193); a wound lost on corrupted
  terrain gives the overlord 2 threat (L171). A monster figure at 0 wounds is killed and leaves play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.descent import abilities, conquest, monster_conditions, named_deaths, spirit_figures
from tracker.rulesets.descent.attack_abilities import NONE as NO_ABILITIES
from tracker.rulesets.descent.attack_abilities import NoAbilities
from tracker.rulesets.descent.common import NAME, plays_only, refuse, schema
from tracker.rulesets.descent.figures import STAT, combat_rules, require_figure
from tracker.rulesets.engine.ruleset import ActionContext, ActionType
from tracker.rulesets.engine.working_copy import WorkingCopy

BONUS = {"damage": {"type": "integer", "minimum": -20, "maximum": 20}, "range": {"type": "integer", "minimum": -20, "maximum": 20},
         "pierce": {"type": "integer", "minimum": 0, "maximum": 20}}


def check_rules_data(data: Mapping[str, Any]) -> None:
    """A hero's death and surges as an attack plays them, refused at load otherwise (issue 31; rules data 1.2.0 on, versions.py)."""
    # L192-L193: a killed hero costs the heroes his conquest value ("if the overlord kills her, the heroes lose 4 conquest
    # tokens"); an attack that leaves a hero 0 wounds kills him (_killed below). A hero alive at 0 wounds is no rule the
    # book states.
    plays_only(data, "combat.hero_killed_at_zero_wounds", data["combat"]["hero_killed_at_zero_wounds"], True,
               "a hero an attack leaves at 0 wounds is killed, with what hero-killed records (L192-L193)")
    # L280: "Special abilities that require you to spend surges are designed to stack. So if you have an ability such as
    # ": +1 Damage and Pierce 1," and you pay 3 surges, you gain +3 Damage and Pierce 3." Surges that do not stack would
    # need a rule the text never states (which of several surges counts).
    plays_only(data, "combat.surges_stack", data["combat"]["surges_stack"], True,
               "each surge spent on an ability adds its bonus once more (L280); the text gives no rule for surges that do not stack")


def shown(faces: list[str], miss_face: str) -> dict[str, int]:
    """What attack dice show: '2D 1R 1S' is 2 damage, 1 range, 1 surge; ``miss_face`` (the data's X) is a miss."""
    total = {"damage": 0, "range": 0, "surges": 0, "misses": 0}
    for face in faces:
        if face == miss_face:
            total["misses"] += 1
            continue
        for part in face.split():
            total[{"D": "damage", "R": "range", "S": "surges"}[part[-1]]] += int(part[:-1])
    return total


def _roll(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> dict[str, Any]:
    if not params.get("dice") and not params.get("faces"):
        raise refuse("Say the dice rolled", 'Send "faces" as rolled on the table, or "dice" (counts) for a digital roll where the faces are known.', "faces")
    return dice.roll_change(ctx.dice, params.get("dice") or {}, params.get("faces"), rng, f"attack: {params['attacker']} on {params['target']}")


def _armour(ctx: ActionContext, side: str, figure: Mapping[str, Any], params: Mapping[str, Any]) -> tuple[int | None, str]:
    known = figure.get("armor")
    said = params.get("armor")
    if known is not None:
        if said is not None and said != known:
            raise refuse(f"{params['target']}'s armour is {known}, not {said}", "Leave armor out: it is on record.", "armor")
        return known, "on record"
    return said, "stated" if said is not None else "unknown"


def wounds_after_armour(rules: Mapping[str, Any], damage: int, armour: int, pierce: int, params: Mapping[str, Any]) -> tuple[int, int]:
    """The armour that counts and the wounds dealt: L311 "Pierce attacks ignore X points of armor" (where the data's
    ``pierce_ignores_armour``); L185 an invulnerability potion's armour (``invulnerability_armour``); L197 "his chain mail
    and base armor reduces it by another 4" (where ``armour_reduces_wounds``); the shield's wounds as the table states."""
    ignored = pierce if rules["pierce_ignores_armour"] else 0
    effective = max(0, armour + (rules["invulnerability_armour"] if params.get("invulnerability") else 0) - ignored)
    return effective, max(0, damage - (effective if rules["armour_reduces_wounds"] else 0) - params.get("shield", 0))


def resolve(rolled: Mapping[str, list[str]], params: Mapping[str, Any], free_surges: int, armour: int | None,
            steps: NoAbilities = NO_ABILITIES, attacker: Mapping[str, int] | None = None, target: Mapping[str, int] | None = None,
            *, rules: Mapping[str, Any]) -> dict[str, Any]:
    """The arithmetic of one attack, pure: hit or miss, damage and pierce, wounds after armour (None where a fact is missing).
    ``steps`` is what the abilities do to it under the version's rules (attack_abilities.py, picked by versions.py), ``attacker``
    and ``target`` the abilities on record ({name: rank}), ``rules`` the rules data's combat part."""
    attacker, target = attacker or {}, target or {}
    attack = shown([f for die, faces in rolled.items() if die != "power" for f in faces], rules["miss_face"])
    power = rolled.get("power", [])
    # L211: "for each power surge spent": a power die's surge is spent like the attack dice's, where the data says so
    surges = attack["surges"] + (power.count("surge") if rules["power_surges_spent_as_surges"] else 0) + free_surges
    spent = sum(s["count"] for s in params.get("surges", []))
    if spent > surges:
        raise refuse(f"The roll gives {surges} surges, not {spent}", "Attack dice, power surges and free surges are all there is (L280).", "surges")
    bonus = {k: sum(a.get(k, 0) for a in params.get("abilities", [])) + sum(s["count"] * s.get(k, 0) for s in params.get("surges", [])) for k in BONUS}
    applied: list[dict[str, Any]] = []
    steps.bonuses(params, attacker, target, attack, power, bonus, applied)
    range_rolled = attack["range"] + bonus["range"]
    unaffected = steps.miss(params, attacker, target, power)
    if attack["misses"]:
        hit, why = False, f"a die shows {rules['miss_face']}"
    elif unaffected:
        hit, why = False, unaffected
    elif steps.ignores_range(params, attacker, applied):
        hit, why = True, None  # L224: a Leap attack ignores rolled range, only missing on a miss result
    elif (params["attack_type"] != "melee" or not rules["melee_ignores_range"]) and range_rolled < params.get("range", 0):  # L215
        hit, why = False, f"range {range_rolled} falls short of {params['range']}"
    else:
        hit, why = True, None
    damage = max(0, attack["damage"] + bonus["damage"]) if hit else 0
    if hit and "enhancement" in power:
        damage = None  # an enhancement's effect on an attack is not in the transcription
    if hit and steps.zero_damage(params, target, applied):
        damage = 0
    result = {"hit": hit, "miss": why, "rolled": attack, "power": power, "surges_rolled": surges, "surges_spent": spent, "range_rolled": range_rolled,
              "damage": damage, "pierce": bonus["pierce"], "armour": armour}
    steps.record_applied(result, applied)
    if damage is None or armour is None:
        result["wounds"] = 0 if damage == 0 else None
        return result
    effective, wounds = wounds_after_armour(rules, damage, armour, bonus["pierce"], params)
    result.update(effective_armour=effective, wounds=wounds)
    return result


def _stated(rules: Mapping[str, Any], params: Mapping[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The table's statement of what the log cannot work out, checked against what it can."""
    said = dict(params.get("stated") or {})
    if "hit" in said and said["hit"] != result["hit"]:
        raise refuse(f"The dice say the attack {'hits' if result['hit'] else 'misses'}", f"{result['miss'] or 'No X and the range reaches'}: leave stated.hit out.", "stated.hit")
    if "damage" in said:
        if result["damage"] is not None and said["damage"] != result["damage"]:
            raise refuse(f"The dice give {result['damage']} damage, not {said['damage']}", "Leave stated.damage out.", "stated.damage")
        result["damage"] = said["damage"]
    if "wounds_dealt" in said:
        if result["wounds"] is not None and said["wounds_dealt"] != result["wounds"]:
            raise refuse(f"The attack deals {result['wounds']} wounds, not {said['wounds_dealt']}", "Damage less armour is on record: leave stated.wounds_dealt out.", "stated.wounds_dealt")
        result["wounds"] = said["wounds_dealt"]
    if result["wounds"] is None and result["damage"] is not None and result["armour"] is not None:
        result["wounds"] = wounds_after_armour(rules, result["damage"], result["armour"], result["pierce"], params)[1]
    return said


def attack(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    rules = combat_rules(ctx)
    attacker_side, attacker = require_figure(ctx, params["attacker"], "attacker")
    target_side, target = require_figure(ctx, params["target"], "target")
    spirit_figures.may_be_attacked(ctx, target)
    if attacker_side == target_side == "hero" and not params.get("dark_charm"):
        raise refuse("Heroes attack monsters, not each other", 'Name a monster figure as the target, or send "dark_charm": true when the overlord controls the attacker (L274).', "target")
    if params["attack_type"] != "melee" and "range" not in params:
        raise refuse(f"Say the distance to the target of a {params['attack_type']} attack", 'Send "range" in spaces: the range rolled must reach it (L215).', "range")
    if params.get("invulnerability") and not (target_side == "hero" and target.get("invulnerable")):
        raise refuse(f"{params['target']} has no invulnerability potion in effect", "Drink one first (L185).", "invulnerability")
    steps = ctx.ruleset.rules.version.attack_abilities(rules)  # what the abilities do, under the version's rules
    if params.get("target_abilities") or params.get("undying_face") or params.get("dice_without_daze"):
        ctx.ruleset.rules.version.require(ctx, "abilities", "This campaign's rules data applies no abilities or daze", "They are applied", "target_abilities")
    of_attacker = dict(attacker.get("abilities") or {}) if attacker_side == "monster" else {}
    of_target = steps.of_target(rules, params, target)
    rolled = _roll(ctx, params, rng)
    results = rolled["roll"]["results"]
    daze = steps.daze(ctx, params, attacker_side, attacker, results)
    leapt = steps.before_roll(ctx, params, attacker_side, attacker, of_target, results)
    ctx.ruleset.rules.version.require_power_dice_within_roll(ctx, results)  # the power die's max_per_roll, rules 1.8.0 on (after Bash's own)
    free = rules["free_surges"].get(params["attacker"], 0) if attacker_side == "hero" else 0
    armour, armour_from = _armour(ctx, target_side, target, params)
    result = resolve(results, params, free, armour, steps, of_attacker, of_target, rules=rules)
    steps.named_rules(ctx, params, attacker, target, results, result)
    said = _stated(rules, params, result)
    before = target.get("wounds")
    left = said.get("wounds_left")
    if left is None and before is not None and result["wounds"] is not None:
        left = max(0, before - result["wounds"])
    elif left is not None and before is not None and result["wounds"] is not None and left != max(0, before - result["wounds"]):
        raise refuse(f"{params['target']} is left with {max(0, before - result['wounds'])} wounds, not {left}",
                     f"It had {before} and loses {result['wounds']}: leave stated.wounds_left out.", "stated.wounds_left")
    if result["wounds"] is None and left is None and not said.get("killed"):
        missing = "the damage (a power enhancement's effect is not in the transcription)" if result["damage"] is None else f"{params['target']}'s armour"
        raise refuse(f"Say {missing}, or the result", 'Send "armor", or "stated": {"damage"|"wounds_dealt"|"wounds_left"|"killed"} as the table has it.', "stated")
    if said.get("killed") and left not in (None, 0):
        raise refuse(f"{params['target']} is left with {left} wounds, so it is not killed", "Leave stated.killed out, or state the wounds the table counts.", "stated.killed")
    killed = left == 0 or bool(said.get("killed"))
    undying = steps.undying(ctx, params, target_side, target, of_target, killed, rng)
    if undying and undying[-1]["restored"]:
        killed = False
    orders = _orders_used(ctx, params, attacker_side, target_side)
    made = {"kind": "attack-made", "attacker": params["attacker"], "target": params["target"], "target_side": target_side, "attack_type": params["attack_type"],
            "range": params.get("range"), "surges": list(params.get("surges", [])), "abilities": list(params.get("abilities", [])), "free_surges": free,
            "dark_charm": bool(params.get("dark_charm")), "armour_from": armour_from, "shield": params.get("shield", 0), "invulnerability": bool(params.get("invulnerability")), "orders_used": orders,
            **result, "wounds_before": before, "wounds_left": 0 if (killed or undying) and left is None and before is not None else left, "killed": killed, "stated": said}
    steps.attack_made(ctx, made)
    if daze is not None:
        made["daze"] = daze
    if leapt is not None:
        made["leap"] = leapt
    if of_target:
        made["target_abilities"] = of_target
    changes: list[dict[str, Any]] = [rolled, made] + undying + ctx.ruleset.rules.version.surges_to_threat(ctx, params, attacker_side, of_attacker)
    if target_side == "monster":  # L618-L619: a spirit figure's fight is the quest's spirit record too
        changes += spirit_figures.attacked(ctx, attacker_side, target) + spirit_figures.killed(target, undying)
    if params.get("invulnerability"):
        changes.append({"kind": "invulnerability-used", "hero": params["target"], "armour_bonus": rules["invulnerability_armour"]})
    lost = result["wounds"] if result["wounds"] is not None else (before - left if before is not None and left is not None else None)
    if target_side == "hero" and params.get("on_corrupted") and lost:
        per = rules["corrupted_terrain"]["threat_per_wound"]
        changes.append({"kind": "threat-gained", "amount": per * lost, "source": "corrupted-terrain-wounds", "count": lost, "hero": params["target"]})
    changes += _effects(ctx, params, target_side, target, result, lost, steps, of_target)
    changes += steps.after_wounds(params, attacker, target, of_attacker, lost)
    working = WorkingCopy(ctx)  # what follows a death reads the state after the attack's changes: each folded once, here
    if killed:
        changes += _killed(ctx, params, target_side, target)
        changes += steps.after_kill(ctx, params, attacker_side, target_side, target, of_target, changes, working)
    if any(c["kind"] == "spirit-killed" and c["destroyed"] for c in changes):
        changes += named_deaths.when_spirits_fall(ctx, changes, working)  # the last angered spirit may be all the leaders' award waited for (L662)
    return working.catch_up(changes)


def power_dice_within_roll(ctx: ActionContext, results: Mapping[str, list[str]]) -> None:
    """An attack rolls at most the power die's ``max_per_roll`` (rules 1.8.0 on: versions.py asks this). L139: "He may
    spend fatigue to bring this roll up to a maximum of 5 power dice, as normal"; L213: "it rolls all 5 power dice when
    attacking". A reading: the "maximum of 5 ... as normal" of L139 is the rule of every roll of power dice, an attack's
    with them (the box's five, L213's "all 5")."""
    for die in ctx.ruleset.data["dice"]:
        most = die.get("max_per_roll")
        if most is not None and len(results.get(die["id"], [])) > most:
            raise refuse(f"An attack rolls at most {most} {die['name'].removesuffix(' die')} dice", f"Rolled {len(results[die['id']])} (L139: 'a maximum of 5 power dice, as normal'; L213: 'all 5 power dice').",
                         f"faces.{die['id']}")


def surges_to_threat(ctx: ActionContext, params: Mapping[str, Any], attacker_side: str, of_attacker: Mapping[str, int], rule: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The threat a monster's surges buy, gained with the attack (rules 1.5.0 on: versions.py asks this with its ``rule``).
    L218: "A monster with the Dark Prayer ability generates 1 threat for the overlord for every surge it rolls when
    attacking, instead of for every 2 surges." The base rate is the one the text implies; the surges are those the
    attack spends on "threat" (a reading: the text does not say whether surges spent on abilities count)."""
    count = abilities.spent_on(params, rule["ability"])
    if not count:
        return []
    if attacker_side != "monster":
        raise refuse("Only a monster's surges give the overlord threat", f"L218 gives threat for the surges a monster rolls when attacking: leave the \"{rule['ability']}\" surges out of {params['attacker']}'s attack.", "surges")
    rates = ctx.ruleset.data["threat"]
    dark_prayer = "dark-prayer" in of_attacker
    per = rates["dark_prayer_surges_per_threat"] if dark_prayer else rates["monster_surges_per_threat"]
    # L218 "1 threat for the overlord for every surge": the threat each Dark Prayer surge gives is the ability's own
    # threat_per_surge; the base rule's "for every 2 surges" gives 1
    each = ctx.ruleset.data["combat"]["abilities"]["dark-prayer"]["threat_per_surge"] if dark_prayer else 1
    return [{"kind": "threat-gained", "amount": count // per * each, "source": "monster-surges", "count": count, "dark_prayer": dark_prayer, "attacker": params["attacker"]}]


CONDITIONS = ("burn", "bleed", "daze", "stun", "web")


def _effects(ctx: ActionContext, params: Mapping[str, Any], target_side: str, target: Mapping[str, Any], result: Mapping[str, Any], lost: int | None,
             steps: NoAbilities, of_target: Mapping[str, int]) -> list[dict[str, Any]]:
    """What the attack leaves behind on a hero that took at least 1 damage before armour (L325 †): a token per condition
    ability (L294-L323), a frost token (L220), poison tokens for the wounds lost (L312); and the Thing in the Pit's curse on
    a hero who deals it 4 or more wounds after armour in one attack (L388)."""
    changes: list[dict[str, Any]] = []
    named = {a["ability"].strip().lower() for a in params.get("abilities", [])} - steps.immune_to(of_target)  # Ironskin, Unstoppable (L305, L322)
    # L325 †: "Determine whether damage is inflicted before applying the effects of armor" (the data's
    # damage_before_armour_decides_effects; where it says otherwise, the wounds after armour decide)
    inflicted = (result["damage"] if ctx.ruleset.data["combat"]["damage_before_armour_decides_effects"] else lost) or 0
    if target_side == "hero" and result["hit"] and inflicted >= 1:
        for condition in CONDITIONS:
            if condition in named:
                changes.append({"kind": "condition-tokens-placed", "hero": params["target"], "condition": condition, "count": 1, "source": f"attack by {params['attacker']}"})
        if "poison" in named and lost:
            changes.append({"kind": "condition-tokens-placed", "hero": params["target"], "condition": "poison", "count": lost, "source": f"attack by {params['attacker']}"})
        if "frost" in named:
            changes.append({"kind": "frost-gained", "hero": params["target"], "count": 1})
    if target_side == "monster" and result["hit"] and inflicted >= 1:
        changes += steps.monster_conditions(params, target, named - monster_conditions.immune(ctx, target))  # a named monster's Stun (L317)
    if target.get("named") == "thing-in-the-pit" and params["attacker"] in ctx.game["heroes"] and (lost or 0) >= 4:
        changes.append({"kind": "curses-gained", "hero": params["attacker"], "count": 1, "source": "the-thing-in-the-pit"})
    return changes


def _orders_used(ctx: ActionContext, params: Mapping[str, Any], attacker_side: str, target_side: str) -> list[dict[str, str]]:
    """Orders the attack uses up: the attacker's aim or guard, the target's dodge (L274-L275, L325, L579); their effect is
    the result the table reports (re-rolled faces, the damage), as the text does not give it."""
    used = []
    for order in params.get("orders_used", []):
        figure = params["attacker"] if order in ("aim", "guard") else params["target"]
        side = attacker_side if order in ("aim", "guard") else target_side
        if side != "hero" or order not in (ctx.game["heroes"][figure].get("orders") or []):
            raise refuse(f"{figure} has no {order} order token", f"Orders: {(ctx.game['heroes'].get(figure) or {}).get('orders') or 'none'}.", "orders_used")
        used.append({"order": order, "hero": figure})
    return used


def _killed(ctx: ActionContext, params: Mapping[str, Any], side: str, target: Mapping[str, Any]) -> list[dict[str, Any]]:
    if side == "monster":
        return [{"kind": "monster-killed", "figure": params["target"], "monster": target["monster"], "by": params["attacker"]}]
    return conquest.hero_killed(ctx, {"hero": params["target"], **(params.get("death") or {})}, None)


SURGE = {"type": "object", "properties": {"ability": NAME, "count": {"type": "integer", "minimum": 1, "maximum": 20}, **BONUS}, "required": ["ability", "count"], "additionalProperties": False}
ABILITY = {"type": "object", "properties": {"ability": NAME, **BONUS}, "required": ["ability"], "additionalProperties": False}
RANKS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 10}, "maxProperties": 20,
         "description": "Special abilities by the rulebook's names, each with its rank X (1 where it has none): {\"fear\": 2, \"shadowcloak\": 1}."}
FACES = {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string", "maxLength": 20}, "minItems": 1, "maxItems": 10}, "maxProperties": 6}
DEATH = {"type": "object", "properties": {"conquest_value": {"type": "integer", "minimum": 0, "maximum": 20},
                                          "cursed_items": {"type": "array", "maxItems": 20, "items": {"type": "object", "properties": {"item": NAME, "choice": {"enum": ["discard", "re-equip"]}}, "required": ["item", "choice"], "additionalProperties": False}}},
         "additionalProperties": False}

ACTIONS = [
    ActionType("attack", "An attack: attacker and target (a hero or a monster figure's id), the dice (reported faces, or digital where known), distance, surges spent and abilities used; damage resolved against armour where known, else the result stated; wounds recorded, kills with their consequences.",
               schema({"attacker": NAME, "target": NAME, "attack_type": {"enum": ["melee", "ranged", "magic"]},
                       "dice": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 10}, "maxProperties": 6}, "faces": FACES,
                       "range": {"type": "integer", "minimum": 0, "maximum": 50}, "surges": {"type": "array", "items": SURGE, "maxItems": 10, "description": "Surges spent, by ability; a monster's surges spent on \"threat\" give the overlord 1 threat per 2, per 1 with Dark Prayer, in the same action (L218, rules 1.5.0 on)."},
                       "abilities": {"type": "array", "items": ABILITY, "maxItems": 10}, "armor": STAT, "shield": {"type": "integer", "minimum": 0, "maximum": 20},
                       "invulnerability": {"type": "boolean"}, "on_corrupted": {"type": "boolean"},
                       "dark_charm": {"type": "boolean", "description": "The overlord controls the attacking hero, with his surges and power dice (L274)."},
                       "orders_used": {"type": "array", "items": {"enum": ["aim", "guard", "dodge"]}, "maxItems": 3, "uniqueItems": True},
                       "stated": {"type": "object", "properties": {"hit": {"type": "boolean"}, "damage": STAT, "wounds_dealt": STAT, "wounds_left": STAT, "killed": {"type": "boolean"}}, "additionalProperties": False},
                       "death": DEATH,
                       "target_abilities": {**RANKS, "description": "The target's special abilities where they are not on record (rules 1.3.0 on): Shadowcloak, Fear X, Ironskin, Unstoppable, Undying, Black Curse (L207-L233, L287-L325)."},
                       "undying_face": {"enum": ["blank", "surge", "enhancement"], "description": "The power die a killed figure with Undying rolls (L321): report it, or the stream rolls it where the faces are known."},
                       "dice_without_daze": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 10}, "maxProperties": 6,
                                             "description": "A dazed hero: the dice his attack would roll without daze; he rolls 1 fewer per daze token left (L300)."}},
                      ["attacker", "target", "attack_type"]), attack, random=True),
]
