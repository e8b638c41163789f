"""Into the Heart of Darkness's spirits as figures on the board (rules data 1.5.0 on, the quest's ``spirits.as_figures``):
which figure is which spirit, and what a fight with one records in the quest's spirit record.

L618: "Many of the monsters in this quest are in fact spirits. They have the same characteristics as usual, except that
they roll one extra green die when they attack, and they have the Superior Undying ability, which revives them on any
die result except a power surge."
L619: "Spirits do not attack heroes unless the heroes attacked them first. Once a spirit has been attacked, it will
attack the heroes until it is destroyed."

The spirit record (spirit_standing) is one, whether the table records a kill with spirit-killed or with the attack that
dealt it: an attack that kills a spirit figure records the Superior Undying roll and the spirit's fate as spirit-killed
does, and while a spirit's figure is in play spirit-killed for it is refused, so no kill is counted twice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent.common import quest, refuse
from tracker.rulesets.descent.spirit_standing import standing
from tracker.rulesets.engine.ruleset import ActionContext

SUPERIOR_UNDYING = "superior-undying"  # the Special Abilities' name of the rule L618 gives every spirit


def rule(ctx: ActionContext) -> Mapping[str, Any] | None:
    """The quest's rule for spirit figures, or None (another quest, or a version without them: versions.py)."""
    return ctx.ruleset.rules.version.spirit_figures(ctx, quest(ctx))


def figure_of(game: Mapping[str, Any], spirit: str) -> str | None:
    """The id of the figure in play that is ``spirit``, if one is."""
    return next((fid for fid, f in (game.get("monsters") or {}).items() if f.get("spirit") == spirit and not f["killed"]), None)


def entering(ctx: ActionContext, entry: Mapping[str, Any], taken: set[str]) -> dict[str, Any]:
    """What a figure placed as a spirit carries: the spirit's id and Superior Undying (L618). ``taken``: spirits given
    a figure earlier in the same placement."""
    spirit = entry["spirit"]
    if rule(ctx) is None:
        raise ctx.ruleset.rules.version.no_spirit_figure(ctx)
    s = standing(ctx.game)
    if spirit not in s["ids"]:
        raise refuse(f"'{spirit}' is not a spirit of this quest", f"Spirits: {s['ids']}.", "monsters")
    for gone in ("destroyed", "convinced"):
        if spirit in s[gone]:
            raise refuse(f"{spirit} is already {gone}", "It is no longer on the board.", "monsters")
    if spirit in taken or figure_of(ctx.game, spirit):
        raise refuse(f"{spirit} is already a figure in play", f"It is {figure_of(ctx.game, spirit) or 'placed in this request'}.", "monsters")
    zone = quest(ctx)["spirits"]["zones"][spirit.rsplit("-spirit-", 1)[0]]
    if not entry.get("master"):
        raise refuse(f"{spirit} is a master figure", f"The spirits there are {zone['figures']} ({', '.join(s.split(' ')[-1] for s in zone['source'])}): send \"master\": true.", "monsters")
    return {"spirit": spirit}


def may_be_attacked(ctx: ActionContext, target: Mapping[str, Any]) -> None:
    """A spirit convinced to leave (L640) is off the board: its figure is no target."""
    spirit = target.get("spirit")
    if spirit is not None and spirit in standing(ctx.game)["convinced"]:
        raise refuse(f"{spirit} was convinced to leave", "It is no longer on the board (L640); its figure cannot be attacked.", "target")


def attacked(ctx: ActionContext, attacker_side: str, target: Mapping[str, Any]) -> list[dict[str, Any]]:
    """L619: a spirit the heroes attack turns on them (hit or miss: the text says "attacked")."""
    spirit = target.get("spirit")
    if spirit is None or attacker_side != "hero" or spirit in standing(ctx.game)["angered"]:
        return []
    if "attacked" not in quest(ctx)["spirits"]["angered_by"]:  # what angers a spirit, as the quest's data lists it
        return []
    return [{"kind": "spirit-angered", "spirit": spirit, "cause": "attacked"}]


def killed(target: Mapping[str, Any], undying: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The spirit's fate after an attack dealt its figure the last wound: Superior Undying's power die (L618), recorded
    as spirit-killed records it."""
    spirit = target.get("spirit")
    if spirit is None or not undying:
        return []
    roll = undying[-1]
    return [{"kind": "spirit-killed", "spirit": spirit, "result": roll["face"], "destroyed": not roll["restored"], "figure": roll["figure"]}]


def kill_refusal(ctx: ActionContext, spirit: str) -> None:
    """spirit-killed for a spirit whose figure is in play: its kills come from the attacks (no double entry)."""
    figure = figure_of(ctx.game, spirit)
    if figure is not None:
        raise refuse(f"{spirit} is the figure {figure} in play: record the attack that kills it",
                     f"An attack that deals {figure} its last wound rolls Superior Undying and records {spirit}'s fate (L618); a separate spirit-killed would count the kill twice.",
                     "spirit")
