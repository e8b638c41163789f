"""The game state of a scene, and how each of the game's changes folds into it (pure, plain JSON).

A hero's standing: health (of max_health), energy (of hero_rules.energy_max), defeated, hand, equipped items by panel
space (hero_rules.equipment_slots: charm and enchantment), altered-state tokens by type, reload tokens by ability,
empowerments until the turn ends, and the counts the campaign reads: treasures drawn, defeats, revivals.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.engine import correction
from tracker.rulesets.engine.changes import Changes

ALTERED_STATES = ("crush", "daze", "tangle", "blindness")


def new_standing(max_health: int, slots: Sequence[str], energy: int = 0) -> dict[str, Any]:
    """A hero as they first come to the table, with a panel space for each of ``slots`` (hero_rules.equipment_slots,
    L289 "Equipment: two spaces, one for each of the equipped enchantment and trinket"); the starting energy is inferred
    (ruleset.json: hero_rules.energy_at_first_scene)."""
    return {
        "health": max_health,
        "max_health": max_health,
        "energy": energy,
        "abilities": [],  # the four chosen when the heroes are prepared (L145)
        "defeated": False,
        "hand": [],
        "equipped": {slot: None for slot in slots},
        "altered_states": {name: 0 for name in ALTERED_STATES},
        "reload": {},
        "empowerments": [],
        "treasures_drawn": 0,
        "defeats": 0,
        "revivals": 0,
    }


# Each kind of change Yōkai Quest records, declared once with its fold (tracker/rulesets/engine/changes.py).
CHANGES = Changes("tracker.rulesets.yokai_quest.events")
fold = CHANGES.fold


@CHANGES("scene-set-up", "SceneSetUp")
def _scene_set_up(game, change):
    return copy.deepcopy(dict(change["game"]))


def _hero(game: dict[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    return game["heroes"][change["hero"]]


@CHANGES("energy-gained", "EnergyGained")
def _energy_gained(game, change):
    _hero(game, change)["energy"] = change["energy"]
    if change.get("energy_card") and "energy_drawn" in game:  # the Hero phase's one card (L156)
        game["energy_drawn"].append(change["hero"])


@CHANGES("energy-lost", "EnergyLost")
def _energy_lost(game, change):
    hero = _hero(game, change)
    hero["energy"] = change["energy"]
    if change.get("spent"):
        game["energy_spent"] += change["amount"]


@CHANGES("health-lost", "HealthLost")
def _health_lost(game, change):
    _hero(game, change)["health"] = change["health"]
    conversion = change.get("blows_remove")
    if conversion:  # counted for achievements such as "No hero loses health tokens from 'I'm losing control!'" (L1074)
        lost = game.setdefault("health_lost_by_conversion", {})
        lost[conversion] = lost.get(conversion, 0) + change["amount"]


@CHANGES("health-recovered", "HealthRecovered")
def _health_recovered(game, change):
    _hero(game, change)["health"] = change["health"]


@CHANGES("attack-resolved", "AttackResolved")
def _attack_resolved(game, change):
    # the roll and its blows; health, energy and defeats follow as their own changes
    if change.get("initiative") is not None and "initiative_acted" in game:  # its group is acting (L586, L588)
        game["initiative_acted"] = change["initiative"]


@CHANGES("chief-wounded", "ChiefWounded")
def _chief_wounded(game, change):
    game["foes"][change["foe"]]["health"] = change["health"]


@CHANGES("yokai-defeated", "YokaiDefeated")
def _yokai_defeated(game, change):
    game["defeated_yokai"].append({"yokai": change["yokai"], "turn": change["turn"]})
    if change.get("foe"):
        game["foes"].pop(change["foe"], None)
    elif change.get("in_play") is not None:  # a basic yōkai leaves play; a token it held goes with it
        game["in_play"][change["yokai"]] = change["in_play"]
        for held in game["yokai_tokens"].values():
            if held.get(change["yokai"], 0) > change["in_play"]:
                held[change["yokai"]] = change["in_play"]


@CHANGES("yokai-phase-began", "YokaiPhaseBegan")
def _yokai_phase_began(game, change):
    game.update(phase="yokai", coins=dict(change["coins"]), appearances_left=list(change["appearance_points"]))
    game.update(spawns_left=list(change["spawns_due"]), refill_left=change["refill_due"], pending_appearances=[])
    if "initiative_acted" in game:  # no yōkai has acted yet this phase
        game["initiative_acted"] = None


@CHANGES("appearance-drawn", "AppearanceDrawn")
def _appearance_drawn(game, change):
    game["appearances_left"].remove(change["point"])
    game["pending_appearances"].append({"point": change["point"], "card": change["card"]})


@CHANGES("yokai-appeared", "YokaiAppeared")
def _yokai_appeared(game, change):
    for yokai, count in change["yokai"].items():
        game["in_play"][yokai] = game["in_play"].get(yokai, 0) + count
    if change["by"] == "appearance-card":
        game["pending_appearances"].pop(0)
    elif change["by"] == "refill":
        game["refill_left"] = 0
    else:
        game["spawns_left"].remove(change["by"])


@CHANGES("yokai-token-placed", "YokaiTokenPlaced")
def _yokai_token_placed(game, change):
    held = game["yokai_tokens"][change["token"]]
    held[change["yokai"]] = held.get(change["yokai"], 0) + change["count"]


@CHANGES("coin-turned", "CoinTurned")
def _coin_turned(game, change):
    game["coins"][change["coin"]] = change["face"]


@CHANGES("yokai-phase-ended", "YokaiPhaseEnded")
def _yokai_phase_ended(game, change):
    game.update(phase="hero", appearances_left=[], spawns_left=[], refill_left=0)
    if "initiative_acted" in game:
        game["initiative_acted"] = None
    game["yokai_tokens"] = {name: {} for name in game["yokai_tokens"]}


@CHANGES("foe-appeared", "FoeAppeared")
def _foe_appeared(game, change):
    game["foes"][change["foe"]] = {"character": change["character"], "health": change["health"]}


@CHANGES("foe-recovered", "FoeRecovered")
def _foe_recovered(game, change):
    game["foes"][change["foe"]]["health"] = change["health"]


@CHANGES("treasure-token-added", "TreasureTokenAdded")
def _treasure_token_added(game, change):
    game["treasure_reserve"] = change["reserve"]


@CHANGES("treasure-found", "TreasureFound")
def _treasure_found(game, change):
    game["treasure_reserve"] = 0
    game["treasure_owed"].extend({"hero": hero, "reason": "treasure reserve reached 5", "search": None} for hero in change["heroes"])


@CHANGES("treasure-card-drawn", "TreasureCardDrawn")
def _treasure_card_drawn(game, change):
    hero = _hero(game, change)
    hero["hand"].append(change["card"])
    hero["treasures_drawn"] += 1
    owed = change.get("owed")
    if owed is not None:
        game["treasure_owed"].pop(owed)


@CHANGES("treasure-card-discarded", "TreasureCardDiscarded")
def _treasure_card_discarded(game, change):
    hero = _hero(game, change)
    if change["from"] == "hand":
        hero["hand"].remove(change["card"])
    else:
        hero["equipped"][change["from"]] = None


@CHANGES("item-equipped", "ItemEquipped")
def _item_equipped(game, change):
    hero = _hero(game, change)
    hero["hand"].remove(change["card"])
    replaced = hero["equipped"][change["slot"]]
    if replaced:
        hero["hand"].append(replaced)
        game["swapped_this_turn"].append(change["hero"])
    hero["equipped"][change["slot"]] = change["card"]


@CHANGES("item-unequipped", "ItemUnequipped")
def _item_unequipped(game, change):
    hero = _hero(game, change)
    hero["equipped"][change["slot"]] = None
    hero["hand"].append(change["card"])


@CHANGES("ability-used", "AbilityUsed")
def _ability_used(game, change):
    hero = _hero(game, change)
    if change["reload"]:
        hero["reload"][change["ability"]] = change["reload"]
    for ability, left in change.get("reload_after", {}).items():
        if left:
            hero["reload"][ability] = left
        else:
            hero["reload"].pop(ability, None)
    if change.get("empowered"):
        hero["empowerments"].append(change["ability"])
    _used(game, change["hero"], change["ability"])


def _used(game, hero_id, name):
    """What a hero used this turn, which an attack may name (scenes set up to track activations only)."""
    if "used_this_turn" in game:
        game["used_this_turn"].setdefault(hero_id, []).append(name)


@CHANGES("item-used", "ItemUsed")
def _item_used(game, change):
    hero = _hero(game, change)
    if change["consumed"]:
        hero["hand"].remove(change["item"])
    if change.get("consumable_resource"):
        game["consumable_used_this_turn"].append(change["hero"])
    if change.get("empowered"):
        hero["empowerments"].append(change["item"])
    _used(game, change["hero"], change["item"])


@CHANGES("altered-state-received", "AlteredStateReceived")
def _altered_state_received(game, change):
    _hero(game, change)["altered_states"][change["state"]] += 1


@CHANGES("activation-began", "ActivationBegan")
def _activation_began(game, change):
    game["activation"] = {"hero": change["hero"], "actions_used": 0, "taken": [], "basic_movement": 0}


@CHANGES("hero-acted", "HeroActed")
def _hero_acted(game, change):
    activation = game["activation"]
    activation["actions_used"] = change["actions_used"]
    activation["taken"].append(change["name"] or change["action"])


@CHANGES("hero-moved", "HeroMoved")
def _hero_moved(game, change):
    if change["movement"] == "basic":
        game["activation"]["basic_movement"] = int(game["activation"]["basic_movement"]) + 1  # the basic movements made
    if change.get("entered"):  # the basic movement from the entrance point (L214)
        game["at_entrance"].remove(change["hero"])


def _activation_over(game, hero_id):
    """The hero has activated this turn (scenes set up to track activations only)."""
    if "activation" in game:
        game["activation"] = None
        if hero_id not in game["activated"]:
            game["activated"].append(hero_id)


@CHANGES("activation-ended", "ActivationEnded")
def _activation_ended(game, change):
    _activation_over(game, change["hero"])
    hero = _hero(game, change)
    for state in change["states_removed"]:
        hero["altered_states"][state] -= 1
    for ability in change["reload_removed"]:
        hero["reload"][ability] -= 1
        if not hero["reload"][ability]:
            del hero["reload"][ability]


@CHANGES("hero-defeated", "HeroDefeated")
def _hero_defeated(game, change):
    if (game.get("activation") or {}).get("hero") == change["hero"]:  # its miniature leaves the board (L176): no more to do
        _activation_over(game, change["hero"])
    hero = _hero(game, change)
    hero.update(health=0, energy=0, defeated=True, hand=[], reload={}, empowerments=[])
    hero["altered_states"] = {name: 0 for name in ALTERED_STATES}
    if change.get("panel_object"):
        slot = change["panel_object"]["slot"]
        hero["equipped"][slot] = None
    hero["defeats"] += 1


@CHANGES("hero-revived", "HeroRevived")
def _hero_revived(game, change):
    hero = _hero(game, change)
    hero.update(health=change["health"], defeated=False)
    hero["revivals"] += 1
    if "at_entrance" in game and change["hero"] not in game["at_entrance"]:  # "at the hero entrance point" (L473)
        game["at_entrance"].append(change["hero"])


@CHANGES("turn-effects-expired", "TurnEffectsExpired")
def _turn_effects_expired(game, change):
    for hero in game["heroes"].values():
        hero["empowerments"] = []
    game["swapped_this_turn"] = []
    game["consumable_used_this_turn"] = []
    if "activation" in game:  # a new turn: every hero activates again (L158)
        game.update(activation=None, activated=[], used_this_turn={})
    if "energy_drawn" in game:  # and draws its energy card again (L156)
        game["energy_drawn"] = []


@CHANGES("achievement-earned", "AchievementEarned")
def _achievement_earned(game, change):
    game["achievements"].append(change["achievement"])


@CHANGES("scene-ended", "SceneEnded")
def _scene_ended(game, change):
    game["scene_result"] = {
        "outcome": change["outcome"],
        "reason": change.get("reason"),
        "victory_condition": change.get("victory_condition"),
        "victory_conditions": change.get("victory_conditions", [change.get("victory_condition")] if change.get("victory_condition") else []),
        "reported": change.get("reported", {}),
        "completes_story": change.get("completes_story", False),
        "full_energy_next_story": change.get("full_energy_next_story", False),
    }
    game["treasure_owed"] = [] if change["outcome"] == "failed" else game["treasure_owed"] + list(change["treasure_owed"])


@CHANGES("hero-returned", "HeroReturned")
def _hero_returned(game, change):
    hero = _hero(game, change)
    hero.update(health=change["health"], defeated=False)


@CHANGES("defeat-penalty-applied", "DefeatPenaltyApplied")
def _defeat_penalty_applied(game, change):
    """Applied to the standing the heroes started the scene with: the one a reattempt restores."""
    if change["penalty"] == "restart-story":
        game["restart_story"] = True
    for hero_id, cards in change["discarded"].items():
        hero = game["start_heroes"][hero_id]
        for card in cards:
            if card in hero["hand"]:
                hero["hand"].remove(card)
            for slot, held in hero["equipped"].items():
                if held == card:
                    hero["equipped"][slot] = None


@CHANGES(correction.KIND, "ValueCorrected", doc="The table corrected a number on a hero's control panel: what it was, what it is, and why (tracker/rulesets/engine/correction.py).")
def _value_corrected(game, change):
    game["heroes"][change["hero"]] = correction.apply(game["heroes"][change["hero"]], change)

