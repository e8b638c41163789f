"""Descent's rules versions as code: each version of the rules data maps to the rules that play it, a later version
overriding only what changed from the one before. The archive keeps each version's data and contract
(tracker/rulesets/versions/descent/); a campaign plays and verifies by the class of the version it pinned
(``DescentRules.version``), so today's resolvers ask it and hold no version checks of their own.

What came with which version: 1.1.0 gave each quest's end its own words, limited the pack (L184), sprang a troll ambush
at most once a turn (L577) and gave the Power glyph one draw per trigger (L125); 1.2.0 brought combat (figures, wounds and
fatigue, ready actions, hero sheets from the set-up); 1.3.0 the figures' special abilities, daze, tokens on monsters
and familiars; 1.4.0 changed the data only; 1.5.0 gave a monster's surges threat with its attack
(L218) and let one dodge re-roll a leap (L224-L225), and moved Into the Heart of Darkness's spirits to figures in its
quest data; 1.6.0 gave monster figures their zone and checks the rules on figures and zones (a chest's
row, both Monkey Kings alive, the Thing's cells while monsters live in Zone 4).; 1.7.0 (the code's own) recorded the turn: the heroes' turns, then the
overlord's, and what may happen in each; 1.8.0 (the code's own) plays what the data states and earlier versions left to the
table: an attack's power dice within the power die's max_per_roll (L139, L213), Zorek's glyph hit of glyph_attack_wounds (L686).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.rulesets.descent import (
    abilities,
    attack_abilities,
    combat,
    conditions,
    conquest,
    figure_conditions,
    figures,
    glyphs,
    named_deaths,
    prisoners,
    prolonged,
    ready,
    setup,
    shop,
    sides,
    summoning,
    threat,
    turn,
    verdict,
)
from tracker.rulesets.descent.common import refuse
from tracker.rulesets.engine import allowed
from tracker.rulesets.engine.ruleset import ActionContext
from tracker.rulesets.engine.working_copy import WorkingCopy

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
    def check_rules_data(self, data: Mapping[str, Any]) -> None:
        """Refuse, as the data loads, a value this version's rules play one way only (issue 31): the module of each rule
        checks its own; a later version adds the checks of the parts it brought."""
        for check in (setup.check_rules_data, summoning.check_rules_data, conquest.check_rules_data, prolonged.check_rules_data,
                      conditions.check_rules_data, shop.check_rules_data, prisoners.check_rules_data):
            check(data)

    def stow_potion(self, ctx: ActionContext, params: Mapping[str, Any], count: int, source: str) -> dict[str, Any]:
        """Where a new potion goes: anywhere, under 1.0.0 (it kept no limit: its sessions re-derive as played)."""
        return {"kind": "potion-gained", "hero": params["hero"], "potion": params["potion"], "count": count, "source": source}

    def potion_recovery(self, ctx: ActionContext, params: Mapping[str, Any]) -> dict[str, Any]:
        """What a potion restores, as the table states it: nothing recorded before combat (wounds and fatigue, 1.2.0)."""
        raise conditions.no_recovery(params)

    def spring_troll_ambush(self, ctx: ActionContext, ambush: Mapping[str, Any], purpose: str) -> list[dict[str, Any]]:
        """L577: a troll ambush "no more than once per turn" (1.0.0 did not record the turn)."""
        return threat.troll_ambush_any_turn(ctx, ambush, purpose)

    def power_glyph_draw(self, ctx: ActionContext, params: Mapping[str, Any], rng: Any, rule: Mapping[str, Any]) -> list[dict[str, Any]]:
        """L125: "the overlord may draw two cards" per activation or town travel (1.0.0 let a draw follow any activation)."""
        return threat.power_draw_any_activation(ctx, params, rng, rule)

    def when_spirits_fall(self, ctx: ActionContext, changes: list[dict[str, Any]], working: WorkingCopy) -> list[dict[str, Any]]:
        """The award the last destroyed spirit brings the named leaders' deaths (L662): none before 1.3.0's named monsters."""
        return []

    def spirit_figures(self, ctx: ActionContext, quest: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The quest's rule for spirits as figures on the board (L618): none before 1.5.0, whose data placed them so."""
        return None

    def no_spirit_figure(self, ctx: ActionContext) -> Exception:
        """The refusal of a figure placed as a spirit where the quest, or the version, has none."""
        came_with = next(v.number for v in CHAIN if v.spirit_figures is not V1_0_0.spirit_figures)  # the version that placed them
        return refuse("No figure here can be a spirit", f"Only Into the Heart of Darkness has spirits (L618), as figures from Descent rules {came_with} on; this campaign pinned {ctx.ruleset.version}.", "monsters")

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

    def attack_abilities(self, combat: Mapping[str, Any]) -> attack_abilities.NoAbilities:
        """What the special abilities do to an attack (attack_abilities.py): nothing before 1.3.0 (its attacks re-derive as played)."""
        return attack_abilities.NONE

    def surges_to_threat(self, ctx: ActionContext, params: Mapping[str, Any], attacker_side: str, of_attacker: Mapping[str, int]) -> list[dict[str, Any]]:
        """The threat a monster's surges buy with its attack (L218): before 1.5.0 through gain-threat, so none here."""
        return []

    # The turn (turn.py): before 1.7.0 the log kept none (each side's turn was the table's), and its sessions replay so.
    def allowed(self, game: Mapping[str, Any], actions: Sequence[str], quest: Mapping[str, Any] | None) -> list[dict[str, Any]]:
        """Every action at any time, by its side (the turn's own actions, which it does not record, left out)."""
        return [allowed.entry(name, side=sides.side_of_action_type(name)) for name in actions if name not in turn.TURN_ACTIONS]

    def in_its_moment(self, ctx: ActionContext, action: str, params: Mapping[str, Any]) -> None:
        """Whether ``action`` is taken in its moment of the turn: always, where no turn is recorded."""

    # A reading for the play page: where no turn is recorded every action is allowed, by its side, so the actions taken
    # in every turn are listed first: the heroes' (attack, fatigue, rest, ready) and the overlord's (threat, cards,
    # spawning), and the end of the turn. The expansion's text gives no turn sequence of its own (the base game's is not in
    # it), so which actions are "of the turn" is this reading; every other action (a quest's own, a glyph, a potion, a
    # correction) the table reports when it happens, one tap away.
    OF_THE_TURN = ("attack", "spend-fatigue", "recover", "ready", "gain-threat", "play-overlord-card", "spend-threat", "place-monsters", "end-turn")

    def anytime_actions(self, actions: Sequence[str]) -> tuple[str, ...]:
        """Of ``actions``, those the table records whenever they happen (the play page folds them)."""
        return tuple(a for a in actions if a not in self.OF_THE_TURN)

    def turn_at_set_up(self) -> dict[str, Any]:
        """The moment of the turn a quest's set-up records: none."""
        return {}

    def end_turn(self, ctx: ActionContext, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """end-turn: the session's turn ends, whoever's it was."""
        return [{"kind": "turn-ended", "turn": ctx.state["turn"]}]


    def require_listed_treasure(self, ctx: ActionContext, chest: Mapping[str, Any], reported: Mapping[str, Any] | None) -> None:
        """A chest's reported treasure as its row lists it: before 1.6.0 a card reported from a chest that lists none was
        taken and dropped, so those sessions re-derive as played."""

    def require_both_monkey_kings(self, ctx: ActionContext) -> None:
        """The Monkey Kings' line, both alive (L492): checked from 1.6.0 on."""

    def require_zone_clear(self, ctx: ActionContext, cell: Mapping[str, Any]) -> None:
        """The cells of prisoners 9 and 10 shut while monsters live in Zone 4 (L396): checked from 1.6.0 on."""

    def require_power_dice_within_roll(self, ctx: ActionContext, results: Mapping[str, list[str]]) -> None:
        """An attack's power dice within the power die's max_per_roll (L139, L213): checked from 1.8.0 on."""

    def glyph_hit(self, ctx: ActionContext, params: Mapping[str, Any], rule: Mapping[str, Any]) -> int:
        """The wounds a glyph takes: as stated, before 1.8.0 held Zorek's hit to his glyph_attack_wounds (L686)."""
        return glyphs.hit_as_stated(ctx, params, rule)


class V1_1_0(V1_0_0):
    """Rules data 1.1.0: each quest's end in its own words (verdict.py); the pack's limit, the troll ambush's turn, the
    Power glyph's draw per trigger."""

    number = "1.1.0"
    def check_rules_data(self, data):
        super().check_rules_data(data)
        threat.check_rules_data(data)  # the Power glyph's draws per trigger

    def verdict(self, quest, game):
        return verdict.verdict(quest, game)

    def stow_potion(self, ctx, params, count, source):
        return conditions.stowed_within_limits(ctx, params, count, source)

    def spring_troll_ambush(self, ctx, ambush, purpose):
        return threat.troll_ambush_once_per_turn(ctx, ambush, purpose)

    def power_glyph_draw(self, ctx, params, rng, rule):
        return threat.power_draw_per_trigger(ctx, params, rng, rule)


class V1_2_0(V1_1_0):
    """Rules data 1.2.0: combat, wounds and ready actions; the heroes' sheets from the set-up on."""

    number = "1.2.0"
    records = V1_1_0.records | {"combat"}

    def check_rules_data(self, data):
        super().check_rules_data(data)
        combat.check_rules_data(data)  # a hero killed at 0 wounds, surges that stack
        figures.check_rules_data(data)  # a hero starts whole
        ready.check_rules_data(data)  # concentrate's prolonged order
        prisoners.check_thing_growth(data)  # the Thing's one rate of growth, stated by the quest and the named monster

    def hero_sheets_at_set_up(self, ctx, party, stated):
        return {"hero_sheets": figures.hero_sheets(ctx.ruleset.data, party, stated)}

    def figures_entering(self, ctx, entries, source):
        return [figures.figures_entering(ctx, list(entries), source)]

    def potion_recovery(self, ctx, params):
        return conditions.recovered(ctx, params)


class V1_3_0(V1_2_0):
    """Rules data 1.3.0: the figures' special abilities and daze, tokens on monsters, familiars."""

    number = "1.3.0"
    records = V1_2_0.records | {"abilities"}

    def check_rules_data(self, data):
        super().check_rules_data(data)
        abilities.check_rules_data(data)  # Fear's miss, one Leap a turn

    def attack_abilities(self, combat):
        return attack_abilities.Applied(combat["abilities"])

    def when_spirits_fall(self, ctx, changes, working):
        return named_deaths.when_spirits_fall(ctx, changes, working)


class V1_4_0(V1_3_0):
    """Rules data 1.4.0: the data changed, the rules that play it did not."""

    number = "1.4.0"


class V1_5_0(V1_4_0):
    """Rules data 1.5.0: a monster's surges buy threat with its attack, one dodge re-roll per leap
    (spirits as figures are in the quest's data)."""

    number = "1.5.0"

    def attack_abilities(self, combat):
        return attack_abilities.AppliedOneDodgePerLeap(combat["abilities"])

    def surges_to_threat(self, ctx, params, attacker_side, of_attacker):
        return combat.surges_to_threat(ctx, params, attacker_side, of_attacker, ctx.ruleset.data["combat"]["surges_buy_threat"])

    def spirit_figures(self, ctx, quest):
        return (quest.get("spirits") or {}).get("as_figures")


class V1_6_0(V1_5_0):
    """Rules data 1.6.0: monster figures carry the zone the table reports, and the rules on figures and
    zones are checked: a chest gives what its row lists, the Monkey Kings' line needs both alive, the Thing's cells
    stay shut while monsters live in Zone 4 (figure_conditions.py)."""

    number = "1.6.0"

    def require_listed_treasure(self, ctx, chest, reported):
        figure_conditions.require_listed_treasure(ctx, chest, reported)

    def require_both_monkey_kings(self, ctx):
        figure_conditions.require_both_monkey_kings(ctx)

    def require_zone_clear(self, ctx, cell):
        figure_conditions.require_zone_clear(ctx, cell)


class V1_7_0(V1_6_0):
    """Rules data 1.7.0 (the code's own): the turn, the heroes' turns then the overlord's (turn.py), with what may happen
    in each and who takes it."""

    number = "1.7.0"
    records = V1_6_0.records | {"turns"}

    def allowed(self, game, actions, quest):
        return turn.allowed_now(game, actions, quest)

    def in_its_moment(self, ctx, action, params):
        turn.require_moment(ctx, action, params)

    def anytime_actions(self, actions):
        # turn.py's ANYTIME: "Whenever it happens, in either side's turn" (L241 "at any time, even during a hero player's
        # turn"; L579), and the corrections; the turn's own moments (a hero's turn, the overlord's) stay on top.
        return tuple(a for a in actions if a in turn.ANYTIME)

    def turn_at_set_up(self):
        return turn.at_set_up()

    def end_turn(self, ctx, params):
        return turn.end_overlord_turn(ctx, params)


class V1_8_0(V1_7_0):
    """Rules data 1.8.0 (the code's own): what the rules data states and earlier versions took as the table's word,
    enforced from the data's values: an attack rolls at most the power die's ``max_per_roll`` (L139, L213), and Zorek's
    hit on a glyph deals the quest's ``glyph_attack_wounds`` (L686)."""

    number = "1.8.0"

    def require_power_dice_within_roll(self, ctx, results):
        combat.power_dice_within_roll(ctx, results)

    def glyph_hit(self, ctx, params, rule):
        return glyphs.zorek_hit(ctx, params, rule)


CHAIN = (V1_0_0, V1_1_0, V1_2_0, V1_3_0, V1_4_0, V1_5_0, V1_6_0, V1_7_0, V1_8_0)
CAME_WITH = {part: next(v.number for v in CHAIN if part in v.records) for part in CHAIN[-1].records}
BY_VERSION = {version.number: version() for version in CHAIN}


def of(number: str) -> V1_0_0:
    """The rules of a version of the rules data (one of BY_VERSION: every archived version and the code's own)."""
    return BY_VERSION[number]
