"""Yōkai Quest's rules versions as code: each version of the rules data maps to the rules that play it, a later
version overriding only what changed from the one before. The archive keeps each version's data and contract
(tracker/rulesets/versions/yokai-quest/); a campaign's sessions play and verify by the class of the version it pinned
(``YokaiQuestRules.version``), so today's resolvers ask it and hold no version checks of their own.

1.0.0 had no Yōkai phase: its turns were the heroes' actions and the yōkai's attacks in any order, it counted no
yōkai in play, took no set-up choices, recorded no verdicts and checked a session's end in its carry-over. 1.1.0
brought the Yōkai phase (yokai_rules.coins) with its actions; 1.2.0, 1.3.0 and 1.4.0 changed the data only; 1.5.0 (the
code's own) gave the Tengu's Energy drain! its stated target back (L1082).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.ruleset import ActionContext, ActionType, GameRules
from tracker.rulesets.yokai_quest import allowed as next_actions
from tracker.rulesets.yokai_quest import log_verdict
from tracker.rulesets.yokai_quest import activation, activation_order, campaign, chief_targets, combat, energy, entrance, heroes, scenes, yokai_phase
from tracker.rulesets.yokai_quest import verdict as decided
from tracker.rulesets.yokai_quest.plan import Plan

FAILED_UNSAID_1_0_0 = "a victory condition can no longer be met"  # 1.0.0's words for a failure stated without a reason


class V1_0_0:
    """Rules data 1.0.0, no Yōkai phase."""

    number = "1.0.0"

    def require_chosen(self, hero_id: str, hero: Mapping[str, Any], ability: str, abilities: Mapping[str, str]) -> None:
        return None  # its heroes chose no abilities: any of a hero's abilities could be used

    def reload_reduced(self, hero_id: str, hero: Mapping[str, Any], reduce: Mapping[str, int]) -> dict[str, int]:
        return heroes.reload_reduced_dropping(hero, reduce)  # an ability named that had no reload tokens was dropped

    def require_in_play(self, plan: Plan, yokai: str, field: str) -> None:
        return None  # it counted no basic yōkai in play: any yōkai could attack or be defeated

    def in_play_after_defeat(self, plan: Plan, yokai: str, foe: str | None) -> dict[str, int]:
        return {}  # (nor how many were left when one was defeated)

    # Its scenes ended as the table said (end-scene): a turn limit passed (scene_rules.before_turn), the heroes all
    # defeated (L763) and yōkai left on the board (L753) were the table's to judge, so its sessions re-derive as played.
    def fail_past_turn_limit(self, plan: Plan, scene: Mapping[str, Any], turn: int) -> None:
        return None

    def settle(self, plan: Plan) -> None:
        return None

    def require_board_clear(self, plan: Plan, scene: Mapping[str, Any]) -> None:
        return None

    def require_yokai_activation(self, plan: Plan, attacker: str) -> None:
        return None  # until 1.2.0 (yokai_rules.acts_in, L192, L936) a yōkai attacked without activating

    # -- the game's rules (GameRules) --
    def allowed(self, rules: GameRules, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        return GameRules.allowed(rules, quest, game, turn, actions)  # it kept no phases: every action, any time

    def verdict(self, data: Mapping[str, Any], game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        return None  # it recorded no verdicts: its sessions re-derive without one

    def end_refusal(self, scene: Mapping[str, Any], game: Mapping[str, Any], outcome: str) -> str | None:
        return None  # its end checked the outcome against the scene's end in carry-over (a 422)

    # Until 1.4.0 a scene was decided only by its end (end-scene, or a failure the log recorded), and a failure the
    # table stated was taken as stated: its sessions re-derive as played.
    def refuse_contradicted_end(self, plan: Plan, scene: Mapping[str, Any], outcome: str) -> None:
        return None

    def carry_over(self, data, progress, game, quest, outcome, options) -> dict[str, Any]:
        campaign.require_scene_end(game, outcome)
        carried = campaign.carry_over(data, progress, game, quest, outcome, options)
        carried.pop("in_play", None)  # it counted no yōkai in play: its progress keeps none
        return carried

    def action(self, action: ActionType) -> ActionType:
        """The action as this version published it: its contract's, or none; reading only the parameters that
        contract's schema gave it, as its resolvers did (the contract is archived with the version)."""

        def resolve(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
            schemas = {a["type"]: a["schema"] for a in ctx.ruleset.published["actions"]}
            if action.name not in schemas:
                raise Unprocessable(
                    f"Yōkai Quest {self.number} has no '{action.name}' action",
                    detail=f"This campaign plays the rules it was created with; their actions: {sorted(n for n in schemas if n != 'set-up-quest')}.",
                )
            read = schemas[action.name].get("properties")
            return action.resolve(ctx, params if read is None else {k: v for k, v in params.items() if k in read}, rng)

        return replace(action, resolve=resolve)

    # -- a scene's set-up --
    def setup_choices(self, params: Mapping[str, Any]) -> Mapping[str, Any]:
        return {}  # no stated Health, coins, abilities or objectives

    def hero_standing(self, standing: dict[str, Any], health_source: Any) -> None:
        del standing["abilities"]  # its heroes had no abilities chosen nor a source for their Health

    def objective_counts(self, scene: Mapping[str, Any], stated: Mapping[str, int]) -> dict[str, int] | None:
        return None  # it counted no objectives: an unstated number (Final Destination 2's Pillars) left them off the board

    def yokai_phase_at_set_up(self, data, coins, in_play) -> dict[str, Any]:
        return {}

    def kept_at_set_up(self, data: Mapping[str, Any], party: Sequence[str]) -> dict[str, Any]:
        """What a scene's state keeps of the heroes' activations, energy cards, entrance and the yōkai's order: none."""
        return {}

    # -- play --
    def end_yokai_phase(self, plan: Plan) -> None:
        return None  # its turns ended without one

    def energy_card_due(self, plan: Plan, hero_id: str) -> bool:
        """Whether an energy card drawn now is the hero's one of this Hero phase, checked (L156): the cards were taken on
        trust, with no once-a-phase check, until 1.4.0."""
        return False

    def activation_used(self, plan: Plan, hero_id: str, kind: str, name: str, params: Mapping[str, Any], what: str) -> None:
        return None  # it kept no activations (until 1.2.0): an ability or item costs no action

    def attack_activation(self, plan: Plan, hero_id: str, params: Mapping[str, Any]) -> None:
        return None

    def require_movements(self, ctx: ActionContext) -> None:
        raise Unprocessable(
            "This scene does not track the heroes' movements",
            detail=f"It was set up under Yōkai Quest {self.number}, whose rules data kept no activations; it plays on as it began.",
        )

    def end_activation(self, plan: Plan, hero_id: str) -> None:
        return None

    def hero_phase_over(self, plan: Plan) -> None:
        return None

    def initiative_recorded(self, plan: Plan, attacker: str) -> dict[str, int]:
        return {}  # it kept no order among the yōkai (until 1.4.0)

    def chief_may_attack(self, attacker: str, on_board: Sequence[str]) -> bool:
        return True  # any chief, on the board or not

    def chief_ability_target(self, ctx: ActionContext, plan: Plan, params: Mapping[str, Any]) -> None:
        """Whom a chief's ability attacks where its text names the target (Energy drain!, L1082): checked from 1.5.0 on."""

    def health_lost(self, lost: dict[str, Any], conversion: str | None) -> dict[str, Any]:
        return lost  # the blows' conversion was not recorded with the health lost

    def failure_reason(self, params: Mapping[str, Any]) -> str | None:
        return params.get("reason", FAILED_UNSAID_1_0_0)  # an empty reason stood

    def victory_recorded(self, met: Sequence[Mapping[str, Any]], reported: Mapping[str, Any]) -> dict[str, Any]:
        return {}  # only the one condition named

    def every_bullet_needed(self, scene: Mapping[str, Any]) -> bool:
        return False  # any one bullet won the scene


class V1_1_0(V1_0_0):
    """Rules data 1.1.0: the Yōkai phase (L166-L168, L614), its actions, set-up choices, verdicts and end refusals."""

    number = "1.1.0"

    def require_chosen(self, hero_id, hero, ability, abilities):
        heroes.require_chosen(hero_id, hero, ability, abilities)

    def reload_reduced(self, hero_id, hero, reduce):
        return heroes.reload_reduced(hero_id, hero, reduce)

    def require_in_play(self, plan, yokai, field):
        yokai_phase.require_counted_in_play(plan, yokai, field)

    def in_play_after_defeat(self, plan, yokai, foe):
        return {} if foe else {"in_play": plan.game["in_play"][yokai] - 1}

    def fail_past_turn_limit(self, plan, scene, turn):
        lost = decided.lost_by_turn(scene, plan.game, turn)
        if lost is not None:
            decided.fail(plan, scene, lost)

    def settle(self, plan):
        decided.fail_when_all_defeated(plan)

    def require_board_clear(self, plan, scene):
        scenes.require_board_clear(plan, scene)

    def allowed(self, rules, quest, game, turn, actions):
        return next_actions.allowed_now(game, actions)

    def verdict(self, data, game, turn):
        return decided.verdict(game)

    def end_refusal(self, scene, game, outcome):
        return decided.end_refusal(scene, game, outcome)

    def carry_over(self, data, progress, game, quest, outcome, options):
        return campaign.carry_over(data, progress, game, quest, outcome, options)

    def action(self, action):
        return action

    def setup_choices(self, params):
        return params.get("setup") or {}

    def hero_standing(self, standing, health_source):
        standing["max_health_source"] = health_source

    def objective_counts(self, scene, stated):
        return scenes.objective_counts(scene, stated)

    def yokai_phase_at_set_up(self, data, coins, in_play):
        return yokai_phase.at_set_up(data, coins, in_play)

    def end_yokai_phase(self, plan):
        yokai_phase.end_phase(plan)

    def chief_may_attack(self, attacker, on_board):
        return attacker in on_board

    def health_lost(self, lost, conversion):
        return {**lost, "blows_remove": conversion} if conversion else lost

    def failure_reason(self, params):
        return params.get("reason") or decided.TABLE_FAILED

    def victory_recorded(self, met, reported):
        return {"victory_conditions": [c["id"] for c in met], "reason": "; ".join(decided.quoted(c) for c in met), "reported": dict(reported)}

    def every_bullet_needed(self, scene):
        return decided.victory_needs_all(scene)


class V1_2_0(V1_1_0):
    """Rules data 1.2.0: the heroes' activations (hero_rules.activation, L398-L423); a yōkai attacks in the Yōkai phase,
    activated (yokai_rules.acts_in, L192, L936)."""

    number = "1.2.0"

    def require_yokai_activation(self, plan, attacker):
        combat.require_yokai_activation(plan, attacker)

    def kept_at_set_up(self, data, party):
        return activation.at_set_up(data)

    def activation_used(self, plan, hero_id, kind, name, params, what):
        activation.use(plan, hero_id, kind, name, activation.cost_of(plan, params, what))  # L412 "first you must satisfy its activation cost"

    def attack_activation(self, plan, hero_id, params):
        activation.attack_by(plan, hero_id, params)

    def require_movements(self, ctx):
        return None

    def end_activation(self, plan, hero_id):
        activation.end(plan, hero_id)

    def hero_phase_over(self, plan):
        activation.require_hero_phase_over(plan)


class V1_3_0(V1_2_0):
    """Rules data 1.3.0: the data changed, the rules that play it did not."""

    number = "1.3.0"


class V1_4_0(V1_3_0):
    """Rules data 1.4.0: one energy card a Hero phase (L156), the entrance point (L142, L214), the yōkai's
    activation order (L586, L588), and scenes won the moment the log shows it (L753, log_verdict.py)."""

    number = "1.4.0"

    def energy_card_due(self, plan, hero_id):
        energy.require_draw_due(plan, hero_id)
        return True

    def verdict(self, data, game, turn):
        ended = decided.verdict(game)  # the scene's end, recorded
        if ended is not None or not game.get("scene"):
            return ended
        scene = next(q for q in data["quests"] if q["id"] == game["scene"])
        return log_verdict.won(data, scene, game, turn)  # L753: the victory conditions met, no yōkai left

    def refuse_contradicted_end(self, plan, scene, outcome):
        log_verdict.refuse_contradicted_end(plan, scene, outcome)

    def kept_at_set_up(self, data, party):
        return {**super().kept_at_set_up(data, party), **energy.at_set_up(data), **entrance.at_set_up(data, party), **activation_order.at_set_up(data)}

    def initiative_recorded(self, plan, attacker):
        rank = activation_order.require_turn(plan, attacker)
        return {} if rank is None else {"initiative": rank}


class V1_5_0(V1_4_0):
    """Rules data 1.5.0 (the code's own): the Tengu's Energy drain! keeps its stated target, the hero with the most energy
    tokens (L1082), and its blows remove energy only (chief_targets.py)."""

    number = "1.5.0"

    def chief_ability_target(self, ctx, plan, params):
        chief_targets.require_target(ctx, plan, params)


BY_VERSION = {version.number: version() for version in (V1_0_0, V1_1_0, V1_2_0, V1_3_0, V1_4_0, V1_5_0)}


def of(number: str) -> V1_0_0:
    """The rules of a version of the rules data (one of BY_VERSION: every archived version and the code's own)."""
    return BY_VERSION[number]
