"""Questions about the rules data: which scene, which story, which abilities a hero has, what kind an item is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.data import RulesDataError
from tracker.rulesets.engine.ruleset import Ruleset


def story_of(data: Mapping[str, Any], scene_id: str) -> Mapping[str, Any]:
    return next(story for story in data["stories"] if scene_id in story["scenes"])


def story(data: Mapping[str, Any], story_id: str) -> Mapping[str, Any]:
    found = next((s for s in data["stories"] if s["id"] == story_id), None)
    if found is None:
        raise Unprocessable(f"Unknown story '{story_id}'", detail=f"Stories: {wording.listed([s['id'] for s in data['stories']])}.")
    return found


def character(data: Mapping[str, Any], character_id: str) -> Mapping[str, Any] | None:
    return next((c for c in data["characters"] if c["id"] == character_id), None)


def chief_stats(data: Mapping[str, Any], scene: Mapping[str, Any], character_id: str) -> Mapping[str, Any]:
    """The Health and Initiative of the scene's chief: the scene's chief configuration where the roster marks the chief's
    stats set per scene (per_scene: "unique foes, with attributes and behaviors that vary from scene to scene", L567; the
    roster prints "?", L743) or has no entry for it; otherwise the roster's stats. Empty for one the scene does not name."""
    chief = scene.get("chief") or {}
    if chief.get("character") != character_id:
        return {}
    entry = character(data, character_id)
    return chief if entry is None or entry.get("per_scene") else entry["stats"]


def require_abilities_counted(data: Mapping[str, Any]) -> None:
    """Refuse, at load, rules data whose abilities are not all there: L303 "Every hero has two cards featuring 4 unique
    abilities. Also, each hero has access to three cards featuring the 6 shared abilities from their class"
    (hero_rules.unique_abilities_per_hero, class_abilities). The abilities a hero may choose are those listed
    (hero_abilities, L145): one missing from the lists would be refused at the table's set-up."""
    rules = data["hero_rules"]
    for hero in (c for c in data["characters"] if c["role"] == "hero"):
        if len(hero.get("abilities", [])) != rules["unique_abilities_per_hero"]:
            raise RulesDataError(f"{hero['id']}: {len(hero.get('abilities', []))} unique abilities listed, where each hero has {rules['unique_abilities_per_hero']} (hero_rules.unique_abilities_per_hero, L303)")
    for class_id, cls in data["classes"].items():
        if len(cls["abilities"]) != rules["class_abilities"]:
            raise RulesDataError(f"classes.{class_id}: {len(cls['abilities'])} abilities listed, where each class shares {rules['class_abilities']} (hero_rules.class_abilities, L303)")


def hero_abilities(data: Mapping[str, Any], hero_id: str) -> dict[str, str]:
    """Ability id -> name: the hero's four unique abilities and their class's six."""
    hero = character(data, hero_id) or {}
    abilities = list(hero.get("abilities", [])) + list(data["classes"].get(hero.get("class"), {}).get("abilities", []))
    return {ability["id"]: ability["name"] for ability in abilities}


def item_kind(ruleset: Ruleset, deck_kinds: Mapping[str, str | None], card: str) -> str | None:
    """charm, enchantment or consumable; None for a card no list names."""
    if card in deck_kinds and deck_kinds[card]:
        return deck_kinds[card]
    treasure = next(deck for deck in ruleset.data["decks"] if deck["id"] == "treasure")
    return next((item["kind"] for item in treasure["known_cards"] if item["name"] == card), None)


def starting_health(data: Mapping[str, Any], components: Mapping[str, Any], hero_id: str, stated: int | None) -> tuple[int, str]:
    """A hero's Health (L278-L280) and where it comes from: the rules data, the campaign's component data, or the
    table's statement at set-up. A statement that contradicts the data is refused: the data is pinned."""
    stats = (character(data, hero_id) or {}).get("stats", {})
    supplied = components.get("characters", {}).get(hero_id, {}).get("stats", {})
    known, source = (stats.get("health"), "rules data") if stats.get("health") is not None else (supplied.get("health"), "component data")
    if known is not None and stated is not None and stated != known:
        raise Unprocessable(
            f"The Health of {hero_id} is {known} by the campaign's {source}",
            detail=f"The set-up states {stated}; leave it out, or fix the component data in a new campaign.",
            errors={f"setup.health.{hero_id}": [f"Contradicts the {source}: {known}"]},
        )
    if known is None and stated is not None:
        return stated, "stated at set-up"
    return max_health(data, components, hero_id), source


def max_health(data: Mapping[str, Any], components: Mapping[str, Any], hero_id: str) -> int:
    stats = (character(data, hero_id) or {}).get("stats", {})
    supplied = components.get("characters", {}).get(hero_id, {}).get("stats", {})
    health = stats.get("health") if stats.get("health") is not None else supplied.get("health")
    if not isinstance(health, int) or health < 1:
        raise Unprocessable(
            f"The Health of {hero_id} is unknown",
            detail=(
                "The rulebook transcription lost the heroes' Health (printed on the control panel). State it when the session "
                f'starts: "setup": {{"health": {{"{hero_id}": <n>}}}}, or supply it as component data when creating the campaign: '
                f'"components": {{"characters": {{"{hero_id}": {{"stats": {{"health": <n>}}}}}}}}.'
            ),
            errors={f"components.characters.{hero_id}.stats.health": ["Unknown; needed to track health."]},
        )
    return health
