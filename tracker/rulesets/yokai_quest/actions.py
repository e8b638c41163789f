"""The action types of Yōkai Quest and the JSON Schemas of their requests."""

from __future__ import annotations

from typing import Any

from tracker.rulesets.engine import correction
from tracker.rulesets.engine.deck_actions import ACTIONS as DECK_ACTIONS
from tracker.rulesets.engine.ruleset import ActionType, action_schema
from tracker.rulesets.yokai_quest import combat, energy, heroes, scenes, treasure, yokai_phase
from tracker.rulesets.yokai_quest.published import as_published
from tracker.rulesets.yokai_quest.state import ALTERED_STATES

ID = {"type": "string", "minLength": 1, "maxLength": 100}
CORRECTABLE = ("health", "max_health", "energy")  # the numbers on a hero's control panel (tracker/rulesets/engine/correction.py)


def _correct(ctx: Any, params: Any, rng: Any) -> list[dict[str, Any]]:
    return [correction.change(ctx.game.get("heroes") or {}, params, int(ctx.state["version"]))]
_CARD = {"type": "string", "minLength": 1, "maxLength": 200}
_COUNT = {"type": "integer", "minimum": 0, "maximum": 30}
_DICE = {
    "type": "object",
    "properties": {"red": {"type": "integer", "minimum": 0, "maximum": 10}, "blue": {"type": "integer", "minimum": 0, "maximum": 10}},
    "additionalProperties": False,
    "minProperties": 1,
}
_FACE = {"enum": ["katana", "helmet", "katana-helmet", "blank"]}
_FACES = {
    "type": "object",
    "properties": {colour: {"type": "array", "items": _FACE, "maxItems": 10} for colour in ("red", "blue")},
    "additionalProperties": False,
    "minProperties": 1,
}
_AMOUNTS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 30}, "maxProperties": 6}
_HEAL = {"type": "object", "additionalProperties": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 30}, {"const": "all"}]}, "maxProperties": 6}
_PANEL_DISCARD = {
    "type": "object",
    "additionalProperties": _CARD,
    "description": "For each hero this may defeat: the equipped object they discard (their player's choice).",
}




_ACTIONS = {
    "type": "integer",
    "minimum": 0,
    "maximum": 2,
    "description": "The actions its card's activation cost takes: 1 or 2 of the hero's two (L416), spent in the hero's activation in "
    "the Hero phase; 0 for a quick reaction, usable at any time (L423). The cards' costs were lost: the table states it.",
}

COINS = {
    "type": "object",
    "properties": {"red-blue": {"enum": ["red", "blue"]}, "green-yellow": {"enum": ["green", "yellow"]}},
    "additionalProperties": False,
}

_TARGET = {
    "type": "object",
    "properties": {
        "defender": ID,
        "attack_dice": _DICE,
        "attack_faces": _FACES,
        "defense_dice": _DICE,
        "defense_faces": _FACES,
        "altered_state": {"enum": list(ALTERED_STATES), "description": "The state the attacked hero also receives."},
    },
    "required": ["defender"],
    "additionalProperties": False,
}

# The game's own actions. Where one has a deck action's name (end-turn), the game's own stands in its place.
OWN = [
    ActionType(
        "attack",
        "An attack: per target, the attacker's dice (katanas kept) against the defender's (helmets kept); "
        "the attacker is a hero, a yōkai by type, a chief on the board, or one of the scene's scenario_attacks (Flames rain). "
        "A hero's attack is a basic attack (one action of the activation, one target: L398, L408) unless it names the ability "
        "or item it comes from, used this turn with 'use-ability' or 'use-item' (which paid its costs). Yōkai, chiefs and the "
        "scene's attacks come in the Yōkai phase (L192, L936), not from a yōkai type whose every miniature is paralysed (L610). "
        "blows = katanas - helmets, after Daze (-1 katana) and Crush (-1 helmet). Dice are the combination on the card "
        "(attack_dice/defense_dice, digital) or faces rolled on the table (attack_faces/defense_faces).",
        action_schema(
            {
                "attacker": ID,
                "source": {"type": "string", "maxLength": 200, "description": "basic attack, an ability, an item or a yōkai ability; a chief's ability by its name "
                           "(\"Energy drain!\"), whose stated target and blows the scene's chief.attacks give"},
                "ability": {**ID, "description": "The hero's ability this attack comes from, used this turn ('use-ability')."},
                "item": {**_CARD, "description": "The treasure item this attack comes from, used this turn ('use-item')."},
                "targets": {"type": "array", "items": _TARGET, "minItems": 1, "maxItems": 20},
                "guaranteed_katanas": {**_COUNT, "description": "katana results the attack adds (Kiri Susumu, Akatsuki, an empowered yōkai)"},
                "blows_remove": {"enum": list(combat.CONVERSIONS), "description": "health (the rule), energy (Energy drain!), energy-and-health (Sound barrier!), energy-then-health (I'm losing control!)"},
                "panel_discard": _PANEL_DISCARD,
            },
            ["attacker", "targets"],
        ),
        combat.attack,
        random=True,
    ),
    ActionType(
        "draw-energy",
        "A hero draws an energy card at the start of the hero phase: 1-3 spheres, the reserve capped at 7. "
        "One card per hero each Hero phase, drawn before the heroes' activations begin (L156-L158, L780). "
        "Digital when the campaign supplied the energy cards; otherwise report the spheres (and the card).",
        action_schema(
            {"hero": ID, "spheres": {"type": "integer", "minimum": 1, "maximum": 3}, "card": _CARD, "empowerment": {"type": "string", "maxLength": 200}},
            ["hero"],
        ),
        energy.draw_energy,
        random=True,
    ),
    ActionType(
        "use-ability",
        "A hero uses an ability: costs paid (actions of the activation, energy, health; reload tokens placed), then its effects "
        "(healing, energy, treasure tokens, reload reduced, empowerment until the end of the turn). Attacks follow as 'attack', "
        "naming the ability.",
        action_schema(
            {
                "hero": ID,
                "ability": ID,
                "actions": _ACTIONS,
                "energy": _COUNT,
                "health": _COUNT,
                "reload": _COUNT,
                "reduce_reload": _AMOUNTS,
                "empowered": {"type": "boolean"},
                "heal": _HEAL,
                "restore_energy": _AMOUNTS,
                "treasure_tokens": _COUNT,
            },
            ["hero", "ability"],
        ),
        heroes.use_ability,
    ),
    ActionType(
        "use-item",
        "A hero uses a treasure item: consumables from the hand (then discarded), charms and enchantments from their space; "
        "Ikikaeru Rōsoku brings back a defeated hero with half their maximum health (rounded up).",
        action_schema(
            {
                "hero": ID,
                "item": _CARD,
                "actions": _ACTIONS,
                "energy": _COUNT,
                "consumable_resource": {"type": "boolean"},
                "empowered": {"type": "boolean"},
                "heal": _HEAL,
                "restore_energy": _AMOUNTS,
                "treasure_tokens": _COUNT,
                "revive": ID,
            },
            ["hero", "item"],
        ),
        heroes.use_item,
    ),
    ActionType(
        "lose-tokens",
        "A hero loses health or energy tokens outside an attack (Facemelter solo!, Purple gas, Extreme heat).",
        action_schema({"hero": ID, "health": _COUNT, "energy": _COUNT, "source": {"type": "string", "minLength": 1, "maxLength": 200}, "panel_discard": _CARD}, ["hero", "source"]),
        heroes.lose_tokens,
    ),
    ActionType(
        "move",
        "A hero moves in their activation: the one basic movement of up to three squares (L398), or a run, which costs one of "
        "the two actions (L404). The board is not tracked: the squares are the table's. A hero waiting at the entrance point "
        "(every hero at the scene's start, one the candle brings back) enters with the basic movement and does nothing else "
        "before it (L214).",
        action_schema({"hero": ID, "movement": {"enum": ["basic", "run"]}}, ["hero", "movement"]),
        heroes.move,
    ),
    ActionType(
        "end-activation",
        "A hero's activation ends, or is taken with everything renounced (L400): one altered-state token of each type and one "
        "reload token from each ability come off (L160). Each hero activates once a Hero phase, one at a time (L158, L398); "
        "the Yōkai phase begins when every hero standing has.",
        action_schema({"hero": ID}, ["hero"]),
        heroes.end_activation,
    ),
    ActionType(
        "draw-treasure",
        "A hero draws a treasure card owed to them (treasure reserve at 5, a scene reward or achievement); a search names the card. "
        "Over the hand limit of 4, name the card to discard.",
        action_schema({"hero": ID, "card": _CARD, "discard": _CARD}, ["hero"]),
        treasure.draw_treasure,
        random=True,
        reports={"deck:treasure": "card"},  # the card drawn from the physical deck
    ),
    ActionType(
        "equip",
        "Move a charm or enchantment from the hand to its panel space; swapping out an equipped item is allowed once per turn.",
        action_schema({"hero": ID, "card": _CARD}, ["hero", "card"]),
        treasure.equip,
    ),
    ActionType(
        "unequip",
        "Move an equipped item back to the hand.",
        action_schema({"hero": ID, "card": _CARD}, ["hero", "card"]),
        treasure.unequip,
    ),
    ActionType(
        "discard-item",
        "Refuse or discard a treasure card, from the hand or a panel space.",
        action_schema({"hero": ID, "card": _CARD, "reason": {"type": "string", "maxLength": 200}}, ["hero", "card"]),
        treasure.discard_item,
    ),
    ActionType(
        "foe-appeared",
        "A chief the scene brings in arrives on the board with the scene's health, once, in the Yōkai phase of the turn its text "
        "names (chief.arrives: Frozen Tracks 2's Undead Dark Champion on turn 5, L1014). Chiefs and objectives present from the "
        "beginning are set up with the scene.",
        action_schema({"foe": ID}, ["foe"]),
        scenes.foe_appeared,
    ),
    ActionType(
        "foe-recovered",
        "A chief recovers health by its own ability, as the scene gives it (the Tengu's 'March of the true lord!', L1109), "
        "never above the Health the scene sets.",
        action_schema({"foe": ID, "ability": ID}, ["foe", "ability"]),
        scenes.foe_recovered,
    ),
    ActionType(
        "begin-yokai-phase",
        "The Yōkai phase begins: the red/blue coin turns, and the green/yellow one where the scene says every turn (L166); the "
        "answer lists the appearance points that draw a card, the scripted spawns due and the initiative order. State a coin's "
        "face in \"coins\" while the log does not know it.",
        action_schema({"coins": COINS}, []),
        yokai_phase.begin,
    ),
    ActionType(
        "draw-appearance",
        "Draw an appearance card for a point whose colour matches a coin (one per such point each Yōkai phase, L166, L786): "
        "digitally, or name the card drawn on the table. Place what it shows with 'yokai-appear'.",
        action_schema({"point": {"enum": ["purple", "red", "blue", "green", "yellow"]}, "card": _CARD}, ["point"]),
        yokai_phase.draw_appearance,
        random=True,
    ),
    ActionType(
        "yokai-appear",
        "Yōkai come into play: by 'appearance-card' (what the oldest drawn card shows; the cards' contents were lost, so the table "
        "reads them), by a scripted spawn of the scene (its id, checked against the scene's rule), or by 'refill'; "
        "those without a miniature left are discarded (L166).",
        action_schema(
            {"yokai": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 16}, "maxProperties": 8}, "by": ID},
            ["yokai", "by"],
        ),
        yokai_phase.appear,
    ),
    ActionType(
        "yokai-token",
        "A paralysis token (Fubuki no Majo, Makibishi, Mahi Fuuin) or a champion's empowerment token on yōkai in play, "
        "removed at the end of the Yōkai phase (L607-L614).",
        action_schema({"yokai": ID, "token": {"enum": ["paralysis", "champion"]}, "count": {"type": "integer", "minimum": 1, "maximum": 16}, "source": {"type": "string", "maxLength": 200}}, ["yokai", "token"]),
        yokai_phase.token,
    ),
    ActionType(
        "end-turn",
        "End the turn after its Yōkai phase: paralysis and champion tokens come off, hero empowerments expire, the equipment "
        "swap and consumable resource renew, energy reminders are discarded.",
        action_schema({}, []),
        scenes.end_turn,
    ),
    ActionType(
        "end-scene",
        "End the scene: 'victory' (a victory condition met; achievements earned; defeated heroes return with 1 health; rewards) "
        "or 'failed' (a victory condition can no longer be met, or every hero is defeated; the defeat penalty applies).",
        action_schema(
            {
                "outcome": {"enum": ["victory", "failed"]},
                "reason": {"type": "string", "maxLength": 200},
                "victory_condition": ID,
                "achievements": {"type": "array", "items": ID, "maxItems": 5, "uniqueItems": True},
                "searcher": ID,
                "reported": {
                    "type": "object",
                    "additionalProperties": {"type": "string", "minLength": 1, "maxLength": 500},
                    "maxProperties": 5,
                    "description": "Facts the log cannot know, stated by the table, by the id of the condition that asks for them "
                    "(e.g. Lair of Anger's 'heroes-reach-purple'); recorded with the scene's end.",
                },
            },
            ["outcome"],
        ),
        scenes.end_scene,
    ),
    ActionType(
        "correct",
        correction.DESCRIPTION,
        action_schema(correction.properties(ID, CORRECTABLE, {"type": "integer", "minimum": 0, "maximum": 30}), correction.REQUIRED),
        _correct,
    ),
]

ACTIONS = [*(action for action in DECK_ACTIONS if action.name not in {own.name for own in OWN}), *(as_published(action) for action in OWN)]
