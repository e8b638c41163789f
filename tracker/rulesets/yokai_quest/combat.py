"""Attack resolution: kept katanas minus kept helmets are blows; each target gets its own rolls.

Daze on the attacking hero removes one katana, Crush on the defending hero removes one helmet
(each state once, however many tokens: the text does not say stacked tokens multiply).
Blows cost health unless the attack says they drain energy instead, as well, or first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core import dice
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.yokai_quest import lookup, treasure, verdict, yokai_phase
from tracker.rulesets.yokai_quest.plan import Plan
from tracker.rulesets.yokai_quest.state import ALTERED_STATES

CONVERSIONS = ("health", "energy", "energy-and-health", "energy-then-health")  # what take_blows plays


def require_playable(data: Mapping[str, Any]) -> None:
    """Refuse, at load, rules data this module cannot play: a blow conversion take_blows has no way to apply, or a die
    that keeps other symbols than combat's attack_keeps and defense_keeps (L248-L249; L254 "Attacks and defends use a
    combination of red and blue dice; keep the appropriate results in each case": the kept symbol is the side's, read
    as the same for every die, since a roll counts one side's symbol over all its dice)."""
    rules = data["combat"]
    unplayed = sorted(set(rules["blow_conversions"]) - set(CONVERSIONS))
    if unplayed:
        raise RulesDataError(f"combat.blow_conversions: the service plays {', '.join(CONVERSIONS)} (combat.take_blows), not {', '.join(unplayed)}")
    sides = {"attack": rules["attack_keeps"], "defense": rules["defense_keeps"]}
    for die in data["dice"]:
        if die["keeps"] != sides:
            raise RulesDataError(f"dice {die['id']}: keeps {die['keeps']}, where combat keeps {sides} for every die of a roll")


def kept(results: Mapping[str, list[str]], symbol: str) -> int:
    """The results showing ``symbol``: a face names its symbols joined by '-' (the data's dice results: katana-helmet)."""
    return sum(1 for faces in results.values() for face in faces if symbol in face.split("-"))


def blows(katanas: int, helmets: int) -> int:
    return max(0, katanas - helmets)


def attack(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    plan = Plan(ctx)
    plan.require_scene()
    attacker = params["attacker"]
    hero_attacks = attacker in plan.game["heroes"]
    if hero_attacks:
        plan.hero(attacker)
        ctx.ruleset.rules.version.attack_activation(plan, attacker, params)
    else:
        _require_attacker(ctx, plan, attacker)
        named = [field for field in ("ability", "item") if field in params]
        if named:
            raise Unprocessable(
                f"Only a hero's attack names the {named[0]} it comes from",
                detail=f"{attacker} is not a hero; name a yōkai's ability in \"source\".",
                errors={named[0]: ["Not a hero's attack."]},
            )
        ctx.ruleset.rules.version.require_yokai_activation(plan, attacker)  # from 1.2.0 (versions.py)
        # L1082: "The Tengu attacks the hero with most energy tokens" (a chief's ability with a stated target, chief_targets.py)
        ctx.ruleset.rules.version.chief_ability_target(ctx, plan, params)
    # The attacker's initiative, where the scene keeps the yōkai's order (L586, L588): recorded with each attack it makes.
    initiative = ctx.ruleset.rules.version.initiative_recorded(plan, attacker) if not hero_attacks else {}
    keeps = ctx.ruleset.data["combat"]
    conversion = params.get("blows_remove", "health")
    if conversion not in keeps["blow_conversions"]:  # "Unless stated otherwise [...] some attacks may have different results" (L252)
        raise Unprocessable(
            f"The rules data has no blow conversion '{conversion}'",
            detail=f"Blows remove: {wording.either(list(keeps['blow_conversions']))} (combat.blow_conversions, L252).",
            errors={"blows_remove": [f"Not one of {', '.join(keeps['blow_conversions'])}"]},
        )
    for number, target in enumerate(params["targets"]):
        defender = target["defender"]
        if hero_attacks == (defender in plan.game["heroes"]):
            raise Unprocessable(
                "Heroes attack yōkai and yōkai attack heroes",
                detail=f"Target {number + 1}: {attacker} cannot attack {defender}.",
                errors={f"targets.{number}.defender": ["Same side as the attacker."]},
            )
        if hero_attacks:
            foe = _foe(ctx, plan, defender, number)
        else:
            hero = plan.hero(defender)
        attack_roll = _roll(ctx, target, "attack", rng, f"attack by {attacker} on {defender}")
        defense_roll = _roll(ctx, target, "defense", rng, f"defence of {defender} against {attacker}")
        plan.add(attack_roll)
        plan.add(defense_roll)
        # L248 ""Katana" results are kept", L249 ""Helmet" results are kept": the symbols combat.attack_keeps, defense_keeps
        katanas = kept(attack_roll["roll"]["results"], keeps["attack_keeps"]) + params.get("guaranteed_katanas", 0)
        helmets = kept(defense_roll["roll"]["results"], keeps["defense_keeps"])
        removed = {}
        if hero_attacks and plan.game["heroes"][attacker]["altered_states"]["daze"] and katanas:
            katanas -= 1
            removed["daze"] = 1
        if not hero_attacks and hero["altered_states"]["crush"] and helmets:
            helmets -= 1
            removed["crush"] = 1
        dealt = blows(katanas, helmets)
        plan.add(
            {
                "kind": "attack-resolved",
                "attacker": attacker,
                "defender": defender,
                "source": params.get("source"),
                "katanas": katanas,
                "helmets": helmets,
                "removed": removed,
                "blows": dealt,
                "blows_remove": conversion,
                **initiative,
            }
        )
        if hero_attacks:
            wound_foe(plan, foe, defender, dealt)
        else:
            take_blows(plan, defender, dealt, conversion, params.get("panel_discard", {}).get(defender), f"attack by {attacker}")
            state = target.get("altered_state")
            if state and not plan.game["heroes"][defender]["defeated"]:
                plan.add({"kind": "altered-state-received", "hero": defender, "state": state, "source": attacker})
    verdict.settle(plan)
    return plan.changes


def _require_attacker(ctx: ActionContext, plan: Plan, attacker: str) -> None:
    """A yōkai attacks by its type; a chief only while on the board; a scenario attack (Rain of Flames' "Each hero
    receives an attack ... at the end of every Yōkai phase", L936) by the scene's id for it, with no yōkai behind it."""
    scene = ctx.ruleset.quest(plan.game["scene"])
    scenario = [a["id"] for a in scene.get("scenario_attacks", [])]
    if attacker in scenario:
        return
    character = lookup.character(ctx.ruleset.data, attacker)
    on_board = sorted({foe["character"] for foe in plan.game["foes"].values() if (lookup.character(ctx.ruleset.data, foe["character"]) or {}).get("role") == "chief"})
    if character is not None and character["role"] == "yokai":
        yokai_phase.require_in_play(plan, attacker, "attacker")
        return
    if character is not None and character["role"] == "chief" and ctx.ruleset.rules.version.chief_may_attack(attacker, on_board):
        return
    raise Unprocessable(
        f"'{attacker}' is not a hero of this party, a yōkai, a chief on the board or an attack of this scene",
        detail=f"Heroes: {wording.listed(sorted(plan.game['heroes']))}; chiefs on the board: {on_board or 'none'}; scene attacks: {scenario or 'none'}; "
        "yōkai: the characters of role yokai in GET /rulesets/yokai-quest.",
        errors={"attacker": [f"Unknown: {attacker}"]},
    )


def require_yokai_activation(plan: Plan, attacker: str) -> None:
    """L192 "The behavior chart can be used by a yōkai only once per turn, during the Yōkai phase"; L610 a paralysis token
    prevents "their activation during the next Yōkai phase". Yōkai are counted by type, so a type is held back only when
    every one of its miniatures in play holds a paralysis token. The phase is yokai_rules.acts_in.phase."""
    if plan.game["phase"] != plan.ctx.ruleset.data["yokai_rules"]["acts_in"]["phase"]:
        raise Unprocessable(
            f"{attacker} attacks in the Yōkai phase",
            detail=f"Yōkai act by their behaviour charts during the Yōkai phase only (L192), and the scene's own attacks come "
            f"at its end (L936); turn {plan.turn} is in its Hero phase. Begin the Yōkai phase with 'begin-yokai-phase'.",
            errors={"attacker": [f"Not in the Yōkai phase: {attacker}"]},
        )
    held = plan.game["yokai_tokens"]["paralysis"].get(attacker, 0)
    in_play = plan.game["in_play"].get(attacker, 0) if attacker not in plan.game["foes"] else 1
    if held and held >= in_play:
        raise Unprocessable(
            f"Every {attacker} in play is paralysed",
            detail=f"A paralysis token prevents the yōkai's activation during the Yōkai phase (L610): {held} token(s), {in_play} in play.",
            errors={"attacker": [f"Paralysed: {attacker}"]},
        )


def _foe(ctx: ActionContext, plan: Plan, defender: str, number: int) -> dict[str, Any] | None:
    """A chief or objective on the board (tracked health), or None for a basic yōkai (Health 1)."""
    if defender in plan.game["foes"]:
        return plan.game["foes"][defender]
    character = lookup.character(ctx.ruleset.data, defender)
    if character is not None and character["role"] == "yokai":
        yokai_phase.require_in_play(plan, defender)
        return None
    raise Unprocessable(
        f"'{defender}' is not a yōkai or foe on the board",
        detail=f"Chiefs and objectives on the board: {wording.listed(sorted(plan.game['foes']), none='none')}; basic yōkai are named by type (e.g. hone-bushi).",
        errors={f"targets.{number}.defender": [f"Not on the board: {defender}"]},
    )


def _roll(ctx: ActionContext, target: Mapping[str, Any], side: str, rng: Any, purpose: str) -> dict[str, Any]:
    faces = target.get(f"{side}_faces")
    counts = target.get(f"{side}_dice")
    if faces is None and counts is None:
        raise Unprocessable(
            f"Say the {side} dice of the roll against {target['defender']}",
            detail=f'Send "{side}_dice": {{"red": n, "blue": m}} (the combination on the card) for a digital roll, '
            f'or "{side}_faces": {{"red": [...], "blue": [...]}} for dice rolled on the table.',
            errors={f"{side}_dice": ["Missing data for required field."]},
        )
    return dice.roll_change(ctx.dice, counts or {}, faces, rng, purpose)


def wound_foe(plan: Plan, foe: dict[str, Any] | None, defender: str, dealt: int) -> None:
    if not dealt:
        return
    if foe is None:  # a basic yōkai has Health 1: any blow defeats it
        defeat_yokai(plan, defender, None)
        return
    health = max(0, foe["health"] - dealt)
    plan.add({"kind": "chief-wounded", "foe": defender, "blows": dealt, "health": health})
    if health == 0:
        defeat_yokai(plan, foe["character"], defender)


def defeat_yokai(plan: Plan, yokai: str, foe: str | None) -> None:
    plan.add({"kind": "yokai-defeated", "yokai": yokai, "foe": foe, "turn": plan.turn, **plan.ctx.ruleset.rules.version.in_play_after_defeat(plan, yokai, foe)})
    yokai_phase.coin_on_defeat(plan, yokai)
    objective = lookup.character(plan.ctx.ruleset.data, yokai)
    if objective is None or objective["role"] != "objective":
        # "Each time a yōkai is defeated [...] a treasure token is added to the treasure reserve" (L258)
        treasure.add_tokens(plan, plan.ctx.ruleset.data["treasure_rules"]["token_per_defeated_yokai"], f"{yokai} defeated")


def take_blows(plan: Plan, hero_id: str, dealt: int, conversion: str, panel_discard: str | None, source: str) -> None:
    hero = plan.game["heroes"][hero_id]
    energy_loss = health_loss = 0
    if conversion == "health":
        health_loss = dealt
    elif conversion == "energy":
        energy_loss = min(dealt, hero["energy"])
    elif conversion == "energy-and-health":
        energy_loss, health_loss = min(dealt, hero["energy"]), dealt
    else:  # energy-then-health
        energy_loss = min(dealt, hero["energy"])
        health_loss = dealt - energy_loss
    lose(plan, hero_id, health_loss, energy_loss, panel_discard, source, conversion)


def lose(plan: Plan, hero_id: str, health: int, energy: int, panel_discard: str | None, source: str, conversion: str | None = None) -> None:
    hero = plan.game["heroes"][hero_id]
    if energy:
        plan.add({"kind": "energy-lost", "hero": hero_id, "amount": energy, "energy": hero["energy"] - energy, "reason": source})
    if health:
        left = max(0, hero["health"] - health)
        lost = {"kind": "health-lost", "hero": hero_id, "amount": hero["health"] - left, "health": left, "reason": source}
        plan.add(plan.ctx.ruleset.rules.version.health_lost(lost, conversion))
        if left == 0:
            defeat_hero(plan, hero_id, panel_discard)


def defeat_hero(plan: Plan, hero_id: str, panel_discard: str | None) -> None:
    """Discard energy, altered states, reload, one object from a panel space (the player's choice)
    and every item in hand (L761). The tracker takes the panel object from the equipment spaces."""
    hero = plan.game["heroes"][hero_id]
    equipped = {slot: card for slot, card in hero["equipped"].items() if card}
    panel_object = None
    if equipped:
        if panel_discard not in equipped.values():
            raise Unprocessable(
                f"{hero_id} is defeated: say which equipped object to discard",
                detail=f'A defeated hero discards one object from the control panel. Send "panel_discard": {{"{hero_id}": <one of {wording.either(sorted(equipped.values()))}>}}.',
                errors={"panel_discard": [f"Choose one of {wording.either(sorted(equipped.values()))}"]},
            )
        slot = next(slot for slot, card in equipped.items() if card == panel_discard)
        panel_object = {"slot": slot, "card": panel_discard}
    # What goes back to the deck, read before the defeat is folded: the fold empties the hand, in place on the plan's state.
    discarded = list(hero["hand"]) + ([panel_discard] if panel_object else [])
    plan.add(
        {
            "kind": "hero-defeated",
            "hero": hero_id,
            "energy_discarded": hero["energy"],
            "altered_states_discarded": {k: v for k, v in hero["altered_states"].items() if v},
            "reload_discarded": dict(hero["reload"]),
            "panel_object": panel_object,
            "hand_discarded": list(hero["hand"]),
        }
    )
    treasure.discard_to_deck(plan, hero_id, discarded)


def check_states(states: list[str]) -> None:
    unknown = [s for s in states if s not in ALTERED_STATES]
    if unknown:
        raise Unprocessable(f"Unknown altered state '{unknown[0]}'", detail=f"Altered states: {wording.listed(list(ALTERED_STATES))}.")
