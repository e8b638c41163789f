"""Into the Heart of Darkness's spirits (L618-L662): they fight the heroes only once angered (attacked, or a rune key or
a treasure of their zone taken, L619, L641, L655); a killed spirit rolls a power die and is destroyed only on a surge
(Superior Undying, L618); those of Zones 3 and 4 may be convinced to leave (L640, L644); and the quest is won only when
every angered spirit is destroyed with the leaders (L662)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core import dice
from tracker.rulesets.descent import spirit_figures
from tracker.rulesets.descent.common import NAME, quest, refuse, require_hero, schema
from tracker.rulesets.descent.spirit_standing import standing
from tracker.rulesets.engine.ruleset import ActionContext, ActionType
from tracker.rulesets.engine.working_copy import WorkingCopy


def rules(ctx: ActionContext) -> Mapping[str, Any]:
    q = quest(ctx)
    if "spirits" not in q:
        raise refuse(f"{q['name']} has no spirits", "Only Into the Heart of Darkness has them (L618).", "type")
    return q["spirits"]


def _spirit(ctx: ActionContext, spirit: str) -> dict[str, Any]:
    rules(ctx)
    s = standing(ctx.game)
    if spirit not in s["ids"]:
        zone_4 = "" if any(i.startswith("zone-4-") for i in s["ids"]) else " (Zone 4's are named when setup.spirits_zone_4 gives their count)"
        raise refuse(f"'{spirit}' is not a spirit of this quest", f"Spirits: {s['ids']}{zone_4}.", "spirit")
    for gone in ("destroyed", "convinced"):
        if spirit in s[gone]:
            raise refuse(f"{spirit} is already {gone}", "It is no longer on the board.", "spirit")
    return s


def anger(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    s = _spirit(ctx, params["spirit"])
    if params["spirit"] in s["angered"]:
        raise refuse(f"{params['spirit']} is already angered", "It attacks the heroes until it is destroyed (L619).", "spirit")
    # L619: "Spirits do not attack heroes unless the heroes attacked them first"; L641: "If a hero picks up the yellow rune
    # key while the spirit is still alive, the spirit will attack that hero"; L655: "Each spirit will attack a hero who
    # picks up a treasure from its zone": what angers a spirit, as the quest's data lists it (angered_by)
    causes = rules(ctx)["angered_by"]
    if params["cause"] not in causes:
        raise refuse(f"A spirit is not angered when {params['cause'].replace('-', ' ')}",
                     f"A spirit turns on the heroes when {', '.join(c.replace('-', ' ') for c in causes)} (L619, L641, L655).", "cause")
    return [{"kind": "spirit-angered", "spirit": params["spirit"], "cause": params["cause"]}]


def kill(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A spirit dealt its last wound: Superior Undying revives it on any power die result but a surge (L618). Attacking a
    spirit angers it (L619)."""
    s = _spirit(ctx, params["spirit"])
    spirit_figures.kill_refusal(ctx, params["spirit"])
    rule = rules(ctx)["superior_undying"]
    face = [params["face"]] if params.get("face") else None
    rolled = dice.roll_change(ctx.dice, {rule["die"]: 1}, {rule["die"]: face} if face else None, rng, f"Superior Undying: {params['spirit']}")
    result = rolled["roll"]["results"][rule["die"]][0]
    changes: list[dict[str, Any]] = [rolled]
    if params["spirit"] not in s["angered"] and "attacked" in rules(ctx)["angered_by"]:  # attacked, it turns on the heroes (L619)
        changes.append({"kind": "spirit-angered", "spirit": params["spirit"], "cause": "attacked"})
    changes.append({"kind": "spirit-killed", "spirit": params["spirit"], "result": result, "destroyed": result == rule["destroyed_on"]})
    if result == rule["destroyed_on"]:  # the last angered spirit may be all the leaders' award waited for (L662; 1.3.0 on, versions.py)
        working = WorkingCopy(ctx)  # the award reads the state after the spirit's destruction: each change folded once, here
        changes += ctx.ruleset.rules.version.when_spirits_fall(ctx, changes, working)
        return working.catch_up(changes)
    return changes


def convince(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A hero who completed the continuous prolonged Magic (3) action convinces a spirit of Zone 3 or 4 to leave (L640, L644)."""
    s = _spirit(ctx, params["spirit"])
    require_hero(ctx, params["hero"])
    r = rules(ctx)
    zone = params["spirit"].rsplit("-spirit-", 1)[0]
    if not r["zones"][zone]["may_be_convinced"]:
        raise refuse(f"The spirits of {zone} cannot be convinced", "Only those of Zones 3 and 4 may be (L640, L644).", "spirit")
    if params["spirit"] in s["angered"]:
        raise refuse(f"{params['spirit']} is angered", "An angered spirit attacks until it is destroyed (L619, L641).", "spirit")
    completed = ctx.game.get("completed", []).count(r["convinced_by"])
    if completed <= len(s["convinced"]):
        raise refuse(f"Complete '{r['convinced_by']}' first", "The prolonged Magic (3) action convinces one spirit (L640).", "spirit")
    return [{"kind": "spirit-convinced", "spirit": params["spirit"], "hero": params["hero"]}]


ACTIONS = [
    ActionType("spirit-angered", "Into the Heart of Darkness: a spirit turns on the heroes (attacked, a rune key or a treasure of its zone taken) (L619, L641, L655).",
               schema({"spirit": NAME, "cause": {"enum": ["attacked", "rune-key-taken", "treasure-taken"]}}, ["spirit", "cause"]), anger, random=False),
    ActionType("spirit-killed", "Into the Heart of Darkness: a spirit is dealt its last wound; a power die (report the face, or the stream rolls it where the faces are known) destroys it only on a surge (L618). A spirit placed as a figure (place-monsters \"spirit\", rules 1.5.0 on) is killed by the attack instead.",
               schema({"spirit": NAME, "face": {"enum": ["blank", "surge", "enhancement"]}}, ["spirit"]), kill, random=True),
    ActionType("spirit-convinced", "Into the Heart of Darkness: a hero who completed convince-spirit persuades a spirit of Zone 3 or 4 to leave (L640, L644).",
               schema({"spirit": NAME, "hero": NAME}, ["spirit", "hero"]), convince, random=False),
]
