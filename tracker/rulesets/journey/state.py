"""The Journey game state: what each change does to the session's bookkeeping (pure, plain JSON).

``fold_hero`` is one Pilgrim's sheet after one change; ``fold`` is the whole game. The hero
progress view folds the same changes with ``fold_hero``, so the session and the campaign's
view can never disagree about a Pilgrim.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from tracker.rulesets import correction

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


# Changes that touch the session as a whole, not one Pilgrim's sheet.
def fold(game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    g = copy.deepcopy(dict(game))
    kind = change["kind"]
    g.setdefault("heroes", {})
    if kind == "quest-set-up":
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
            return g  # a set-up as rules data 1.0.0 recorded it (no tokens named: versions.PUBLISHED_1_0_0) keeps 1.0.0's state
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
        return g
    _record(g, change)
    if kind == "turn-tokens-added":
        for hero_id in list(g["heroes"]):
            g["heroes"][hero_id] = fold_hero(g["heroes"][hero_id], change)
        return g
    hero_id = change.get("hero")
    if hero_id is not None and kind not in ("pilgrim-activated", "activation-ended"):
        g["heroes"][hero_id] = fold_hero(g["heroes"].get(hero_id, {}), change)
    if change.get("ap"):
        g["ap"] = g.get("ap", 0) - change["ap"]
    if kind == "karma-threshold-reached":
        g["reached_ten"].append({"hero": hero_id, "wheel": change["wheel"], "value": change["value"]})
    elif kind == "rested":
        g["activation"]["rests"] = g["activation"].get("rests", 0) + 1
    elif kind in ("prayed", "meditated"):
        g["activation"]["mystical_box"] = True
        if kind == "meditated" and change["result"] == "white":
            g["fortune_choice"] = hero_id
    elif kind == "fortune-kept":
        g.pop("fortune_choice", None)
    elif kind == "karma-traded" and change["trade"] == "master-skill":
        g["activation"]["master_skill"] = True
    elif kind == "phase-started":
        g["phase"] = change["phase"]
        if change["phase"] == "pilgrim":
            g["activated"] = []
        g["active"] = None
        g["ap"] = 0
    elif kind == "pilgrim-activated":
        g.update(active=hero_id, ap=change["ap"], activation={})
        g["activated"].append(hero_id)
    elif kind == "activation-ended":
        g.update(active=None, ap=0, activation={})
    elif kind == "gate-closed":
        g["gates"][change["gate"]] = "closed"
    elif kind == "gate-state-changed":
        g["gates"][change["gate"]] = change["to"]
    elif kind == "demon-spawned":
        g["demons"][change["demon"]] = change["character"]
        g["spawned"] = g.get("spawned", 0) + 1
    elif kind in ("demon-removed", "demon-killed", "demon-cleansed"):
        g["demons"].pop(change["demon"], None)
    elif kind == "demon-card-resolved" and change["outcome"] == "special":
        g["special_cards"].append(change["card"])
    elif kind == "special-demon-cards-discarded":
        g["special_cards"] = [c for c in g["special_cards"] if c not in change["cards"]]
    elif kind == "demon-rage-started":
        g.update(rage=True, demon_ap=change["demon_action_points"], rage_until=change.get("until"))
    elif kind == "demon-rage-ended":
        g.update(rage=False, demon_ap=DEMON_ACTION_POINTS, rage_until=None)
    elif kind == "villager-token-replaced":
        g.setdefault("villagers_replaced", []).append(change["villager"])
    elif kind == "kei-lun-damaged":
        g["kei_lun"]["hp"] = change["hp_after"]
    elif kind == "kei-lun-killed":
        g["kei_lun"]["status"] = "killed"
    elif kind == "villager-turn-token-removed":
        g.setdefault("villager_turn_tokens", {})[change["villager"]] = change["left"]
    elif kind == "kogaiji-spell-ended":
        g["kogaiji_spell"] = False
    elif kind == "gate-turn-token-removed":
        g.setdefault("gate_turn_tokens", {})[change["gate"]] = change["left"]
    elif kind == "demon-lord-banished":
        g.setdefault("banished", {})[change["character"]] = change["turn_tokens"]  # (a 1.0.0 set-up kept none: versions.PUBLISHED_1_0_0)
    elif kind == "demon-lord-turn-token-removed":
        g.setdefault("banished", {})[change["character"]] = change["left"]
    elif kind == "demon-lord-returned":
        g.setdefault("banished", {}).pop(change["character"], None)
    elif kind == "pilgrim-died" and hero_id in g.get("initiative", []):
        pass  # a dead Pilgrim keeps its place; activation skips it
    return g


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
