"""Descent's rules versions as code: each version of the rules data maps to the rules that play it, a later version
overriding only what changed from the one before. The archive keeps each version's data and contract
(tracker/rulesets/versions/descent/); a campaign plays and verifies by the class of the version it pinned
(``DescentRules.version``), so today's resolvers ask it and hold no version checks of their own.

What came with which version: 1.1.0 gave each quest's end its own words, limited the pack (L184), sprang a troll ambush
at most once a turn (L577) and gave the Power glyph one draw per trigger (L125); 1.2.0 brought combat (figures, wounds and
fatigue, ready actions, hero sheets from the set-up); 1.3.0 the figures' special abilities, daze, tokens on monsters
and familiars; 1.4.0 changed the data only; 1.5.0 (the code's own) gave a monster's surges threat with its attack
(L218) and let one dodge re-roll a leap (L224-L225), and moved Into the Heart of Darkness's spirits to figures in its
quest data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.descent import figures, verdict
from tracker.rulesets.descent.common import refuse
from tracker.rulesets.engine.ruleset import ActionContext

# The reasons rules data 1.0.0 recorded: one per kind of end, not yet per quest. Its sessions re-derive, and verify,
# with the words they were played with (the data holds no mark of this: the wording lived in the code).
PUBLISHED_1_0_0 = {
    "conquest-exhausted": "the heroes ran out of conquest tokens (L333, L413: the overlord's side has won)",
    "last-glyph-destroyed": "the last glyph was destroyed (L505, L567, L687)",
    "finished-below": "the heroes finished with less conquest than the quest asks (L333, L402-L406)",
}


class V1_0_0:
    """Rules data 1.0.0: threat, treachery, glyphs and conquest; no combat."""

    number = "1.0.0"
    records: frozenset[str] = frozenset()  # the parts of the game this version records, beyond 1.0.0's
    # Rules a later version plays otherwise, each overridden by the version that changed it (1.0.0's sessions re-derive as
    # played). L184: the pack "can hold up to three unequipped items" (1.0.0 kept no limit).
    limits_the_pack = False
    # L577: a troll ambush "no more than once per turn" (1.0.0 did not record the turn).
    troll_ambush_once_per_turn = False
    # L125: "the overlord may draw two cards" per activation or town travel (1.0.0 let a draw follow any activation).
    power_draw_per_trigger = False

    def require(self, ctx: ActionContext, part: str, title: str, what: str, field: str) -> None:
        """Refuse an action that needs ``part`` of the game where this version does not record it."""
        if part not in self.records:
            raise refuse(title, f"{what} from Descent rules {CAME_WITH[part]} on; this campaign pinned {ctx.ruleset.version}.", field)

    def verdict(self, quest: str, game: Mapping[str, Any]) -> dict[str, str] | None:
        if game.get("lost"):
            return {"outcome": "defeat", "reason": PUBLISHED_1_0_0.get(game["lost"], game["lost"])}
        if game.get("won"):
            return {"outcome": "victory", "reason": f"the heroes took the quest's final award '{game['won']}' (award-conquest)"}
        return None

    def hero_sheets_at_set_up(self, ctx: ActionContext, party: list[str], stated: Mapping[str, Any]) -> dict[str, Any]:
        """What a quest's set-up records of the heroes' wounds and fatigue: nothing, before combat."""
        if stated:
            self.require(ctx, "combat", "This campaign's rules data records no hero sheets", "Hero sheets are recorded", "setup.hero_sheets")
        return {}

    def figures_entering(self, ctx: ActionContext, entries: Sequence[Mapping[str, Any]], source: str) -> list[dict[str, Any]]:
        """The figures monsters entering play become (for attacks to name): none, before combat."""
        return []

    def abilities(self, combat: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The special abilities an attack applies, from the combat data: none before 1.3.0 (its attacks re-derive as played)."""
        return None

    def surges_buying_threat(self, combat: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """How a monster's surges buy the overlord threat with its attack (L218): before 1.5.0 through gain-threat, so None."""
        return None

    def leap_dodge_rerolls(self, abilities: Mapping[str, Any]) -> int | None:
        """How many dodge re-rolls a Leap attack allows (L224-L225): unlimited before 1.5.0, so None."""
        return None


class V1_1_0(V1_0_0):
    """Rules data 1.1.0: each quest's end in its own words (verdict.py); the pack's limit, the troll ambush's turn, the
    Power glyph's draw per trigger."""

    number = "1.1.0"
    limits_the_pack = True
    troll_ambush_once_per_turn = True
    power_draw_per_trigger = True

    def verdict(self, quest, game):
        return verdict.verdict(quest, game)


class V1_2_0(V1_1_0):
    """Rules data 1.2.0: combat, wounds and ready actions; the heroes' sheets from the set-up on."""

    number = "1.2.0"
    records = V1_1_0.records | {"combat"}

    def hero_sheets_at_set_up(self, ctx, party, stated):
        return {"hero_sheets": figures.hero_sheets(ctx.ruleset.data, party, stated)}

    def figures_entering(self, ctx, entries, source):
        return [figures.figures_entering(ctx, list(entries), source)]


class V1_3_0(V1_2_0):
    """Rules data 1.3.0: the figures' special abilities and daze, tokens on monsters, familiars."""

    number = "1.3.0"
    records = V1_2_0.records | {"abilities"}

    def abilities(self, combat):
        return combat["abilities"]


class V1_4_0(V1_3_0):
    """Rules data 1.4.0: the data changed, the rules that play it did not."""

    number = "1.4.0"


class V1_5_0(V1_4_0):
    """Rules data 1.5.0 (the code's own): a monster's surges buy threat with its attack, one dodge re-roll per leap
    (spirits as figures are in the quest's data)."""

    number = "1.5.0"

    def surges_buying_threat(self, combat):
        return combat["surges_buy_threat"]

    def leap_dodge_rerolls(self, abilities):
        return abilities["leap"]["dodge_rerolls"]


CHAIN = (V1_0_0, V1_1_0, V1_2_0, V1_3_0, V1_4_0, V1_5_0)
CAME_WITH = {part: next(v.number for v in CHAIN if part in v.records) for part in CHAIN[-1].records}
BY_VERSION = {version.number: version() for version in CHAIN}


def of(number: str) -> V1_0_0:
    """The rules of a version of the rules data (one of BY_VERSION: every archived version and the code's own)."""
    return BY_VERSION[number]
