"""Request and response schemas: the public contract of the REST API."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, ClassVar

from flask import current_app, has_app_context
from marshmallow import INCLUDE, Schema, ValidationError, fields, post_dump, validate, validates_schema

from api import answer_shape, ruleset_schemas
from api.stream_slots import MAX_STREAM_SECONDS


log = logging.getLogger(__name__)


class UndeclaredField(AssertionError):
    """The application built a field its answer's schema does not declare: the document cannot tell clients of it."""


class Answer(Schema):
    """A response body. Its fields are always present (``required`` in the document, api/contract.py) unless
    named in OPTIONAL, so a generated client types them as present instead of "maybe unset".

    The body is built by the application and declared here: a field built but not declared is never dropped.
    Dumping compares what it was given with what it declares (at every level: nested answers are Answers too).
    Under test (``app.testing``) an undeclared field fails the request, so every test response proves its schema
    declares all the application builds; in service the field is passed through as built, and logged, rather
    than silently lost (how ``setup_schema`` once vanished from GET /rulesets/{id})."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ()

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        """An answer the application built already in its final shape (a dict of declared fields only, each value of
        the very type its field dumps, api/answer_shape.py) is answered as built, in the declared order: what
        marshmallow's dump would give, equal value for value and type for type, without its per-field calls (about
        90 Python calls of a roll request's). Anything else, an undeclared field above all, is dumped as before."""
        as_built = self.__dict__.get("_as_built")
        if as_built is None:  # once per schema instance, as _declared_names
            as_built = self.__dict__["_as_built"] = answer_shape.plan(self, (Answer._nothing_built_is_lost.__name__,))
        if as_built and obj.__class__ is dict and not (self.many if many is None else many):
            shown = as_built(obj)
            if shown is not None:
                return shown
        return super().dump(obj, many=many)

    @post_dump(pass_original=True)
    def _nothing_built_is_lost(self, data: dict[str, Any], original: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(original, Mapping):
            return data
        declared = self.__dict__.get("_declared_names")
        if declared is None:  # once per schema instance: the views' instances live as long as the app
            declared = self.__dict__["_declared_names"] = frozenset(field.attribute or name for name, field in self.dump_fields.items())
        if declared.issuperset(original):
            return data
        undeclared = [key for key in original if key not in declared]
        where = type(self).__name__
        if has_app_context() and current_app.testing:
            raise UndeclaredField(f"{where} does not declare {undeclared}, which the application built: declare it in api/schemas.py")
        log.warning("%s does not declare %s; passed through as built", where, undeclared)
        return {**data, **{key: original[key] for key in undeclared}}


ID = fields.String(validate=validate.Length(min=1, max=100))


def _log_position() -> fields.Integer:
    return fields.Integer(allow_none=True, metadata={"description": "The notification log position this command's events reached: "
                                                     "pass it as ?min_position= to a view read to read what it wrote."})
COUNT = validate.Range(min=1, max=100)
# The closed sets the server answers with, as enums in the document (dump only: nothing is checked on the way out).
OUTCOMES = ["victory", "heroic-victory", "defeat"]
SOURCE = validate.OneOf(["digital", "reported"])
ROLES = ["owner", "player", "viewer", "integration"]


class Entries(validate.Validator):
    """How many entries an object (a dict field) holds: minProperties and maxProperties in the document."""

    def __init__(self, least: int, most: int) -> None:
        self.least, self.most = least, most  # not min and max: apispec would read those as a numeric range

    def __call__(self, value):
        if not self.least <= len(value) <= self.most:
            raise ValidationError(f"Give {self.least} to {self.most} entries.")
        return value


class RulesetPin(Answer):
    id = fields.String()
    version = fields.String()
    hash = fields.String()


# -- campaigns ---------------------------------------------------------------


class CampaignCreate(Schema):
    # The enum documents the rulesets this server has; the application refuses another with a title that names it.
    ruleset = fields.String(
        required=True, validate=validate.Length(min=1, max=100), metadata={"example": "journey", "enum": ruleset_schemas.ruleset_ids()}
    )
    name = fields.String(required=True, validate=validate.Length(min=1, max=200), metadata={"example": "Tuesday group"})
    party = fields.List(fields.String(validate=validate.Length(min=1, max=100)), validate=validate.Length(max=20))
    components = fields.Dict(
        keys=fields.String(),
        metadata={"description": "Facts the ruleset marks unknown, in the shape of its component_schema.", **ruleset_schemas.any_of("Components")},
    )
    options = fields.Dict(
        keys=fields.String(),
        metadata={"description": "Campaign options, in the shape of the ruleset's options_schema.", **ruleset_schemas.any_of("Options")},
    )


class ComponentsSupply(Schema):
    components = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={
            "description": "Facts the ruleset marks unknown and the campaign has not supplied yet, in the shape of its component_schema.",
            **ruleset_schemas.any_of("Components"),
        },
    )


class TokenMint(Schema):
    role = fields.String(required=True, validate=validate.OneOf(["player", "viewer", "integration"]))
    heroes = fields.List(fields.String(validate=validate.Length(min=1, max=100)), validate=validate.Length(max=20),
                         metadata={"description": "A player token bound to these heroes may only act for them."})
    side = fields.String(validate=validate.Length(min=1, max=50), metadata={"description": "e.g. overlord, for Descent"})
    label = fields.String(validate=validate.Length(max=200), metadata={"example": "Ana's phone"})


class Token(Answer):
    OPTIONAL = ("log_position",)  # a command answer only

    log_position = _log_position()
    id = fields.String(metadata={"description": "The token's public id, recorded in every event it issues."})
    role = fields.String(validate=validate.OneOf(ROLES))
    heroes = fields.List(fields.String())
    side = fields.String(allow_none=True)
    label = fields.String(allow_none=True)
    revoked = fields.Boolean()


class MintedToken(Token):
    OPTIONAL = ()  # the command's answer: its log position is always there

    log_position = _log_position()
    token = fields.String(allow_none=True, metadata={"description": "The bearer token itself; shown once, when minted "
                                                     "(null when an Idempotency-Key replays that answer)."})


class AbandonedNote(Answer):
    reason = fields.String(metadata={"description": "Why the table stopped without an outcome."})


class SessionSummary(Answer):
    OPTIONAL = ("ruling", "abandoned")

    id = fields.String()
    quest = fields.String()
    outcome = fields.String(allow_none=True, validate=validate.OneOf(OUTCOMES))
    ruling = fields.String(allow_none=True, metadata={"description": "Present when the owner ended the quest by a table ruling: why."})
    abandoned = fields.Nested(AbandonedNote, metadata={"description": "Present when the session was abandoned: not played, its outcome stays null."})


class Verdict(Answer):
    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES))
    reason = fields.String(required=True, metadata={"description": "The rules' condition, in the book's words."})
    position = fields.Integer(required=True, metadata={"description": "The event that decided it."})


class Campaign(Answer):
    OPTIONAL = ("log_position",)  # a command answer only

    log_position = _log_position()
    id = fields.String()
    name = fields.String()
    ruleset = fields.Nested(RulesetPin)
    components = fields.Dict()
    components_hash = fields.String()
    options = fields.Dict()
    progress = fields.Dict(metadata={"description": "What the next quest starts from (the ruleset's carry-over)."})
    party = fields.List(fields.String())
    chain = fields.List(fields.String())
    next_quest = fields.String(allow_none=True)
    completed = fields.Boolean()
    sessions = fields.List(fields.Nested(SessionSummary))
    version = fields.Integer()


class ComponentsSupplied(Campaign):
    OPTIONAL = ("sessions_supplied",)

    sessions_supplied = fields.List(fields.String(), metadata={"description": "The sessions in play that got the facts too, each pinning them in its own stream."})


class CampaignCreated(Campaign):
    OPTIONAL = ()  # the command's answer: its log position is always there

    log_position = _log_position()
    owner_token = fields.String(allow_none=True, metadata={"description": "Shown once, in the answer that creates the campaign "
                                                           "(null when an Idempotency-Key replays that answer)."})
    owner_token_id = fields.String()


class DiceFace(Answer):
    die = fields.String()
    source = fields.String(validate=SOURCE)
    face = fields.String()
    count = fields.Integer()


class DiceStatistics(Answer):
    campaign_id = fields.String()
    faces = fields.List(fields.Nested(DiceFace))
    projected_to = fields.Integer(metadata={"description": "Notification position the views have processed."})


# -- sessions ----------------------------------------------------------------


class SessionCreate(Schema):
    quest = fields.String(
        required=True, validate=validate.Length(min=1, max=100), metadata={"example": "q1-meeting", "enum": ruleset_schemas.quest_ids()}
    )
    setup = fields.Dict(
        keys=fields.String(),
        metadata={"description": "Quest set-up choices, in the shape of the ruleset's setup_schema.", **ruleset_schemas.any_of("Setup")},
    )




class DeckSummary(Answer):
    OPTIONAL = ("hidden",)

    draw_pile = fields.Integer(allow_none=True, metadata={"description": "Cards left to draw; null when the deck size is unknown."})
    discard_pile = fields.List(fields.String())
    held = fields.Dict(keys=fields.String(), values=fields.List(fields.String()))
    looking_at = fields.List(fields.String())
    removed_from_game = fields.List(fields.String())
    hidden = fields.Dict(metadata={"description": "Counts of cards this viewer may not see (a side's hidden hand)."})


class AllowedAction(Answer):
    type = fields.String(metadata={"description": "An action type of the ruleset (POST /sessions/{sid}/actions)."})
    heroes = fields.List(fields.String(), allow_none=True, metadata={"description": "The heroes who may take it now; null: any."})
    side = fields.String(allow_none=True, metadata={"description": "The side that takes it; null: any."})


class EndFact(Answer):
    fact = fields.String(metadata={"description": "A key of the quest's reported_schema (GET /rulesets/{id})."})
    description = fields.String(metadata={"description": "What the fact says, in the rulebook's words, with its lines."})


class SessionEnd(Answer):
    decided = fields.Boolean(metadata={"description": "Whether the rules have decided the quest from the log (its verdict)."})
    outcome = fields.String(allow_none=True, validate=validate.OneOf(OUTCOMES), metadata={"description": "The outcome the rules decided; null while undecided."})
    reason = fields.String(allow_none=True, metadata={"description": "The condition that holds, in the book's words; null while undecided."})
    awaits = fields.List(fields.Nested(EndFact), metadata={"description": "Facts only the table sees that the verdict waits on now: "
                                                           "state them as \"reported\" with the end (POST /sessions/{sid}/end, or the game's own "
                                                           "action that ends a scene)."})
    facts = fields.List(fields.Nested(EndFact), metadata={"description": "Every fact the quest's end may take as \"reported\" (its reported_schema)."})


class GameStateField(fields.Raw):
    """The session's game state, with its ruleset's id in it (``ruleset``): the key the document's GameState, a oneOf
    over the rulesets' state schemas, is discriminated by. Added on the way out; the state itself is the ruleset's."""

    def _serialize(self, value, attr, obj, **kwargs):
        game = super()._serialize(value, attr, obj, **kwargs)  # (Raw: the document's type is GameState's, not a bare object)
        ruleset = (obj.get("ruleset") or {}).get("id") if isinstance(obj, Mapping) else None
        return {ruleset_schemas.RULESET: ruleset, **game} if ruleset and isinstance(game, Mapping) else game


class SessionState(Answer):
    id = fields.String()
    campaign_id = fields.String()
    quest = fields.String()
    ruleset = fields.Nested(RulesetPin)
    party = fields.List(fields.String())
    seed_commitment = fields.String()
    seed = fields.String(allow_none=True)
    status = fields.String(validate=validate.OneOf(["in-progress", "ended", "abandoned"]))
    outcome = fields.String(allow_none=True, validate=validate.OneOf(OUTCOMES))
    verdict = fields.Nested(Verdict, allow_none=True, metadata={"description": "The outcome the rules imposed, once they did; null while undecided."})
    ruling = fields.String(allow_none=True, metadata={"description": "Why the owner overruled the rules at the end, if they did."})
    abandoned = fields.Nested(
        "SessionAbandonedNote", allow_none=True, metadata={"description": "Why the table stopped without an outcome, and at which event; null unless abandoned."}
    )
    turn = fields.Integer()
    game = GameStateField(metadata={"description": "The ruleset's own bookkeeping (karma, weapon levels, ...), in the shape of its "
                                                    "state_schema (GET /rulesets/{id}); ruleset names the ruleset.",
                                    **ruleset_schemas.ref(ruleset_schemas.GAME_STATE)})
    rolls = fields.Integer()
    random_counter = fields.Integer()
    decks = fields.Dict(keys=fields.String(), values=fields.Nested(DeckSummary))
    version = fields.Integer()
    phase = fields.String(allow_none=True, metadata={"description": "The part of the turn the session is in, in the game's words; null where the game keeps none, or once ended."})
    allowed = fields.List(fields.Nested(AllowedAction), metadata={"description": "The action types legal now and who may take each (empty once ended): what comes next."})
    end = fields.Nested(SessionEnd, allow_none=True, metadata={"description": "How the quest ends: the rules' outcome once the log decides it "
                                                                 "(then ``allowed`` holds only what records the end), or the facts the end waits on; null once ended."})


class LatestSession(Answer):
    session_id = fields.String()
    quest = fields.String()
    ruleset = fields.Nested(RulesetPin, metadata={"description": "The campaign's ruleset, which the session plays."})
    game = GameStateField(metadata={"description": "The session's game state, folded from its game events, in the shape of its "
                                                    "ruleset's state_schema (GET /rulesets/{id}); ruleset names the ruleset.",
                                    **ruleset_schemas.ref(ruleset_schemas.GAME_STATE)})


class Standing(Answer):
    campaign_id = fields.String()
    standing = fields.Dict(metadata={"description": "The ruleset's campaign standing (missions, losses, cards held, ...)."})
    progress = fields.Dict(metadata={"description": "The campaign's progress as the last quest's end recorded it."})
    latest_session = fields.Nested(LatestSession, allow_none=True)
    projected_to = fields.Integer(metadata={"description": "The last log position the views have read."})


class SessionCreated(Answer):
    OPTIONAL = ("warnings",)

    log_position = _log_position()
    id = fields.String()
    campaign_id = fields.String()
    quest = fields.String()
    seed_commitment = fields.String()
    state = fields.Nested(SessionState)
    version = fields.Integer()
    warnings = fields.List(fields.String(), metadata={"description": "What the group may not have meant: a quest out of the chain's order, another session still in play."})


def _dice(required: bool = False) -> fields.Dict:
    return fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=100)),
        values=fields.Integer(strict=True, validate=COUNT),
        validate=Entries(1, 20),
        required=required,
        metadata={"example": {"d6": 2}, "minProperties": 1, "maxProperties": 20, "description": "Dice to roll from the session's stream: die id to count."},
    )


def _faces(required: bool = False) -> fields.Dict:
    return fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=100)),
        values=fields.List(fields.Raw(), validate=validate.Length(min=1, max=100)),
        validate=Entries(1, 20),
        required=required,
        metadata={"description": "Faces rolled on the table, per die, for physical dice.", "minProperties": 1, "maxProperties": 20},
    )


def _purpose() -> fields.String:
    return fields.String(validate=validate.Length(max=200), metadata={"example": "initiative"})


class Roll(Schema):
    """What the server reads; the document offers it as DigitalRoll or ReportedRoll (one of them, never both)."""

    dice = _dice()
    faces = _faces()
    purpose = _purpose()

    @validates_schema
    def _something_to_roll(self, data, **kwargs):
        if "dice" not in data and "faces" not in data:
            raise ValidationError("Send dice to roll, or faces rolled on the table.", "dice")
        if "dice" in data and "faces" in data:
            raise ValidationError("Send dice to roll or faces rolled on the table, not both.", "faces")


class DigitalRoll(Schema):
    """Dice rolled from the session's stream."""

    dice = _dice(required=True)
    purpose = _purpose()


class ReportedRoll(Schema):
    """Dice rolled on the table: their faces, as they came up."""

    faces = _faces(required=True)
    purpose = _purpose()


class RollResult(Answer):
    log_position = _log_position()
    results = fields.Dict(keys=fields.String(), values=fields.List(fields.Raw()))
    source = fields.String(validate=SOURCE)
    counter_start = fields.Integer(allow_none=True)
    counter_end = fields.Integer(allow_none=True)
    event_id = fields.String()
    position = fields.Integer()
    version = fields.Integer()


_HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
# What an event's metadata holds (tracker/domain/events.py's make_meta, tracker/integrity/hash_chain.py), as the
# document declares it: the EventMeta component (api/contract.py), which every event's meta is; kept as the store holds
# it on the way out (a Raw field: the document's type is EventMeta's), declared key by key for clients.
EVENT_META = {
    "type": "object",
    "description": "Who issued the event and how it links into the session's hash chain (README: How a roll can be checked).",
    "properties": {
        "issued_by": {"type": ["string", "null"], "description": "The issuing token's public id (never the token); null where no token "
                                                                 "issued it (the operator's CLI)."},
        "correlation_id": {"type": ["string", "null"], "description": "The request's X-Correlation-Id."},
        "ruleset_id": {"type": "string"},
        "ruleset_version": {"type": ["string", "null"], "description": "The rules version the campaign pins."},
        "command": {"type": "integer", "minimum": 1, "description": "The position of the first event of the command that recorded this one "
                                                                    "(an undo takes back every event of one command)."},
        "prev_hash": {**_HASH, "type": ["string", "null"], "description": "The SHA-256 of the stream's previous event; null for its first."},
        "session_head": {**_HASH, "description": "On a campaign's event: the hash of its session's last event of the same command."},
        "sealed": {"type": "array", "items": {"type": "string"}, "description": "Payload paths kept out of the hash and of every reader "
                                                                                 "until the session ends."},
        "commitments": {"type": "object", "additionalProperties": _HASH,
                        "description": "Path -> salted SHA-256 commitment to a side's secret value (tracker/integrity/hiding.py)."},
        "salts": {"type": "object", "additionalProperties": {"type": "string"},
                  "description": "Path -> the commitment's salt: shown only once the session has ended and the secret is revealed."},
    },
    "additionalProperties": False,
}


class Event(Answer):
    OPTIONAL = ("secret",)
    TYPED_BY_EVENT_TYPE = True  # in the document, one schema per event type with its payload (api/event_schemas.py)

    position = fields.Integer()
    type = fields.String()
    timestamp = fields.String(metadata={"format": "date-time"})
    meta = fields.Raw(metadata={"description": EVENT_META["description"], **ruleset_schemas.ref("EventMeta")})
    payload = fields.Dict()
    secret = fields.Boolean(metadata={"description": "True when the payload is secret to another side until the quest ends."})


class Draw(Schema):
    deck = fields.String(required=True, validate=validate.Length(min=1, max=100))
    count = fields.Integer(strict=True, validate=COUNT)
    cards = fields.List(fields.String(validate=validate.Length(min=1, max=200)), validate=validate.Length(min=1, max=100))
    holder = fields.String(validate=validate.Length(min=1, max=100))


class DrawResult(Answer):
    log_position = _log_position()
    deck = fields.String()
    cards = fields.List(fields.String())
    source = fields.String(validate=SOURCE)
    events = fields.List(fields.Nested(Event))
    version = fields.Integer()


class Action(Schema):
    class Meta:
        unknown = INCLUDE  # each action type's own JSON Schema validates the rest

    type = fields.String(required=True, validate=validate.Length(min=1, max=100), metadata={"example": "end-turn"})


class ActionResult(Answer):
    log_position = _log_position()
    events = fields.List(fields.Nested(Event))
    state = fields.Nested(SessionState)
    version = fields.Integer()


class End(Schema):
    outcome = fields.String(required=True, validate=validate.OneOf(["victory", "heroic-victory", "defeat"]))
    ruling = fields.String(
        validate=validate.Length(min=1, max=1000),
        metadata={"description": "The owner overrules the rules: why. Recorded and shown as a table ruling."},
    )
    reported = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=100)),
        metadata={"description": "Facts the table states that the log cannot know (e.g. a figure reached a square), recorded with the end: "
                  "only the keys of the quest's reported_schema (GET /rulesets/{id}); an unknown key is refused (422).",
                  **ruleset_schemas.any_of("Reported")},
    )


class Ended(Answer):
    log_position = _log_position()
    id = fields.String()
    outcome = fields.String(validate=validate.OneOf(OUTCOMES))
    ruling = fields.String(allow_none=True)
    verdict = fields.Nested(Verdict, allow_none=True)
    seed = fields.String()
    seed_commitment = fields.String()
    next_quest = fields.String(allow_none=True)
    version = fields.Integer()


class SessionAbandonedNote(Answer):
    reason = fields.String()
    position = fields.Integer(metadata={"description": "The SessionAbandoned event."})


class Abandon(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=1000), metadata={"description": "Why the table stops without an outcome."})


class Abandoned(Answer):
    log_position = _log_position()
    id = fields.String()
    status = fields.String(validate=validate.OneOf(["abandoned"]))
    abandoned = fields.Nested(SessionAbandonedNote)
    seed = fields.String()
    seed_commitment = fields.String()
    next_quest = fields.String(allow_none=True)
    version = fields.Integer()


class FactBlocks(Answer):
    quest_setup = fields.List(fields.String(), metadata={"description": "Quests that cannot be set up without it."})
    actions = fields.List(fields.String(), metadata={"description": "Action types that read it."})
    digital_rolls = fields.List(fields.String(), metadata={"description": "Dice that cannot be rolled digitally without it."})
    digital_draws = fields.List(fields.String(), metadata={"description": "Decks that cannot be drawn from digitally without it."})


class MissingFact(Answer):
    path = fields.String(metadata={"description": "Where it goes in the component data (POST /campaigns/{cid}/components), dotted."})
    schema_pointer = fields.String(metadata={"description": "JSON Pointer to its schema in the ruleset's component_schema."})
    what = fields.String()
    reason = fields.String(allow_none=True, metadata={"description": "Why the rules data does not hold it."})
    blocks = fields.Nested(FactBlocks)
    stated_per_use = fields.Boolean(metadata={"description": "Whether the table may state it (or the result it gives) each time instead."})
    how_per_use = fields.String(allow_none=True)


class MissingFacts(Answer):
    campaign_id = fields.String()
    components_hash = fields.String()
    facts = fields.List(fields.Nested(MissingFact))
    blocks = fields.Dict(metadata={"description": "The same facts' paths grouped by what they block: quest_setup, actions, digital_rolls, "
                                                  "digital_draws (each by quest, action type, die or deck), and nothing_the_tracker_checks."})


class SideView(Schema):
    view = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=100),  # the side itself is checked against the campaign's ruleset: "Unknown side"
        metadata={"description": "Read as one side (e.g. heroes): what another side keeps secret is hidden until the quest ends. "
                                 "The campaign's ruleset decides which sides it has (GET /rulesets/{id}: sides).",
                  "enum": [*ruleset_schemas.side_ids(), None]},
    )


# A notification or event position: the stores keep them as 64-bit signed integers.
MAX_POSITION = 2**63 - 1
POSITION = validate.Range(min=0, max=MAX_POSITION)


class ViewRead(Schema):
    min_position = fields.Integer(
        load_default=None, validate=POSITION,
        metadata={"description": "Read your writes: wait (a second or two at most) until the views have projected the log up to this "
                  "position (a command's log_position); 503 with Retry-After if they have not got there by then."},
    )


class SideViewRead(SideView, ViewRead):
    pass


class EventsQuery(SideView):
    after = fields.Integer(load_default=0, validate=POSITION)
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class TimelineQuery(EventsQuery, ViewRead):
    pass


class EventPage(Answer):
    session_id = fields.String()
    events = fields.List(fields.Nested(Event))
    after = fields.Integer()
    next_after = fields.Integer()
    total = fields.Integer()


class TimelineEntry(Answer):
    position = fields.Integer()
    event_type = fields.String()
    summary = fields.String()
    issued_by = fields.String(allow_none=True)
    occurred_at = fields.String(metadata={"format": "date-time"})
    undone_by = fields.Integer(allow_none=True, metadata={"description": "Position of the ActionUndone that reverted this event, if one did."})


class Timeline(Answer):
    session_id = fields.String()
    entries = fields.List(fields.Nested(TimelineEntry))
    projected_to = fields.Integer()


class Mismatch(Answer):
    OPTIONAL = ("check",)

    position = fields.Integer()
    type = fields.String()
    reason = fields.String()
    check = fields.String(metadata={"description": "\"hash chain\" when the stored events were changed, removed, inserted or reordered"})


class Chain(Answer):
    OPTIONAL = ("detail",)

    status = fields.String(
        validate=validate.OneOf(["intact", "broken", "absent"]), metadata={"description": "absent: events recorded before hash chains"}
    )
    head = fields.String(allow_none=True, metadata={"description": "Hash of the session's last event"})
    break_ = fields.Nested(Mismatch, data_key="break", attribute="break", allow_none=True, metadata={"description": "Where the chain breaks"})
    detail = fields.String()


class Ruling(Answer):
    position = fields.Integer(required=True)
    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES))
    ruling = fields.String(required=True, metadata={"description": "Why the table overruled the rules."})
    overrules = fields.String(allow_none=True, metadata={"description": "What the rules said, if they said anything."})


class Verification(Answer):
    OPTIONAL = ("detail",)

    session_id = fields.String()
    status = fields.String(
        validate=validate.OneOf(["verified", "pending", "mismatch", "ruleset-changed"]),
        metadata={"description": "pending: the seed is not yet revealed"},
    )
    detail = fields.String()
    seed_commitment = fields.String()
    seed = fields.String(allow_none=True)
    ruleset = fields.Nested(RulesetPin)
    ruleset_in_code = fields.Nested(RulesetPin)
    ruleset_used = fields.Nested(RulesetPin, metadata={"description": "The version re-derivation used: the pinned one, from the archive if the code moved on"})
    chain = fields.Nested(Chain)
    recorded_session_head = fields.String(allow_none=True, metadata={"description": "The session's last hash as the campaign recorded it when the quest ended"})
    derivation = fields.String()
    rolls = fields.List(fields.Dict())
    shuffles = fields.List(fields.Dict())
    checked = fields.Dict(keys=fields.String(), values=fields.Integer())
    first_mismatch = fields.Nested(Mismatch, allow_none=True)
    ruling = fields.Nested(
        Ruling, allow_none=True,
        metadata={"description": "Set when the owner ended the quest by a table ruling: the outcome is the table's, not the rules'."},
    )


# -- rulesets and health -----------------------------------------------------


class RulesetListing(Answer):
    id = fields.String()
    name = fields.String()
    version = fields.String()
    hash = fields.String()


class ViewsHealth(Answer):
    OPTIONAL = ("position", "error", "failures", "stalled_seconds")

    status = fields.String(
        validate=validate.OneOf(["current", "stalled"]), metadata={"description": "stalled: a batch of the log keeps failing to project"}
    )
    position = fields.Integer(allow_none=True, metadata={"description": "stalled: the views hold the log up to here"})
    error = fields.String(metadata={"description": "stalled: the last failure, its type and first line"})
    failures = fields.Integer()
    stalled_seconds = fields.Float()


class Standby(Answer):
    OPTIONAL = ("address", "state", "sync_state", "replay_behind_bytes")

    name = fields.String(metadata={"description": "The standby's application_name (pg_auto_failover: pgautofailover_standby_<node id>)"})
    address = fields.String(allow_none=True)
    state = fields.String(allow_none=True, metadata={"description": "pg_stat_replication's state: streaming, catchup, ..."})
    sync_state = fields.String(allow_none=True, metadata={"description": "sync or quorum: a commit waits for this standby; async: it does not"})
    replay_behind_bytes = fields.Integer(allow_none=True, metadata={"description": "WAL the standby has still to replay"})


class Formation(Answer):
    answering = fields.String(metadata={"description": "host:port of the server the service's connections reach"})
    role = fields.String(validate=validate.OneOf(["primary", "standby"]))
    synchronous = fields.Boolean(metadata={"description": "Whether a commit waits for a standby: false for a lone server, or a promoted "
                                                           "one whose standby has not rejoined yet (a commit is then on one server)"})
    synchronous_standby_names = fields.String()
    standbys = fields.List(fields.Nested(Standby))


class ShardHealth(Answer):
    OPTIONAL = ("notifications", "projected_to", "views", "error", "formation")

    name = fields.String(metadata={"description": "The shard's name (`tracker shards list`)"})
    notifications = fields.Integer(metadata={"description": "The end of the shard's own log"})
    projected_to = fields.Integer(metadata={"description": "How far the views beside its events have read its log"})
    views = fields.Nested(ViewsHealth)
    error = fields.String(metadata={"description": "The shard's database did not answer: the failure, its type and first line"})
    formation = fields.Nested(Formation, metadata={"description": "On PostgreSQL: which server answers and how its standbys replicate"})


class Health(Answer):
    OPTIONAL = ("shards", "formation")

    status = fields.String(
        validate=validate.OneOf(["ok", "views-failing", "views-stalled", "shard-unreachable"]),
        metadata={"description": "ok: the views project; views-failing (200): a batch keeps failing, not yet for "
                                 "TRACKER_VIEWS_STALL_SECONDS; views-stalled (answered with 503): a shard's views past TRACKER_VIEWS_STALL_SECONDS; "
                                 "shard-unreachable (503): a shard's database does not answer"},
    )
    database = fields.String(validate=validate.OneOf(["sqlite", "postgresql"]))
    notifications = fields.Integer()
    projected_to = fields.Integer()
    views = fields.Nested(ViewsHealth)
    shards = fields.List(fields.Nested(ShardHealth), metadata={"description": "With shards: every shard's log and views, the home shard first"})
    formation = fields.Nested(Formation, metadata={"description": "On PostgreSQL: which server of the (home) database answers, and how its "
                                                                 "standbys replicate (README \"Failover\")"})


class ReadyViews(Answer):
    lag = fields.Integer(metadata={"description": "Events in the log the views have not projected yet (the slowest shard's)"})
    max_lag = fields.Integer(metadata={"description": "TRACKER_READY_MAX_LAG: the most the views may be behind for ready"})


class ReadyShard(Answer):
    name = fields.String()
    formation = fields.Nested(Formation)


class Readiness(Answer):
    OPTIONAL = ("reason", "views", "formation", "shards")  # no views' lag is measured while the database does not answer

    status = fields.String(validate=validate.OneOf(["ready", "database-unavailable", "warming-up", "views-behind"]),
                           metadata={"description": "ready (200), else why not (503, with Retry-After)"})
    reason = fields.String(metadata={"description": "Why not ready, in words (only when not ready)"})
    database = fields.Boolean(metadata={"description": "Whether the database answered just now"})
    warmed_up = fields.Boolean(metadata={"description": "Whether this worker finished its warm-up (api/warming.py)"})
    views = fields.Nested(ReadyViews)
    formation = fields.Nested(Formation, metadata={"description": "On PostgreSQL: which server of the (home) database answers, and how its "
                                                              "standbys replicate (as GET /health reports it)"})
    shards = fields.List(fields.Nested(ReadyShard), metadata={"description": "Each other shard's formation, on PostgreSQL"})


class RulesetDocument(Answer):
    id = fields.String()
    name = fields.String()
    version = fields.String()
    hash = fields.String()
    source = fields.Raw()
    dice = fields.List(fields.Dict(), metadata={"description": "The game's dice; faces is null where the layout was lost."})
    plain_dice = fields.List(fields.Dict(), metadata={"description": "d4 to d20, available in every session."})
    decks = fields.List(fields.Dict())
    characters = fields.List(fields.Dict())
    quests = fields.List(fields.Dict(), metadata={"description": "The quests as data; each with its reported_schema: the JSON Schema of the "
                                                    "\"reported\" facts its end may take from the table (POST /sessions/{sid}/end)."})
    rules = fields.Dict(metadata={"description": "The ruleset's other stated facts (campaign chain, trade tables, conditions, ...)."})
    actions = fields.List(fields.Dict(), metadata={"description": "Action types with the JSON Schema of their request body."})
    component_schema = fields.Dict(metadata={"description": "JSON Schema of the component data a campaign may supply."})
    options_schema = fields.Dict(metadata={"description": "JSON Schema of a campaign's options (POST /campaigns \"options\")."})
    setup_schema = fields.Dict(metadata={"description": "JSON Schema of a session start's \"setup\" (the table's choices at set-up)."})
    state_schema = fields.Dict(metadata={"description": "JSON Schema of a session's game state (its \"game\", which names the ruleset "
                                                        "in \"ruleset\")."})
    sides = fields.List(fields.String(), metadata={"description": "The sides at the table; secrets of one are hidden from the others."})
    component_packs = fields.List(
        fields.Dict(), metadata={"description": "Optional labelled component data from outside the rulebook, with its sources; pass its 'components' to POST /campaigns."}
    )


class Heroes(Answer):
    campaign_id = fields.String()
    projected_to = fields.Integer(metadata={"description": "Notification position the views have processed."})
    heroes = fields.Dict(
        keys=fields.String(), values=fields.Dict(),
        metadata={"description": "Each hero's progress by the campaign's game, each value with the events behind it."},
    )


class HeroProgress(Answer):
    """One hero's progress: its campaign and the game's own fields (documented only: the view returns them as they are)."""

    OPENAPI = {"additionalProperties": True}

    campaign_id = fields.String()
    projected_to = fields.Integer(metadata={"description": "Notification position the views have processed."})


class DescentRead(Answer):
    OPTIONAL = ("heroes",)

    campaign_id = fields.String()
    quests = fields.List(fields.Dict())
    heroes = fields.Dict()
    projected_to = fields.Integer(metadata={"description": "Notification position the views have processed."})


# -- time travel, undo, export and import, the event feed ---------------------


class StateQuery(Schema):
    at = fields.Integer(required=True, validate=validate.Range(min=1), metadata={"description": "The state just after this event position"})


class UndoResult(Answer):
    log_position = _log_position()
    undone = fields.Dict(metadata={"description": "from, to and the events the undo reverts"})
    events = fields.List(fields.Nested(Event))
    state = fields.Nested(SessionState)
    version = fields.Integer()


class Imported(Answer):
    log_position = _log_position()
    campaign_id = fields.String()
    owner_token = fields.String(
        allow_none=True,
        metadata={"description": "A new owner token for the imported campaign; shown once. Null for a backup: its own tokens came with it."},
    )
    owner_token_id = fields.String(allow_none=True)
    backup = fields.Boolean(metadata={"description": "The file was a backup (tracker export --backup): every token of the campaign works here too."})
    events = fields.Integer()
    sessions = fields.Dict(
        keys=fields.String(), values=fields.String(validate=validate.OneOf(["verified", "pending"])),
        metadata={"description": "Each session's verification"},
    )


class FeedEvent(Event):
    id = fields.Integer(metadata={"description": "Notification position: resume with ?after=id"})
    stream = fields.String()


class Feed(Answer):
    events = fields.List(fields.Nested(FeedEvent))
    after = fields.Integer()
    next_after = fields.Integer(metadata={"description": "Pass as ?after= for the next page"})
    last = fields.Integer(metadata={"description": "The newest notification position"})
    shard = fields.String(allow_none=True, metadata={"description": "The server (shard) whose log these positions count in; null without shards. "
                                                     "After the campaign moves to another shard its positions start again there: page from after=0."})


class FeedQuery(EventsQuery):
    shard = fields.String(load_default=None, validate=validate.Length(min=1, max=100), metadata={
        "description": "The shard the `after` position was counted on (the `shard` of the page it came from): "
                       "if the campaign has moved since, the answer is 409 instead of a page from the wrong log."})


class StreamQuery(Schema):
    after = fields.Integer(load_default=None, validate=POSITION, metadata={"description": "Start after this position (else Last-Event-ID, else 0)"})
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1), metadata={"description": "Close after this many events"})
    wait = fields.Float(load_default=None, validate=validate.Range(min=0, max=MAX_STREAM_SECONDS), metadata={"description": f"Close after this many idle seconds (at most {MAX_STREAM_SECONDS:g}; every stream closes after {MAX_STREAM_SECONDS:g} s, resume with Last-Event-ID)"})


class Signature(Answer):
    kid = fields.String(metadata={"description": "The id of the key that signed: one of GET /.well-known/jwks.json's"})
    sig = fields.String(metadata={"description": "Ed25519 signature, base64url, of the canonical JSON of the object without its signature"})


class Jwk(Answer):
    kty = fields.String(validate=validate.OneOf(["OKP"]))
    crv = fields.String(validate=validate.OneOf(["Ed25519"]))
    x = fields.String(metadata={"description": "The public key, base64url (RFC 8037)"})
    kid = fields.String(metadata={"description": "The key's RFC 7638 thumbprint; a signature names it"})
    use = fields.String(validate=validate.OneOf(["sig"]))
    alg = fields.String(validate=validate.OneOf(["EdDSA"]))
    created = fields.String(metadata={"description": "When the key was made (ISO 8601); the newest signs, the older ones still verify"})


class Jwks(Answer):
    keys = fields.List(fields.Nested(Jwk))


class Receipt(Answer):
    """What a player keeps of a session: tracker/integrity/receipts.py; the verifier's --receipt checks an export against it."""

    OPTIONAL = ("service", "outcome", "counter_end", "verdict", "ruling")

    receipt = fields.String(validate=validate.OneOf(["session-started", "session-ended"]), metadata={"description": "The start's while in play, the end's once ended"})
    service = fields.String(metadata={"description": "Where the service is reached"})
    campaign_id = fields.String()
    session_id = fields.String()
    quest = fields.String()
    ruleset = fields.Nested(RulesetPin)
    seed_commitment = fields.String()
    session_position = fields.Integer(metadata={"description": "The session's event whose hash is session_head: its set-up's last, or its SessionEnded"})
    session_head = fields.String()
    campaign_position = fields.Integer(allow_none=True, metadata={"description": "The campaign's QuestStarted, or its QuestEnded (QuestAbandoned)"})
    campaign_head = fields.String(allow_none=True)
    outcome = fields.String(metadata={"description": "session-ended: SessionEnded's outcome"})
    counter_end = fields.Integer(allow_none=True, metadata={"description": "session-ended: where the random stream stopped"})
    verdict = fields.Nested(Verdict, allow_none=True, metadata={"description": "session-ended: what the rules decided, if they did"})
    ruling = fields.String(allow_none=True, metadata={"description": "session-ended: the table's ruling, if the owner made one"})
    signature = fields.Nested(Signature)
