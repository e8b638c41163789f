"""A result the table states for one use when a fact it needs was lost and the campaign has not supplied it.

An attack on a Demon whose profile sheet was lost (HP, BKR, SP, GKR) or with a Weapon Card whose table was lost
cannot be settled from the data; the table reads the result off the physical components and sends it as
``"stated"``. Each stated value stands only for a fact that is unknown (stating over a known one is refused), is
recorded with the result under ``"stated"`` and shown as stated (rules.py). A refusal for such a fact carries an
example body stating every lost result the request reads, all at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey.resolution import Resolution


def statable(res: Resolution, params: Mapping[str, Any]) -> dict[str, Any]:
    """Every result this attack may read from a lost, unsupplied fact, with a value of its shape: a refusal's example
    states them all at once rather than one refusal at a time."""
    if params.get("type") == "demon-attack":
        return _statable_by_demon(res, params)
    hero, character = params.get("hero"), res.game.get("demons", {}).get(params["target"])

    def lost(who: str, stat: str) -> bool:
        supplied = ((res.ctx.components.get("characters") or {}).get(who) or {}).get("stats") or {}
        return res.character(who)["stats"].get(stat) is None and supplied.get(stat) is None

    level = res.hero(hero)["weapon_level"] if hero else 0  # Kei Lun has no Weapon Card
    said: dict[str, Any] = {}
    if level and not ((res.table("weapons").get(hero) or {}).get(str(level))):
        said["weapon"] = {"damage": 1, "knock_back": 0}
    if character and lost(character, "HP"):
        said["defeated"] = True
    outcome = params.get("outcome")
    if character and outcome == "kill" and lost(character, "BKR"):
        said["karma"] = 1
    if character and outcome == "cleanse":
        if lost(character, "SP"):
            said["cleansed"] = True
        if lost(character, "GKR"):
            said["karma"] = 1
    return said


def _statable_by_demon(res: Resolution, params: Mapping[str, Any]) -> dict[str, Any]:
    """A Demon's attack reads its Demon Die's effects from its sheet: stated when the sheet's die table was lost."""
    character = res.game.get("demons", {}).get(params.get("demon"))
    if character is None:
        return {}
    profile = res.character(character)
    rolls = profile.get("extra_attack_die") == "demon" or "demon" in (params.get("faces") or {})
    if rolls and not profile.get("demon_die") and not res.table("demon-dice").get(character):
        return {"demon_die": {"damage": 1, "knock_back": 0}}
    return {}


def may_state(refusal: Unprocessable, params: Mapping[str, Any], key: str, value: Any, what: str, res: Resolution) -> Unprocessable:
    """A refusal for a lost fact, with the body that states this use's result instead (recorded as stated)."""
    body = {**params, "stated": {**statable(res, params), key: value, **(params.get("stated") or {})}}
    refusal.example = {k: v for k, v in body.items() if k != "dice"}
    refusal.errors = {**(refusal.errors or {}), f"stated.{key}": [f"Or state {what} as the table reads it."]}
    refusal.detail = f"{refusal.detail or ''} Or state this use's result: \"stated\": {{\"{key}\": ...}}, as the example shows; it is recorded as stated.".strip()
    return refusal


def stat_or_stated(res: Resolution, params: Mapping[str, Any], stated: dict[str, Any], character: str, stat: str, key: str,
                    example: Any, purpose: str) -> Any:
    """The stat, known or supplied; None when it was lost and the table stated ``stated.<key>`` instead (kept in ``stated``)."""
    said = params.get("stated") or {}
    try:
        value = res.stat(character, stat, purpose)
    except Unprocessable as refusal:
        if key in said:
            stated[key] = said[key]
            return None
        raise may_state(refusal, params, key, example, purpose[0].lower() + purpose[1:], res) from None
    if key in said:
        raise Unprocessable(
            f"{res.character(character)['name']}'s {stat} is known: leave stated.{key} out",
            detail="A stated result stands only for a fact the rulebook lost and the campaign has not supplied.",
            errors={f"stated.{key}": [f"{stat} is {value}."]},
        )
    return value


def refuse_unread(params: Mapping[str, Any], key: str, used: bool) -> None:
    if key in (params.get("stated") or {}) and not used:
        raise Unprocessable(
            f"Nothing in this attack needed stated.{key}",
            detail="A stated result stands only for a fact this use reads that the rulebook lost and the campaign has not supplied.",
            errors={f"stated.{key}": ["Not read by this attack."]},
        )
