"""An action refused for a fact the rulebooks lost gets a hint in its own terms: the body that reports it.

A digital roll of a die whose faces were lost, or a digital draw from a deck whose cards were lost, is
refused where it happens (tracker/core/dice.py, tracker/core/decks.py) without knowing which action asked. Here the
refusal is given an ``example``: the action's body with the field that reports what the table rolled or
drew, found in the action's own schema. An action names that field in ``ActionType.reports`` where its name
says nothing ("spin" for Journey's spinner); otherwise ``faces`` (a flat list, or one list per die), ``face``
(one die's one face) and ``drawn`` (one list per deck) are looked for. When the action has no such field, no example is made: the
detail then says to supply the fact as component data.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import jsonschema

from tracker.core import missing_facts
from tracker.core.errors import TrackerError

CARD = "<the card drawn>"


# How many more refusals a refusal's example is followed through (one per lost fact the request reads, at most).
FOLLOWED = 12


def for_action(refusal: TrackerError, action_type: Any, action: Mapping[str, Any], ctx: Any, stream: Any = None) -> TrackerError:
    """A refusal inside an action, with its example and, when a lost fact refused it, every lost fact the request reads.

    The example is a whole body: it is followed through the resolver (pure, with a stream that gives nothing) and
    each further refusal a lost fact gives it is folded into the same example and the same errors, so a group that
    fills in the example's values meets no second refusal the first could have named."""
    refusal = with_example(refusal, action_type, action, ctx)
    stood_in = refusal.example is None  # an example of stand-ins for the fields the refusal asks for, made here
    if stood_in:
        refusal.example = asked_filled(refusal, action_type, action)
    if refusal.example is not None:
        before = (refusal.example, refusal.errors, refusal.detail)
        try:
            _followed_through(refusal, action_type, ctx, stream)
        except Exception:  # noqa: BLE001 - a resolver that fails on a stand-in body: the refusal is given as it was
            refusal.example, refusal.errors, refusal.detail = before
            if stood_in:
                refusal.example = None  # a body a resolver cannot take is no example
    return with_all_missing(refusal, action, ctx)


class _WouldDraw(Exception):
    """The example, followed through, reaches a digital roll, draw or shuffle."""


class _Sealed:
    """A stream that gives nothing: following an example through never rolls, draws or shuffles, so a refusal cannot
    tell what the session's stream holds next (the top card of a deck, the next roll) before the table acts."""

    def __init__(self, stream: Any) -> None:
        self.counter = getattr(stream, "counter", 0)

    def uniform(self, n: int) -> int:
        raise _WouldDraw

    def roll(self, layout: Any) -> Any:
        raise _WouldDraw

    def shuffle(self, items: Any) -> Any:
        raise _WouldDraw


def _followed_through(refusal: TrackerError, action_type: Any, ctx: Any, stream: Any) -> None:
    """Try the refusal's example; while a lost fact refuses it, take the next refusal's example (built on this one)
    and its errors and detail into this refusal. Where the example reaches a digital roll or draw it is not followed
    further: what comes next depends on the stream, which no refusal reveals."""
    body = refusal.example
    seen = [body]
    for _ in range(FOLLOWED):
        try:
            action_type.resolve(ctx, body, _Sealed(stream))
        except _WouldDraw:
            return
        except TrackerError as further:
            further = with_example(further, action_type, body, ctx)
            if further.example is None:
                further.example = asked_filled(further, action_type, body)
            if further.example is None or further.example in seen:
                return
            refusal.errors = {**(refusal.errors or {}), **{k: v for k, v in (further.errors or {}).items() if k not in (refusal.errors or {})}}
            then = f"Then: {further.title}." + (f" {further.detail}" if further.detail and further.detail not in (refusal.detail or "") else "")
            refusal.detail = f"{refusal.detail or ''} {then}".strip()
            body = refusal.example = further.example
            seen.append(body)
        else:
            return


def with_all_missing(refusal: TrackerError, action: Mapping[str, Any], ctx: Any) -> TrackerError:
    """A refusal for one lost fact names all of them the request reads, so the group supplies them at once
    instead of meeting them one refusal at a time."""
    if refusal.unknown is None and not any(str(key).startswith("components.") for key in (refusal.errors or {})):
        return refusal
    needed = missing_facts.needed_by(ctx.ruleset, action, ctx.state, ctx.components)
    if not needed:
        return refusal
    errors = dict(refusal.errors or {})
    for fact in needed:
        errors.setdefault(fact["path"], [f"Unknown: {fact['what']}" + (f"; or per use: {fact['how_per_use']}" if fact["how_per_use"] else "") + "."])
    refusal.errors = errors
    listed = ", ".join(fact["path"] for fact in needed)
    refusal.detail = (
        f"{refusal.detail or ''} This request reads {len(needed)} fact(s) the campaign lacks: {listed}. Supply them together "
        "(POST /campaigns/{cid}/components; GET /campaigns/{cid}/components/missing lists them all), or state them per use where 'errors' says how."
    ).strip()
    return refusal


def asked_filled(refusal: TrackerError, action_type: Any, body: Mapping[str, Any]) -> dict[str, Any] | None:
    """The body with each field a refusal's errors ask for and the body leaves out given a stand-in of its schema's
    shape (the first of its choices, its least number, yes): the table puts in its own where the detail says how.
    None when the refusal asks for no such field, or the filled body would not fit the schema."""
    filled: dict[str, Any] = copy.deepcopy(dict(body))
    changed = False
    for key in refusal.errors or {}:
        path = str(key).split(".")
        schema = _field_schema(action_type.schema, path)
        if schema is None or _holds(filled, path):
            continue
        value = _stand_in(schema)
        if value is None:
            continue
        _put(filled, path, value)
        changed = True
    if not changed or not jsonschema.Draft202012Validator(action_type.schema).is_valid(filled):
        return None
    return filled


def _field_schema(schema: Mapping[str, Any], path: list[str]) -> Mapping[str, Any] | None:
    for part in path:
        if not isinstance(schema, Mapping) or schema.get("type") != "object":
            return None
        inner = (schema.get("properties") or {}).get(part)
        if inner is None and isinstance(schema.get("additionalProperties"), Mapping):
            inner = schema["additionalProperties"]
        if inner is None:
            return None
        schema = inner
    return schema


def _holds(body: Mapping[str, Any], path: list[str]) -> bool:
    for part in path:
        if not isinstance(body, Mapping) or part not in body:
            return False
        body = body[part]
    return True


def _put(body: dict[str, Any], path: list[str], value: Any) -> None:
    for part in path[:-1]:
        if not isinstance(body.get(part), dict):
            body[part] = {}
        body = body[part]
    body[path[-1]] = value


def _stand_in(schema: Mapping[str, Any]) -> Any:
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "integer" or kind == "number":
        return max(int(schema.get("minimum", 1)), 1) if schema.get("maximum", 1) >= 1 else schema.get("minimum", 0)
    if kind == "boolean":
        return True
    return None


def with_example(refusal: TrackerError, action_type: Any, action: Mapping[str, Any], ctx: Any) -> TrackerError:
    """``refusal`` with an example body for ``action_type`` that reports the lost fact, when one fits its schema."""
    if refusal.unknown is None or refusal.example is not None:
        return refusal
    example = example_body(action_type, action, refusal.unknown, ctx)
    if example is None:
        return refusal
    field = next(key for key in example if key not in action or example[key] != action[key])
    refusal.example = example
    refusal.detail = f"{refusal.detail or ''} With '{action_type.name}', report it in \"{field}\" as the example shows.".strip()
    return refusal


def example_body(action_type: Any, action: Mapping[str, Any], unknown: Mapping[str, Any], ctx: Any) -> dict[str, Any] | None:
    value = _reported(action_type, unknown, ctx, action)
    if value is None:
        return None
    field, reported = value
    if isinstance(reported, Mapping) and isinstance(action.get(field), Mapping):
        reported = {**action[field], **reported}  # one more die's faces beside those the body already reports
    body = {**{k: v for k, v in action.items() if k not in ("dice",)}, field: reported}
    return body if jsonschema.Draft202012Validator(action_type.schema).is_valid(body) else None


def _reported(action_type: Any, unknown: Mapping[str, Any], ctx: Any, action: Mapping[str, Any] | None = None) -> tuple[str, Any] | None:
    properties = action_type.schema.get("properties") or {}
    count = max(1, int(unknown.get("count") or 1))
    if "die" in unknown:
        die = unknown["die"]
        named = (action_type.reports or {}).get(f"die:{die}")
        for field in ([named] if named else ["faces", "face"] if count == 1 else ["faces"]):
            shaped = _die_value(properties.get(field), die, count, ctx, action or {})
            if shaped is not None:
                return field, shaped
        return None
    deck = unknown["deck"]
    named = (action_type.reports or {}).get(f"deck:{deck}")
    for field in ([named] if named else ["drawn", "cards"]):
        shaped = _deck_value(properties.get(field), deck, count)
        if shaped is not None:
            return field, shaped
    return None


def _die_value(schema: Mapping[str, Any] | None, die: str, count: int, ctx: Any, action: Mapping[str, Any]) -> Any:
    if not schema:
        return None
    results = list(ctx.die(die).results) if ctx is not None else []
    if schema.get("type") == "object":
        inner = (schema.get("properties") or {}).get(die) or schema.get("additionalProperties")
        if not isinstance(inner, Mapping):
            return None
        names = schema.get("propertyNames")
        if names and not jsonschema.Draft202012Validator(names).is_valid(die):
            # faces keyed by who rolled ({hero: [...]}, Kung Fu Panda's pause): one list per roller the request counts in "dice"
            rollers = action.get("dice")
            if not isinstance(rollers, Mapping) or not rollers:
                return None
            return {who: [_face(inner.get("items") or {}, results)] * int(n) for who, n in rollers.items()}
        return {die: [_face(inner.get("items") or {}, results)] * count}
    if schema.get("type") == "array":
        return [_face(schema.get("items") or {}, results)] * count
    return _face(schema, results)  # one face, as the field itself (a spin)


def _face(schema: Mapping[str, Any], results: list[Any]) -> Any:
    allowed = schema.get("enum")
    if allowed:
        return next((face for face in results if face in allowed), allowed[0])
    return results[0] if results else None


def _deck_value(schema: Mapping[str, Any] | None, deck: str, count: int) -> Any:
    if not schema:
        return None
    if schema.get("type") == "object":
        return {deck: [CARD] * count}
    if schema.get("type") == "array":
        return [CARD] * count
    if schema.get("type") == "string":
        return CARD if count == 1 else None
    return None


def for_set_up(refusal: TrackerError, ruleset: Any, party: list[str], components: Mapping[str, Any], quest: str) -> TrackerError:
    """A quest's set-up refused for a lost fact names every lost fact that blocks setting it up, all at once."""
    if not any(str(key).startswith("components.") for key in (refusal.errors or {})):
        return refusal
    blocking = missing_facts.missing(ruleset, party, components, [quest])["facts"]
    needed = [fact for fact in blocking if quest in fact["blocks"]["quest_setup"]]
    if not needed:
        return refusal
    errors = dict(refusal.errors or {})
    for fact in needed:
        errors.setdefault(fact["path"], [f"Unknown: {fact['what']}" + (f"; or: {fact['how_per_use']}" if fact["how_per_use"] else "") + "."])
    refusal.errors = errors
    refusal.detail = (
        f"{refusal.detail or ''} Setting up {quest} needs {len(needed)} fact(s) the campaign lacks: {', '.join(f['path'] for f in needed)}."
    ).strip()
    return refusal
