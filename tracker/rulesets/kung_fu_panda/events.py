"""Kung Fu Panda's own session events, named in the game's words."""

from __future__ import annotations

from tracker.domain.events import GameEvent


class MissionSetUp(GameEvent):
    class_version = 1


class RoundStarted(GameEvent):
    class_version = 1


class DicePoolRolled(GameEvent):
    class_version = 1


class DialAdvanced(GameEvent):
    class_version = 1


class EnemySpawned(GameEvent):
    class_version = 1


class SpawnSkipped(GameEvent):
    class_version = 1


class HeroDamaged(GameEvent):
    class_version = 1


class HeroKnockedOut(GameEvent):
    class_version = 1


class PlayEffectResolved(GameEvent):
    class_version = 1


class DiceSpent(GameEvent):
    class_version = 1


class EnemyKnockedOut(GameEvent):
    class_version = 1


class HeroRevived(GameEvent):
    class_version = 1


class HealthRegained(GameEvent):
    class_version = 1


class HeroMoved(GameEvent):
    class_version = 1


class TokenCollected(GameEvent):
    class_version = 1


class TaiLungWounded(GameEvent):
    class_version = 1


class VillagerRescued(GameEvent):
    class_version = 1


class CartPushed(GameEvent):
    class_version = 1


class OxGruntMoved(GameEvent):
    class_version = 1


class TileCycled(GameEvent):
    class_version = 1


class KitchenLost(GameEvent):
    class_version = 1


class SpecialMoveUsed(GameEvent):
    class_version = 1


class RoundSummarised(GameEvent):
    class_version = 1


class RoundEnded(GameEvent):
    class_version = 1


class PauseResolved(GameEvent):
    class_version = 1


class EntryCorrected(GameEvent):
    class_version = 1


class MissionWon(GameEvent):
    class_version = 1


class MissionLost(GameEvent):
    class_version = 1


EVENTS: dict[str, type[GameEvent]] = {
    "mission-set-up": MissionSetUp,
    "round-started": RoundStarted,
    "pool-rolled": DicePoolRolled,
    "dial-advanced": DialAdvanced,
    "enemy-spawned": EnemySpawned,
    "spawn-skipped": SpawnSkipped,
    "hero-damaged": HeroDamaged,
    "hero-knocked-out": HeroKnockedOut,
    "play-effect-resolved": PlayEffectResolved,
    "dice-spent": DiceSpent,
    "enemy-knocked-out": EnemyKnockedOut,
    "hero-revived": HeroRevived,
    "health-regained": HealthRegained,
    "hero-moved": HeroMoved,
    "token-collected": TokenCollected,
    "tai-lung-wounded": TaiLungWounded,
    "villager-rescued": VillagerRescued,
    "cart-pushed": CartPushed,
    "ox-grunt-moved": OxGruntMoved,
    "tile-cycled": TileCycled,
    "kitchen-lost": KitchenLost,
    "special-move-used": SpecialMoveUsed,
    "round-summarised": RoundSummarised,
    "round-ended": RoundEnded,
    "pause-resolved": PauseResolved,
    "entry-corrected": EntryCorrected,
    "mission-won": MissionWon,
    "mission-lost": MissionLost,
}
