"""A correction: the table says a recorded value is wrong, what it should be, and why.

Shared by the games whose sheets hold plain values per hero (Journey's Health, Chi, Karma, weapon level;
Descent's wounds and fatigue; Yōkai Quest's Health and energy). Nothing recorded is changed: a correction
is a new event (``value-corrected``) that names the value (hero and field), what it was, what it becomes,
the reason and, optionally, the event it corrects. Folded, it sets the value and lists itself on the
hero's sheet under ``corrections``, so wherever the sheet is shown the corrected value shows as one.
Kung Fu Panda keeps its own ``correct`` (an amendment of the board, L127).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tracker.core import wording
from tracker.core.errors import Unprocessable

KIND = "value-corrected"
REASON = {"type": "string", "minLength": 1, "maxLength": 500}
DESCRIPTION = (
    "Correct a value recorded wrongly (the owner, or a player for their own heroes): the hero and field, what it should be and why; "
    "recorded as a correction and shown as one on the hero's sheet. refers_to: the event that got it wrong, if known."
)


def properties(heroes: Mapping[str, Any], fields: Sequence[str], value: Mapping[str, Any]) -> dict[str, Any]:
    """The request's fields: hero, field, should_be, reason and refers_to (the action_schema of each game wraps them)."""
    return {
        "hero": heroes,
        "field": {"enum": list(fields)},
        "should_be": value,
        "reason": REASON,
        "refers_to": {"type": "integer", "minimum": 1},
    }


REQUIRED = ["hero", "field", "should_be", "reason"]


def change(sheets: Mapping[str, Mapping[str, Any]], params: Mapping[str, Any], version: int) -> dict[str, Any]:
    """The ``value-corrected`` change for a request, checked against the sheets it corrects."""
    hero, field = params["hero"], params["field"]
    if hero not in sheets:
        raise Unprocessable(f"'{hero}' has no sheet in this session", detail=f"Heroes: {wording.listed(sorted(sheets))}.", errors={"hero": [f"Not playing: {hero}"]})
    if params.get("refers_to") is not None and params["refers_to"] > version:
        raise Unprocessable(
            f"There is no event {params['refers_to']} yet",
            detail=f"The session is at version {version}; refer to the event that got it wrong, or leave refers_to out.",
            errors={"refers_to": ["Not yet recorded."]},
        )
    was = sheets[hero].get(field)
    if was == params["should_be"]:
        raise Unprocessable(f"{hero}'s {field} is {was} already", detail="Nothing to correct.", errors={"should_be": ["Same as recorded."]})
    return {"kind": KIND, "hero": hero, "field": field, "was": was, "to": params["should_be"], "reason": params["reason"], "refers_to": params.get("refers_to")}


def apply(sheet: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
    """A hero's sheet with the corrected value, and the correction listed beside it."""
    corrected = copy.deepcopy(dict(sheet))
    corrected[change["field"]] = change["to"]
    listed = {key: change[key] for key in ("field", "was", "to", "reason", "refers_to")}
    corrected["corrections"] = [*corrected.get("corrections", []), listed]
    return corrected


def describe(change: Mapping[str, Any]) -> str:
    field = change["field"].replace("_", " ")
    return f"Corrected {change['hero']}'s {field} from {change['was']} to {change['to']}: {change['reason']}"
