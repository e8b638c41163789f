"""A game's actions as HTML forms, generated from their JSON Schemas, and the posted form read back into
the action's JSON body. No script is needed: every field is a plain input, select or text area.

The fields, by schema:
- an ``enum`` (or ``const``) is a choice, its values said by the game's names;
- a string naming a hero (``hero``, ``attacker``, ``holder``, ...) offers the heroes the token may name,
  and where the field may name a figure instead (an ``attacker``), the figures on the board;
  a ``deck`` offers the session's decks;
- an integer is a number field within its bounds; a boolean a yes / no choice (or left unsaid);
- an array of choices is a set of checkboxes (an array of strings too where the rules offer its values now,
  GameRules.choices: Descent's half actions); any other array of strings, a comma-separated text field;
- an object with named properties is its fields, one by one (``costs.chi``);
- any other object (a map such as the cards drawn per deck, or the faces rolled per die) is a text
  area of lines ``key: value, value`` (a map of numbers: ``key: 2``);
- an array of objects with named properties is rows of their fields (``targets.0.defender``), an empty row
  no item; any other array of objects a text area of JSON objects, one per line (also taken in place of rows).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tracker.core.wording import key_said
from tracker.core.actors import DECK_ACTOR_FIELDS
from tracker.core.errors import Unprocessable

# Fields that name a hero in every game (who takes the cards) and in most (the hero acting); each game adds its
# own (GameRules.actor_fields), passed in as ``hero_fields``.
HERO_FIELDS = (*DECK_ACTOR_FIELDS, "hero", "heroes", "opener", "pilgrim")


class FormProblem(Unprocessable):
    pass


def fields(schema: Mapping[str, Any], names: Mapping[str, str], heroes: Sequence[str], decks: Sequence[str], prefix: str = "",
           ids: Mapping[str, Sequence[str]] | None = None, hero_fields: Sequence[str] = HERO_FIELDS,
           choices: Mapping[str, Mapping[str, str]] | None = None, preset: Mapping[str, str] | None = None,
           cards: Mapping[str, Sequence[str]] | None = None) -> list[dict[str, Any]]:
    """The form fields of an object schema (its ``type`` left out: the form says which action it is);
    ``ids``: the quest's ids in play by field name (demons for a target, gates for a gate), offered as choices;
    ``choices``: the values the game's state offers for a field, by field name, each with its name in the game
    (GameRules.choices: a tile by its name); ``preset``: a field's value chosen already (the hero the rules say acts next);
    ``cards``: each deck's card names where the rules data or the campaign's components list them (the cards drawn for an
    action are picked from them)."""
    required = set(schema.get("required", []))
    out = []
    context = _Context(names, heroes, decks, ids or {}, tuple(hero_fields), choices or {}, preset or {}, cards or {})
    for key, spec in (schema.get("properties") or {}).items():
        if key == "type" and not prefix:
            continue
        out.extend(_field(prefix + key, key, spec, key in required, context))
    return out


class _Context:
    """What every field of one form is drawn with."""

    def __init__(self, names, heroes, decks, ids, hero_fields, choices, preset, cards) -> None:
        self.names, self.heroes, self.decks, self.ids, self.hero_fields = names, heroes, decks, ids, hero_fields
        self.choices, self.preset, self.cards = choices, preset, cards

    def sub(self, schema: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
        return fields(schema, self.names, self.heroes, self.decks, prefix, self.ids, self.hero_fields, self.choices, self.preset,
                      self.cards)


def id_said(value: str, names: Mapping[str, str]) -> str:
    """An id in play as the game names it: its own name, else its kind's name and its number ("berrok-1": Berrok 1)."""
    if value in names:
        return names[value]
    kind, dash, number = str(value).rpartition("-")
    if dash and number.isdigit() and kind:
        return f"{names.get(kind) or key_said(kind).capitalize()} {number}"
    return key_said(value).capitalize() if "_" in value or "-" in value else value


CODE_WORD = re.compile(r"[a-z][a-z0-9]+(?:[_-][a-z0-9]+)*")  # a word, not a letter: a tile's "n" is not "N"


def _choices(values: Sequence[Any], names: Mapping[str, str], said: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    said = said or {}
    return [{"value": str(v), "label": said.get(str(v)) or names.get(str(v)) or _word_said(v)} for v in values]


def _word_said(value: Any) -> str:
    """A value the game gives no name: a code word as words ("basic": Basic, "heroic-victory": Heroic victory); a
    face, a number or a name as it is written ("3D 1R", "X", "Wild Herbs")."""
    text = str(value)
    return key_said(text).capitalize() if isinstance(value, str) and CODE_WORD.fullmatch(text) else text


def _preselected(field: dict[str, Any], key: str, context: "_Context") -> dict[str, Any]:
    chosen = context.preset.get(key)
    if chosen is not None and any(c["value"] == chosen for c in field.get("choices") or []):
        field = {**field, "selected": chosen}
    return field


def _counts(base: dict[str, Any], values: Sequence[Any], names: Mapping[str, str], spec: Mapping[str, Any]) -> dict[str, Any]:
    """A list whose items repeat (the faces a die shows, several dice at once): a count per face, named by the face."""
    most = spec.get("maxItems")
    return {**base, "kind": "counts", "choices": _choices(values, names), "max": most}


def _field(name: str, key: str, spec: Mapping[str, Any], required: bool, context: _Context) -> list[dict[str, Any]]:
    names, heroes, decks, ids, hero_fields = context.names, context.heroes, context.decks, context.ids, context.hero_fields
    label = key_said(key)
    base = {"name": name, "label": label[:1].upper() + label[1:], "required": required, "help": spec.get("description", "")}  # "Extra AP"
    kind = spec.get("type")
    if "enum" in spec or "const" in spec:
        values = spec.get("enum") or [spec["const"]]
        if key in hero_fields and heroes:
            values = [v for v in values if v in heroes] or list(values)
        return [_preselected({**base, "kind": "select", "choices": _choices(values, names)}, key, context)]
    if kind == "string":
        if key in hero_fields and heroes:
            # a field that names a hero or a figure (an attacker: a hero, or the overlord's monster, a yōkai)
            # offers the figures on the board too, else their side could never act on the page
            figures = [i for i in ids.get(key) or [] if i not in heroes]
            said = {i: id_said(i, names) for i in figures}
            return [_preselected({**base, "kind": "select", "choices": _choices([*heroes, *figures], names, said)}, key, context)]
        if key == "deck" and decks:
            return [{**base, "kind": "select", "choices": _choices(decks, names)}]
        offered = context.choices.get(key)
        if offered:
            return [_preselected({**base, "kind": "select", "choices": _choices(list(offered), names, offered)}, key, context)]
        suggested = ids.get(key) or []
        if suggested and key in ("defender", "target", "figure"):  # a figure struck may be a hero as well as a foe
            suggested = [*heroes, *[i for i in suggested if i not in heroes]]
        if suggested:  # the figures, gates or tokens in play: chosen by name, never typed as ids
            return [_preselected({**base, "kind": "select", "choices": _choices(suggested, names, {i: id_said(i, names) for i in suggested})},
                                 key, context)]
        return [{**base, "kind": "text", "max": spec.get("maxLength"), "suggest": []}]
    if kind == "integer" or kind == "number":
        return [{**base, "kind": "number", "min": spec.get("minimum"), "max": spec.get("maximum")}]
    if kind == "boolean":
        return [{**base, "kind": "select", "choices": [{"value": "yes", "label": "yes"}, {"value": "no", "label": "no"}]}]
    if kind == "array":
        items = spec.get("items") or {}
        if "enum" in items:
            values = items["enum"]
            if key in hero_fields and heroes:
                values = [v for v in values if v in heroes] or list(values)
            if spec.get("uniqueItems") or key in hero_fields:
                return [{**base, "kind": "checkboxes", "choices": _choices(values, names)}]
            return [_counts(base, values, names, spec)]
        if items.get("type") == "object" and items.get("properties") and not items.get("additionalProperties"):
            return [{**base, "kind": "rows", "rows": _rows(name, items, spec, required, context)}]
        if items.get("type") == "object":
            return [{**base, "kind": "json-lines", "help": (base["help"] + " " if base["help"] else "") + "One JSON object per line, e.g. " + _example(items)}]
        if key in hero_fields and heroes:
            return [{**base, "kind": "checkboxes", "choices": _choices(heroes, names)}]
        offered = context.choices.get(key)
        if offered:  # the values the rules offer now (GameRules.choices: Descent's half actions), picked, never typed
            return [{**base, "kind": "checkboxes", "choices": _choices(list(offered), names, offered)}]
        return [{**base, "kind": "list", "number": items.get("type") == "integer", "help": (base["help"] + " " if base["help"] else "") + "Separate with commas."}]
    if kind == "object" or "properties" in spec or "additionalProperties" in spec:
        if spec.get("properties") and not spec.get("additionalProperties"):
            # its fields together under its own name, so "Damage" keeps its Weapon Card (stated.weapon.damage)
            return [{**base, "kind": "group", "fields": context.sub(spec, name + ".")}]
        values = spec.get("additionalProperties") if isinstance(spec.get("additionalProperties"), Mapping) else {}
        keys = (spec.get("propertyNames") or {}).get("enum")
        faces = (values.get("items") or {}).get("enum") if values.get("type") == "array" else None
        if keys and faces:  # a list of faces per hero (Kung Fu Panda's spend): each hero's faces counted, by name
            keys = [k for k in keys if k in heroes] if key in hero_fields and heroes else list(keys)
            return [{**base, "kind": "group", "fields": [_counts({"name": f"{name}.{k}", "label": names.get(k, k), "required": False, "help": ""},
                                                                  faces, names, values) for k in keys]}]
        if values.get("type") == "array" and not (values.get("items") or {}).get("enum") and context.cards:
            return [_cards_drawn(base, name, context)]
        number = values.get("type") == "integer"
        example = "deck: card, card" if values.get("type") == "array" else ("key: 2" if number else "key: value")
        return [{**base, "kind": "map", "number": number, "lists": values.get("type") == "array",
                 "help": (base["help"] + " " if base["help"] else "") + f"One per line, as “{example}”."}]
    return [{**base, "kind": "json", "help": (base["help"] + " " if base["help"] else "") + "As JSON."}]


PICKS = 2  # cards picked per deck in one action's form (the cards drawn for it); more are entered as text


def _cards_drawn(base: dict[str, Any], name: str, context: _Context) -> dict[str, Any]:
    """The cards drawn per deck (a map "deck: card, card"): for each deck whose cards are known, pickers of its card
    names (``name@deck``, in the order drawn); the decks whose cards are not known, as text lines."""
    known = [d for d in context.decks if context.cards.get(d)]
    unknown = [d for d in context.decks if d not in known]
    pickers = [{"name": f"{name}@{deck}", "label": context.names.get(deck, deck), "picks": PICKS,
                "choices": _choices(sorted(dict.fromkeys(context.cards[deck])), {})} for deck in known]
    text = {**base, "name": name, "label": "Other decks", "required": False, "kind": "map",
            "help": "One per line, as “deck: card, card”, for a deck whose cards are not listed."} if unknown else None
    return {**base, "kind": "cards", "decks": pickers, "text": text}


ROWS = 3  # rows drawn for a list of objects (the targets of an attack, the monsters placed): more are sent again


def _rows(name: str, items: Mapping[str, Any], spec: Mapping[str, Any], required: bool, context: _Context) -> list[list[dict[str, Any]]]:
    """A list of objects as rows of their fields (``targets.0.defender``), the first required where the list is;
    a row left empty is no item."""
    count = max(1, min(int(spec.get("maxItems") or ROWS), ROWS))
    rows = []
    for index in range(count):
        row = context.sub(items, f"{name}.{index}.")
        rows.append(row if index == 0 and required and spec.get("minItems") else [_optional(f) for f in row])
    return rows


def _optional(field: dict[str, Any]) -> dict[str, Any]:
    return {**field, "required": False, **({"rows": [[_optional(f) for f in row] for row in field["rows"]]} if "rows" in field else {}),
            **({"fields": [_optional(f) for f in field["fields"]]} if "fields" in field else {})}


def _example(items: Mapping[str, Any]) -> str:
    props = items.get("properties") or {}
    shown = {k: (v.get("enum") or ["…"])[0] if v.get("type") != "integer" else 1 for k, v in list(props.items())[:2]}
    return json.dumps(shown)


def body(schema: Mapping[str, Any], form: Mapping[str, Any], getlist, hero_fields: Sequence[str] = HERO_FIELDS, prefix: str = "") -> dict[str, Any]:
    """The action's JSON body from a posted form of these fields (empty fields left out); ``prefix``: the fields' names
    begin with it (the end's facts: ``reported.``)."""
    return _object(schema, form, getlist, prefix, tuple(hero_fields))


def _object(schema: Mapping[str, Any], form, getlist, prefix: str, hero_fields: tuple[str, ...] = HERO_FIELDS) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, spec in (schema.get("properties") or {}).items():
        if key == "type" and not prefix:
            continue
        value = _value(prefix + key, key, spec, form, getlist, hero_fields)
        if value is not None:
            out[key] = value
    return out


def counted(name: str, faces: Sequence[Any], form) -> list[Any] | None:
    """The faces a count per face stands for ("{name}#{face}": how many showed it), in the die's order; None: none counted."""
    out: list[Any] = []
    for face in faces:
        raw = (form.get(f"{name}#{face}") or "").strip()
        if raw:
            out.extend([face] * max(0, number(f"{key_said(name.rpartition('.')[2]).capitalize()} {face}", raw)))
    return out or None


def _value(name: str, key: str, spec: Mapping[str, Any], form, getlist, hero_fields: tuple[str, ...] = HERO_FIELDS) -> Any:
    kind = spec.get("type")
    if kind == "array":
        items = spec.get("items") or {}
        if "enum" in items and not (spec.get("uniqueItems") or key in hero_fields) and not (form.get(name) or "").strip():
            return counted(name, items["enum"], form)
        if "enum" in items and (spec.get("uniqueItems") or key in hero_fields):
            return getlist(name) or None
        if key in hero_fields and "enum" not in items and items.get("type") != "object" and getlist(name):
            return getlist(name)
        if "enum" not in items and items.get("type") != "object" and len(getlist(name)) > 1:
            return [v for v in getlist(name) if v]  # the choices the rules offered, picked (checkboxes post one value each)
    raw = (form.get(name) or "").strip()
    if kind == "array" and (spec.get("items") or {}).get("type") == "object" and not raw:
        rows = [_object(spec["items"], form, getlist, f"{name}.{index}.", hero_fields) for index in range(int(spec.get("maxItems") or ROWS))]
        return [row for row in rows if row] or None
    if kind == "object" or "properties" in spec or "additionalProperties" in spec:
        if spec.get("properties") and not spec.get("additionalProperties"):
            nested = _object(spec, form, getlist, name + ".", hero_fields)
            return nested or None
        values = spec.get("additionalProperties") if isinstance(spec.get("additionalProperties"), Mapping) else {}
        keys = (spec.get("propertyNames") or {}).get("enum")
        faces = (values.get("items") or {}).get("enum") if values.get("type") == "array" else None
        if keys and faces and not raw:
            per_key = {k: counted(f"{name}.{k}", faces, form) for k in keys}
            return {k: v for k, v in per_key.items() if v} or None
        typed = _map(name, raw, spec) if raw else None
        # the cards drawn picked per deck (_cards_drawn: "name@deck"), before those typed as lines
        picked = {field.partition("@")[2]: [v for v in getlist(field) if v] for field in form if field.startswith(name + "@")}
        picked = {deck: cards for deck, cards in picked.items() if cards}
        if not picked:
            return typed
        for deck, cards in (typed or {}).items():
            picked[deck] = [*picked.get(deck, []), *cards]
        return picked
    if not raw:
        return None
    if "enum" in spec or "const" in spec:
        values = spec.get("enum") or [spec["const"]]
        return next((v for v in values if str(v) == raw), raw)
    if kind in ("integer", "number"):
        return number(name, raw)
    if kind == "boolean":
        return raw == "yes"
    if kind == "array":
        items = spec.get("items") or {}
        if items.get("type") == "object":
            return [_json(name, line) for line in raw.splitlines() if line.strip()]
        parts = [p.strip() for p in raw.split(",") if p.strip()]
        return [number(name, p) for p in parts] if items.get("type") == "integer" else parts
    if kind == "string" or kind is None and "type" not in spec:
        return raw if kind == "string" else _json(name, raw)
    return raw


def _map(name: str, raw: str, spec: Mapping[str, Any]) -> dict[str, Any]:
    values = spec.get("additionalProperties") if isinstance(spec.get("additionalProperties"), Mapping) else {}
    out: dict[str, Any] = {}
    for line in raw.splitlines():
        if not line.strip():
            continue
        key, colon, rest = line.partition(":")
        if not colon or not key.strip():
            raise FormProblem(f"Write each line of {key_said(name)} as “key: value”", detail=f"This line has no colon: {line.strip()}")
        rest = rest.strip()
        if values.get("type") == "array":
            parts = [p.strip() for p in rest.split(",") if p.strip()]
            out[key.strip()] = [number(name, p) for p in parts] if (values.get("items") or {}).get("type") == "integer" else parts
        elif values.get("type") == "integer":
            out[key.strip()] = number(name, rest)
        else:
            out[key.strip()] = rest
    return out


def number(name: str, raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise FormProblem(f"{key_said(name).capitalize()} must be a whole number", detail=f"“{raw}” is not one.") from None


def _json(name: str, raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise FormProblem(f"{key_said(name).capitalize()} is not valid JSON", detail=f"Check the brackets and quotes of: {raw[:100]}") from None
