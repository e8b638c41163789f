"""Kung Fu Panda: The Board Game: real-time rounds, Dials of Destiny, pooled dice spends,
missions, adventures and the nine-mission story."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tracker.rulesets import data as rules_data
from tracker.rulesets.kung_fu_panda import allowed as next_actions
from tracker.rulesets.kung_fu_panda import campaign, destiny, outcome, pauses, rounds, setup, spends, standing, summary, verdict
from tracker.rulesets.kung_fu_panda import state as game_state
from tracker.rulesets.kung_fu_panda.schemas import (
    AMEND,
    HERO,
    NAME,
    OPTIONS,
    POOL,
    REASON,
    SETUP,
    SPACE,
    SPEND_FIELDS,
    SUMMARY_FIELDS,
    TILE,
    action,
    obj,
)
from tracker.rulesets.kung_fu_panda.timeline import describe
from tracker.rulesets.ruleset import SET_UP_QUEST, ActionType, GameRules, Ruleset
from tracker.rulesets.kung_fu_panda.views import VIEWS

PAUSE_DICE = {"type": "object", "propertyNames": HERO, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4}}
PAUSE_FACES = {"type": "object", "propertyNames": HERO, "additionalProperties": POOL}

ACTIONS = [
    ActionType(
        "start-round",
        "1, 2, KUNG FU!: the sand timer is turned and a three-minute round starts (L71-L72). entry says how the table will enter it.",
        action("start-round", {"entry": {"enum": ["detail", "summary"]}}),
        rounds.start_round,
    ),
    ActionType(
        "roll",
        "A hero rolls their Action Dice: all four at the start of the round, then the spent dice and any saved results named in reroll "
        "(L72-L78). Digital from the session's stream, or faces reported from the table.",
        action("roll", {"hero": HERO, "reroll": POOL, "faces": {**POOL, "minItems": 1}}, ["hero"]),
        rounds.roll,
        random=True,
    ),
    ActionType(
        "resolve-claws",
        "Claws first: each moves the hero's Dial of Destiny one space clockwise and the space is resolved in order (Play, blank, "
        "spawn enemy, Enemies Fight Back) (L85-L88, L118-L128). The dial faces are lost, so the table names each space entered.",
        action("resolve-claws", {"hero": HERO, "spaces": {"type": "array", "items": SPACE, "maxItems": 4}, "ignore_effects": {"type": "boolean"}}, ["hero"]),
        destiny.resolve_claws,
    ),
    ActionType(
        "spend",
        "Spend results all at once, alone or as a group of heroes on one tile (never for Special Moves): knock out an enemy, revive "
        "a KO'd hero (2 Chi), Po's heal, move, use or collect a token, a Special Move, or wound Tai Lung (L76-L111, L139-L182).",
        action("spend", SPEND_FIELDS, ["heroes", "for"]),
        spends.spend,
    ),
    ActionType(
        "end-round",
        "The sand has run out: the round ends and the dice pools are cleared; a mission not won by its final round is lost (L184-L194).",
        action("end-round", {}),
        rounds.end_round,
    ),
    ActionType(
        "round-summary",
        "Enter a whole round (or the rest of one entered partly in detail) as what happened, without each roll: spawns, knock-outs, "
        "damage, revivals, healing, moves, tokens, Claws per hero, Special Moves used.",
        action("round-summary", SUMMARY_FIELDS),
        summary.round_summary,
    ),
    ActionType(
        "pause",
        "The mission's pause action between rounds, decided by the dice rolled in the pause (Chi against Claws, over the table) "
        "(L183-L187 and each mission). convert keeps rolled Chi as chosen results for the next round where the mission allows.",
        action(
            "pause",
            {
                "faces": PAUSE_FACES, "dice": PAUSE_DICE, "convert": PAUSE_FACES, "tile": TILE, "to": TILE,
                "villager": NAME, "villagers": {"type": "object", "propertyNames": NAME, "additionalProperties": TILE}, "cart": NAME,
            },
        ),
        pauses.pause,
        random=True,
    ),
    ActionType(
        "mission-won",
        "The table declares the mission won (L188-L190); every win condition its text states is checked against the recorded board.",
        action("mission-won", {"note": REASON}),
        outcome.mission_won,
    ),
    ActionType(
        "mission-failed",
        "A failure condition of the mission's own is met (L191-L192). Time's up, full KO and every failure the board can "
        "show (a villager overrun, Tai Lung arriving, villagers imprisoned) are recorded by the tracker as they happen.",
        action("mission-failed", {"condition": {"type": "string", "minLength": 1, "maxLength": 60}, "note": REASON}, ["condition"]),
        outcome.mission_failed,
    ),
    ActionType(
        "correct",
        "Players use honest judgement about the table (L127): amend what was entered (health, tiles, dials, enemies on tiles, "
        "knock-outs, tokens), saying which event and why. Nothing is deleted.",
        action(
            "correct",
            {"refers_to": {"type": "integer", "minimum": 1}, "reason": REASON, "agreed_by": {"type": "array", "items": HERO}, "amend": AMEND},
            ["refers_to", "reason", "amend"],
        ),
        outcome.correct,
    ),
]

SET_UP = ActionType(
    SET_UP_QUEST,
    "Mission set-up: heroes with health 4 and dial counters on Play, the dials for the player count, starting enemies and spawn "
    "points as the table lays them out, and Special Move cards where they are received (L42-L63, L173-L182).",
    {"type": "object"},
    setup.set_up,
    internal=True,
    random=True,
)


class KungFuPandaRules(GameRules):
    changes = game_state.CHANGES
    actor_fields = ("hero", "heroes")
    options_schema = OPTIONS
    # spends.py: knocking out the Wolf Boss; while its cost is lost the table's spend stands, recorded as cost unknown
    lost_fact_uses = {"tables.wolf-boss-ko-cost": {"actions": ["spend", "round-summary"],
                                                   "per_use": 'nothing to send: the dice the table spends stand, recorded with "cost_known": false'}}
    setup_schema = SETUP

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.missions = {mission["id"]: mission for mission in data["quests"]}

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        return next_actions.allowed_now(game, actions)

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        return verdict.verdict(self.missions[quest], game)

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        return verdict.end_refusal(self.missions[quest], game, outcome)

    def chain(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        return campaign.chain(data, options)

    def carry_over(self, progress: Mapping[str, Any], game: Mapping[str, Any], quest: str, outcome: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return campaign.carry_over(progress, game, quest, outcome, options)

    def standing(self, records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        return standing.standing(records)

    def describe(self, change: Mapping[str, Any]) -> str | None:
        return describe(change)


def load(data: dict[str, Any] | None = None) -> Ruleset:
    """Kung Fu Panda's ruleset over its data (an archived version's when given): its missions are that data's."""
    data = rules_data.load(Path(__file__).with_name("ruleset.json")) if data is None else data
    return Ruleset(data, ACTIONS, rules=KungFuPandaRules(data), setup=SET_UP, views=VIEWS)
