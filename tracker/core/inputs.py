"""What a value a command takes may be, whatever carried it (the JSON API, a play-page form, the command line, an
import): the one check of text and counts, called by the commands (tracker/application/commands.py) and by the engines they
call (tracker/core/dice.py, tracker/core/decks.py), so an edge that forgets a bound cannot store what no other edge accepts.

The edges keep their own quick checks (api/schemas.py, tracker/core/safe_json.py on request bodies); these are the ones
that hold when an edge has none, as the play page's forms had none (issue 29: a NUL in a roll's purpose stopped
PostgreSQL's views; ``d6 = 10^23`` from a form spun a worker until the server was stopped).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.core.safe_json import text_problem, unstorable

# The bounds the JSON API has always published (api/schemas.py): the commands hold every transport to them.
MOST_DICE = 100  # of one die in one roll
MOST_DIE_KINDS = 20  # different dice in one roll
MOST_CARDS = 100  # drawn or reported in one draw
ID_LENGTH = 100  # a die, deck, hero, side or holder id; a card's name is CARD_LENGTH
CARD_LENGTH = 200
NAME_LENGTH = 200  # a campaign's name, a token's label, a roll's purpose
SAYING_LENGTH = 1000  # a ruling, an abandon's reason


def storable(value: Any, field: str) -> None:
    """Refuse text no event store can keep, anywhere in ``value`` (keys too): a NUL (PostgreSQL refuses it in text
    and JSON columns, so an event carrying one stalls every view) or a lone UTF-16 surrogate (it cannot be encoded)."""
    problem = text_problem(value)
    if problem:
        raise Unprocessable(f"{problem}; nothing was recorded", detail=f"In {field}. Send the value again without it.",
                            errors={field: [problem]})


def text(value: Any, field: str, most: int, *, said: str | None = None, least: int = 1) -> str:
    """A piece of text the table writes (a purpose, a reason, a name): a string of ``least`` (1) to ``most``
    characters that a store can keep."""
    said = said or field
    if not isinstance(value, str):
        raise Unprocessable(f"The {said} must be text", detail=f"Send {field} as a string.", errors={field: ["Not a string."]})
    if unstorable(value):  # (``storable``'s refusal, asked of the one string)
        storable(value, field)
    if len(value) < least:
        raise Unprocessable(f"The {said} is empty; write it, or leave it out", errors={field: ["Empty."]})
    if len(value) > most:
        raise Unprocessable(f"The {said} is longer than {most} characters; shorten it",
                            detail=f"It has {len(value)} characters.", errors={field: [f"Longer than {most} characters."]})
    return value


def optional_text(value: Any, field: str, most: int, *, said: str | None = None, least: int = 1) -> str | None:
    return None if value is None else text(value, field, most, said=said, least=least)


def count(value: Any, field: str, least: int, most: int, *, what: str) -> int:
    """A whole number from ``least`` to ``most`` (``what`` says what is counted: "d6 dice", "cards")."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unprocessable(f"The number of {what} must be a whole number", detail=f"Send {field} as an integer.",
                            errors={field: ["Not an integer."]})
    if not least <= value <= most:
        raise Unprocessable(f"The number of {what} must be {least} to {most}; send at most {most} at once",
                            detail=f"{value} was sent.", errors={field: [f"Must be {least} to {most}."]})
    return value


def dice_counts(dice: Mapping[str, Any], field: str = "dice", least: int = 1) -> None:
    """Dice to roll digitally, die id to count: at most MOST_DIE_KINDS dice, each MOST_DICE at most."""
    if len(dice) > MOST_DIE_KINDS:
        raise Unprocessable(f"A roll takes at most {MOST_DIE_KINDS} different dice; roll the rest separately",
                            errors={field: [f"{len(dice)} dice."]})
    for die_id, number in dice.items():
        if _a_die_id(die_id) and type(number) is int and least <= number <= MOST_DICE:
            continue  # what text() and count() below accept, asked without building their field names and wordings
        text(die_id, f"{field}.{die_id}", ID_LENGTH, said="die id")
        count(number, f"{field}.{die_id}", least, MOST_DICE, what=f"{die_id} dice")


def reported_faces(faces: Mapping[str, Any], field: str = "faces", least: int = 1) -> None:
    """Faces rolled on the table, die id to the faces that came up: as many dice as a digital roll may have."""
    if len(faces) > MOST_DIE_KINDS:
        raise Unprocessable(f"A roll takes at most {MOST_DIE_KINDS} different dice; report the rest separately",
                            errors={field: [f"{len(faces)} dice."]})
    for die_id, rolled in faces.items():
        if _a_die_id(die_id) and type(rolled) is list and least <= len(rolled) <= MOST_DICE:
            continue  # (as in dice_counts)
        text(die_id, f"{field}.{die_id}", ID_LENGTH, said="die id")
        if not isinstance(rolled, list):
            raise Unprocessable(f"The faces of {die_id} must be a list", errors={f"{field}.{die_id}": ["Not a list."]})
        count(len(rolled), f"{field}.{die_id}", least, MOST_DICE, what=f"{die_id} dice")


def _a_die_id(die_id: Any) -> bool:
    """Whether ``text`` takes ``die_id`` as a die id, without a refusal to word."""
    return type(die_id) is str and 1 <= len(die_id) <= ID_LENGTH and not unstorable(die_id)


def cards(named: Any, field: str = "cards") -> list[str]:
    """Cards named by the table: 1 to MOST_CARDS names, each a card's name a store can keep."""
    if not isinstance(named, list):
        raise Unprocessable("The cards must be a list of names", errors={field: ["Not a list."]})
    count(len(named), field, 1, MOST_CARDS, what="cards")
    for index, card in enumerate(named):
        text(card, f"{field}.{index}", CARD_LENGTH, said="card's name")
    return named
