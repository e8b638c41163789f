"""Journey to the West's rules versions as code: each version of the rules data maps to the rules that play it, a
later version overriding only what changed from the one before. The archive keeps each version's data and contract
(tracker/rulesets/versions/journey/); a campaign plays and verifies by the class of the version it pinned
(``JourneyRules.version``), so today's resolvers ask it and hold no version checks of their own.

1.0.0's code recorded less of a quest's set-up; 1.1.0's began naming tokens (and later Turn Tokens, Kei Lun,
Kogaiji's spell) and stated that every quest sets up all 4 Pilgrims; 1.2.0 and 1.3.0 changed the contract only: their data is 1.1.0's; 1.4.0 applies Q10 Part 2's Villager bonus by the reading the table states; 1.5.0 (the code's own)
says a verdict's reason in the players' words (verdict.InWords) and asks a Demon's target's unknown Health
before the dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.journey import health, readings, state, stated_results, verdict
from tracker.rulesets.journey.resolution import Resolution

# What a set-up recorded under rules data 1.0.0: the Demons, the Gates and the initiative draw. Rules data 1.0.0 holds
# no mark for what its code left out (its quests' token counts and timers are those later code names tokens and stacks
# Turn Tokens from), so the version decides.
PUBLISHED_1_0_0 = ("kind", "quest", "mode", "initiative", "demons", "gates", "counter_start", "counter_end", "shuffle")


class V1_0_0:
    """Rules data 1.0.0."""

    number = "1.0.0"

    def quest_set_up(self, change: Mapping[str, Any]) -> dict[str, Any]:
        """The quest-set-up change as this version's code recorded it, so its sessions re-derive as they were played."""
        return {key: value for key, value in change.items() if key in PUBLISHED_1_0_0}

    # The game state its set-ups fold to: the board alone (state.set_up_board), every other change as declared.
    changes = state.CHANGES.otherwise({"quest-set-up": state.set_up_board})

    def pilgrims_in_play(self, counters: dict[str, Any], pilgrim_rules: Mapping[str, Any]) -> dict[str, Any]:
        """A set-up's counters with the rule that the game always plays all 4 Pilgrims (L73, L216-L220): 1.0.0 did not
        state it, so its set-ups recorded no such counter."""
        return counters

    def kogaiji_trap_set(self, quest: Mapping[str, Any]) -> bool:
        """Whether the quest is Kogaiji's Trap with his spell cast (L1015): 1.0.0's set-up recorded none, so its Rescues
        in Kogaiji's Trap re-derive as played (no spin first)."""
        return False

    def villager_att_bonus(self, res: Resolution, hero: str, character: str) -> readings.Bonus:
        """Q10 Part 2's +1 ATT against the Bull Demon King per Villager Token (L1077): rules data before 1.4.0 never
        applied it, so their attacks re-derive as played."""
        return readings.NO_BONUS

    def health_before_the_dice(self, res: Resolution, hero: str, params: Mapping[str, Any], stated: dict[str, Any], purpose: str) -> None:
        """A Demon's attack on a Pilgrim whose Health was unknown: before 1.5.0 it was asked for only when damage came
        (health.damage, after the dice), and a ``stated`` Health was no field: those sessions re-derive as played."""
        stated_results.refuse_unread(params, "health", False)

    def verdicts(self, names: Mapping[str, str]) -> verdict.Verdicts:
        """The words a verdict's reason records: before 1.5.0, ``verdict.describe``'s (ids, JSON and a condition said
        twice), so those sessions re-derive the reasons they recorded."""
        return verdict.RECORDED_BEFORE_1_5_0


class V1_1_0(V1_0_0):
    """Rules data 1.1.0: the set-up names the tokens on the board, casts Kogaiji's spell, and sets up all 4 Pilgrims."""

    number = "1.1.0"

    def quest_set_up(self, change):
        return dict(change)

    changes = state.CHANGES

    def pilgrims_in_play(self, counters, pilgrim_rules):
        rule = pilgrim_rules["all_four_play"]
        return {**counters, "pilgrims_in_play": f"all {rule['pilgrims']}: {rule['party']} ({rule['line']})"}

    def kogaiji_trap_set(self, quest):
        return bool(quest.get("rescue_spin"))


class V1_2_0(V1_1_0):
    """Rules data 1.2.0: the contract changed (actions), the rules that play it did not."""

    number = "1.2.0"


class V1_3_0(V1_2_0):
    """Rules data 1.3.0: the contract changed (actions), the rules that play it did not."""

    number = "1.3.0"


class V1_4_0(V1_3_0):
    """Rules data 1.4.0: the table states its reading of the Villager bonus (state-reading), and an
    attack on the Bull Demon King applies it."""

    number = "1.4.0"

    def villager_att_bonus(self, res, hero, character):
        return readings.villager_bonus(res, hero, character)


class V1_5_0(V1_4_0):
    """Rules data 1.5.0 (the code's own): a verdict's reason in the players' words, characters by name, each condition
    once with its lines (verdict.InWords); a Demon's attack asks for an unknown Health before its dice, or takes it
    stated for the use (health.before_the_dice)."""

    number = "1.5.0"

    def verdicts(self, names):
        return verdict.InWords(names)

    def health_before_the_dice(self, res, hero, params, stated, purpose):
        return health.before_the_dice(res, hero, params, stated, purpose)


CHAIN = (V1_0_0, V1_1_0, V1_2_0, V1_3_0, V1_4_0, V1_5_0)
BY_VERSION = {version.number: version() for version in CHAIN}


def of(number: str) -> V1_0_0:
    """The rules of a version of the rules data (one of BY_VERSION: every archived version and the code's own)."""
    return BY_VERSION[number]
