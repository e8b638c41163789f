"""Whom a chief's ability attacks, where the scene's text names its target (a scene's ``chief.attacks``, rules data 1.5.0
on). The Tengu's "Energy drain!" (L1082): "The Tengu attacks the hero with most energy tokens, rolling [attack dice
icon]. Blows from this ability only remove energy tokens from the hero." An attack by the chief whose ``source`` names
such an ability has one target, a hero holding the most energy tokens (a reading: with a tie, the table chooses among
the tied heroes), and its blows remove what the ability says.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.yokai_quest import lookup
from tracker.rulesets.yokai_quest.plan import Plan

# How each target the data names is found among the heroes still in the scene.
MEASURES = {"most-energy": ("energy", "the most energy tokens")}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _named(data: Mapping[str, Any], ids: list[str]) -> str:
    names = [(lookup.character(data, hero) or {}).get("name", hero) for hero in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def ability_of(scene: Mapping[str, Any], attacker: str, source: str | None) -> Mapping[str, Any] | None:
    """The chief's targeted ability the attack's ``source`` names (by its name or id, in any case), if any."""
    chief = scene.get("chief") or {}
    if attacker != chief.get("character") or not source:
        return None
    return next((a for a in chief.get("attacks", []) if _slug(source) in (a["ability"], _slug(a["name"]))), None)


def require_target(ctx: Any, plan: Plan, params: Mapping[str, Any]) -> None:
    """The ability's stated target and blows, or a refusal naming who may be attacked and how."""
    scene = ctx.ruleset.quest(plan.game["scene"])
    ability = ability_of(scene, params["attacker"], params.get("source"))
    if ability is None:
        return
    key, said = MEASURES[ability["target"]]
    standing = {hero: sheet for hero, sheet in plan.game["heroes"].items() if not sheet.get("defeated")}
    most = max((sheet[key] for sheet in standing.values()), default=0)
    tied = sorted(hero for hero, sheet in standing.items() if sheet[key] == most)
    if not tied:
        return  # no hero left standing to be its target: the attack's other checks answer it
    chief = (lookup.character(ctx.ruleset.data, params["attacker"]) or {}).get("name", params["attacker"])
    defenders = [target["defender"] for target in params["targets"]]
    quoted = f"{ability['source']}: \"{ability['text']}\""
    if len(defenders) != 1 or defenders[0] not in tied:
        tie = f" They hold {most} each: {ability['reading']}" if len(tied) > 1 else ""
        raise Unprocessable(
            f"{ability['name']} attacks the hero with {said}: {_named(ctx.ruleset.data, tied)}",
            detail=f"{quoted}{tie}",
            errors={"targets": [f"One target: {_named(ctx.ruleset.data, tied)}."]},
            example={**{k: v for k, v in params.items() if k != "targets"}, "targets": [{**params["targets"][0], "defender": tied[0]}],
                     "blows_remove": ability["blows_remove"]},
        )
    if params.get("blows_remove") != ability["blows_remove"]:
        raise Unprocessable(
            f"Blows from {chief}'s {ability['name']} remove {ability['blows_remove']} tokens only",
            detail=f"{quoted} Send \"blows_remove\": \"{ability['blows_remove']}\".",
            errors={"blows_remove": [f"{ability['blows_remove']} for {ability['name']}"]},
            example={**params, "blows_remove": ability["blows_remove"]},
        )
