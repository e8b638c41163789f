"""Rolling dice: the one place a roll is resolved, for the roll command and for ruleset actions alike."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tracker.core import inputs
from tracker.core.errors import Unprocessable
from tracker.core.randomness import RandomStream


@dataclass(frozen=True)
class DieSpec:
    id: str
    name: str
    results: list[Any]
    faces: list[Any] | None  # the physical layout; None when the rulebook lost it

    def check_reported(self, faces: list[Any]) -> None:
        illegal = [face for face in faces if face not in self.results]
        if illegal:
            raise Unprocessable(
                f"Die '{self.id}' has no face {illegal[0]!r}",
                detail=f"The faces of {self.name} are {self.results}.",
                errors={f"faces.{self.id}": [f"Not a face of this die: {illegal}"]},
            )


def resolve_roll(specs: Mapping[str, DieSpec], dice: Mapping[str, int], faces: Mapping[str, list[Any]] | None, stream: RandomStream,
                 bounded: bool = False) -> dict[str, Any]:
    """A roll: digital from the stream (faces by layout), or faces reported from the table, checked against the die.
    ``bounded``: the caller has held ``dice`` and ``faces`` to inputs.dice_counts and inputs.reported_faces already (the
    roll command does, before anything else), so they are not counted a second time."""
    wanted = dict(faces or dice)
    if not wanted:
        raise Unprocessable(
            "Say which dice to roll",
            detail='Send "dice": {"<die id>": count} for a digital roll, or "faces": {"<die id>": [...]} for dice rolled on the table.',
            errors={"dice": ["Missing data for required field."]},
        )
    for die_id in wanted:
        if die_id not in specs:
            raise Unprocessable(
                f"Unknown die '{die_id}'",
                detail=f"Dice of this campaign: {sorted(specs)}.",
                errors={f"dice.{die_id}": ["Unknown die."]},
            )
    # However the count came (a request, a form, a resolver's sum), a roll is bounded before a die is drawn: an
    # unbounded count once spun a worker, its memory growing, until the server was stopped.
    if not bounded:
        inputs.dice_counts(dice or {}, least=0)
    if faces is not None:
        if not bounded:
            inputs.reported_faces(faces, least=0)
        for die_id, rolled in faces.items():
            if dice and die_id in dice and dice[die_id] != len(rolled):
                raise Unprocessable(
                    f"The count for '{die_id}' does not match the faces reported",
                    detail="Send only the faces, or make the counts agree.",
                    errors={f"dice.{die_id}": ["Does not match the number of faces."]},
                )
            specs[die_id].check_reported(rolled)
        if dice and set(dice) - set(faces):
            raise Unprocessable(
                "Report the faces of every die in the roll",
                detail="A roll is either digital or reported: send the faces of every die, or no faces at all.",
                errors={"faces": [f"Missing faces for: {sorted(set(dice) - set(faces))}"]},
            )
        return {"dice": {d: len(f) for d, f in faces.items()}, "results": {d: list(f) for d, f in faces.items()}, "source": "reported"}
    for die_id in dice:
        if specs[die_id].faces is None:
            raise Unprocessable(
                f"The faces of the {specs[die_id].name} are unknown, so it cannot be rolled digitally",
                detail=(
                    f"The rulebook transcription lost the face layout of {specs[die_id].name}. Supply it as component data "
                    f'("components": {{"dice": {{"{die_id}": {{"faces": [...]}}}}}}) when creating the campaign, '
                    f'or roll the physical dice and report them with "faces": {{"{die_id}": [...]}}.'
                ),
                errors={f"dice.{die_id}": ["Face layout unknown."]},
                unknown={"die": die_id, "count": dice[die_id]},
            )
    start = stream.counter
    if isinstance(stream, RandomStream):  # (each die's rolls drawn in one call; any other stream roll by roll)
        results = {die_id: stream.rolls(specs[die_id].faces, count) for die_id, count in dice.items()}
    else:
        results = {die_id: [stream.roll(specs[die_id].faces) for _ in range(count)] for die_id, count in dice.items()}
    return {
        "dice": dict(dice),
        # The order the dice drew from the stream, as a list: JSON objects have no order a rewrite must keep.
        "order": list(dice),
        "layouts": {die_id: list(specs[die_id].faces) for die_id in dice},
        "results": results,
        "source": "digital",
        "counter_start": start,
        "counter_end": stream.counter,
    }


def roll_change(specs: Mapping[str, DieSpec], dice: Mapping[str, int], faces: Mapping[str, list[Any]] | None, stream: RandomStream, purpose: str | None = None) -> dict[str, Any]:
    """A roll made inside an action, as a change the session records as DiceRolled."""
    roll = resolve_roll(specs, dice, faces, stream)
    roll["purpose"] = purpose
    return {"kind": "rolled", "roll": roll}
