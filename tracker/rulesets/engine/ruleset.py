"""A ruleset: validated rules data plus pure action resolvers."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from tracker.core import hints, wording
from tracker.core.dice import DieSpec
from tracker.core.errors import Conflict, Unprocessable
from tracker.rulesets.engine import allowed
from tracker.rulesets.engine import components as component_data
from tracker.rulesets.engine import reported_facts
from tracker.rulesets.engine.changes import Changes
from tracker.rulesets.engine.context import ActionContext, DeckSpec, Resolved
from tracker.rulesets.engine.data import ENTITY_LISTS, content_hash
from tracker.rulesets.engine.working_copy import WorkingCopy

__all__ = ["ActionContext", "ActionType", "DeckSpec", "GameRules", "Resolved", "Resolver", "Ruleset", "action_schema"]

PLAIN_DICE_SIDES = (4, 6, 8, 10, 12, 20)


def action_schema(properties: Mapping[str, Any], required: list[str]) -> dict[str, Any]:
    """The JSON Schema of an action's request body: its ``type``, these properties, nothing else."""
    return {
        "type": "object",
        "properties": {"type": {"type": "string"}, **properties},
        "required": ["type", *required],
        "additionalProperties": False,
    }


Resolver = Callable[[ActionContext, Mapping[str, Any], Any], list[dict[str, Any]]]


@dataclass(frozen=True)
class ActionType:
    name: str
    description: str
    schema: dict[str, Any]
    resolve: Resolver = field(compare=False)
    random: bool = False  # whether the resolver may draw from the session's stream
    internal: bool = False  # run by the service itself (e.g. quest set-up), never posted by clients
    # The body field that reports a lost fact at the table, where its name says nothing ("die:spinner" -> "spin");
    # tracker/core/hints.py builds a refusal's example from it. Not part of the contract: the schema already holds the field.
    reports: Mapping[str, str] = field(default_factory=dict, compare=False)

    def describe(self) -> dict[str, Any]:
        return {"type": self.name, "description": self.description, "schema": self.schema, "uses_randomness": self.random}


def plain_dice() -> list[dict[str, Any]]:
    return [
        {"id": f"d{n}", "name": f"d{n}", "kind": "numbered", "sides": n, "results": list(range(1, n + 1)), "faces": list(range(1, n + 1))}
        for n in PLAIN_DICE_SIDES
    ]


SET_UP_QUEST = "set-up-quest"
QUEST_DECIDED = "quest-decided"  # the change that records the verdict the rules impose
# What a table may still send once the rules have decided a quest, besides the game's closing actions: a correction of a
# value recorded wrongly (tracker/rulesets/engine/correction.py) is no step of play, and the end carries values over.
AFTER_THE_VERDICT = ("correct",)


class GameRules:
    """A ruleset's own bookkeeping beyond dice and decks: pure functions over plain JSON.

    - ``changes``: the game's kinds of change, each declared once with its fold (tracker/rulesets/engine/changes.py);
      ``events`` maps each ``kind`` to the event class that records it, ``fold(game, change)`` returns the
      session's game state after that change;
    - ``carry_over(progress, game, quest, outcome, options)`` returns the campaign's
      progress after a quest ends (what the next quest starts from);
    - ``options_schema`` is the JSON Schema of the campaign options (e.g. a mode);
    - ``setup_schema`` is the JSON Schema of a session start's "setup" parameters;
    - ``chain(chain, options)`` is the campaign's quest chain under its options.
    ``carry_over`` may set ``next_quest`` in the progress it returns: the campaign then
    plays that quest next (e.g. a lost story starts again from its first scene).
    The defaults keep no game state and carry nothing over.
    """

    changes: Changes = Changes("tracker.rulesets.engine.ruleset")  # a game without game events declares none

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        # The rules data these rules judge by (an archived version's, for its campaigns): every game's rules are
        # built from it the same way, Rules(data) (tracker/rulesets/engine/skeleton.py).
        self.data = data if data is not None else {}

    # What each lost fact blocks and how the table states it per use instead (tracker/core/missing_facts.py):
    # "hero.<stat>", "other.<stat>" or "tables.<id>" -> {"actions": [...], "quest_setup": bool, "per_use": str}.
    lost_fact_uses: dict[str, dict[str, Any]] = {}
    options_schema: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
    setup_schema: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
    # The JSON Schema of the session's game state as answered (tracker/rulesets/engine/state_schema.py): each game
    # declares its own keys; a game that publishes none leaves its state undescribed.
    state_schema: dict[str, Any] = {"type": "object"}

    @property
    def events(self) -> dict[str, type]:
        return self.changes.events

    @property
    def events_by_name(self) -> dict[str, type]:
        return self.changes.named

    def fold(self, game: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        return self.changes.fold(game, change)

    def fold_into(self, game: dict[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """``fold`` on the caller's own copy of the state, changed in place (a working copy's, a resolution's)."""
        return self.changes.fold_into(game, change)

    ruleset: Ruleset | None = None  # the ruleset these rules are part of (set by it): what a session given them plays

    sides: tuple[str, ...] = ("heroes",)
    """The sides at the table. Descent adds "overlord", whose information is hidden from the heroes."""

    most_heroes: int | None = None
    """How many heroes a campaign's party may have at most, where the game's rulebook says; None where the service holds
    no number of its own (the API's limit of 20 stands). No game's party names a hero twice: each has one sheet and figure."""

    fewest_heroes: int | None = None
    """How many heroes a campaign's party must have at least, where the game's rulebook says (Kung Fu Panda: 2); None
    where it says no number (a Journey campaign may start with no party: its heroes join on the way)."""

    party_roles: tuple[str, ...] | None = None
    """The roles of the game's characters a party may name, where its characters list others too (Kung Fu Panda's
    enemies); None: every character of the game is a hero a party may name."""

    actor_fields: tuple[str, ...] = ()
    """The fields of this game's actions that name a hero acting or receiving (a player token bound to heroes may
    name only those, and undo only what it could have done). The deck actions' ``holder`` is every game's."""

    anytime_actions: tuple[str, ...] = ("correct",)
    """The action types the table reports whenever they happen rather than as a step of the turn (a card played, a
    correction); the play page folds them away from the turn's own actions. The deck actions are every game's."""

    turn_steps: tuple[str, ...] = ()
    """The deck actions this game's turn takes as its own steps, listed in their moment (Descent's end-turn ends the
    overlord's turn): the play page shows them with the turn's actions, never folded with the deck actions."""

    def owed(self, quest: str, game: Mapping[str, Any], turn: int) -> list[str]:
        """What the table owes the rules now, in the game's words (cards still to draw, a treasure due): sentences the
        play page shows at the top of the turn. The default owes nothing."""
        return []

    played_in_rounds = False  # a game counted in rounds (its timeline grouped by RoundStarted), not in turns

    def turn_said(self, game: Mapping[str, Any], turn: int) -> str:
        """Where the session is in the game's own count (a turn; a round, or the pause between rounds)."""
        return f"Turn {turn}"

    def field_names(self) -> dict[str, dict[str, str]]:
        """The names an action's or change's field values have in the game when the value alone is no word a person
        says (a tile's letter): ``{field: {value: name}}``, for the timeline's lines. The default names none."""
        return {}

    def choices(self, quest: str, game: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        """For an action field naming something on the table (a tile, a figure), the values the state offers and how
        the game names each: ``{field: {value: name}}``. The default offers none (the page then offers the ids in play)."""
        return {}

    def secret_to(self, change: Mapping[str, Any]) -> str | None:
        """The side a change is secret to until the quest ends (e.g. the overlord's hand), or None if public."""
        return None

    def redact(self, game: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
        """The game state as a viewer on ``viewer``'s side may see it (None: everything)."""
        return dict(game)

    def redact_decks(self, decks: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
        """The deck summaries a viewer on ``viewer``'s side may see (e.g. counts instead of a hidden hand)."""
        return dict(decks)

    def acting_side(self, action: Mapping[str, Any]) -> str | None:
        """The side an action is taken for (tokens bound to a side may only act for it); None: any side."""
        return None

    def describe(self, change: Mapping[str, Any]) -> str | None:
        """One line for the session timeline, in the game's words; None for the generic line."""
        return None

    def chain(self, data: Mapping[str, Any], options: Mapping[str, Any]) -> list[str] | None:
        """The campaign's quest chain for these options (e.g. one adventure of several); None: the data's chain."""
        return None

    def verdict(self, quest: str, game: Mapping[str, Any], turn: int) -> dict[str, str] | None:
        """The outcome the rules impose on this state now, ``{"outcome", "reason"}`` with the reason in the
        book's words (a defeat when the conquest runs out, a victory when the last altar falls), or None while
        the quest is undecided. The default decides nothing: the game states no condition the log can check."""
        return None

    def end_refusal(self, quest: str, game: Mapping[str, Any], turn: int, outcome: str, reported: Mapping[str, Any]) -> str | None:
        """Why ending in ``outcome`` contradicts the recorded state (the condition that is not met), or None when the
        rules allow it. ``reported`` holds facts the table states at the end (a figure reached a square), recorded with it."""
        return None

    def end_pending(self, quest: str, game: Mapping[str, Any], verdict: Mapping[str, Any]) -> str | None:
        """What the game must still record before a decided quest ends in its verdict (a scene's rewards), or None."""
        return None

    def reported_schema(self, quest: str) -> dict[str, Any]:
        """The JSON Schema of the ``reported`` object a quest's end may take: the facts only the table sees that its
        conditions name, each with its type and the rulebook's words. The default: a game whose ends take none."""
        return reported_facts.schema({})

    def awaited(self, quest: str, game: Mapping[str, Any], turn: int) -> list[str]:
        """The facts only the table sees (keys of ``reported_schema``) that the quest's verdict waits on now: the log
        cannot decide the quest without them, so the state names them and the end asks for them. Default: none."""
        return []

    def closing(self, quest: str, game: Mapping[str, Any], verdict: Mapping[str, Any], actions: Sequence[str]) -> list[dict[str, Any]]:
        """The game's own actions still legal once the rules have decided the quest: what records its end (a scene's
        rewards, the treasure they owe), never another turn. The default: none; the end (POST /sessions/{id}/end) follows."""
        return []

    client_actions: tuple[str, ...] = ()  # the action types a client may post: set by the Ruleset that carries these rules

    def next_actions(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """The session's phase, the actions legal now (none once it has ended) and its ``end``: the outcome the rules
        decided, or the facts the table must state for them to decide."""
        if state.get("status", "in-progress") != "in-progress":
            return {"phase": None, "allowed": [], "end": None}
        game = state.get("game") or {}
        quest, turn = str(state.get("quest")), int(state.get("turn") or 1)
        verdict = state.get("verdict")
        if verdict is not None:  # decided: no more turns, only what records the end, then the end itself
            schema = self.reported_schema(quest)
            return {
                "phase": self.phase(game),
                "allowed": self.closing(quest, game, verdict, self.client_actions),
                "end": reported_facts.decided_end(verdict, schema),
            }
        return {
            "phase": self.phase(game),
            "allowed": self.allowed(quest, game, turn, self.client_actions),
            "end": reported_facts.awaited_end(self.awaited(quest, game, turn), self.reported_schema(quest)),
        }

    def phase(self, game: Mapping[str, Any]) -> str | None:
        """The part of the turn the session is in, in the game's words (None where the game keeps none)."""
        phase = game.get("phase")
        return phase if isinstance(phase, str) else None

    def allowed(self, quest: str, game: Mapping[str, Any], turn: int, actions: Sequence[str]) -> list[dict[str, Any]]:
        """The action types legal now among ``actions`` (the ruleset's client actions), each with who may take
        it (tracker/rulesets/engine/allowed.py). The default keeps no turn order: every action, by the side that takes it."""
        return [allowed.entry(name, side=self.acting_side({"type": name})) for name in actions]

    def standing(self, records: list[Mapping[str, Any]]) -> dict[str, Any]:
        """A campaign's standing, folded from its game events in log order
        (each record: session_id, position, kind, change). The default keeps none."""
        return {}

    def carry_over(
        self, progress: Mapping[str, Any], game: Mapping[str, Any], quest: str, outcome: str, options: Mapping[str, Any]
    ) -> dict[str, Any]:
        return dict(progress)


def _no_setup(ctx: ActionContext, params: Mapping[str, Any], rng: Any) -> list[dict[str, Any]]:
    return []


class Ruleset:
    def __init__(
        self,
        data: dict[str, Any],
        actions: list[ActionType],
        rules: GameRules | None = None,
        setup: ActionType | None = None,
        component_packs: list[dict[str, Any]] | None = None,
        views: tuple[Any, ...] = (),
    ) -> None:
        self.data = data
        # The read views the game keeps for its campaigns (tracker/rulesets/engine/view.py), projected like the service's own.
        self.views = tuple(views)
        # Optional component data from outside the rulebook (e.g. community die faces), labelled with
        # their sources; a campaign may pass one as its "components". Not rules data: not in the hash.
        self.component_packs = component_packs or []
        self.rules = rules or GameRules()
        setup = setup or ActionType(
            SET_UP_QUEST, "Quest set-up, run when a session starts.", {"type": "object"}, _no_setup, internal=True
        )
        self.actions = {action.name: action for action in [*actions, setup]}
        self.rules.client_actions = tuple(name for name, action in self.actions.items() if not action.internal)
        self.rules.ruleset = self

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def version(self) -> str:
        return self.data["version"]

    published: dict[str, Any] | None = None  # an archived version's contract as it was published (rulesets.archived)

    def contract(self) -> dict[str, Any]:
        """What the hash covers besides the data: the action contracts, the schemas and the event kinds."""
        return {
            "actions": [a.describe() for a in self.actions.values()],
            "options_schema": self.rules.options_schema,
            "setup_schema": self.rules.setup_schema,
            "events": sorted(self.rules.events),
        }

    @cached_property
    def hash(self) -> str:
        """Content hash of the rules: the data and the action contracts."""
        return content_hash({"data": self.data, **(self.published or self.contract())})

    @property
    def pin(self) -> dict[str, str]:
        return {"id": self.id, "version": self.version, "hash": self.hash}

    @cached_property
    def names(self) -> dict[str, str]:
        """The ids a refusal's prose says by the game's names (tracker/core/wording.py: prose_names)."""
        return wording.prose_names(self.data)

    def said(self, refusal: Any) -> Any:
        """A refusal in this game's words: its title, detail and errors' messages as prose, ids by their names (tracker/core/wording.py)."""
        refusal.title, refusal.detail = wording.refusal_said(refusal.title, refusal.detail, self.names)
        refusal.errors = wording.errors_said(refusal.errors, self.names)
        return refusal

    @cached_property
    def component_schema(self) -> dict[str, Any]:
        return component_data.schema(self.data)

    def validate_components(self, components: Mapping[str, Any]) -> None:
        component_data.validate(self.data, components)

    def quest(self, quest_id: str) -> dict[str, Any]:
        for quest in self.data.get("quests", []):
            if quest["id"] == quest_id:
                return quest
        raise Unprocessable(
            f"Unknown quest '{quest_id}'",
            detail=f"Quests of {self.name}: {wording.choices([q['id'] for q in self.data.get('quests', [])], self.names, most=64)}.",
            errors={"quest": [f"Unknown quest: {quest_id}"]},
        )

    def chain(self, options: Mapping[str, Any] | None = None) -> list[str]:
        chosen = self.rules.chain(self.data, options or {})
        if chosen is not None:
            return list(chosen)
        return list(self.data.get("campaign", {}).get("chain") or [q["id"] for q in self.data.get("quests", [])])

    def dice(self, components: Mapping[str, Any]) -> dict[str, DieSpec]:
        supplied = components.get("dice", {})
        specs = {}
        for die in self.data.get("dice", []) + plain_dice():
            faces = die.get("faces") or supplied.get(die["id"], {}).get("faces")
            specs[die["id"]] = DieSpec(die["id"], die["name"], list(die["results"]), faces)
        return specs

    def decks(self, components: Mapping[str, Any]) -> dict[str, DeckSpec]:
        supplied = components.get("decks", {})
        specs = {}
        for deck in self.data.get("decks", []):
            listed = deck.get("cards") or supplied.get(deck["id"], {}).get("cards")
            names, kinds = component_data.card_names(listed) if listed else (None, {})
            for known in deck.get("known_cards", []):
                if known.get("kind"):
                    kinds.setdefault(known["name"], known["kind"])
            specs[deck["id"]] = DeckSpec(
                id=deck["id"],
                name=deck["name"],
                size=len(names) if names is not None else deck.get("size"),
                cards=names,
                kind_of=kinds,
                shuffled=deck.get("shuffled", True),
            )
        return specs

    def resolve(self, ctx: ActionContext, action: Mapping[str, Any], stream: Any, action_type: ActionType | None = None) -> Resolved:
        """An action's changes, followed by the quest's verdict when they decide it (``quest-decided``): the rules
        impose an outcome as it happens, and verification re-derives it with the action. Returned with the game state
        they fold to: the working copy's, or folded here, once, on a working copy, where the resolver returned a plain
        list (``action_type``: the action's type when the caller has looked it up already)."""
        action_type = action_type or self.action(str(action.get("type")))
        try:
            returned = action_type.resolve(ctx, action, stream)
        except Unprocessable as refusal:
            raise hints.for_action(refusal, action_type, action, ctx, stream) from None
        if isinstance(returned, Resolved) and returned.whole(ctx.game):
            changes = Resolved(returned, returned.game, returned.decks, ctx.game)
        else:  # a plain list (or a deck function's Dealt): folded once, on the one working copy
            changes = WorkingCopy.fold_returned(ctx, returned)
        if ctx.state.get("verdict") is not None:
            return changes
        turn = int(ctx.state.get("turn") or 1)
        for change in changes:
            if change.get("kind") == "turn-ended":
                turn = change["turn"] + 1
        decided = self.rules.verdict(str(ctx.state.get("quest")), changes.game, turn)
        if decided is not None:  # the verdict changes no game state: the state folded stays the state after all of them
            changes.append({"kind": QUEST_DECIDED, "outcome": decided["outcome"], "reason": decided["reason"]})
            changes.folded += 1
        return changes

    def refuse_once_decided(self, state: Mapping[str, Any], action_type: str) -> None:
        """Conflict for an action sent once the rules have decided the quest (``state["verdict"]``), unless it is one of
        the closing actions the state offers (``allowed``: what records the end, GameRules.closing) or a correction:
        the log decided, so no more turns are played. Undo (POST /sessions/{id}/undo) takes the deciding event back."""
        verdict = state.get("verdict")
        offered = [entry["type"] for entry in state.get("allowed") or []]
        if verdict is None or action_type in offered or action_type in AFTER_THE_VERDICT:
            return
        session = state.get("id")
        closing = [f'"{name}"' for name in offered]  # the action types to send, quoted as sent
        still = f"Record {wording.listed(closing)} first, then end" if offered else "End"
        raise Conflict(
            f"The quest is decided: {verdict['reason']}",
            detail=(f"The rules decided it at event {verdict['position']}, a {wording.key_said(verdict['outcome'])}, and no more turns are played. "
                    f'{still} it: POST /sessions/{session}/end with "outcome": "{verdict["outcome"]}". If that event was recorded wrongly, '
                    f"undo back to it (POST /sessions/{session}/undo) and play on."),
            errors={"type": [f"Not played once the quest is decided; still allowed: {wording.listed(closing)}."]},
        )

    def check_reported(self, quest_id: str, reported: Mapping[str, Any] | None) -> None:
        """Refuse (422) facts a quest's end does not take, or of the wrong type, before anything is recorded."""
        quest = next((q for q in self.data.get("quests", []) if q["id"] == quest_id), {"name": quest_id})
        reported_facts.check(self.rules.reported_schema(quest_id), reported, str(quest.get("name") or quest_id))

    def action(self, name: str) -> ActionType:
        try:
            return self.actions[name]
        except KeyError:
            raise Unprocessable(
                f"Unknown action type '{name}'",
                detail=f"Action types of {self.name}: {wording.listed(sorted(self.actions))}.",
                errors={"type": [f"Unknown action type: {name}"]},
            ) from None

    def describe(self) -> dict[str, Any]:
        listed = ("id", "name", "version", "source", "dice", "decks", "characters", "quests")
        return {
            **{key: self.data.get(key, [] if key in ENTITY_LISTS else None) for key in listed},  # a list the data leaves out holds none
            # each quest with the facts its end may take from the table (reported_facts.py): the contract of "reported"
            "quests": [{**quest, "reported_schema": self.rules.reported_schema(quest["id"])} for quest in self.data.get("quests", [])],
            "rules": {key: value for key, value in self.data.items() if key not in listed},
            "hash": self.hash,
            "plain_dice": plain_dice(),
            "actions": [action.describe() for action in self.actions.values() if not action.internal],
            "component_schema": self.component_schema,
            "options_schema": self.rules.options_schema,
            "setup_schema": self.rules.setup_schema,
            "state_schema": self.rules.state_schema,
            "sides": list(self.rules.sides),
            "component_packs": self.component_packs,
        }
