"""The special abilities the text states, as they bear on one attack (L207-L233, L287-L325; rules data 1.3.0 on,
``combat.abilities``, each with its line).

Who has which ability is on the monster reference cards, which the transcription lost: the table states a figure's
abilities when it enters play (place-monsters ``abilities``, with their rank X), or the attack states the target's
(``target_abilities``); the attacker names what it uses (``abilities``). Then:

- Shadowcloak (L222, L315): an attack by a figure that is not adjacent does not affect it (``only_adjacent_attackers``).
- Fear X (L301): the attacker spends X surges on "fear" or the attack misses.
- Ironskin (L305): Pierce and Sorcery do nothing against it; Blast, Bolt and Breath deal it 0 damage; no Aura, Bleed,
  Burn or Poison. Unstoppable (L322): no Daze, Grapple, Knockback, Stun or Web.
- Bash (L211, L290): up to 5 power dice, any blank misses (``blank_misses``); each surge spent on "bash" is +5 Damage
  and Pierce 2; no power dice need be rolled, whatever else says so (Berserk; ``power_dice_optional``).
- Berserk (L213): a wounded figure rolls all 5 power dice.
- Dark Prayer (L218, L299): +1 Range and +1 Damage for each surge rolled.
- Leap (L224, L307): ignores rolled range, missing only on a miss; one Leap attack per turn, its one roll affecting each
  figure it passed (one record per figure, the same faces: ``same_roll_for_each_figure``).
- Leech (L308), Undying (L321), Superior Undying (L618) and Black Curse (L216) act on what the attack did: combat.py
  applies them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import plays_only, refuse


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def known_names(rules: Mapping[str, Any]) -> list[str]:
    return sorted(set(rules["abilities"]) | set(rules["abilities_as_used"]["names"]))


def stated_abilities(rules: Mapping[str, Any], stated: Mapping[str, int] | None, field: str) -> dict[str, int]:
    """Abilities the table states for a figure ({name: rank}), by the Special Abilities Summary's names."""
    shown = {slug(name): rank for name, rank in (stated or {}).items()}
    strangers = sorted(set(shown) - set(known_names(rules)))
    if strangers:
        raise refuse(f"'{strangers[0]}' is not a special ability of the rulebook", f"Abilities (L207-L233, L287-L325): {known_names(rules)}.", field)
    return shown


def named(entries: list[Mapping[str, Any]], ability: str) -> bool:
    """Whether an attack's abilities or surges name ``ability`` ("Pierce 2" names pierce)."""
    return any(slug(e["ability"]) == ability or slug(e["ability"]).startswith(ability + "-") for e in entries)


def spent_on(params: Mapping[str, Any], ability: str) -> int:
    return sum(s["count"] for s in params.get("surges", []) if slug(s["ability"]) == ability or slug(s["ability"]).startswith(ability + "-"))


def attacker_has(params: Mapping[str, Any], recorded: Mapping[str, int], ability: str) -> bool:
    return ability in recorded or named(params.get("abilities", []), ability)


def distance(params: Mapping[str, Any]) -> int | None:
    """Spaces between attacker and target: the range sent; a melee attack without Reach is made from an adjacent space."""
    if params.get("range") is not None:
        return params["range"]
    if params["attack_type"] == "melee" and not named(params.get("abilities", []), "reach"):
        return 1
    return None


def before_roll(data: Mapping[str, Any], params: Mapping[str, Any], attacker: Mapping[str, Any], target: Mapping[str, int], rolled: Mapping[str, list[str]]) -> None:
    """What the dice rolled must be: Bash's at most 5 power dice; a wounded Berserker's 5 (unless it bashes)."""
    recorded = attacker.get("abilities") or {}
    power = len(rolled.get("power", []))
    bash = attacker_has(params, recorded, "bash")
    if bash and power > data["bash"]["max_power_dice"]:
        raise refuse(f"A Bash attack rolls at most {data['bash']['max_power_dice']} power dice", f"Rolled {power} (L211).", "faces.power")
    wounded = attacker.get("wounds") is not None and attacker.get("max_wounds") is not None and attacker["wounds"] < attacker["max_wounds"]
    if "berserk" in recorded and wounded and not bash_excused(data, bash) and power != data["berserk"]["wounded_power_dice"]:
        raise refuse(f"A wounded figure with Berserk rolls all {data['berserk']['wounded_power_dice']} power dice",
                     f"It has {attacker['wounds']} of {attacker['max_wounds']} wounds and rolled {power} (L213).", "faces.power")
    if "shadowcloak" in target and data["shadowcloak"]["only_adjacent_attackers"] and distance(params) is None:
        raise refuse("Say the distance to a target with Shadowcloak", 'Send "range" in spaces: it is affected only by adjacent attackers (L222).', "range")


def bash_excused(data: Mapping[str, Any], bash: bool) -> bool:
    """L211: "The figure never has to roll any power dice when making a Bash attack, regardless of other effects" (where
    the data's ``power_dice_optional`` says so): a bashing figure owes no power dice to Berserk or a named monster's rule."""
    return bash and data["bash"]["power_dice_optional"]


def bonuses(data: Mapping[str, Any], params: Mapping[str, Any], attacker: Mapping[str, int], target: Mapping[str, int],
            attack: Mapping[str, int], power: list[str], bonus: dict[str, int], applied: list[dict[str, Any]]) -> None:
    """Range, damage and pierce the abilities add or take away (mutates ``bonus``)."""
    if attacker_has(params, attacker, "bash"):
        n = spent_on(params, "bash")
        for key in ("damage", "pierce"):
            stated = sum(s["count"] * s.get(key, 0) for s in params.get("surges", []) if slug(s["ability"]) == "bash")
            bonus[key] += n * data["bash"]["per_surge"][key] - stated  # the text's +5 and Pierce 2, whatever the request said
        if n:
            per = data["bash"]["per_surge"]
            applied.append({"ability": "bash", "effect": f"+{per['damage'] * n} damage, pierce {per['pierce'] * n}", "source": data["bash"]["source"]})
    if "dark-prayer" in attacker:
        surges = attack["surges"] + power.count("surge")
        for key, per in data["dark-prayer"]["per_surge_rolled"].items():
            bonus[key] += per * surges
        applied.append({"ability": "dark-prayer", "effect": f"+{surges} range and damage", "source": data["dark-prayer"]["source"]})
    if "ironskin" in target:
        sorcery = {k: sum(a.get(k, 0) for a in params.get("abilities", []) if slug(a["ability"]).startswith("sorcery"))
                      + sum(s["count"] * s.get(k, 0) for s in params.get("surges", []) if slug(s["ability"]).startswith("sorcery")) for k in ("range", "damage")}
        for key, value in sorcery.items():
            bonus[key] -= value
        if bonus["pierce"] or any(sorcery.values()):
            applied.append({"ability": "ironskin", "effect": "immune to pierce and sorcery", "source": data["ironskin"]["source"]})
        bonus["pierce"] = 0


def check_rules_data(data: Mapping[str, Any]) -> None:
    """The abilities' rules the code plays one way only, refused at load otherwise (issue 31)."""
    known = data["combat"]["abilities"]
    # L301: "the attacker must spend X power surges or else the attack misses" (miss below)
    plays_only(data, "combat.abilities.fear.else", known["fear"]["else"], "miss",
               "an attacker who does not spend Fear's surges misses (L301)")
    # L224: "A figure is limited to one Leap attack per turn": a second record of a leap in the same turn is another
    # figure the one roll affects (leap below)
    plays_only(data, "combat.abilities.leap.once_per_turn", known["leap"]["once_per_turn"], True,
               "'A figure is limited to one Leap attack per turn' (L224)")


def miss(data: Mapping[str, Any], params: Mapping[str, Any], attacker: Mapping[str, int], target: Mapping[str, int], power: list[str]) -> str | None:
    """Why the abilities make the attack miss or leave the target unaffected, or None."""
    # L211: "If any of the power dice roll a blank, it is treated as though the figure rolled a miss result" (blank_misses)
    if attacker_has(params, attacker, "bash") and data["bash"]["blank_misses"] and "blank" in power:
        return "Bash: a power die shows a blank (L211)"
    # L222: "only affected by attacks made by adjacent figures" (only_adjacent_attackers)
    if "shadowcloak" in target and data["shadowcloak"]["only_adjacent_attackers"] and (distance(params) or 0) > 1:
        return f"Shadowcloak: an attacker {distance(params)} spaces away does not affect it (L222)"
    fear = target.get("fear")
    if fear and spent_on(params, "fear") < fear * data["fear"]["surges_per_rank"]:
        return f"Fear {fear}: {fear} surges not spent on fear (L301)"
    return None


def ignores_range(params: Mapping[str, Any], attacker: Mapping[str, int]) -> bool:
    return attacker_has(params, attacker, "leap")


def zero_damage(data: Mapping[str, Any], params: Mapping[str, Any], target: Mapping[str, int]) -> str | None:
    if "ironskin" in target and any(named(params.get("abilities", []), a) for a in data["ironskin"]["zero_damage_from"]):
        return "Ironskin: Blast, Bolt and Breath deal it 0 damage (L305)"
    return None


def immune_to(data: Mapping[str, Any], target: Mapping[str, int]) -> set[str]:
    return {c for ability in ("ironskin", "unstoppable") if ability in target for c in data[ability]["immune"]}


def leap(ctx_turn: int, params: Mapping[str, Any], attacker_id: str, attacker: Mapping[str, Any], results: Mapping[str, list[str]],
         same_roll: bool) -> dict[str, Any] | None:
    """One Leap attack per turn (L224): a second record in the same turn is another figure the same roll affects.
    ``same_roll``: the data's ``same_roll_for_each_figure``, L224 "the leaping figure may then make one attack roll that
    affects any enemy figures in the spaces it just moved through"."""
    if not attacker_has(params, attacker.get("abilities") or {}, "leap"):
        return None
    earlier = attacker.get("leap") or {}
    if earlier.get("turn") == ctx_turn:
        if same_roll and (earlier["results"] != results or params.get("dice")):
            raise refuse(f"{attacker_id} already leapt this turn", "A figure makes one Leap attack per turn (L224); another figure it affects takes the same roll: report the same faces.", "abilities")
        if params["target"] in earlier["targets"]:
            raise refuse(f"The leap already affected {params['target']}", "Each figure in the spaces moved through is affected once (L224).", "target")
    return {"turn": ctx_turn, "results": {k: list(v) for k, v in results.items()}}


def dodged_once(made: dict[str, Any] | None, params: Mapping[str, Any], attacker: Mapping[str, Any], dodge_rerolls: int) -> dict[str, Any] | None:
    """A leap's record (``made``, None where the attack is no leap) with the figures that dodged it, rules 1.5.0 on
    (attack_abilities.py): L224 "If a Leap attack is dodged by more than one figure, only one re-roll may be made"; L225
    "Either Aurim or Sahla may dodge this attack, but not both of them." A reading: the example's, one dodge order used
    per leap."""
    if made is None or "dodge" not in params.get("orders_used", []):
        return made
    earlier = attacker.get("leap") or {}
    dodged = (earlier.get("dodged_by") or []) if earlier.get("turn") == made["turn"] else []
    if len(dodged) >= dodge_rerolls:
        raise refuse(f"{', '.join(dodged)} already dodged {params['attacker']}'s leap",
                     "Only one re-roll may be made for a Leap attack, whoever it affects (L224); either hero may dodge it, not both (L225): leave dodge out of orders_used.",
                     "orders_used")
    made["dodged_by"] = [*dodged, params["target"]]
    return made
