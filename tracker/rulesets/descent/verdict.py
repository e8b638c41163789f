"""Whether the rules have decided a Descent quest, from what its game state records; and, while they have not,
what an end the table asks for still lacks.

The Altar of Despair's quests (L328-L704) are decided by their own events, each recorded by the action that made
it true: ``quest-lost`` when the conquest runs out (conquest.conquest_changes), when the last glyph falls
(glyphs.damage_glyph) or when the Thing in the Pit is defeated short of 12 conquest (conquest.quest_end);
``quest-won`` with the quest's final award (conquest.award_conquest), or, in The Altar of Despair, with the
fourth altar (prolonged._altar_destroyed). The reasons below quote the line each condition comes from.

Readings where the text leaves a condition open (also in the quest data as ``reading``):
- "run short of conquest tokens" (L413, L575, L616, L670) is read as falling to 0, as L333 and L567 say it;
- The Thing in the Pit "finishes" when the Thing is defeated (L399-L404): the text names no other end, so any
  other end is the table's ruling.
The base game's quests have no Quest Guide in the transcription (L107-L117): nothing decides them from the log,
and an end states the Quest Guide's condition as a reported fact.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Why each recorded loss is a defeat, per quest, in the book's words.
DEFEATS: dict[str, dict[str, str]] = {
    "conquest-exhausted": {
        "thing-in-the-pit": "the heroes fell to 0 conquest points: the dark priests have won (L333)",
        "hall-of-the-monkey-kings": "the heroes ran short of conquest tokens: the blood apes have won (L413)",
        "hold-the-position": "the heroes have no conquest tokens left: the temple is overrun (L505, L567-L569)",
        "mists-of-time": "the heroes ran short of conquest tokens (L575)",
        "into-the-heart-of-darkness": "the heroes ran short of conquest tokens: the haunted city gains new residents (L616)",
        "altar-of-despair": "the heroes fell to 0 conquest points: Zorek sweeps over the world (L670, L687-L689)",
    },
    "last-glyph-destroyed": {
        "hold-the-position": "all the glyphs are destroyed: the temple is overrun (L505, L567-L569)",
        "altar-of-despair": "the last glyph is destroyed (L687-L689)",
    },
    "finished-below": {
        "thing-in-the-pit": "the heroes finished the quest with fewer than 12 conquest points (L405-L407)",
    },
}

# Why each final award is a victory, and what an undecided quest still needs for one.
VICTORIES: dict[str, tuple[str, str]] = {
    "thing-in-the-pit": ("thing-defeated", "the Thing in the Pit defeated with at least 12 conquest points at the end (L399-L404)"),
    "hall-of-the-monkey-kings": ("monkey-kings-defeated", "both Monkey Kings defeated (L496-L498)"),
    "hold-the-position": ("temple-defended", "turn 10 or later with every major monster on the board defeated (L564-L566)"),
    "mists-of-time": ("basalt-killed", "Basalt killed (L608-L610)"),
    "into-the-heart-of-darkness": ("leaders-killed", "the master dark priest, the master ogre and the master demon killed, and any spirit the heroes angered (L662-L664)"),
    "altar-of-despair": ("last-altar-destroyed", "the last of the four altars destroyed (L693-L695)"),
}

# What the heroes must keep from falling, for the refusal of an undecided defeat.
GLYPH_QUESTS = {"hold-the-position": "L567", "altar-of-despair": "L687"}


def verdict(quest: str, game: Mapping[str, Any]) -> dict[str, str] | None:
    """The rules' verdict on the quest, in its own words (rules data 1.1.0 on; 1.0.0's are in versions.py)."""
    if game.get("lost"):
        reasons = DEFEATS.get(game["lost"], {})
        return {"outcome": "defeat", "reason": reasons.get(quest, game["lost"])}
    if game.get("won"):
        award, condition = VICTORIES.get(quest, (game["won"], f"the quest's final award '{game['won']}'"))
        return {"outcome": "victory", "reason": f"{condition}: the heroes have completed their quest"}
    return None


QUEST_GUIDE_CONDITION = {
    "type": "string", "minLength": 1, "maxLength": 500,
    "description": "the condition the base game's Quest Guide gives for the outcome, as the table reads it: the Quest Guide is not "
    "in the transcription (L107-L117)",
}


def reported_facts(quest: str) -> dict[str, dict[str, Any]]:
    """The facts a quest's end takes from the table: none for The Altar of Despair's quests, which their own events
    decide (the module's docstring); the Quest Guide's condition for the base game's, which the log cannot know."""
    return {} if quest in VICTORIES else {"quest_guide_condition": QUEST_GUIDE_CONDITION}


def end_refusal(quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
    """Undecided quests end only as the text allows: a win or a loss is recorded as it happens (see the module's
    docstring), so an end that asks for one the log does not show names what is missing."""
    if outcome == "heroic-victory":
        return "Descent has no heroic victory: its quests are completed or failed (L404, L407, L498, L566, L569, L610, L664, L689, L695)"
    if quest not in VICTORIES:
        if reported.get("quest_guide_condition"):
            return None  # the base game's Quest Guide is not in the transcription; the table states its condition
        return ("the base game's Quest Guide is not in the transcription (L107-L117): state the condition it gives for this "
                'outcome as a reported fact, "reported": {"quest_guide_condition": "..."}')
    conquest = game.get("conquest")
    if outcome == "victory":
        award, condition = VICTORIES[quest]
        need = condition
        if quest == "altar-of-despair":
            need = f"{condition}; {len(game.get('altars_destroyed', []))} of 4 are destroyed"
        elif quest == "hold-the-position":
            need = f"{condition}; it is turn {turn}"
        return f"the quest's final award is not recorded (the heroes have {conquest} conquest): it needs {need}, recorded with award-conquest '{award}'" + (
            " (each altar by its own prolonged-roll)" if quest == "altar-of-despair" else "")
    standing = f"the heroes still have {conquest} conquest (the quest is lost at 0)"
    if quest in GLYPH_QUESTS and "glyphs" in game:
        glyphs = game["glyphs"]
        standing += f" and {glyphs['count'] - len(glyphs['destroyed'])} of {glyphs['count']} glyphs stand (lost with the last, {GLYPH_QUESTS[quest]})"
    return f"no defeat is recorded: {standing}"
