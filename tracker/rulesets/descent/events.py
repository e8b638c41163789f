"""Descent's own session events, named in the game's words. Each records one change (a plain JSON dict)."""

from __future__ import annotations

from tracker.domain.events import GameEvent


class QuestSetUp(GameEvent):
    class_version = 1


class TreacheryCardSwapped(GameEvent):
    class_version = 1


class DarkGlyphBought(GameEvent):
    class_version = 1


class OpeningHandSet(GameEvent):
    class_version = 1


class GlyphPlaced(GameEvent):
    class_version = 1


class GlyphActivated(GameEvent):
    class_version = 1


class ThreatGained(GameEvent):
    class_version = 1


class ThreatSpent(GameEvent):
    class_version = 1


class ConquestChanged(GameEvent):
    class_version = 1


class QuestLost(GameEvent):
    class_version = 1


class QuestWon(GameEvent):
    class_version = 1


class GlyphDamaged(GameEvent):
    class_version = 1


class GlyphDestroyed(GameEvent):
    class_version = 1


class GlyphRestored(GameEvent):
    class_version = 1


class ChestOpened(GameEvent):
    class_version = 1


class CoinsChanged(GameEvent):
    class_version = 1


class HeroKilled(GameEvent):
    class_version = 1


class CursesGained(GameEvent):
    class_version = 1


class CursedItemEquipped(GameEvent):
    class_version = 1


class DarkRelicEquipped(GameEvent):
    class_version = 1


class FrostGained(GameEvent):
    class_version = 1


class FrostShaken(GameEvent):
    class_version = 1


class ItemShattered(GameEvent):
    class_version = 1


class PotionGained(GameEvent):
    class_version = 1


class PotionDrunk(GameEvent):
    class_version = 1


class InvulnerabilityUsed(GameEvent):
    class_version = 1


class ProlongedProgressMade(GameEvent):
    class_version = 1


class ProlongedActionCompleted(GameEvent):
    class_version = 1


class ProlongedActionDisrupted(GameEvent):
    class_version = 1


class TreasureBought(GameEvent):
    class_version = 1


class TreasureSold(GameEvent):
    class_version = 1


class TownTravelled(GameEvent):
    class_version = 1


class MonstersSpawned(GameEvent):
    class_version = 1


class ZorekGazed(GameEvent):
    class_version = 1


class StoneDoorClosed(GameEvent):
    class_version = 1


class StoneDoorsRolled(GameEvent):
    class_version = 1


class TrollAmbushSprung(GameEvent):
    class_version = 1


class VillagerSpellBroken(GameEvent):
    class_version = 1


class AltarDestroyed(GameEvent):
    class_version = 1


class PowerGlyphUsed(GameEvent):
    class_version = 1


class PotionPacked(GameEvent):
    class_version = 1


class CellOpened(GameEvent):
    class_version = 1


class SacrificeClockTicked(GameEvent):
    class_version = 1


class PrisonerSacrificed(GameEvent):
    class_version = 1


class ThingStruck(GameEvent):
    class_version = 1


class ConditionTokensPlaced(GameEvent):
    class_version = 1


class ConditionTokensResolved(GameEvent):
    class_version = 1


class MonkeyKingsLineStruck(GameEvent):
    class_version = 1


class HeroTransformed(GameEvent):
    class_version = 1


class FissuresMoved(GameEvent):
    class_version = 1


class FissuresStilled(GameEvent):
    class_version = 1


class TempleAltarsCounted(GameEvent):
    class_version = 1


class TempleAltarActivated(GameEvent):
    class_version = 1


class TurnDescriptionRead(GameEvent):
    class_version = 1


class SpiritsCounted(GameEvent):
    class_version = 1


class SpiritAngered(GameEvent):
    class_version = 1


class SpiritKilled(GameEvent):
    class_version = 1


class SpiritConvinced(GameEvent):
    class_version = 1


class CrushingTrapSprung(GameEvent):
    class_version = 1


class CrushingWallsMoved(GameEvent):
    class_version = 1


class CrushingWallPushed(GameEvent):
    class_version = 1


class CrushingTrapDisarmed(GameEvent):
    class_version = 1


class MonstersPlaced(GameEvent):
    class_version = 1


class AttackMade(GameEvent):
    class_version = 1


class MonsterKilled(GameEvent):
    class_version = 1


class WoundsStated(GameEvent):
    class_version = 1


class FatigueSpent(GameEvent):
    class_version = 1


class WoundsRecovered(GameEvent):
    class_version = 1


class HeroReadied(GameEvent):
    class_version = 1


class SecretRoomMarked(GameEvent):
    class_version = 1


class SecretRoomSearched(GameEvent):
    class_version = 1


class UndyingRolled(GameEvent):
    class_version = 1


class Leeched(GameEvent):
    class_version = 1


class DarkGlyphCleansed(GameEvent):
    class_version = 1


class AuraWounded(GameEvent):
    class_version = 1


class MonsterTokensPlaced(GameEvent):
    class_version = 1


class MonsterTokensResolved(GameEvent):
    class_version = 1


class ValueCorrected(GameEvent):
    """The table corrected a number on a hero's sheet: what it was, what it is, and why (tracker/rulesets/correction.py)."""

    class_version = 1


EVENTS = {
    "quest-set-up": QuestSetUp,
    "treachery-card-swapped": TreacheryCardSwapped,
    "dark-glyph-bought": DarkGlyphBought,
    "opening-hand-set": OpeningHandSet,
    "glyph-placed": GlyphPlaced,
    "glyph-activated": GlyphActivated,
    "threat-gained": ThreatGained,
    "threat-spent": ThreatSpent,
    "conquest-changed": ConquestChanged,
    "quest-lost": QuestLost,
    "quest-won": QuestWon,
    "glyph-damaged": GlyphDamaged,
    "glyph-destroyed": GlyphDestroyed,
    "glyph-restored": GlyphRestored,
    "chest-opened": ChestOpened,
    "coins-changed": CoinsChanged,
    "hero-killed": HeroKilled,
    "curses-gained": CursesGained,
    "cursed-item-equipped": CursedItemEquipped,
    "dark-relic-equipped": DarkRelicEquipped,
    "frost-gained": FrostGained,
    "frost-shaken": FrostShaken,
    "item-shattered": ItemShattered,
    "potion-gained": PotionGained,
    "potion-drunk": PotionDrunk,
    "invulnerability-used": InvulnerabilityUsed,
    "prolonged-progress-made": ProlongedProgressMade,
    "prolonged-action-completed": ProlongedActionCompleted,
    "prolonged-action-disrupted": ProlongedActionDisrupted,
    "treasure-bought": TreasureBought,
    "treasure-sold": TreasureSold,
    "town-travelled": TownTravelled,
    "monsters-spawned": MonstersSpawned,
    "zorek-gazed": ZorekGazed,
    "stone-door-closed": StoneDoorClosed,
    "stone-doors-rolled": StoneDoorsRolled,
    "troll-ambush-sprung": TrollAmbushSprung,
    "villager-spell-broken": VillagerSpellBroken,
    "altar-destroyed": AltarDestroyed,
    "power-glyph-used": PowerGlyphUsed,
    "potion-packed": PotionPacked,
    "cell-opened": CellOpened,
    "sacrifice-clock-ticked": SacrificeClockTicked,
    "prisoner-sacrificed": PrisonerSacrificed,
    "thing-struck": ThingStruck,
    "condition-tokens-placed": ConditionTokensPlaced,
    "condition-tokens-resolved": ConditionTokensResolved,
    "monkey-kings-line-struck": MonkeyKingsLineStruck,
    "hero-transformed": HeroTransformed,
    "fissures-moved": FissuresMoved,
    "fissures-stilled": FissuresStilled,
    "temple-altars-counted": TempleAltarsCounted,
    "temple-altar-activated": TempleAltarActivated,
    "turn-description-read": TurnDescriptionRead,
    "spirits-counted": SpiritsCounted,
    "spirit-angered": SpiritAngered,
    "spirit-killed": SpiritKilled,
    "spirit-convinced": SpiritConvinced,
    "crushing-trap-sprung": CrushingTrapSprung,
    "crushing-walls-moved": CrushingWallsMoved,
    "crushing-wall-pushed": CrushingWallPushed,
    "crushing-trap-disarmed": CrushingTrapDisarmed,
    "monsters-placed": MonstersPlaced,
    "attack-made": AttackMade,
    "monster-killed": MonsterKilled,
    "wounds-stated": WoundsStated,
    "fatigue-spent": FatigueSpent,
    "wounds-recovered": WoundsRecovered,
    "hero-readied": HeroReadied,
    "secret-room-marked": SecretRoomMarked,
    "secret-room-searched": SecretRoomSearched,
    "undying-rolled": UndyingRolled,
    "leeched": Leeched,
    "dark-glyph-cleansed": DarkGlyphCleansed,
    "aura-wounded": AuraWounded,
    "monster-tokens-placed": MonsterTokensPlaced,
    "monster-tokens-resolved": MonsterTokensResolved,
    "value-corrected": ValueCorrected,
}
