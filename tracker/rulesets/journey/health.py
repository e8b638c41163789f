"""Health and Chi on a Pilgrim's sheet (L229, L306-L310, L557-L560).

Damage accumulates on the health track and never takes HP below 0; at 0 the Pilgrim falls
Unconscious at once, face down. Healing never rises above the current maximum. Where the
rules lost a Pilgrim's HP, the service asks for it rather than guess.
"""

from __future__ import annotations

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey.resolution import Resolution

CHI_MAX = 10


def known_hp(res: Resolution, hero: str, purpose: str) -> int:
    hp = res.hero(hero)["hp"]
    if hp is None:
        raise Unprocessable(
            f"{hero}'s Health is unknown",
            detail=(
                f"{purpose} needs it, and the rulebook transcription lost the Pilgrims' maximum HP. Supply it as component data "
                f'("components": {{"characters": {{"{hero}": {{"stats": {{"HP": n}}}}}}}}) or report the Health on the '
                f'profile sheet with a "report-health" action.'
            ),
            errors={f"components.characters.{hero}.stats.HP": ["Unknown: supply it or report the current Health."]},
        )
    return hp


def known_max_hp(res: Resolution, hero: str, purpose: str) -> int:
    top = res.hero(hero)["max_hp"]
    if top is None:
        raise Unprocessable(
            f"{hero}'s maximum Health is unknown",
            detail=(
                f"{purpose} needs it, and the rulebook transcription lost it. Supply it as component data: "
                f'"components": {{"characters": {{"{hero}": {{"stats": {{"HP": n}}}}}}}}.'
            ),
            errors={f"components.characters.{hero}.stats.HP": ["Unknown: supply it as component data."]},
        )
    return top


def damage(res: Resolution, hero: str, amount: int, cause: str) -> None:
    before = known_hp(res, hero, f"Taking {amount} damage")
    after = max(0, before - amount)
    res.add({"kind": "damage-taken", "hero": hero, "amount": amount, "cause": cause, "hp_before": before, "hp_after": after})
    unconscious = res.rule("pilgrim_rules", "unconscious")  # "reduced to zero Health Points, the Pilgrim is Unconscious" (L557), face down (L355)
    if after <= unconscious["at_hp"] and res.hero(hero)["status"] == "conscious":
        res.add({"kind": "pilgrim-fell-unconscious", "hero": hero, "orientation": unconscious["initial_orientation"], "cause": cause})


def heal(res: Resolution, hero: str, amount: int, source: str) -> None:
    before = known_hp(res, hero, f"Healing {amount}")
    top = res.hero(hero)["max_hp"]
    after = before + amount if top is None else min(top, before + amount)
    res.add({"kind": "health-restored", "hero": hero, "amount": amount, "source": source, "hp_before": before, "hp_after": after})


def change_chi(res: Resolution, hero: str, delta: int, source: str) -> None:
    before = res.hero(hero)["chi"]
    after = max(0, min(CHI_MAX, before + delta))
    res.add({"kind": "chi-changed", "hero": hero, "delta": delta, "source": source, "chi_before": before, "chi_after": after})
