"""What a named monster's death decides: the quest award its text ties to it, recorded with the kill.

- The Thing in the Pit (L399-L401): 4 conquest, and 2 per surviving villager not yet rescued (3 for the mayor's
  daughter); the quest then finishes (L402-L407), won at 12 conquest, else failed.
- Basalt (L608-L610): "The heroes gain 4 conquest points. They have completed their quest!"
- The Monkey Kings (L492, L496-L498): when both are defeated, 4 conquest and the quest is completed.
- Into the Heart of Darkness's master dark priest, master ogre and master demon (L661-L664): when all three are
  killed, 4 conquest and the quest is completed, unless an angered spirit still stands (then award-conquest, once the
  spirits are destroyed, L662).
A quest already decided records the kill and nothing more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent import conquest
from tracker.rulesets.descent.common import quest
from tracker.rulesets.descent.spirit_standing import angered_standing
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.engine.working_copy import WorkingCopy


def _rule(ctx: ActionContext, target: Mapping[str, Any]) -> Mapping[str, Any] | None:
    named = target.get("named")
    if named is None:
        return None
    return next((m for m in ctx.ruleset.data["combat"]["named_monsters"] if m["id"] == named and m.get("award_on_death")), None)


def _unrescued(ctx: ActionContext) -> dict[str, Any]:
    prisoners = quest(ctx).get("prisoners")
    if prisoners is None:
        return {}
    folded = ctx.game.get("prisoners") or {"sacrificed": [], "rescued": []}
    waiting = [n for n in range(1, prisoners["count"] + 1) if n not in folded["sacrificed"] and n not in folded["rescued"]]
    return {"unrescued": len(waiting), "mayors_daughter_unrescued": prisoners["mayors_daughter"] in waiting}


def when_spirits_fall(ctx: ActionContext, changes: list[dict[str, Any]], working: WorkingCopy) -> list[dict[str, Any]]:
    """A spirit destroyed: if it was the last angered one and the leaders it outlived are dead, their award follows (L662)."""
    leaders = [m for m in ctx.ruleset.data["combat"]["named_monsters"] if m["quest"] == ctx.game["quest"] and m.get("award_when_all_killed")]
    return award(ctx, {"named": leaders[0]["id"]}, changes, working) if leaders else []


def award(ctx: ActionContext, target: Mapping[str, Any], changes: list[dict[str, Any]], working: WorkingCopy) -> list[dict[str, Any]]:
    """The award a named monster's death brings, after ``changes`` (the attack's own, the kill among them): read on the
    resolver's ``working`` copy, caught up with them (each folded once; the resolver returns the copy's changes)."""
    rule = _rule(ctx, target)
    if rule is None:
        return []
    working.catch_up(changes)
    after = working.reading()
    if after.game.get("won") or after.game.get("lost"):
        return []
    figures = (after.game.get("monsters") or {}).values()
    killed = [f for f in figures if f.get("named") == rule["id"] and f["killed"]]
    if len(killed) < rule.get("award_when_killed", 1):
        return []
    together = rule.get("award_when_all_killed") or []
    if any(not any(f.get("named") == other and f["killed"] for f in figures) for other in together):
        return []
    if angered_standing(after.game):  # "(and the spirits, if they have been angered)" (L662): award-conquest once they are
        return []
    return conquest.award_conquest(after, {"award": rule["award_on_death"], **_unrescued(after)}, None)
