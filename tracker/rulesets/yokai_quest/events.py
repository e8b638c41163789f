"""Yōkai Quest's own events, named in the game's words. Each records one change of the game state."""

from __future__ import annotations

from tracker.domain.events import GameEvent


class SceneSetUp(GameEvent):
    class_version = 1


class EnergyGained(GameEvent):
    class_version = 1


class EnergyLost(GameEvent):
    class_version = 1


class HealthLost(GameEvent):
    class_version = 1


class HealthRecovered(GameEvent):
    class_version = 1


class AttackResolved(GameEvent):
    class_version = 1


class ChiefWounded(GameEvent):
    class_version = 1


class YokaiDefeated(GameEvent):
    class_version = 1


class FoeAppeared(GameEvent):
    class_version = 1


class FoeRecovered(GameEvent):
    class_version = 1


class YokaiPhaseBegan(GameEvent):
    class_version = 1


class AppearanceDrawn(GameEvent):
    class_version = 1


class YokaiAppeared(GameEvent):
    class_version = 1


class YokaiTokenPlaced(GameEvent):
    class_version = 1


class CoinTurned(GameEvent):
    class_version = 1


class YokaiPhaseEnded(GameEvent):
    class_version = 1


class TreasureTokenAdded(GameEvent):
    class_version = 1


class TreasureFound(GameEvent):
    class_version = 1


class TreasureCardDrawn(GameEvent):
    class_version = 1


class TreasureCardDiscarded(GameEvent):
    class_version = 1


class ItemEquipped(GameEvent):
    class_version = 1


class ItemUnequipped(GameEvent):
    class_version = 1


class AbilityUsed(GameEvent):
    class_version = 1


class ItemUsed(GameEvent):
    class_version = 1


class AlteredStateReceived(GameEvent):
    class_version = 1


class ActivationBegan(GameEvent):
    class_version = 1


class HeroActed(GameEvent):
    class_version = 1


class HeroMoved(GameEvent):
    class_version = 1


class ActivationEnded(GameEvent):
    class_version = 1


class HeroDefeated(GameEvent):
    class_version = 1


class HeroRevived(GameEvent):
    class_version = 1


class TurnEffectsExpired(GameEvent):
    class_version = 1


class AchievementEarned(GameEvent):
    class_version = 1


class SceneEnded(GameEvent):
    class_version = 1


class HeroReturned(GameEvent):
    class_version = 1


class DefeatPenaltyApplied(GameEvent):
    class_version = 1


class ValueCorrected(GameEvent):
    """The table corrected a number on a hero's control panel: what it was, what it is, and why (tracker/rulesets/correction.py)."""

    class_version = 1


EVENTS = {
    "scene-set-up": SceneSetUp,
    "energy-gained": EnergyGained,
    "energy-lost": EnergyLost,
    "health-lost": HealthLost,
    "health-recovered": HealthRecovered,
    "attack-resolved": AttackResolved,
    "chief-wounded": ChiefWounded,
    "yokai-defeated": YokaiDefeated,
    "foe-appeared": FoeAppeared,
    "foe-recovered": FoeRecovered,
    "yokai-phase-began": YokaiPhaseBegan,
    "appearance-drawn": AppearanceDrawn,
    "yokai-appeared": YokaiAppeared,
    "yokai-token-placed": YokaiTokenPlaced,
    "coin-turned": CoinTurned,
    "yokai-phase-ended": YokaiPhaseEnded,
    "treasure-token-added": TreasureTokenAdded,
    "treasure-found": TreasureFound,
    "treasure-card-drawn": TreasureCardDrawn,
    "treasure-card-discarded": TreasureCardDiscarded,
    "item-equipped": ItemEquipped,
    "item-unequipped": ItemUnequipped,
    "ability-used": AbilityUsed,
    "item-used": ItemUsed,
    "altered-state-received": AlteredStateReceived,
    "activation-began": ActivationBegan,
    "hero-acted": HeroActed,
    "hero-moved": HeroMoved,
    "activation-ended": ActivationEnded,
    "hero-defeated": HeroDefeated,
    "hero-revived": HeroRevived,
    "turn-effects-expired": TurnEffectsExpired,
    "achievement-earned": AchievementEarned,
    "scene-ended": SceneEnded,
    "hero-returned": HeroReturned,
    "defeat-penalty-applied": DefeatPenaltyApplied,
    "value-corrected": ValueCorrected,
}
