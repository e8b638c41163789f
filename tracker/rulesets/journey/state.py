"""The Journey game state: what each change does to the session's bookkeeping (pure, plain JSON).

``fold_hero`` is one Pilgrim's sheet after one change; ``fold`` is the whole game. The hero
progress view folds the same changes with ``fold_hero``, so the session and the campaign's
view can never disagree about a Pilgrim.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine import correction
from tracker.rulesets.engine.changes import Changes

UNCONSCIOUS = ("face-down", "side", "back")
ROTATION = {"face-down": "side", "side": "back", "back": "dead"}
DEMON_ACTION_POINTS = 2  # each Demon's AP per activation; 3 during Demon Rage (L604-L608, L610-L656)


def new_hero() -> dict[str, Any]:
    return {
        "hp": None,
        "max_hp": None,
        "chi": None,
        "good": 0,
        "bad": 0,
        "weapon_level": None,
        "skills": [],
        "corruption": [],
        "fortune": [],
        "misfortune": [],
        "conditions": [],
        "status": "conscious",
        "sutras": [],
        "villagers": [],
        "wells_used": [],
        "skill_draws_owed": 0,
    }


def _hand(change: Mapping[str, Any]) -> str:
    deck = change["deck"]
    if deck.startswith("skill-"):
        return "skills"
    return {"fortune": "fortune", "misfortune": "misfortune", "corruption": "corruption"}[deck]


def _take(cards: list[Any], name: str) -> None:
    for i, card in enumerate(cards):
        if (card["name"] if isinstance(card, dict) else card) == name:
            del cards[i]
            return


def fold_hero(hero: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    """One Pilgrim's sheet after a change that names them."""
    h = copy.deepcopy(dict(hero)) if hero else new_hero()
    kind = change["kind"]
    if kind == correction.KIND:
        return correction.apply(h, change)
    if kind == "pilgrim-set-up":
        h = new_hero()
        h.update({k: copy.deepcopy(change[k]) for k in h if k in change})
    elif kind in ("karma-gained", "karma-lost", "karma-traded"):
        h[change["wheel"]] = change["after"]
    elif kind == "weapon-upgraded":
        h["weapon_level"] = change["to_level"]
    elif kind == "corruption-drawn":
        h["corruption"].append(change["card"])
    elif kind == "card-taken":
        hand = _hand(change)
        h[hand].append({"name": change["card"], "kind": change.get("card_kind")} if hand == "skills" else change["card"])
    elif kind == "card-given-up":
        _take(h[_hand(change)], change["card"])
    elif kind in ("damage-taken", "health-restored", "health-reported", "well-used"):
        h["hp"] = change["hp_after"]
        if kind == "well-used":
            h["wells_used"].append(change["well"])
    elif kind in ("chi-changed", "rested"):
        h["chi"] = change["chi_after"]
    elif kind == "pilgrim-fell-unconscious":
        h["status"] = "face-down"
    elif kind == "unconscious-pilgrim-turned":
        h["status"] = change["to"]
    elif kind == "pilgrim-revived":
        h.update(status="conscious", hp=change["hp"], chi=change["chi"])
    elif kind == "condition-applied":
        h["conditions"] = [c for c in h["conditions"] if c["id"] != change["condition"]]
        h["conditions"].append({"id": change["condition"], "tokens": 0})
    elif kind == "condition-removed":
        h["conditions"] = [c for c in h["conditions"] if c["id"] != change["condition"]]
    elif kind == "turn-tokens-added":
        for condition in h["conditions"]:
            condition["tokens"] += 1
    elif kind == "skill-draws-owed":
        h["skill_draws_owed"] = change["count"]
    elif kind == "starting-skills-reported":
        h["skill_draws_owed"] -= len(change["cards"])
    elif kind == "villager-rescued":
        h["villagers"].append(change["villager"])
    elif kind == "sutra-collected":
        h["sutras"].append(change["sutra"])
    elif kind == "gate-closed":
        h["sutras"].remove(change["sutra"])
    elif kind == "sutras-given":
        h["sutras"].extend(change["sutras"])
    return h


def new_record() -> dict[str, Any]:
    """What happened in the quest that its victory conditions ask about and no sheet keeps (L709-L1102)."""
    return {"defeated": [], "revived": [], "meditated": [], "skills_played": [], "attacked": [], "defeats": {}, "kei_lun_calmed": False, "sealing_ritual": False}


def _record(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    record = g.get("record")
    if record is None:
        return  # a session set up before the record existed keeps none
    kind = change["kind"]
    if kind == "pilgrim-fell-unconscious" and change.get("cause") != "quest-set-up":
        record["defeated"].append(change["hero"])  # a Defeated Pilgrim is one reduced to 0 Health (L556-L557)
    elif kind == "pilgrim-revived":
        record["revived"].append(change["hero"])
    elif kind == "meditated":
        record["meditated"].append(change["hero"])
    elif kind == "card-played" and change["deck"].startswith("skill-"):
        record["skills_played"].append(change["card"])
    elif kind == "attack-resolved" and change["attacker"] in g["heroes"] and change["target"] in g.get("demons", {}):
        record["attacked"].append(g["demons"][change["target"]])
    elif kind in ("demon-removed", "demon-killed", "demon-cleansed"):
        record["defeats"][change["character"]] = record["defeats"].get(change["character"], 0) + 1
    elif kind == "kei-lun-calmed":
        record["kei_lun_calmed"] = True
    elif kind == "kei-lun-killed":
        record["kei_lun_killed"] = True
    elif kind == "sealing-ritual-completed":
        record["sealing_ritual"] = True


def _every_change(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    """What any change does besides its own fold: what the quest's record keeps of it, the sheet of the Pilgrim it names
    (the activation's start and end name the Pilgrim without changing its sheet; turn tokens go on every Pilgrim's),
    and the action points it spent."""
    g.setdefault("heroes", {})
    _record(g, change)
    hero_id = change.get("hero")
    if hero_id is not None and change["kind"] not in ("pilgrim-activated", "activation-ended"):
        g["heroes"][hero_id] = fold_hero(g["heroes"].get(hero_id, {}), change)
    if change.get("ap"):
        g["ap"] = g.get("ap", 0) - change["ap"]


# Each kind of change Journey records, declared once with what it does to the session as a whole (tracker/rulesets/engine/changes.py).
CHANGES = Changes("tracker.rulesets.journey.events", every=_every_change)
fold = CHANGES.fold


@CHANGES("quest-set-up", "QuestSetUp")
def _quest_set_up(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.update(
        quest=change["quest"],
        mode=change["mode"],
        initiative=list(change["initiative"]),
        demons=dict(change["demons"]),
        gates=dict(change["gates"]),
        phase="maintenance",
        activated=[],
        active=None,
        ap=0,
        activation={},
        rage=False,
        demon_ap=DEMON_ACTION_POINTS,
        special_cards=[],
        reached_ten=[],
        spawned=change.get("spawned", 0),
    )
    if "tokens" not in change:
        return  # a set-up as rules data 1.0.0 recorded it (no tokens named: versions.PUBLISHED_1_0_0) keeps 1.0.0's state
    g.update(
        tokens=copy.deepcopy(change.get("tokens") or {}),
        gate_turn_tokens=dict(change.get("gate_turn_tokens") or {}),
        record=new_record(),
        kogaiji_spell=change.get("kogaiji_spell", False),
        villagers_replaced=[],
        banished={},
        rage_until=None,
        villager_turn_tokens=dict(change.get("villager_turn_tokens") or {}),
        kei_lun=copy.deepcopy(change.get("kei_lun")),
    )


# Changes wholly of one Pilgrim's sheet (fold_hero, by _every_change), or records the log keeps for their own sake.
for _kind, _name in (
    ("pilgrim-set-up", "PilgrimSetUp"), ("karma-gained", "KarmaGained"), ("karma-lost", "KarmaLost"),
    ("weapon-upgraded", "WeaponUpgraded"), ("corruption-drawn", "CorruptionDrawn"), ("card-taken", "CardTaken"),
    ("skill-draws-owed", "SkillDrawsOwed"), ("starting-skills-reported", "StartingSkillsReported"), ("card-given-up", "CardGivenUp"),
    ("card-played", "CardPlayed"), ("damage-taken", "DamageTaken"), ("health-restored", "HealthRestored"),
    ("health-reported", "HealthReported"), ("chi-changed", "ChiChanged"), ("pilgrim-fell-unconscious", "PilgrimFellUnconscious"),
    ("unconscious-pilgrim-turned", "UnconsciousPilgrimTurned"), ("pilgrim-died", "PilgrimDied"),  # a dead Pilgrim keeps its place; activation skips it
    ("pilgrim-revived", "PilgrimRevived"), ("condition-applied", "ConditionApplied"), ("condition-removed", "ConditionRemoved"),
    ("well-used", "WellUsed"), ("villager-rescued", "VillagerRescued"), ("sutra-collected", "SutraCollected"),
    ("door-broken", "DoorBroken"), ("sutras-given", "SutrasGiven"), ("attack-resolved", "AttackResolved"),
    ("cleanse-backfired", "CleanseBackfired"), ("rescue-attempted", "RescueAttempted"),
    ("sealing-ritual-completed", "SealingRitualCompleted"), ("kei-lun-calmed", "KeiLunCalmed"),
):
    CHANGES.declare(_kind, _name)
CHANGES.declare(correction.KIND, "ValueCorrected",
                doc="The table corrected a value on a Pilgrim's sheet: what it was, what it is, and why (tracker/rulesets/engine/correction.py).")


@CHANGES("karma-threshold-reached", "KarmaThresholdReached")
def _karma_threshold_reached(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["reached_ten"].append({"hero": change.get("hero"), "wheel": change["wheel"], "value": change["value"]})


@CHANGES("karma-traded", "KarmaTraded")
def _karma_traded(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change["trade"] == "master-skill":
        g["activation"]["master_skill"] = True


@CHANGES("turn-tokens-added", "TurnTokensAdded")
def _turn_tokens_added(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    for hero_id in list(g["heroes"]):
        g["heroes"][hero_id] = fold_hero(g["heroes"][hero_id], change)


@CHANGES("rested", "Rested")
def _rested(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["activation"]["rests"] = g["activation"].get("rests", 0) + 1


@CHANGES("prayed", "Prayed")
@CHANGES("meditated", "Meditated")
def _mystical_box(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["activation"]["mystical_box"] = True
    if change["kind"] == "meditated" and change["result"] == "white":
        g["fortune_choice"] = change.get("hero")


@CHANGES("fortune-kept", "FortuneKept")
def _fortune_kept(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.pop("fortune_choice", None)


@CHANGES("phase-started", "PhaseStarted")
def _phase_started(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["phase"] = change["phase"]
    if change["phase"] == "pilgrim":
        g["activated"] = []
    g["active"] = None
    g["ap"] = 0


@CHANGES("pilgrim-activated", "PilgrimActivated")
def _pilgrim_activated(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.update(active=change.get("hero"), ap=change["ap"], activation={})
    g["activated"].append(change.get("hero"))


@CHANGES("activation-ended", "ActivationEnded")
def _activation_ended(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.update(active=None, ap=0, activation={})


@CHANGES("gate-closed", "GateClosed")
def _gate_closed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["gates"][change["gate"]] = "closed"


@CHANGES("gate-state-changed", "GateStateChanged")
def _gate_state_changed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["gates"][change["gate"]] = change["to"]


@CHANGES("demon-spawned", "DemonSpawned")
def _demon_spawned(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["demons"][change["demon"]] = change["character"]
    g["spawned"] = g.get("spawned", 0) + 1


@CHANGES("demon-removed", "DemonRemoved")
@CHANGES("demon-killed", "DemonKilled")
@CHANGES("demon-cleansed", "DemonCleansed")
def _demon_gone(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["demons"].pop(change["demon"], None)


@CHANGES("demon-card-resolved", "DemonCardResolved")
def _demon_card_resolved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change["outcome"] == "special":
        g["special_cards"].append(change["card"])


@CHANGES("special-demon-cards-discarded", "SpecialDemonCardsDiscarded")
def _special_demon_cards_discarded(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["special_cards"] = [c for c in g["special_cards"] if c not in change["cards"]]


@CHANGES("demon-rage-started", "DemonRageStarted")
def _demon_rage_started(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.update(rage=True, demon_ap=change["demon_action_points"], rage_until=change.get("until"))


@CHANGES("demon-rage-ended", "DemonRageEnded")
def _demon_rage_ended(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.update(rage=False, demon_ap=DEMON_ACTION_POINTS, rage_until=None)


@CHANGES("villager-token-replaced", "VillagerTokenReplaced")
def _villager_token_replaced(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("villagers_replaced", []).append(change["villager"])


@CHANGES("kei-lun-damaged", "KeiLunDamaged")
def _kei_lun_damaged(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["kei_lun"]["hp"] = change["hp_after"]


@CHANGES("kei-lun-killed", "KeiLunKilled")
def _kei_lun_killed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["kei_lun"]["status"] = "killed"


@CHANGES("villager-turn-token-removed", "VillagerTurnTokenRemoved")
def _villager_turn_token_removed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("villager_turn_tokens", {})[change["villager"]] = change["left"]


@CHANGES("kogaiji-spell-ended", "KogaijiSpellEnded")
def _kogaiji_spell_ended(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["kogaiji_spell"] = False


@CHANGES("gate-turn-token-removed", "GateTurnTokenRemoved")
def _gate_turn_token_removed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("gate_turn_tokens", {})[change["gate"]] = change["left"]


@CHANGES("demon-lord-banished", "DemonLordBanished")
def _demon_lord_banished(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("banished", {})[change["character"]] = change["turn_tokens"]  # (a 1.0.0 set-up kept none: versions.PUBLISHED_1_0_0)


@CHANGES("demon-lord-turn-token-removed", "DemonLordTurnTokenRemoved")
def _demon_lord_turn_token_removed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("banished", {})[change["character"]] = change["left"]


@CHANGES("demon-lord-returned", "DemonLordReturned")
def _demon_lord_returned(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("banished", {}).pop(change["character"], None)


HERO_KINDS = {
    correction.KIND,
    "pilgrim-set-up",
    "karma-gained",
    "karma-lost",
    "karma-traded",
    "karma-threshold-reached",
    "weapon-upgraded",
    "corruption-drawn",
    "card-taken",
    "card-given-up",
    "damage-taken",
    "health-restored",
    "health-reported",
    "well-used",
    "chi-changed",
    "rested",
    "pilgrim-fell-unconscious",
    "unconscious-pilgrim-turned",
    "pilgrim-died",
    "pilgrim-revived",
    "condition-applied",
    "condition-removed",
    "villager-rescued",
    "sutra-collected",
    "gate-closed",
    "sutras-given",
    "skill-draws-owed",
    "starting-skills-reported",
}
"""Kinds that change a Pilgrim's sheet (each names its ``hero``): what the hero progress view reads."""
