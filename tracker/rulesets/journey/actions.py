"""Journey's actions, its one ActionType list: the deck actions, the Skill reward, then its own, each a request schema
and a pure resolver over a Resolution (most in the small modules that answer one rule each)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tracker.core import decks
from tracker.core.errors import Unprocessable
from tracker.rulesets.engine.deck_actions import ACTIONS as DECK_ACTIONS
from tracker.rulesets.journey import attack, kei_lun, pilgrim_actions, readings, seal_of_the_underworld, spawn, turns
from tracker.rulesets.journey.resolution import Resolution
from tracker.rulesets.engine import correction
from tracker.rulesets.engine.ruleset import ActionContext, ActionType, action_schema

PILGRIM = {"enum": ["tripitaka", "monkey-king", "cho-hakkai", "monk-sha"]}
NAME = {"type": "string", "minLength": 1, "maxLength": 100}
FACE = {"enum": ["X", "0", "1", "2", "3"]}
FACES = {
    "type": "object",
    "description": "Dice rolled at the table, by die; the service rolls any die not reported.",
    "properties": {die: {"type": "array", "items": FACE, "maxItems": 10} for die in ("attack", "defense", "pilgrim", "demon")},
    "additionalProperties": False,
}
DRAWN = {
    "type": "object",
    "description": "Cards drawn from physical decks for this action, per deck, in the order drawn.",
    "additionalProperties": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200}, "maxItems": 100},
}
COUNT = {"type": "integer", "minimum": 0, "maximum": 20}
DEMONS = {"enum": ["berrok", "bharhaz", "borrack", "boof", "kogaiji", "yazuiji", "koorogg"]}
PROMOTION_SAID = {
    "type": "object",
    "description": "How the promotion tree reads, for a Demon with no miniature left, when the campaign's component data does not hold "
                   "the tree (L604-L606): the tougher Demons in order, an empty list for none (Demon Rage). Recorded as stated.",
    "additionalProperties": {"type": "array", "items": DEMONS, "maxItems": 10},
}
CARDS_SAID = {
    "type": "object",
    "description": "What each Demon card drawn at the table does, for cards the campaign's component data does not hold: recorded as stated.",
    "additionalProperties": {
        "type": "object",
        "properties": {"kind": {"enum": ["reinforcement", "unique", "special"]}, "spawns": {"type": "array", "items": DEMONS, "maxItems": 20},
                       "duration": {"type": "string", "maxLength": 100}},
        "required": ["kind"],
        "additionalProperties": False,
    },
    "maxProperties": 20,
}


def _action(
    name: str, description: str, properties: dict[str, Any], required: list[str], step: Callable[[Resolution, Mapping[str, Any]], None],
    reports: Mapping[str, str] | None = None,
) -> ActionType:
    def resolve(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        res = Resolution(ctx, rng, params.get("drawn"))
        step(res, params)
        return res.finish()

    return ActionType(name, description, action_schema({**properties, "drawn": DRAWN}, required), resolve, random=True, reports=reports or {})


HERO = {"hero": PILGRIM}
# What the table states of one attack when a fact it needs was lost and not supplied (attack.py): recorded as stated.
STATED_ATTACK = {
    "type": "object",
    "description": "The results the table reads from the physical components when the fact was lost: each only where that fact is unknown.",
    "properties": {
        "weapon": {"type": "object", "description": "The Weapon Card's effect for the Pilgrim Die face rolled (its table lost).",
                   "properties": {"damage": COUNT, "knock_back": COUNT}, "additionalProperties": False},
        "defeated": {"type": "boolean", "description": "Whether the attack reached the Demon's HP (its HP lost)."},
        "karma": COUNT | {"description": "The Karma the Pilgrim gains: the Demon's BKR on a Kill, its GKR on a successful Cleanse (lost)."},
        "cleansed": {"type": "boolean", "description": "Whether the Cleanse Ritual roll reached the Demon's SP (its SP lost)."},
    },
    "additionalProperties": False,
}
CORRECTABLE = ("hp", "max_hp", "chi", "good", "bad", "weapon_level")  # the numbers on a Pilgrim's sheet


def _correct(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    return [correction.change(ctx.game.get("heroes") or {}, params, int(ctx.state["version"]))]


def _skill_deck(ctx: ActionContext, pilgrim: str) -> str:
    for deck in ctx.ruleset.data["decks"]:
        if deck.get("owner") == pilgrim and deck.get("card_kinds"):
            return deck["id"]
    pilgrims = [c["id"] for c in ctx.ruleset.data["characters"] if c.get("role") == "pilgrim"]
    raise Unprocessable(
        f"'{pilgrim}' is not a Pilgrim with a Skill deck",
        detail=f"Pilgrims: {pilgrims}.",
        errors={"pilgrim": [f"Not a Pilgrim: {pilgrim}"]},
    )


def skill_reward(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    """A Good-Karma Skill reward (L551): draw from your own Skill deck until a card of the needed
    kind comes up; the others go to that deck's Discard Pile; the card goes to your hand."""
    spec = ctx.deck(_skill_deck(ctx, params["pilgrim"]))
    state = ctx.state["decks"][spec.id]
    return decks.resolve_draw_until_kind(state, spec.name, params["kind"], spec.kind_of, rng, holder=params["pilgrim"])


ACTIONS = [
    *DECK_ACTIONS,
    ActionType(
        "skill-reward",
        "Draw from the Pilgrim's own Skill deck until a card of the needed kind (one-time or permanent) comes up (L551).",
        {
            "type": "object",
            "properties": {
                "type": {"type": "string"},
                "pilgrim": {"type": "string", "minLength": 1, "maxLength": 100},
                "kind": {"enum": ["one-time", "permanent"]},
            },
            "required": ["type", "pilgrim", "kind"],
            "additionalProperties": False,
        },
        skill_reward,
        random=True,
    ),
    _action("maintenance", "Maintenance Phase: expire conditions, apply ongoing effects, turn Unconscious Pilgrims, end Demon Rage, discard special Demon cards (L349-L358).",
            {"ongoing_damage": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": COUNT}},
             "special_cards_lasting": {"type": "array", "items": NAME}}, [], turns.maintenance),
    _action("activate-pilgrim", "The next Pilgrim in initiative order activates with 2 AP; the previous activation's unused AP are lost (L362).",
            {**HERO, "extra_ap": {"type": "integer", "minimum": 0, "maximum": 3}}, ["hero"], turns.activate),
    _action("end-activation", "The active Pilgrim ends its activation; unused AP are lost.", {}, [], turns.end_activation),
    _action("demon-phase", "The Pilgrim Phase ends and the Demon Phase begins.", {}, [], turns.demon_phase),
    _action("end-of-turn", "End of Turn Phase: a Turn Token on every multi-turn card; the next turn begins with Maintenance.", {}, [], turns.end_of_turn),
    _action("pilgrim-attack", "A Pilgrim attacks a Demon in play: Attack Dice, weapon look-up, One Hit Kill, then Kill or Cleanse (L462-L542). "
            "Quest 10 Part 2: +1 ATT against the Bull Demon King per Villager Token the Pilgrim holds, as the table reads it (state-reading, L1077).",
            {**HERO, "target": NAME, "faces": FACES, "cleanse_faces": {"type": "array", "items": FACE, "maxItems": 5},
             "outcome": {"enum": ["kill", "cleanse", "interrupted"]}, "knock_back_blocked": COUNT, "bonus_damage": COUNT,
             "cleanse_bonus": COUNT, "golden_peach": {"type": "boolean", "description": "Q7: Kei Lun guards the chest and the Sutra holders share its Map Tile (the table's word; L938-L941)."},
             "stated": STATED_ATTACK},
            ["hero", "target"], attack.pilgrim_attacks),
    _action("demon-attack", "A Demon attacks a Pilgrim: Attack Dice and Demon Die against Defense Dice (+1 on green terrain) (L462-L522).",
            {"demon": NAME, "target": {"enum": [*PILGRIM["enum"], "kei-lun"]}, "faces": FACES, "green_terrain": {"type": "boolean"}, "knock_back_blocked": COUNT,
             "bonus_damage": COUNT,
             "stated": {"type": "object", "description": "The Demon Die's effect for the face rolled, when the Demon's sheet was lost; the Health the "
                        "target's profile sheet shows, when the log has none (from rules 1.5.0; recorded as stated).",
                        "properties": {"demon_die": {"type": "object", "properties": {"damage": COUNT, "knock_back": COUNT, "condition": NAME}, "additionalProperties": False},
                                       "health": {"type": "integer", "minimum": 0, "maximum": 50}},
                        "additionalProperties": False}},
            ["demon", "target"], attack.demon_attacks),
    _action("rest", "Rest: +5 Chi up to 10, twice per activation (L437).", HERO, ["hero"], pilgrim_actions.rest),
    _action("pray", "Pray at a Mystical Box: draw 1 Fortune Card (L413).", HERO, ["hero"], pilgrim_actions.pray),
    _action("meditate", "Meditate at a Mystical Box: spin; white: look at 3 Fortune Cards and keep 1; black: 1 Misfortune Card (L416-L421).",
            {**HERO, "spin": {"enum": ["white", "black"]}}, ["hero"], pilgrim_actions.meditate, reports={"die:spinner": "spin"}),
    _action("keep-fortune", "Keep 1 of the 3 Fortune Cards from a white Meditate spin; the other 2 are discarded.", {**HERO, "card": NAME}, ["hero", "card"], pilgrim_actions.keep_fortune),
    _action("recover", "Recover at a Water Well: all Health back, each Pilgrim each Well once per quest (L433-L435).", {**HERO, "well": NAME}, ["hero", "well"], pilgrim_actions.recover),
    _action("rescue-villager", "Rescue a Villager: +3 Good Karma (L431). Quest 9: spin first (spin: white is Good Fortune, the Elder Monk; black is Bad Fortune, a Bull General); others_in_room: the other Villager tokens in the Elder Monk's room (L1016-L1019).",
            {**HERO, "villager": NAME, "spin": {"enum": ["white", "black"]}, "others_in_room": {"type": "array", "items": NAME, "maxItems": 4, "uniqueItems": True}},
            ["hero", "villager"], pilgrim_actions.rescue_villager, reports={"die:spinner": "spin"}),
    _action("collect-sutra", "Collect a Sutra (L429).", {**HERO, "sutra": NAME}, ["hero", "sutra"], pilgrim_actions.collect_sutra),
    _action("break-door", "Break down a door (L424-L427).", {**HERO, "door": NAME}, ["hero", "door"], pilgrim_actions.break_door),
    _action("close-gate", "Tripitaka closes a Gate, spending 1 Sutra (L374).", {**HERO, "gate": NAME, "sutra": NAME}, ["hero", "gate"], pilgrim_actions.close_gate),
    _action("revive", "Tripitaka revives an Unconscious Pilgrim with 1-5 of his HP and 0-5 of his Chi (L440-L449).",
            {**HERO, "target": PILGRIM, "hp": {"type": "integer", "minimum": 1, "maximum": 5}, "chi": {"type": "integer", "minimum": 0, "maximum": 5}},
            ["hero", "target", "hp"], pilgrim_actions.revive),
    _action("master-skill", "Master Skill: 4 Good Karma and 1 AP for a one-time Skill Card, once per activation (L547).", HERO, ["hero"], pilgrim_actions.master_skill),
    _action("play-card", "Play a card from hand: pay its Chi/AP/HP costs, then apply what it did (L253-L327).",
            {**HERO, "deck": NAME, "card": NAME, "keep": {"type": "boolean"},
             "costs": {"type": "object", "properties": {"chi": COUNT, "ap": COUNT, "hp": COUNT}, "additionalProperties": False},
             "effects": {"type": "object", "properties": {"heal": COUNT, "damage": COUNT, "chi": {"type": "integer", "minimum": -10, "maximum": 10},
                                                          "good_karma": {"type": "integer", "minimum": -20, "maximum": 20},
                                                          "bad_karma": {"type": "integer", "minimum": -20, "maximum": 20},
                                                          "condition": NAME}, "additionalProperties": False}},
            ["hero", "deck", "card"], pilgrim_actions.play_card),
    _action("discard-condition", "Discard a Condition Card whose end a card decides (durations the rules lost).",
            {**HERO, "condition": NAME, "reason": NAME}, ["hero", "condition"], pilgrim_actions.discard_condition),
    _action("take-starting-skills", "Report the set-up Skill Cards a Pilgrim drew from the physical deck (kinds as printed: one-time or permanent).",
            {**HERO, "kinds": {"type": "object", "additionalProperties": {"enum": ["one-time", "permanent"]}}}, ["hero"], pilgrim_actions.take_starting_skills),
    _action("red-line-damage", "Red Line squares: 1 damage to a Pilgrim per square entered, or after a full turn stood in one (L566, L571); Demons take none.",
            {**HERO, "squares": {"type": "integer", "minimum": 1, "maximum": 10}, "how": {"enum": ["entered", "stationary"]}}, ["hero", "squares"], pilgrim_actions.red_line_damage),
    _action("report-health", "Record the Health shown on a Pilgrim's profile sheet (the rules lost maximum HP).",
            {**HERO, "hp": {"type": "integer", "minimum": 0, "maximum": 50}}, ["hero", "hp"], pilgrim_actions.report_health),
    _action("spawn-demons", "Demon spawn: one card per active Gate, closest to Tripitaka first; redraws, promotion, Demon Rage (L595-L608). "
            "Quest 10 Part 2: instead 2 cards per Demon Lord chanting the Summoning Mantra (chanting: the Lords with no Pilgrim on their Map Tile), alternately from the two single Gates (L1087-L1088).",
            {"gates": {"type": "array", "items": NAME, "maxItems": 10}, "chanting": {"type": "array", "items": NAME, "maxItems": 3, "uniqueItems": True},
             "cards_said": CARDS_SAID, "promotion_said": PROMOTION_SAID}, ["gates"], spawn.spawn),
    _action("gate-activation", "A Gate becomes active or inactive as its quest says (stepping onto its Map Tile, Turn Tokens, doors); closed Gates never reactivate (L590-L594, L657-L658).",
            {"gate": NAME, "state": {"enum": ["active", "inactive"]}, "reason": NAME}, ["gate", "state"], spawn.change_gate),
    _action("remove-demon", "A quest rule or card removes a Demon: no Karma (L660, L976, L1014).", {"demon": NAME, "reason": NAME}, ["demon", "reason"], spawn.remove_demon),
    _action("place-demon", "A quest rule places a Demon (transformation, respawn).", {"character": NAME, "reason": NAME}, ["character", "reason"], spawn.place_demon),
    _action("kei-lun-attack", "Kei Lun's 1 Action after the Pilgrims: Q5 he attacks Pilgrims (L852); Q7 Demons and Pilgrims, Killing Demons with no Cleanse and no Karma (L934-L936). His dice are reported.",
            {"target": NAME, "faces": {"type": "array", "items": FACE, "minItems": 1, "maxItems": 10}, "defense": {"type": "array", "items": FACE, "maxItems": 10},
             "stated": {"type": "object", "description": "Whether the attack reached the Demon's HP, when its HP was lost (recorded as stated).",
                        "properties": {"defeated": STATED_ATTACK["properties"]["defeated"]}, "additionalProperties": False}},
            ["target", "faces"], kei_lun.attacks),
    _action("sealing-ritual", "Quest 10 Part 2: Tripitaka, adjacent to the broken Seal (the table's word), spends 1 AP to throw in the 4 Sutras; no Demon Lord may be in the lair (L1096-L1099).",
            HERO, ["hero"], seal_of_the_underworld.sealing_ritual),
    _action("state-reading", "The table states, once for the campaign, how it reads a rule the rulebook leaves open; every later quest plays by it. "
            "Quest 10 Part 2's Villager bonus (L1077, reading villager-att-bonus): attack-die, one more Attack Die per Villager Token held, or "
            "total, +1 to the attack's total per token (the quest's villager_att_bonus_reading in GET /rulesets/journey).",
            {"reading": {"enum": ["villager-att-bonus"]}, "choice": {"enum": ["attack-die", "total"]}}, ["reading", "choice"], readings.state_reading),
    ActionType("correct", correction.DESCRIPTION,
               action_schema(correction.properties(PILGRIM, CORRECTABLE, {"type": "integer", "minimum": 0, "maximum": 50}), correction.REQUIRED), _correct),
]
