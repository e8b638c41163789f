"""The Thing in the Pit's secret room (L351-L361): which of the three encounter markers hides the stairs to Zone 3.

L352: "At the start of the quest, roll a power die. If the result is a power surge, the encounter marker in Zone 1 is
the real one. On a power enhancement, the westernmost encounter marker in Zone 2 is the real one. If the result is a
blank, the easternmost encounter marker in Zone 2 is the real one. Remember to note where the real encounter marker is."

Reading (the quest data's ``secret_room.reading``): the Quest Guide speaks to the overlord, so he rolls and notes the
marker, and the heroes must not learn it from the tracker before a search finds it. The roll, the note and the action
that made them are secret to the overlord until the quest ends (hidden.py); the state the heroes see leaves the marker
out. A search completed on a marker (L355) says whether it was the real one (L356-L361), and that is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.descent.common import quest, refuse, schema
from tracker.rulesets.engine.ruleset import ActionContext, ActionType

PURPOSE = "the secret room's power die"  # the roll's purpose: hidden.secret_to knows a secret-room roll by it


def rules(ctx: ActionContext) -> Mapping[str, Any] | None:
    return quest(ctx).get("secret_room")


def standing(game: Mapping[str, Any]) -> dict[str, Any]:
    return game.get("secret_room") or {"rolled": False, "searched": {}, "found": None}


def roll(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """The overlord's roll at the start of the quest (L352): a reported face, or the stream where the die's faces are known."""
    r = rules(ctx)
    if r is None:
        raise refuse(f"{quest(ctx)['name']} has no secret room", "Only The Thing in the Pit hides one (L351).", "type")
    if standing(ctx.game)["rolled"]:
        raise refuse("The secret room's die was already rolled", "It is rolled once, at the start of the quest (L352).", "type")
    faces = {r["die"]: [params["face"]]} if params.get("face") is not None else None
    rolled = dice.roll_change(ctx.dice, {r["die"]: 1}, faces, rng, PURPOSE)
    face = rolled["roll"]["results"][r["die"]][0]
    return [rolled, {"kind": "secret-room-marked", "face": face, "marker": r["real_marker_by_face"][face]}]


def marker(ctx: ActionContext, task: Mapping[str, Any], params: Mapping[str, Any]) -> str | None:
    """The encounter marker a secret-room search is made on (L355); None for any other prolonged action."""
    r = rules(ctx)
    if r is None or task["id"] != r["search"]:
        if params.get("marker") is not None:
            raise refuse(f"'{task['id']}' is not made on an encounter marker", 'Leave "marker" out.', "marker")
        return None
    if params.get("marker") not in r["markers"]:
        said = f"{params['marker']!r} is not an encounter marker" if params.get("marker") else "Say which encounter marker the hero searches"
        raise refuse(said, f"Encounter markers of Zones 1 and 2: {r['markers']} (L352).", "marker")
    s = standing(ctx.game)
    if not s["rolled"]:
        raise refuse("The overlord has not rolled for the secret room", "He rolls a power die at the start of the quest (L352): record it with secret-room-roll first.", "marker")
    if params["marker"] in s["searched"]:
        raise refuse(f"The encounter marker {params['marker']} was already searched", "A searched marker is removed from the board (L358, L361).", "marker")
    return params["marker"]


def searched(ctx: ActionContext, marker_id: str, hero: str) -> dict[str, Any]:
    """A search completed on a marker: real, the stairs and Zone 3 are revealed (L360-L361); false, a false alarm (L357-L358)."""
    r = rules(ctx)
    real = ctx.game["secret_room"]["real"] == marker_id
    return {"kind": "secret-room-searched", "marker": marker_id, "hero": hero, "real": real, **({"zone_revealed": r["zone"]} if real else {})}


ACTIONS = [
    ActionType("secret-room-roll", ("The Thing in the Pit, start of the quest: the overlord rolls a power die for which encounter marker is the real one (surge: Zone 1; enhancement: Zone 2 west; blank: Zone 2 east, L352). "
                                    "Report the face, or the stream rolls it where the power die's faces are known. Secret to the overlord until a search finds the room or the quest ends."),
               schema({"face": {"enum": ["blank", "surge", "enhancement"]}}, []), roll, random=True),
]
