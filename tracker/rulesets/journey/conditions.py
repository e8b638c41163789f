"""Condition Cards (L291-L302, L351-L354).

- A stat-changing effect applies on receipt and again at each later Maintenance Phase while
  the card is active; condition damage is never reduced by defence.
- Each End of Turn Phase adds a Turn Token; at Maintenance a card whose tokens equal its
  duration is discarded without applying its effect that turn.
- A duplicate replaces the existing card and its tokens; different conditions stack.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.journey import health
from tracker.rulesets.journey.resolution import Resolution


def rule(res: Resolution, condition: str) -> dict[str, Any]:
    for entry in res.ctx.ruleset.data["conditions"]:
        if entry["id"] == condition:
            supplied = res.table("conditions").get(condition) or {}
            merged = dict(entry)
            merged["duration_turns"] = entry.get("duration_turns") or supplied.get("duration_turns")
            effect = dict(entry.get("effect") or {})
            if "hp_loss_per_turn" in effect and effect["hp_loss_per_turn"] is None:
                effect["hp_loss_per_turn"] = supplied.get("hp_loss_per_turn")
            merged["effect"] = effect
            return merged
    known = [entry["id"] for entry in res.ctx.ruleset.data["conditions"]]
    raise Unprocessable(f"Unknown condition '{condition}'", detail=f"Conditions the rules name: {known}.", errors={"condition": [condition]})


# What a held condition forbids, by the flags of its effect in the rules data (L301-L302): an effect forbids a thing when
# it says so (cannot_...) or denies the permission (can_defend, other_actions_allowed false).
FORBIDS = {
    "attack": (("cannot_attack", True), ("cannot_take_actions", True)),
    "act": (("cannot_take_actions", True), ("other_actions_allowed", False)),
    "play": (("cannot_play_cards", True),),
    "defend": (("cannot_defend", True), ("can_defend", False)),
}


def forbidding(res: Resolution, hero: str, what: str) -> str | None:
    """The name of a condition ``hero`` holds whose effect forbids ``what`` (attack, act, play, defend), or None."""
    for held in res.hero(hero)["conditions"]:
        card = rule(res, held["id"])
        if any(card["effect"].get(flag) is value for flag, value in FORBIDS[what]):
            return card["name"]
    return None


def apply(res: Resolution, hero: str, condition: str, source: str) -> None:
    card = rule(res, condition)
    held = {c["id"] for c in res.hero(hero)["conditions"]}
    if condition in held:
        res.add({"kind": "condition-removed", "hero": hero, "condition": condition, "reason": "duplicate"})
    res.add({"kind": "condition-applied", "hero": hero, "condition": condition, "source": source, "replaced": condition in held})
    effect = card["effect"]
    if effect.get("immediate_damage"):
        health.damage(res, hero, effect["immediate_damage"], condition)
    elif effect.get("applies_on_receipt") and effect.get("hp_loss_per_turn"):
        health.damage(res, hero, effect["hp_loss_per_turn"], condition)


def maintain(res: Resolution, hero: str, reported: Mapping[str, int]) -> None:
    """Maintenance steps a and b for one Pilgrim: expire cards by their tokens, then apply ongoing effects."""
    for held in list(res.hero(hero)["conditions"]):
        card = rule(res, held["id"])
        if card["duration_turns"] is not None and held["tokens"] >= card["duration_turns"]:
            res.add({"kind": "condition-removed", "hero": hero, "condition": held["id"], "reason": "expired", "tokens": held["tokens"]})
            continue
        effect = card["effect"]
        if "hp_loss_per_turn" not in effect:
            continue  # a "while affected" condition: nothing to apply
        # L294: "Apply the effect as soon as you get the card and then in future Maintenance Phases, if the card is still
        # active": the effect's applies_each_maintenance says so of the card (Poisoned); an effect that does not say
        # (Burned, whose later damage L297 names) is applied as L294 says of every stat-changing card.
        if not effect.get("applies_each_maintenance", True):
            continue
        loss = effect["hp_loss_per_turn"]
        if loss is None:
            loss = reported.get(held["id"])
        if loss is None:
            raise Unprocessable(
                f"How much damage {card['name']} deals each turn is unknown",
                detail=(
                    f"{hero} holds {card['name']}. Report the damage its card shows "
                    f'("ongoing_damage": {{"{hero}": {{"{held["id"]}": n}}}}) or supply it as component data '
                    f'("components": {{"tables": {{"conditions": {{"{held["id"]}": {{"hp_loss_per_turn": n}}}}}}}}).'
                ),
                errors={f"ongoing_damage.{hero}.{held['id']}": ["Unknown per-turn damage."]},
            )
        if loss and res.hero(hero)["status"] != "dead":
            health.damage(res, hero, loss, held["id"])
