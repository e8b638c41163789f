"""Health and Chi on a Pilgrim's sheet (L229, L306-L310, L557-L560).

Damage accumulates on the health track and never takes HP below 0; at 0 the Pilgrim falls
Unconscious at once, face down. Healing never rises above the current maximum. Where the
rules lost a Pilgrim's HP, the service asks for it rather than guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey import stated_results
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


def before_the_dice(res: Resolution, hero: str, params: Mapping[str, Any], stated: dict[str, Any], purpose: str) -> None:
    """A Demon's attack on a Pilgrim whose Health the log does not know: the Health is asked for before any die is
    rolled, or stated for this use (``"stated": {"health": n}``, the Health shown on the profile sheet, recorded as
    the report-health action records it). Asked after the dice, a refusal would tell the damage rolled and a retry
    roll again; and a group following the dice's example would meet a second refusal for the Health.

    Damage "accumulates on the Health track" (L306): what it is taken from is the Health the sheet shows now."""
    said = params.get("stated") or {}
    hp, top = res.hero(hero)["hp"], res.hero(hero)["max_hp"]
    if hp is not None:
        if "health" in said:
            raise Unprocessable(f"{hero}'s Health is known: leave stated.health out", detail=f"The log has it: {hp}. A stated result stands only for a fact the log lacks.",
                                errors={"stated.health": [f"Health is {hp}."]})
        return
    if "health" not in said:
        try:
            known_hp(res, hero, purpose)
        except Unprocessable as refusal:
            raise stated_results.may_state(refusal, params, "health", 1, f"the Health {hero}'s profile sheet shows now", res) from None
    if top is not None and said["health"] > top:
        raise Unprocessable(f"{hero}'s maximum Health is {top}", detail="No stat rises above its maximum (L310).", errors={"stated.health": [f"At most {top}."]})
    stated["health"] = said["health"]
    res.add({"kind": "health-reported", "hero": hero, "hp_before": None, "hp_after": said["health"]})


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
