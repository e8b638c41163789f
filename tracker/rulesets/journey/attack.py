"""Attack resolution (L462-L533): dice, weapon and Demon Die look-ups, defence, damage, defeat.

- Attack Dice are summed, X counting 0 (L454).
- A Pilgrim's Pilgrim Die is looked up on the current Weapon Card (L283, L492); a Demon's
  Demon Die on its profile (L247, L493). X is always no effect (L451).
- Defense Dice only for those with DF, +1 on green terrain; defence reduces dice damage only,
  never condition or crushing damage (L456, L497, L299).
- One Hit Kill: defeated only if this attack's total reaches its HP, else unharmed (L243, L505);
  a health track loses the damage, and a Pilgrim at 0 HP falls unconscious at once (L557).
- A condition from the Demon Die applies even when defence cancels the damage (L299).
- Defeat: Kill (+BKR Bad Karma) or Cleanse Ritual (roll >= SP: +GKR Good Karma; else the
  target recovers fully) (L525-L542).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.journey import (
    conditions,
    health,
    iron_fan,
    karma,
    kei_lun,
    kogaiji_trap,
    lair,
    stated_results,
)
from tracker.rulesets.journey.resolution import Resolution
from tracker.rulesets.journey.turns import spend

VALUES = {"X": 0, "0": 0, "1": 1, "2": 2, "3": 3}


def refuse_unplayable(data: Mapping[str, Any]) -> None:
    """A Pilgrim's standard attack the resolver cannot play, refused when the ruleset is loaded. L193: "Pilgrims attack by
    rolling 2 red Attack Dice and 1 white Pilgrim Die" (the Attack Dice are each Pilgrim's ATT stat, which the attack
    reads); L492: "If the Pilgrim currently has no weapon, do not roll the Pilgrim Die". The attack rolls one Pilgrim Die,
    looked up on the Weapon Card, and only with a weapon: a die with no weapon, or more dice, have no card to be read on."""
    standard = data["pilgrim_rules"]["standard_attack"]
    if standard["pilgrim_die"] != 1 or standard["pilgrim_die_needs_weapon"] is not True:
        raise RulesDataError(
            "pilgrim_rules.standard_attack: a Pilgrim's attack rolls 1 Pilgrim Die, read on the Weapon Card, and none without a "
            f"weapon (L193, L492); the service plays no other ({standard['pilgrim_die']} dice, needs weapon {standard['pilgrim_die_needs_weapon']})"
        )


def total(faces: list[Any]) -> int:
    return sum(VALUES[str(face)] for face in faces)


def _faces_or_count(faces: Mapping[str, list[Any]] | None, die: str, count: int | None, who: str) -> tuple[dict[str, int], dict[str, list[Any]] | None]:
    if faces is not None and die in faces:
        return {}, {die: list(faces[die])}
    if count is None:
        raise Unprocessable(
            f"{who}'s number of {die} dice is unknown",
            detail=f'Report the faces rolled at the table ("faces": {{"{die}": [...]}}), or supply the stat as component data.',
            errors={f"faces.{die}": ["Report the faces: the number of dice is unknown."]},
            unknown={"stat": "ATT", "die": die, "count": 1},
        )
    return {die: count}, None


def _with_dice(att: int | None, extra: int, faces: Mapping[str, Any] | None, who: str) -> int | None:
    """A Pilgrim's Attack Dice with the ones a reading adds (the Villager bonus read as one more die, L1077): dice rolled
    at the table are as many, where the ATT is known."""
    if not extra or att is None:
        return att
    rolled = len((faces or {}).get("attack") or []) if faces is not None and "attack" in faces else att + extra
    if rolled != att + extra:
        raise Unprocessable(
            f"{who} rolls {att + extra} Attack Dice here",
            detail=f"ATT {att} and {extra} more for the Villager Tokens held, as the table reads L1077: report {att + extra} faces.",
            errors={"faces.attack": [f"{att + extra} faces, not {rolled}."]},
        )
    return att + extra


def _roll(res: Resolution, die: str, count: int | None, faces: Mapping[str, Any] | None, who: str, purpose: str) -> list[Any]:
    dice, reported = _faces_or_count(faces, die, count, who)
    if not dice and not reported:
        return []
    return res.roll(dice, reported, purpose)[die]


def lookup(res: Resolution, table: Mapping[str, Any], supplied: Mapping[str, Any], face: Any, what: str, how: str) -> dict[str, Any]:
    face = str(face)
    if face in ("X", "0"):
        return {}
    if face in table:
        return dict(table[face])
    if face in supplied:
        return dict(supplied[face])
    raise Unprocessable(
        f"{what} for face {face} is unknown",
        detail=f"The rulebook transcription lost it. Supply it as component data: {how}.",
        errors={"components.tables": [f"{what}: face {face} unknown."]},
    )


def _able_to_attack(res: Resolution, hero: str) -> None:
    sheet = res.hero(hero)
    if sheet["status"] != "conscious":
        raise Unprocessable(f"{hero} is {sheet['status']} and cannot act", detail="An Unconscious Pilgrim cannot act (L558).")
    condition = conditions.forbidding(res, hero, "attack")  # by the conditions' effects in the rules data
    if condition:
        raise Unprocessable(f"{hero} is {condition} and cannot attack", detail="Disabled and Paralyzed Pilgrims cannot attack (L301-L302, L473).")


def demon_in_play(res: Resolution, demon: str) -> str:
    demons = res.game.get("demons", {})
    if demon not in demons:
        raise Unprocessable(
            f"No Demon '{demon}' is in play",
            detail=f"Demons in play: {wording.listed(sorted(demons), none='none')}.",
            errors={"demon": [f"Not in play: {demon}"]},
        )
    return demons[demon]


def pilgrim_attacks(res: Resolution, params: Mapping[str, Any]) -> None:
    hero, target = params["hero"], params["target"]
    _able_to_attack(res, hero)
    character = demon_in_play(res, target)
    kogaiji_trap.refuse_attack_on_kogaiji(res, target)
    ap = spend(res, hero)
    faces = params.get("faces")
    name = res.character(hero)["name"]
    # L1077: "A Pilgrim gets +1 ATT against the Bull Demon King for each Villager Token in their possession." (readings.py)
    bonus = res.ctx.ruleset.rules.version.villager_att_bonus(res, hero, character)
    att = _with_dice(res.character(hero)["stats"].get("ATT"), bonus.dice, faces, name)
    attack_faces = _roll(res, "attack", att, faces, name, f"{hero} attacks {target}")
    effects: dict[str, Any] = {}
    level = res.hero(hero)["weapon_level"]
    stated: dict[str, Any] = {}  # what the table stated in place of a lost fact, recorded with the result
    if level:
        (face,) = _roll(res, "pilgrim", 1, faces, name, f"{hero}'s weapon (level {level})")
        card = (res.table("weapons").get(hero) or {}).get(str(level)) or {}
        if str(face) not in ("X", "0") and str(face) not in card and "weapon" in (params.get("stated") or {}):
            # L492: "Instead look up damage on the Weapon Card." The card was lost, so the table reads it (a reading of L492)
            effects = stated["weapon"] = dict(params["stated"]["weapon"])
        else:
            try:
                effects = lookup(res, {}, card, face, f"{name}'s level {level} Weapon Card",
                                 f'"components": {{"tables": {{"weapons": {{"{hero}": {{"{level}": {{"<face>": {{"damage": n, "knock_back": n}}}}}}}}}}}}')
            except Unprocessable as refusal:
                raise stated_results.may_state(refusal, params, "weapon", {"damage": 1, "knock_back": 0}, "the Weapon Card's effect for that face", res) from None
    # A stated Weapon effect stands for the lost card whatever face the table rolls (a refusal's example states it
    # before the roll): on a face the card does not hold it is read, on a blank face the card is not read at all.
    stated_results.refuse_unread(params, "weapon", "weapon" in stated or bool(level) and str(face) not in card)
    dice_damage = total(attack_faces) + bonus.total + effects.get("damage", 0) + params.get("bonus_damage", 0)
    crushing = _crushing(params, effects.get("knock_back", 0))
    damage = dice_damage + crushing  # Demons roll no defence and get no bonuses (L497)
    hp = stated_results.stat_or_stated(res, params, stated, character, "HP", "defeated", True, f"Whether {target} is defeated")
    # L502: "You must do at least this much damage in one attack to Defeat the character." (One Hit Kill)
    defeated = stated["defeated"] if hp is None else damage >= hp
    res.add(
        {
            "kind": "attack-resolved",
            "ap": ap,
            "attacker": hero,
            "target": target,
            "attack_total": total(attack_faces),
            "weapon": effects,
            "defense_total": 0,
            "crushing_damage": crushing,
            "damage": damage,
            "one_hit_kill": hp,
            "defeated": defeated,
            **bonus.recorded,
            **({"stated": dict(stated)} if stated else {}),
        }
    )
    if not defeated:
        return
    outcome = params.get("outcome")
    if kogaiji_trap.kogaiji_defeated(res, target, outcome) or iron_fan.defeated(res, target, outcome):
        return  # Q9's Kogaiji and Q8's Iron Fan are Defeated, never Killed or Cleansed (L1014, L976)
    if outcome is None:
        raise Unprocessable(
            f"{target} is defeated: say Kill or Cleanse",
            detail='Send "outcome": "kill" or "cleanse" (with "cleanse_faces" for dice rolled at the table), or "interrupted" when a quest event ends play first (L679).',
            errors={"outcome": ["Required when the target is defeated."]},
        )
    if outcome == "interrupted":
        res.add({"kind": "demon-removed", "demon": target, "character": character, "reason": "quest-event-on-defeat", "karma": False})
    elif outcome == "kill":
        stated = {}
        bkr = stated_results.stat_or_stated(res, params, stated, character, "BKR", "karma", 1, "Killing it (its Bad Karma Reward)")
        bkr = stated["karma"] if bkr is None else bkr
        res.add({"kind": "demon-killed", "demon": target, "character": character, "hero": hero, "bkr": bkr, **({"stated": stated} if stated else {})})
        karma.gain(res, hero, "bad", bkr, "kill")
        lair.lord_killed(res, character)
    else:
        _cleanse(res, hero, target, character, params)
    stated_results.refuse_unread(params, "karma", outcome in ("kill", "cleanse"))
    stated_results.refuse_unread(params, "cleansed", outcome == "cleanse")


def _cleanse(res: Resolution, hero: str, target: str, character: str, params: Mapping[str, Any]) -> None:
    stated: dict[str, Any] = {}
    sp = stated_results.stat_or_stated(res, params, stated, character, "SP", "cleansed", True, "The Cleanse Ritual (its Soul Power)")
    reported = params.get("cleanse_faces")
    # "Roll the dice specified in the Attacker's Cleanse Ritual Attribute" (L532): Tripitaka's is the Pilgrim Die (L527,
    # the rules data's cr_die); the other Pilgrims' sheets were lost, and the service reads theirs as the same die (a reading).
    die = res.character(hero).get("cr_die") or "pilgrim"
    if reported:  # dice rolled at the table: the Pilgrim's number of Cleanse Ritual dice is not needed
        faces = res.roll({}, {die: reported}, f"{hero} cleanses {target}")[die]
    elif sp is None:
        faces = []  # the table rolled and read the result against the lost SP: nothing for the tracker to roll
    else:
        cr = res.stat(hero, "CR", "Rolling the Cleanse Ritual (its Cleanse Ritual dice; or report the faces as cleanse_faces)")
        faces = res.roll({die: cr}, None, f"{hero} cleanses {target}")[die]
    result = total(faces) + params.get("cleanse_bonus", 0) + _golden_peach(res, params)
    # L532: "If the result is equal to or greater than the Soul Power ... you have successfully saved the Target's soul."
    cleansed = stated["cleansed"] if sp is None else result >= sp
    if cleansed:
        gkr = stated_results.stat_or_stated(res, params, stated, character, "GKR", "karma", 1, "A successful Cleanse Ritual (its Good Karma Reward)")
        gkr = stated["karma"] if gkr is None else gkr
        res.add({"kind": "demon-cleansed", "demon": target, "character": character, "hero": hero, "roll": result, "soul_power": sp, "gkr": gkr,
                 **({"stated": stated} if stated else {})})
        karma.gain(res, hero, "good", gkr, "cleanse")
    else:
        res.add({"kind": "cleanse-backfired", "demon": target, "character": character, "roll": result, "soul_power": sp, **({"stated": stated} if stated else {})})


def _attacks_kei_lun(res: Resolution, demon: str, character: str, params: Mapping[str, Any]) -> None:
    """Q7: Demons attack Kei Lun as a fifth Pilgrim (L942). His Defense was on his lost sheet: reported faces only."""
    faces = params.get("faces")
    profile = res.character(character)
    attack_faces = _roll(res, "attack", profile["stats"].get("ATT"), faces, profile["name"], f"{demon} attacks Kei Lun")
    effects: dict[str, Any] = {}
    if profile.get("extra_attack_die") == "demon" or (faces is not None and "demon" in faces):
        (face,) = _roll(res, "demon", 1, faces, profile["name"], f"{demon}'s Demon Die")
        effects = lookup(res, profile.get("demon_die") or {}, res.table("demon-dice").get(character) or {}, face, f"{profile['name']}'s Demon Die",
                         f'"components": {{"tables": {{"demon-dice": {{"{character}": {{"<face>": {{"damage": n}}}}}}}}}}')
    attack_total = total(attack_faces) + effects.get("damage", 0) + params.get("bonus_damage", 0)
    defense = total(res.roll({}, {"defense": list(faces["defense"])}, "Kei Lun defends")["defense"]) if faces and faces.get("defense") else 0
    net = max(0, attack_total - defense)
    res.add({"kind": "attack-resolved", "attacker": demon, "target": kei_lun.KEI_LUN, "attack_total": attack_total, "demon_die": effects, "defense_total": defense, "net_damage": net, "crushing_damage": 0})
    kei_lun.attacked(res, demon, net)


def _golden_peach(res: Resolution, params: Mapping[str, Any]) -> int:
    """Q7's Golden Peach: +1 on every Cleanse Ritual roll while Kei Lun guards the chest, the Pilgrims hold all 4
    Sutras and their holders share the chest's Map Tile (L938-L941). The log checks the Sutras; the positions are the
    table's word (``golden_peach``: true)."""
    if not params.get("golden_peach"):
        return 0
    quest = res.ctx.ruleset.quest(res.game["quest"])
    bonus = quest.get("golden_peach_cleanse_bonus")
    if not bonus:
        raise Unprocessable("The Golden Peach is Quest 7's", detail="L938.", errors={"golden_peach": ["Not in this quest."]})
    held = sum(len(sheet["sutras"]) for sheet in res.game["heroes"].values())
    needed = (quest.get("tokens") or {}).get("sutra", 0)
    if held < needed:
        raise Unprocessable(f"The Pilgrims hold {held} of the {needed} Sutras", detail="The Golden Peach needs all 4 Sutras (L940).", errors={"golden_peach": [f"{held} Sutras held"]})
    return bonus


def _crushing(params: Mapping[str, Any], knock_back: int) -> int:
    blocked = params.get("knock_back_blocked", 0)
    if blocked > knock_back:
        raise Unprocessable(
            f"Knock Back {knock_back} cannot be blocked for {blocked} squares",
            detail="Each square the target cannot be pushed deals 1 Crushing Damage, up to the Knock Back value (L517-L522).",
            errors={"knock_back_blocked": [f"At most {knock_back}."]},
        )
    return blocked


def demon_attacks(res: Resolution, params: Mapping[str, Any]) -> None:
    demon, hero = params["demon"], params["target"]
    character = demon_in_play(res, demon)
    kogaiji_trap.refuse_kogaiji_acting(res, demon)
    if hero == kei_lun.KEI_LUN:
        _attacks_kei_lun(res, demon, character, params)
        return
    sheet = res.hero(hero)
    # "Demons ignore Unconscious Pilgrims completely" (L559): pilgrim_rules.unconscious.demons_ignore
    if sheet["status"] != "conscious" and res.rule("pilgrim_rules", "unconscious", "demons_ignore"):
        raise Unprocessable(f"Demons ignore Unconscious Pilgrims: {hero} is {sheet['status']}", detail="L559.")
    faces = params.get("faces")
    profile = res.character(character)
    name = profile["name"]
    stated: dict[str, Any] = {}  # what the table stated in place of a lost fact, recorded with the result
    res.ctx.ruleset.rules.version.health_before_the_dice(res, hero, params, stated, f"{name}'s attack on {hero}")
    attack_faces = _roll(res, "attack", profile["stats"].get("ATT"), faces, name, f"{demon} attacks {hero}")
    effects: dict[str, Any] = {}
    extra = profile.get("extra_attack_die")
    reported_demon_die = faces is not None and "demon" in faces
    if reported_demon_die and extra not in (None, "demon"):
        raise Unprocessable(f"{name} rolls no Demon Die", detail=f"Its attack adds the {extra} die.", errors={"faces.demon": ["Not rolled by this Demon."]})
    # A Demon Die reported for a Demon whose profile sheet was lost is recorded and looked up, never dropped.
    if extra == "demon" or reported_demon_die:
        (face,) = _roll(res, "demon", 1, faces, name, f"{demon}'s Demon Die")
        printed, supplied = profile.get("demon_die") or {}, res.table("demon-dice").get(character) or {}
        if str(face) not in ("X", "0", *printed, *supplied) and "demon_die" in (params.get("stated") or {}):
            # L493: "look up the die result on the Demon Profile Sheet"; the sheet was lost, so the table reads it
            effects = stated["demon_die"] = dict(params["stated"]["demon_die"])
        else:
            try:
                effects = lookup(res, printed, supplied, face, f"{name}'s Demon Die",
                                 f'"components": {{"tables": {{"demon-dice": {{"{character}": {{"<face>": {{"damage": n, "knock_back": n, "condition": "..."}}}}}}}}}}')
            except Unprocessable as refusal:
                raise stated_results.may_state(refusal, params, "demon_die", {"damage": 1, "knock_back": 0}, "the Demon Die's effect for that face", res) from None
    # As with the Weapon Card: a stated Demon Die effect stands for the lost sheet whatever face is rolled.
    stated_results.refuse_unread(params, "demon_die", "demon_die" in stated
                                 or (extra == "demon" or reported_demon_die) and str(face) not in (*printed, *supplied))
    attack_total = total(attack_faces) + effects.get("damage", 0) + params.get("bonus_damage", 0)
    cannot_defend = conditions.forbidding(res, hero, "defend") is not None
    defense_faces: list[Any] = []
    if cannot_defend:
        pass  # a Paralyzed Pilgrim cannot defend (L302), by the condition's effect in the rules data
    elif faces is not None and "defense" in faces:
        defense_faces = res.roll({}, {"defense": list(faces["defense"])}, f"{hero} defends")["defense"]
    else:
        defense_faces = res.roll({"defense": res.character(hero)["stats"]["DF"]}, None, f"{hero} defends")["defense"]
    green = res.rule("pilgrim_rules", "terrain", "green_defense_bonus")  # +1 defence on green terrain (L572), by the data
    defense = total(defense_faces) + (green if params.get("green_terrain") and not cannot_defend else 0)
    net = max(0, attack_total - defense)
    crushing = _crushing(params, effects.get("knock_back", 0))
    res.add(
        {
            "kind": "attack-resolved",
            "attacker": demon,
            "target": hero,
            "attack_total": attack_total,
            "demon_die": effects,
            "defense_total": defense,
            "net_damage": net,
            "crushing_damage": crushing,
            **({"stated": dict(stated)} if stated else {}),
        }
    )
    if net:
        health.damage(res, hero, net, "attack")
    if crushing:
        health.damage(res, hero, crushing, "crushing")
    if effects.get("condition"):
        conditions.apply(res, hero, effects["condition"], f"{demon}'s Demon Die")
