"""The Journey game state: what each change does to the session's bookkeeping (pure, plain JSON).

Each kind of change is declared once, with its fold: of the whole game (``@CHANGES``), of the sheet of the Pilgrim it
names (``@SHEET``), or of the quest's record (``@RECORD``); ``.of(kind)`` adds a part's fold to a kind declared with
another. ``fold`` is the whole game; ``fold_hero`` is one Pilgrim's sheet after one change, by the same sheet folds
the session uses, so the hero progress view and the session can never disagree about a Pilgrim.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from tracker.rulesets.engine import correction
from tracker.rulesets.engine.changes import Changes, Fold

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


class Part:
    """What each kind of change does to one part of the session besides the game's own fold: a Pilgrim's sheet, or
    the quest's record. ``@PART(kind, Name)`` declares the kind (its event, tracker/rulesets/engine/changes.py) with
    this fold as all it does; ``@PART.of(kind)`` adds this part's fold to a kind declared with a fold of its own."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.folds: dict[str, Fold] = {}

    def __call__(self, kind: str, name: str, doc: str | None = None) -> Callable[[Fold], Fold]:
        def declare(fold: Fold) -> Fold:
            CHANGES.declare(kind, name, doc=doc)
            return self.of(kind)(fold)

        return declare

    def of(self, kind: str) -> Callable[[Fold], Fold]:
        def add(fold: Fold) -> Fold:
            if kind in self.folds:
                raise ValueError(f"{self.what}: the kind {kind!r} is folded twice")
            self.folds[kind] = fold
            return fold

        return add


SHEET = Part("a Pilgrim's sheet")  # each fold takes the sheet and the change; changes the sheet, or returns a new one
RECORD = Part("the quest's record")  # each fold takes the game state (whose record it changes) and the change


def _unchanged(target: dict[str, Any], change: Mapping[str, Any]) -> None:
    """Nothing of the sheet or the record changes by it."""


def fold_hero(hero: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    """One Pilgrim's sheet after a change that names them (a copy): the sheet fold of the change's kind, if it has one.
    The session folds its sheets with these (``_every_change``), and the hero progress view with this."""
    sheet = copy.deepcopy(dict(hero)) if hero else new_hero()
    made = SHEET.folds.get(change["kind"], _unchanged)(sheet, change)
    return sheet if made is None else made


def new_record() -> dict[str, Any]:
    """What happened in the quest that its victory conditions ask about and no sheet keeps (L709-L1102)."""
    return {"defeated": [], "revived": [], "meditated": [], "skills_played": [], "attacked": [], "defeats": {}, "kei_lun_calmed": False, "sealing_ritual": False}


def _every_change(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    """What any change does besides its own fold: what the quest's record keeps of it (a session set up before the
    record existed keeps none), the sheet of the Pilgrim it names (the activation's start and end name the Pilgrim
    without changing its sheet; a Pilgrim first named gets a new sheet), and the action points it spent."""
    g.setdefault("heroes", {})
    kind = change["kind"]
    if g.get("record") is not None:
        RECORD.folds.get(kind, _unchanged)(g, change)
    hero_id = change.get("hero")
    if hero_id is not None and kind not in ("pilgrim-activated", "activation-ended"):
        sheet = g["heroes"].get(hero_id) or new_hero()  # the state is the fold's own copy: the sheet changes in place
        made = SHEET.folds.get(kind, _unchanged)(sheet, change)
        g["heroes"][hero_id] = sheet if made is None else made
    if change.get("ap"):
        g["ap"] = g.get("ap", 0) - change["ap"]


# Each kind of change Journey records, declared once with what it does to the session as a whole (tracker/rulesets/engine/changes.py).
CHANGES = Changes("tracker.rulesets.journey.events", every=_every_change)
fold = CHANGES.fold


def set_up_board(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    """A quest's set-up as every version records it: the Demons, the Gates, the initiative and the turn's start (rules
    data 1.0.0's set-up recorded no more: versions.py folds its set-ups with this alone)."""
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


@CHANGES("quest-set-up", "QuestSetUp")
def _quest_set_up(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    """A quest's set-up: the board, and the tokens, Turn Tokens, record, Kogaiji's spell and Kei Lun it names."""
    set_up_board(g, change)
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


# Changes of one Pilgrim's sheet (each folded by _every_change on the sheet of the Pilgrim it names), changes the
# quest's record keeps, and records the log keeps for their own sake: each declared once, with its fold.
@SHEET("pilgrim-set-up", "PilgrimSetUp")
def _pilgrim_set_up(h: dict[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    sheet = new_hero()
    sheet.update({k: copy.deepcopy(change[k]) for k in sheet if k in change})
    return sheet


@SHEET.of("karma-traded")  # declared below with what the trade does to the activation
@SHEET("karma-lost", "KarmaLost")
@SHEET("karma-gained", "KarmaGained")
def _karma(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h[change["wheel"]] = change["after"]


@SHEET("weapon-upgraded", "WeaponUpgraded")
def _weapon_upgraded(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["weapon_level"] = change["to_level"]


@SHEET("corruption-drawn", "CorruptionDrawn")
def _corruption_drawn(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["corruption"].append(change["card"])


@SHEET("card-taken", "CardTaken")
def _card_taken(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    hand = _hand(change)
    h[hand].append({"name": change["card"], "kind": change.get("card_kind")} if hand == "skills" else change["card"])


@SHEET("skill-draws-owed", "SkillDrawsOwed")
def _skill_draws_owed(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["skill_draws_owed"] = change["count"]


@SHEET("starting-skills-reported", "StartingSkillsReported")
def _starting_skills_reported(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["skill_draws_owed"] -= len(change["cards"])


@SHEET("card-given-up", "CardGivenUp")
def _card_given_up(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    _take(h[_hand(change)], change["card"])


@RECORD("card-played", "CardPlayed")
def _card_played(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change["deck"].startswith("skill-"):
        g["record"]["skills_played"].append(change["card"])


@SHEET("health-reported", "HealthReported")
@SHEET("health-restored", "HealthRestored")
@SHEET("damage-taken", "DamageTaken")
def _health(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["hp"] = change["hp_after"]


@SHEET.of("rested")  # declared below with the rest it counts
@SHEET("chi-changed", "ChiChanged")
def _chi(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["chi"] = change["chi_after"]


@SHEET("pilgrim-fell-unconscious", "PilgrimFellUnconscious")
def _pilgrim_fell_unconscious(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["status"] = "face-down"


@RECORD.of("pilgrim-fell-unconscious")
def _pilgrim_defeated(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change.get("cause") != "quest-set-up":
        g["record"]["defeated"].append(change["hero"])  # a Defeated Pilgrim is one reduced to 0 Health (L556-L557)


@SHEET("unconscious-pilgrim-turned", "UnconsciousPilgrimTurned")
def _unconscious_pilgrim_turned(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["status"] = change["to"]


CHANGES.declare("pilgrim-died", "PilgrimDied")  # a dead Pilgrim keeps its place; activation skips it


@SHEET("pilgrim-revived", "PilgrimRevived")
def _pilgrim_revived(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h.update(status="conscious", hp=change["hp"], chi=change["chi"])


@RECORD.of("pilgrim-revived")
def _pilgrim_revived_recorded(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["record"]["revived"].append(change["hero"])


@SHEET("condition-applied", "ConditionApplied")
def _condition_applied(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["conditions"] = [c for c in h["conditions"] if c["id"] != change["condition"]]
    h["conditions"].append({"id": change["condition"], "tokens": 0})


@SHEET("condition-removed", "ConditionRemoved")
def _condition_removed(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["conditions"] = [c for c in h["conditions"] if c["id"] != change["condition"]]


@SHEET("well-used", "WellUsed")
def _well_used(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["hp"] = change["hp_after"]
    h["wells_used"].append(change["well"])


@SHEET("villager-rescued", "VillagerRescued")
def _villager_rescued(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["villagers"].append(change["villager"])


@SHEET("sutra-collected", "SutraCollected")
def _sutra_collected(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["sutras"].append(change["sutra"])


CHANGES.declare("door-broken", "DoorBroken")


@SHEET("sutras-given", "SutrasGiven")
def _sutras_given(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["sutras"].extend(change["sutras"])


@RECORD("attack-resolved", "AttackResolved")
def _attack_resolved(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change["attacker"] in g["heroes"] and change["target"] in g.get("demons", {}):
        g["record"]["attacked"].append(g["demons"][change["target"]])


CHANGES.declare("cleanse-backfired", "CleanseBackfired")
CHANGES.declare("rescue-attempted", "RescueAttempted")


@RECORD("sealing-ritual-completed", "SealingRitualCompleted")
def _sealing_ritual_completed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["record"]["sealing_ritual"] = True


@RECORD("kei-lun-calmed", "KeiLunCalmed")
def _kei_lun_calmed(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["record"]["kei_lun_calmed"] = True


@SHEET(correction.KIND, "ValueCorrected",
       doc="The table corrected a value on a Pilgrim's sheet: what it was, what it is, and why (tracker/rulesets/engine/correction.py).")
def _value_corrected(h: dict[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    return correction.apply(h, change)


@CHANGES("karma-threshold-reached", "KarmaThresholdReached")
def _karma_threshold_reached(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["reached_ten"].append({"hero": change.get("hero"), "wheel": change["wheel"], "value": change["value"]})


@CHANGES("karma-traded", "KarmaTraded")
def _karma_traded(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    if change["trade"] == "master-skill":
        g["activation"]["master_skill"] = int(g["activation"].get("master_skill", 0)) + 1  # how many: the limit is the data's


@CHANGES("turn-tokens-added", "TurnTokensAdded")
def _turn_tokens_added(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    for hero_id in list(g["heroes"]):  # on every Pilgrim's conditions, none named
        g["heroes"][hero_id] = fold_hero(g["heroes"][hero_id], change)


@SHEET.of("turn-tokens-added")
def _turn_tokens_on_sheet(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    for condition in h["conditions"]:
        condition["tokens"] += 1


@CHANGES("rested", "Rested")
def _rested(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["activation"]["rests"] = g["activation"].get("rests", 0) + 1


@CHANGES("prayed", "Prayed")
@CHANGES("meditated", "Meditated")
def _mystical_box(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["activation"]["mystical_box"] = int(g["activation"].get("mystical_box", 0)) + 1  # how many: the limit is the data's
    if change["kind"] == "meditated" and change["result"] == "white":
        g["fortune_choice"] = change.get("hero")


@RECORD.of("meditated")
def _meditated(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["record"]["meditated"].append(change["hero"])


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


@SHEET.of("gate-closed")
def _sutra_spent(h: dict[str, Any], change: Mapping[str, Any]) -> None:
    h["sutras"].remove(change["sutra"])


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


@RECORD.of("demon-removed")
@RECORD.of("demon-killed")
@RECORD.of("demon-cleansed")
def _demon_defeated(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    defeats = g["record"]["defeats"]
    defeats[change["character"]] = defeats.get(change["character"], 0) + 1


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


@RECORD.of("kei-lun-killed")
def _kei_lun_killed_recorded(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g["record"]["kei_lun_killed"] = True


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


@CHANGES("reading-stated", "ReadingStated")
def _reading_stated(g: dict[str, Any], change: Mapping[str, Any]) -> None:
    g.setdefault("readings", {})[change["reading"]] = change["choice"]  # the table's reading of an open rule (readings.py)


HERO_KINDS = frozenset(SHEET.folds) | {"karma-threshold-reached", "pilgrim-died"}
"""Kinds the hero progress view reads (each names its ``hero``): those that change a Pilgrim's sheet, the threshold
it lists beside the sheet, and the death its records have always kept."""
