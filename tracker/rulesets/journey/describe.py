"""Journey's line on the session timeline for each of its changes, in the game's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine import correction

_LINES = {
    "karma-gained": "{hero} gained {amount} {wheel} Karma ({source}): {before} → {after}",
    "karma-lost": "{hero} lost {applied} {wheel} Karma ({source}): {before} → {after}",
    "karma-threshold-reached": "{hero}'s {wheel} Karma reached {value}",
    "karma-traded": "{hero} traded {cost} {wheel} Karma for {trade}: {before} → {after}",
    "weapon-upgraded": "{hero}'s weapon went from level {from_level} to {to_level}",
    "corruption-drawn": "{hero} drew the Corruption Card {card}",
    "card-taken": "{hero} took {card} from {deck}",
    "damage-taken": "{hero} took {amount} damage ({cause}): HP {hp_before} → {hp_after}",
    "condition-applied": "{hero} received the {condition} condition",
    "condition-removed": "{hero}'s {condition} condition was discarded ({reason})",
    "pilgrim-fell-unconscious": "{hero} fell unconscious, {orientation}",
    "unconscious-pilgrim-turned": "Unconscious {hero} turned from {from} to {to}",
    "demon-spawned": "{demon} spawned{at_gate}",
    "demon-killed": "{hero} killed {demon} (+{bkr} Bad Karma)",
    "demon-cleansed": "{hero} cleansed {demon} (+{gkr} Good Karma)",
    "rescue-attempted": "{hero} attempted to Rescue {villager}: {result}",
    "villager-token-replaced": "{villager} became a {by} ({reason})",
    "kogaiji-spell-ended": "Kogaiji's spell ended: {reason}",
    "gate-turn-token-removed": "A Turn Token came off {gate}: {left} left",
    "villager-turn-token-removed": "A Turn Token came off {villager}: {left} left",
    "demon-lord-banished": "{character} waits off the board with {turn_tokens} Turn Tokens",
    "demon-lord-turn-token-removed": "A Turn Token came off {character}: {left} left",
    "demon-lord-returned": "{character} respawned",
    "sealing-ritual-completed": "{hero} completed the Sealing Ritual",
    "kei-lun-calmed": "{hero} calmed Kei Lun with {card}",
    "activation-ended": "{hero} ended the activation with {ap_unused} AP unused",
    "attack-resolved": "{attacker} attacked {target}: {attack_total} attack against {defense_total} defence, {net_damage} damage",
    "card-given-up": "{hero} gave up {card} ({reason})",
    "card-played": "{hero} played {card} from {deck}",
    "chi-changed": "{hero}'s Chi went from {chi_before} to {chi_after} ({source})",
    "cleanse-backfired": "The Cleanse Ritual on {demon} backfired: rolled {roll} against Soul Power {soul_power}",
    "demon-card-resolved": "Demon Card {card} at {gate}: {outcome}",
    "demon-rage-ended": "The Demons' rage ended on turn {turn}",
    "demon-rage-started": "The Demons rage at {gate} ({reason}): {demon_action_points} action points",
    "demon-removed": "{demon} was removed from the board ({reason})",
    "door-broken": "{hero} broke down {door}",
    "fortune-kept": "{hero} kept the Fortune Card {card}",
    "gate-closed": "{hero} closed {gate} with {sutra}",
    "gate-state-changed": "{gate} became {to} ({reason})",
    "health-reported": "The table reported {hero}'s HP: {hp_after} (was {hp_before})",
    "health-restored": "{hero} recovered {amount} HP ({source}): HP {hp_before} → {hp_after}",
    "kei-lun-damaged": "{by} hit Kei Lun for {amount}: HP {hp_before} → {hp_after}",
    "kei-lun-killed": "{by} killed Kei Lun",
    "meditated": "{hero} meditated at a Mystical Box: the wheel stopped on {result}",
    "phase-started": "Turn {turn}: the {phase} phase began",
    "pilgrim-activated": "{hero} was activated with {ap} AP",
    "pilgrim-died": "{hero} died ({cause})",
    "pilgrim-revived": "{by} revived {hero} with {hp} HP and {chi} Chi",
    "pilgrim-set-up": "{hero} joined the quest ({start} start): {good} Good and {bad} Bad Karma, weapon level {weapon_level}",
    "prayed": "{hero} prayed at a Mystical Box",
    "quest-set-up": "Quest {quest} set up ({mode} quests); initiative {initiative}",
    "reading-stated": "The table reads {name} ({line}) as {means}",
    "rested": "{hero} rested: Chi {chi_before} → {chi_after}",
    "skill-draws-owed": "{hero} is owed {count} draws from {deck}",
    "special-demon-cards-discarded": "Special Demon Cards discarded: {cards}",
    "starting-skills-reported": "The table reported {hero}'s starting Skill Cards: {cards}",
    "sutra-collected": "{hero} collected {sutra}",
    "sutras-given": "{hero} was given the sutras {sutras} ({reason})",
    "turn-tokens-added": "Turn Tokens were placed on turn {turn}",
    "villager-rescued": "{hero} rescued {villager}",
    "well-used": "{hero} drank from {well}: HP {hp_before} → {hp_after}",
}


def describe(change: Mapping[str, Any]) -> str | None:
    if change["kind"] == correction.KIND:
        return correction.describe(change)
    line = _LINES.get(change["kind"])
    if line is None:
        return None
    try:
        said = line.format(**change, at_gate=f" at {change['gate']}" if change.get("gate") else "")
    except KeyError:
        said = None
    if said is None and change["kind"] == "attack-resolved" and "damage" in change:  # a Pilgrim's attack: One Hit Kill, no defence
        said = f"{change['attacker']} attacked {change['target']}: {change['damage']} damage, {'defeated' if change['defeated'] else 'not defeated'}"
    if change.get("stated"):
        # a result the table stated for a lost fact is shown as stated wherever the log is read
        stated = "; ".join(f"{key} {value}" for key, value in sorted(change["stated"].items()))
        return f"{said} (stated by the table: {stated})"
    return said
