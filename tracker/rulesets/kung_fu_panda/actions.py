"""Kung Fu Panda's actions, its one ActionType list: the rounds, the rolls, the Dials of Destiny, pooled spends, the
pauses between rounds and what the table declares, each resolved in the small module that answers its rule."""

from __future__ import annotations

from tracker.rulesets.kung_fu_panda import declared, destiny, pauses, rounds, spends, summary
from tracker.rulesets.kung_fu_panda.schemas import (
    AMEND,
    HERO,
    NAME,
    POOL,
    REASON,
    SPACE,
    SPEND_FIELDS,
    SUMMARY_FIELDS,
    TILE,
    action,
)
from tracker.rulesets.engine.ruleset import ActionType

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
        declared.mission_won,
    ),
    ActionType(
        "mission-failed",
        "A failure condition of the mission's own is met (L191-L192). Time's up, full KO and every failure the board can "
        "show (a villager overrun, Tai Lung arriving, villagers imprisoned) are recorded by the tracker as they happen.",
        action("mission-failed", {"condition": {"type": "string", "minLength": 1, "maxLength": 60}, "note": REASON}, ["condition"]),
        declared.mission_failed,
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
        declared.correct,
    ),
]
