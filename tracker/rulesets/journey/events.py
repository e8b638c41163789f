"""Journey's own session events, named in the game's words (past tense), each version 1."""

from __future__ import annotations

from tracker.domain.events import GameEvent


class QuestSetUp(GameEvent):
    class_version = 1


class PilgrimSetUp(GameEvent):
    class_version = 1


class KarmaGained(GameEvent):
    class_version = 1


class KarmaLost(GameEvent):
    class_version = 1


class KarmaThresholdReached(GameEvent):
    class_version = 1


class KarmaTraded(GameEvent):
    class_version = 1


class WeaponUpgraded(GameEvent):
    class_version = 1


class CorruptionDrawn(GameEvent):
    class_version = 1


class CardTaken(GameEvent):
    class_version = 1


class CardGivenUp(GameEvent):
    class_version = 1


class CardPlayed(GameEvent):
    class_version = 1


class DamageTaken(GameEvent):
    class_version = 1


class HealthRestored(GameEvent):
    class_version = 1


class HealthReported(GameEvent):
    class_version = 1


class ChiChanged(GameEvent):
    class_version = 1


class ValueCorrected(GameEvent):
    """The table corrected a value on a Pilgrim's sheet: what it was, what it is, and why (tracker/rulesets/correction.py)."""

    class_version = 1


class PilgrimFellUnconscious(GameEvent):
    class_version = 1


class UnconsciousPilgrimTurned(GameEvent):
    class_version = 1


class PilgrimDied(GameEvent):
    class_version = 1


class PilgrimRevived(GameEvent):
    class_version = 1


class ConditionApplied(GameEvent):
    class_version = 1


class ConditionRemoved(GameEvent):
    class_version = 1


class TurnTokensAdded(GameEvent):
    class_version = 1


class PhaseStarted(GameEvent):
    class_version = 1


class PilgrimActivated(GameEvent):
    class_version = 1


class ActivationEnded(GameEvent):
    class_version = 1


class Rested(GameEvent):
    class_version = 1


class Prayed(GameEvent):
    class_version = 1


class Meditated(GameEvent):
    class_version = 1


class FortuneKept(GameEvent):
    class_version = 1


class WellUsed(GameEvent):
    class_version = 1


class VillagerRescued(GameEvent):
    class_version = 1


class SutraCollected(GameEvent):
    class_version = 1


class DoorBroken(GameEvent):
    class_version = 1


class GateClosed(GameEvent):
    class_version = 1


class GateStateChanged(GameEvent):
    class_version = 1


class SutrasGiven(GameEvent):
    class_version = 1


class AttackResolved(GameEvent):
    class_version = 1


class DemonKilled(GameEvent):
    class_version = 1


class DemonCleansed(GameEvent):
    class_version = 1


class CleanseBackfired(GameEvent):
    class_version = 1


class DemonSpawned(GameEvent):
    class_version = 1


class DemonRemoved(GameEvent):
    class_version = 1


class DemonCardResolved(GameEvent):
    class_version = 1


class DemonRageStarted(GameEvent):
    class_version = 1


class DemonRageEnded(GameEvent):
    class_version = 1


class SpecialDemonCardsDiscarded(GameEvent):
    class_version = 1


class SkillDrawsOwed(GameEvent):
    class_version = 1


class StartingSkillsReported(GameEvent):
    class_version = 1


class RescueAttempted(GameEvent):
    class_version = 1


class VillagerTokenReplaced(GameEvent):
    class_version = 1


class KogaijiSpellEnded(GameEvent):
    class_version = 1


class GateTurnTokenRemoved(GameEvent):
    class_version = 1


class DemonLordBanished(GameEvent):
    class_version = 1


class DemonLordTurnTokenRemoved(GameEvent):
    class_version = 1


class DemonLordReturned(GameEvent):
    class_version = 1


class SealingRitualCompleted(GameEvent):
    class_version = 1


class KeiLunCalmed(GameEvent):
    class_version = 1


class VillagerTurnTokenRemoved(GameEvent):
    class_version = 1


class KeiLunDamaged(GameEvent):
    class_version = 1


class KeiLunKilled(GameEvent):
    class_version = 1


EVENTS: dict[str, type[GameEvent]] = {
    "quest-set-up": QuestSetUp,
    "pilgrim-set-up": PilgrimSetUp,
    "karma-gained": KarmaGained,
    "karma-lost": KarmaLost,
    "karma-threshold-reached": KarmaThresholdReached,
    "karma-traded": KarmaTraded,
    "weapon-upgraded": WeaponUpgraded,
    "corruption-drawn": CorruptionDrawn,
    "card-taken": CardTaken,
    "skill-draws-owed": SkillDrawsOwed,
    "starting-skills-reported": StartingSkillsReported,
    "card-given-up": CardGivenUp,
    "card-played": CardPlayed,
    "damage-taken": DamageTaken,
    "health-restored": HealthRestored,
    "health-reported": HealthReported,
    "chi-changed": ChiChanged,
    "value-corrected": ValueCorrected,
    "pilgrim-fell-unconscious": PilgrimFellUnconscious,
    "unconscious-pilgrim-turned": UnconsciousPilgrimTurned,
    "pilgrim-died": PilgrimDied,
    "pilgrim-revived": PilgrimRevived,
    "condition-applied": ConditionApplied,
    "condition-removed": ConditionRemoved,
    "turn-tokens-added": TurnTokensAdded,
    "phase-started": PhaseStarted,
    "pilgrim-activated": PilgrimActivated,
    "activation-ended": ActivationEnded,
    "rested": Rested,
    "prayed": Prayed,
    "meditated": Meditated,
    "fortune-kept": FortuneKept,
    "well-used": WellUsed,
    "villager-rescued": VillagerRescued,
    "sutra-collected": SutraCollected,
    "door-broken": DoorBroken,
    "gate-closed": GateClosed,
    "gate-state-changed": GateStateChanged,
    "sutras-given": SutrasGiven,
    "attack-resolved": AttackResolved,
    "demon-killed": DemonKilled,
    "demon-cleansed": DemonCleansed,
    "cleanse-backfired": CleanseBackfired,
    "demon-spawned": DemonSpawned,
    "demon-removed": DemonRemoved,
    "demon-card-resolved": DemonCardResolved,
    "demon-rage-started": DemonRageStarted,
    "demon-rage-ended": DemonRageEnded,
    "special-demon-cards-discarded": SpecialDemonCardsDiscarded,
    "rescue-attempted": RescueAttempted,
    "villager-token-replaced": VillagerTokenReplaced,
    "kogaiji-spell-ended": KogaijiSpellEnded,
    "gate-turn-token-removed": GateTurnTokenRemoved,
    "demon-lord-banished": DemonLordBanished,
    "demon-lord-turn-token-removed": DemonLordTurnTokenRemoved,
    "demon-lord-returned": DemonLordReturned,
    "sealing-ritual-completed": SealingRitualCompleted,
    "kei-lun-calmed": KeiLunCalmed,
    "villager-turn-token-removed": VillagerTurnTokenRemoved,
    "kei-lun-damaged": KeiLunDamaged,
    "kei-lun-killed": KeiLunKilled,
}
