"""Whose turn it is in Descent, and what may happen now: the heroes' turns, then the overlord's turn (rules 1.7.0 on).

What the text gives of the turn order (the base game's own turn rules are not in the transcription, digest §10.1 item 2):
- L264 "The Hero Player's Turn" and L273 "The Overlord Player's Turn": each hero player has his turn, the overlord his.
- L345 "At the start of each of your turns, if none of the heroes opened a cell this turn": the overlord's turn (the quest
  guide's "your turn", digest line 9) follows the heroes' turns of the same turn, and "this turn" holds the heroes'.
  A reading (digest §10.2 item 6): a turn is every hero's turn, then the overlord's; the overlord's turn ends the turn.
- L528 "These descriptions are to be read at the start of the overlord's turn corresponding to each turn": one overlord
  turn per turn, numbered as the turns are.
- The order among the heroes is not in the text: the table chooses who goes next (a reading), each hero once a turn.
- L174 "At the start of the overlord's turn, before he does anything else, he must move all crushing walls in play",
  L345, L492, L528, L596, L685: the quests' start-of-turn rolls and scripts are the overlord's turn.
- L144 "The prolonged order action is removed from the hero at the end of your turn" (the hero's turn).

Within a moment each resolver still checks its own conditions: an entry here is "legal at this point of the turn", not a
promise that every body will be accepted. Records either side makes at the table whenever they happen (threat, conquest,
deaths, tokens placed, cards played, monsters entering play, corrections) stay open in every moment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tracker.core import wording
from tracker.core.errors import Conflict
from tracker.rulesets.descent import sides
from tracker.rulesets.descent.common import NAME, OVERLORD, refuse
from tracker.rulesets.engine import allowed
from tracker.rulesets.engine.deck_actions import NAMES as DECK_ACTIONS
from tracker.rulesets.engine.ruleset import ActionContext, ActionType, action_schema

HEROES_PHASE, OVERLORD_PHASE = "heroes", "overlord"
START_HERO_TURN, END_HERO_TURN, START_OVERLORD_TURN, END_TURN = "start-hero-turn", "end-hero-turn", "start-overlord-turn", "end-turn"
TURN_ACTIONS = (START_HERO_TURN, END_HERO_TURN, START_OVERLORD_TURN)  # the actions this version brought (end-turn is every game's)

# What the hero whose turn it is does in it, each naming him in its ``hero`` field (the chest's in ``opener``): his Ready
# or stunned half action (L133-L141), his movement points' uses (potions, L247; glyphs; doors; altars, L526), the
# prolonged actions he rolls (L144), town (L259-L262), and his own start-of-turn rolls (frost L195, tokens L294-L323).
HERO_TURN = (
    "ready", "stunned-half-action", "prolonged-roll", "complete-prolonged", "frost-turn-start", "condition-turn-start",
    "open-chest", "drink-potion", "buy-potion", "buy-treasure", "sell-chest-treasure", "town-travel", "activate-glyph",
    "restore-glyph", "close-stone-door", "open-cell", "open-zone-2-door", "activate-altar", "spirit-convinced",
    "push-crushing-wall", "disarm-crushing-trap", "spring-crushing-trap", "sharr-cleanses-glyph",
)
# The overlord's turn: the quests' start-of-turn rules (L174, L345, L492, L528, L596, L685), his monsters' tokens as
# they begin their turn (L317: "Normal monsters that begin a turn with a stun token"), the Thing's smashing a cell and
# the glyphs his monsters (and Zorek, L686 "When Zorek is activated") wound.
OVERLORD_TURN = (
    "move-crushing-walls", "sacrifice-clock", "monkey-kings-line", "turn-description", "move-fissures", "zorek-gaze",
    "monster-condition-turn-start", "thing-devours", "damage-glyph",
)
# Whenever it happens, in either side's turn: the overlord's cards and threat (L241 "at any time, even during a hero
# player's turn"; L579 the ambush "even during a hero's turn"), what a hero's move reveals or triggers (monsters and
# glyphs placed, a Summoning or Power glyph's effect), what an attack leaves (tokens, wounds, deaths, curses, frost
# checks), conquest awards, the stone doors' roll "at the end of each turn" (L691: which turn is left open, §10.2 item 13),
# the secret room's roll at the start, and corrections.
ANYTIME = (
    "gain-threat", "discard-for-threat", "play-overlord-card", "play-dark-relic", "spend-threat", "power-glyph-draw",
    "power-glyph-keep", "award-conquest", "place-glyph", "hero-killed", "gain-curses", "equip-cursed-item",
    "disrupt-prolonged", "gain-frost", "frost-check", "gain-potion", "use-invulnerability", "summoning-spawn",
    "roll-stone-doors", "thing-struck", "place-condition", "spirit-angered", "spirit-killed", "secret-room-roll",
    "place-monsters", "move-monsters", "state-wounds", "spend-fatigue", "recover", "aura-wound", "correct",
)
# The quest rule (its key in the quest's rules data) an overlord's start-of-turn action plays: listed only in that quest
# (its resolver refuses it elsewhere, whatever the moment).
QUEST_RULE = {"move-crushing-walls": "crushing_trap", "sacrifice-clock": "prisoners", "thing-devours": "prisoners",
              "monkey-kings-line": "monkey_kings_line", "turn-description": "turn_descriptions", "move-fissures": "fissures",
              "zorek-gaze": "zorek"}
ATTACK = "attack"
# The field of an action that names the hero acting in his turn.
HERO_FIELD = {"open-chest": "opener", ATTACK: "attacker"}


def at_set_up() -> dict[str, Any]:
    """The moment a quest starts in: the heroes' turns of turn 1, none of them under way."""
    return {"phase": HEROES_PHASE}


def _party(game: Mapping[str, Any]) -> list[str]:
    return list(game.get("heroes") or {})


def _waiting(game: Mapping[str, Any]) -> list[str]:
    taken = game.get("turns_taken") or []
    return [hero for hero in _party(game) if hero not in taken]


def _guarding(game: Mapping[str, Any]) -> list[str]:
    """Heroes holding a guard order, who may interrupt the overlord's turn with an attack (L579: "in the same way that a
    guard order interrupts your turn")."""
    return [hero for hero, sheet in (game.get("heroes") or {}).items() if "guard" in (sheet.get("orders") or [])]


def allowed_now(game: Mapping[str, Any], actions: Sequence[str], quest: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The action types legal now, each with who takes it: the hero whose turn it is, the heroes still to take theirs,
    the overlord, or anyone at the table. ``quest``: the quest's rules data; an action of a rule only some quests have
    is listed only in those."""
    phase, active = game.get("phase"), game.get("active")
    entries: list[dict[str, Any]] = []
    if phase == HEROES_PHASE and active:
        entries.extend(allowed.entry(name, [active], side=HEROES_PHASE) for name in (*HERO_TURN, ATTACK, END_HERO_TURN))
    elif phase == HEROES_PHASE:
        waiting = _waiting(game)
        if waiting:
            entries.append(allowed.entry(START_HERO_TURN, waiting, side=HEROES_PHASE))
        else:
            entries.append(allowed.entry(START_OVERLORD_TURN, side=OVERLORD))
    elif phase == OVERLORD_PHASE:
        entries.extend(allowed.entry(name, side=OVERLORD) for name in OVERLORD_TURN if quest is None or QUEST_RULE.get(name, "") in quest or name not in QUEST_RULE)
        guarding = _guarding(game)
        if guarding:
            entries.append(allowed.entry(ATTACK, guarding, side=HEROES_PHASE))
        entries.append(allowed.entry(END_TURN, side=OVERLORD))
    if phase in (HEROES_PHASE, OVERLORD_PHASE):
        # The overlord's monsters attack in his turn; in a hero's turn the ambush troll does (L577-L579), and between the
        # heroes' turns a hero's animated monster activates (L233 "moves after the controlling hero's turn ends").
        entries.append(allowed.entry(ATTACK, side=OVERLORD))
        entries.extend(allowed.entry(name, side=sides.side_of_action_type(name)) for name in ANYTIME)
        entries.extend(allowed.entry(name) for name in DECK_ACTIONS if name != END_TURN)
    return [e for e in entries if e["type"] in actions]


# -- Refusing what is out of its moment -------------------------------------------------------------------------------


def names(ctx: ActionContext) -> dict[str, str]:
    return {c["id"]: c["name"] for c in ctx.ruleset.data.get("characters", [])}


def listed(items: Sequence[str]) -> str:
    """Plain English: "Tahlia", "Tahlia and Aurim", "Tahlia, Aurim and Sir Valadir"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def moment(game: Mapping[str, Any], said: Mapping[str, str], turn: int) -> str:
    """Whose turn it is, in words."""
    if game.get("phase") == OVERLORD_PHASE:
        return f"the overlord's turn (turn {turn})"
    if game.get("active"):
        return f"{said.get(game['active'], game['active'])}'s turn (turn {turn})"
    waiting = [said.get(h, h) for h in _waiting(game)]
    if waiting:
        return f"the heroes' turns of turn {turn}, between two of them ({listed(waiting)} still to have a turn)"
    return f"the end of the heroes' turns of turn {turn} (every hero has had a turn)"


def _acting_hero(game: Mapping[str, Any], kind: str, params: Mapping[str, Any]) -> str | None:
    """The hero an action is taken by, where it names one of the party; None for a monster's attack (or a Dark Charmed
    hero's, the overlord's), and for an action that names no hero."""
    hero = params.get(HERO_FIELD.get(kind, "hero"))
    if not isinstance(hero, str) or hero not in (game.get("heroes") or {}):
        return None
    if kind == ATTACK and params.get("dark_charm"):
        return None
    return hero


def _fits(entry: Mapping[str, Any], hero: str | None, kind: str) -> bool:
    if kind == ATTACK:  # a hero's attack takes an entry naming him; a monster's, the overlord's entry
        return hero in entry["heroes"] if entry["heroes"] is not None else hero is None
    return entry["heroes"] is None or hero is None or hero in entry["heroes"]


def action_said(kind: str) -> str:
    """An action type as the table says it, in quotes: “end hero turn”, not end-hero-turn (the id a request sends)."""
    return f"“{wording.key_said(kind)}”"


def _next_steps(game: Mapping[str, Any], said: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """What moves the turn on from here, in words, and a body that would be accepted now."""
    if game.get("phase") == OVERLORD_PHASE:
        return f"the overlord's turn, and with it the turn, ends with {action_said(END_TURN)}", {"type": END_TURN}
    if game.get("active"):
        active = game["active"]
        return f"{said.get(active, active)}'s turn ends with {action_said(END_HERO_TURN)}", {"type": END_HERO_TURN, "hero": active}
    waiting = _waiting(game)
    if waiting:
        return (f"the turn of a hero still to have one ({listed([said.get(h, h) for h in waiting])}) starts with {action_said(START_HERO_TURN)}",
                {"type": START_HERO_TURN, "hero": waiting[0]})
    return f"the overlord's turn starts with {action_said(START_OVERLORD_TURN)}", {"type": START_OVERLORD_TURN}


def _when(kind: str) -> str:
    if kind in HERO_TURN or kind == END_HERO_TURN:
        return "in the turn of the hero it names"
    if kind in OVERLORD_TURN or kind == END_TURN:
        return "in the overlord's turn"
    if kind == START_HERO_TURN:
        return "between the heroes' turns, by a hero who has not had a turn this turn"
    if kind == START_OVERLORD_TURN:
        return "once every hero has had a turn"
    if kind == ATTACK:
        return "by the hero whose turn it is, by a hero with a guard order in the overlord's turn, or by a monster"
    return "at any time"


def require_moment(ctx: ActionContext, kind: str, params: Mapping[str, Any]) -> None:
    """Refuse (409) an action out of its moment: it says whose turn it is, when the action is taken, and what may happen now."""
    game = ctx.game
    hero = _acting_hero(game, kind, params)
    entries = [e for e in allowed_now(game, [kind]) if e["type"] == kind]
    if any(_fits(e, hero, kind) for e in entries):
        return
    said = names(ctx)
    turn = int(ctx.state.get("turn") or 1)
    now = moment(game, said, turn)
    step, example = _next_steps(game, said)
    quest = ctx.ruleset.quest(game["quest"]) if game.get("quest") else None
    own = [e for e in allowed_now(game, ctx.ruleset.rules.client_actions, quest) if e["type"] not in ANYTIME and e["type"] not in DECK_ACTIONS or e["type"] == END_TURN]
    by = f" by {said.get(hero, hero)}" if hero else ""
    raise Conflict(
        f"It is {now}: {action_said(kind)}{by} is taken {_when(kind)}",
        detail=f"Now {_doable(own, said)}; and at any time, in either side's turn, the table records what happens then "
        f"(the overlord's cards and threat, what a move or an attack leaves, corrections). Next, {step}.",
        errors={"type": [f"{action_said(kind)}{by} is taken {_when(kind)}, and it is {now}."]},
        example=example,
    )


def _doable(entries: Sequence[Mapping[str, Any]], said: Mapping[str, str]) -> str:
    """What may happen now, by who takes it: "Tahlia may take “ready”, … or “end hero turn”; the overlord's monsters
    may take “attack”" (each action once, its takers named, never a list of ids)."""
    by_who: dict[str, list[str]] = {}
    for entry in entries:
        if entry["heroes"] is not None:
            who = listed([said.get(h, h) for h in entry["heroes"]])
        elif entry["side"] == OVERLORD:
            who = "the overlord's monsters" if entry["type"] == ATTACK else "the overlord"
        else:
            who = "anyone at the table"
        by_who.setdefault(who, []).append(action_said(entry["type"]))
    return "; ".join(f"{who} may take {wording.either(actions, most=64)}" for who, actions in by_who.items()) or "nothing of the turn"


# -- The turn's own actions ---------------------------------------------------------------------------------------------


def start_hero_turn(ctx: ActionContext, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"kind": "hero-turn-started", "hero": params["hero"], "turn": int(ctx.state["turn"])}]


def end_hero_turn(ctx: ActionContext, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    hero = params["hero"]
    orders = (ctx.game["heroes"][hero].get("orders") or [])
    # L144: "The prolonged order action is removed from the hero at the end of your turn."
    removed = ["prolonged"] if "prolonged" in orders else []
    return [{"kind": "hero-turn-ended", "hero": hero, "turn": int(ctx.state["turn"]), "orders_removed": removed}]


def start_overlord_turn(ctx: ActionContext, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"kind": "overlord-turn-started", "turn": int(ctx.state["turn"])}]


def end_overlord_turn(ctx: ActionContext, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The overlord's turn ends, and with it the turn: the next begins with the heroes' turns."""
    turn = int(ctx.state["turn"])
    return [{"kind": "overlord-turn-ended", "turn": turn}, {"kind": "turn-ended", "turn": turn}]


def _recorded(resolve):
    """A turn action: refused where the pinned version records no turn (its sessions play as they were played)."""

    def resolved(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        ctx.ruleset.rules.version.require(ctx, "turns", "This campaign's rules data records no turns", "The heroes' and the overlord's turns are recorded", "type")
        if "hero" in params and params["hero"] not in (ctx.game.get("heroes") or {}):
            said = names(ctx)
            raise refuse(f"'{params['hero']}' is not a hero in this quest",
                         f"The heroes: {listed([said.get(h, h) for h in ctx.game.get('heroes') or {}])}.", "hero")
        return resolve(ctx, params)

    resolved.__doc__ = resolve.__doc__
    return resolved


def _end_turn(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    return ctx.ruleset.rules.version.end_turn(ctx, params)


ACTIONS = [
    ActionType(START_HERO_TURN, "A hero's turn begins (L264): a hero who has not had a turn this turn; the table chooses who goes next.",
               action_schema({"hero": NAME}, ["hero"]), _recorded(start_hero_turn)),
    ActionType(END_HERO_TURN, "The hero's turn ends; the prolonged order token on him is removed (L144).",
               action_schema({"hero": NAME}, ["hero"]), _recorded(end_hero_turn)),
    ActionType(START_OVERLORD_TURN, "Every hero has had a turn: the overlord's turn begins, his start-of-turn rules first (L174, L345).",
               action_schema({}, []), _recorded(start_overlord_turn)),
]
# The deck actions' end-turn, Descent's own: the overlord's turn ends, and with it the turn (where the version records turns).
END_TURN_ACTION = ActionType(END_TURN, "End the current turn: where the heroes' and the overlord's turns are recorded, the overlord's turn, "
                             "and with it the turn (the next begins with the heroes' turns).", action_schema({}, []), _end_turn)


def in_its_moment(action: ActionType) -> ActionType:
    """``action``, refused first (409) where the pinned version keeps the turn and this is not the action's moment."""
    resolve = action.resolve

    def checked(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
        ctx.ruleset.rules.version.in_its_moment(ctx, action.name, params)
        return resolve(ctx, params, rng)

    checked.__doc__ = resolve.__doc__
    return replace(action, resolve=checked)
