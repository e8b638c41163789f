"""Values as people say them at the table: the timeline's words for whatever a change records, and a view's on the pages.

A change is plain JSON with the game's ids and the code's keys ("with_discard", "monkey-king",
{"good": 2}). A person reads "with discard", "Monkey King", "good 2". This module turns any such
value into those words, and cleans a line that a ruleset formatted from raw values (a dict or list
pasted in as Python writes it, None, True, a snake_case key) into the same words.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

NOT_STATED = "not stated"


def key_said(key: str) -> str:
    """A code key as words: "with_discard" -> "with discard", "hp_after" -> "HP after"."""
    words = str(key).replace("_", " ").replace("-", " ").strip()
    return re.sub(r"\b(hp|ap|ko)\b", lambda m: m.group(1).upper(), words)


def value_said(value: Any, names: Mapping[str, str] | None = None) -> str:
    names = names or {}
    if value is None:
        return NOT_STATED
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(value_said(item, names) for item in value) if value else "none"
    if isinstance(value, Mapping):
        if not value:
            return "none"
        return "; ".join(f"{names.get(k, key_said(k)) if isinstance(k, str) else k} {value_said(v, names)}" for k, v in value.items())
    return str(value)


def details_said(fields: Mapping[str, Any], names: Mapping[str, str] | None = None, skip: tuple[str, ...] = (),
                 by_field: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """A record's fields as "target Berrok; faces 1, X" (keys as words, values as people say them); ``by_field``: the
    names a field's values have in the game only there (a Kung Fu Panda tile "t" is the Training Ground in "to",
    never in a sentence's article)."""
    by_field = by_field or {}
    return "; ".join(f"{key_said(k)} {_field_said(v, {**(names or {}), **by_field[k]} if k in by_field else (names or {}))}"
                     for k, v in fields.items() if k not in skip and v not in (None, [], {}))


def _field_said(value: Any, names: Mapping[str, str]) -> str:
    """One field's value in a record's line, whose fields are joined by semicolons: a map's entries joined by commas, and
    a list or map inside it in brackets where it holds more than one thing, so nested maps never run together ("hero
    sheets Tahlia (wounds 12, fatigue 4, armor 2), Aurim (wounds 8, fatigue 5, armor 1)", not "Tahlia wounds 12;
    fatigue 4; ...; Aurim wounds 8")."""
    if not isinstance(value, Mapping) or not value:
        return value_said(value, names)
    return ", ".join(f"{names.get(k, key_said(k)) if isinstance(k, str) else k} {_inner_said(v, names)}" for k, v in value.items())


def _inner_said(value: Any, names: Mapping[str, str]) -> str:
    if isinstance(value, Mapping) and value:
        return f"({', '.join(f'{names.get(k, key_said(k)) if isinstance(k, str) else k} {_inner_said(v, names)}' for k, v in value.items())})"
    if isinstance(value, (list, tuple)) and len(value) > 1:
        return f"({value_said(value, names)})"
    return value_said(value, names)


_WORDS = {"None": NOT_STATED, "True": "yes", "False": "no"}
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_PYTHON_WORDS = re.compile(r"\b(None|True|False)\b")


def plain(line: str, names: Mapping[str, str] | None = None) -> str:
    """A line with any Python literal in it (a dict, a list, None, True) said in words, snake_case keys as
    words, and the game's ids said by their names.

    Each step looks first for what it changes (a bracket, one of the three words, an underscore) and passes a
    line without it over as it is: most lines have none, and the step would give them back unchanged."""
    names = names or {}
    if "[" in line or "{" in line or "(" in line:
        line = _literals_said(line, names)
    if "None" in line or "True" in line or "False" in line:
        line = _PYTHON_WORDS.sub(lambda m: _WORDS[m.group(1)], line)
    if "_" in line:
        line = _SNAKE.sub(lambda m: key_said(m.group(0)), line)
    return names_said(line, names) if names else line


_OPEN, _CLOSE = "[{(", "]})"
_NEXT_OPEN = re.compile(r"[\[{(]").search


def _literals_said(text: str, names: Mapping[str, str]) -> str:
    """Each Python literal in the text ({...}, [...], or a tuple) said in words: the outermost bracket that
    parses as one is said whole; a bracket that does not (words in parentheses) is looked into."""
    out, i, length = [], 0, len(text)
    while i < length:
        opening = _NEXT_OPEN(text, i)
        if opening is None:
            out.append(text[i:])
            break
        start = opening.start()
        out.append(text[i:start])
        end = _closing(text, start)
        if end is None:
            out.append(text[start])
            i = start + 1
            continue
        span = text[start : end + 1]
        said = _literal_said(span, names)
        out.append(said if said is not None else span[0] + _literals_said(span[1:-1], names) + span[-1])
        i = end + 1
    return "".join(out)


def _closing(text: str, start: int) -> int | None:
    depth, quote = 0, None
    for j in range(start, len(text)):
        ch = text[j]
        if quote:
            if ch == quote and text[j - 1] != "\\":
                quote = None
        elif ch in "'\"" and depth and (text[j - 1] in _OPEN + " ,:"):
            quote = ch
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return None


def _literal_said(span: str, names: Mapping[str, str]) -> str | None:
    try:
        value = ast.literal_eval(span)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None
    if isinstance(value, (dict, list, tuple, set)):
        said = value_said(sorted(value) if isinstance(value, set) else value, names)
        return f"({said})" if span.startswith("(") else said
    return None


def names_said(text: str, names: Mapping[str, str]) -> str:
    """Ids in a line said as the game names them (whole ids only: 'berrok-1' stays as it is)."""
    for key in sorted(names, key=len, reverse=True):
        if key in text and names[key] != key:
            text = re.sub(rf"(?<![\w-]){re.escape(key)}(?![\w-])", lambda _m, said=names[key]: said, text)
    return text


# -- refusals: what a person reads when the tracker says no ------------------------------------------------------
#
# A refusal's title and detail are prose a group acts on: a list is said "Monk Sha, Cho Hakkai and Tripitaka" (a long
# one summarised), a thing by the name the game prints, never an id or a Python repr. JSON the table is told to send
# ("faces": {"attack": [...]}) is quoted with double quotes and is left exactly as it is.

MOST_LISTED = 16  # a longer list is said by its first items and how many more
_QUOTED_JSON = re.compile(r'"(?:[^"\\]|\\.)*"')


def listed(items: Any, names: Mapping[str, str] | None = None, *, last: str = "and", most: int = MOST_LISTED, none: str = "none") -> str:
    """Items as people list them: "A", "A and B", "A, B and C"; past ``most`` items, the first ones and "and 43 more"."""
    said = [value_said(item, names) for item in (sorted(items) if isinstance(items, (set, frozenset)) else list(items or []))]
    if not said:
        return none
    if len(said) > most:
        return f"{', '.join(said[: most - 1])} and {len(said) - most + 1} more"
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} {last} {said[-1]}"


def either(items: Any, names: Mapping[str, str] | None = None, **kwargs: Any) -> str:
    """Choices as people offer them: "A, B or C"."""
    return listed(items, names, last="or", **kwargs)


def choices(idents: Any, names: Mapping[str, str] | None = None, **kwargs: Any) -> str:
    """Ids a request may send, each by its name with the id to send in JSON quotes: 'Monkey King ("monkey-king") or
    Tripitaka ("tripitaka")'; an id the game gives no other name is said as the id alone, quoted."""
    names = names or {}
    said = [f'{names[i]} ("{i}")' if isinstance(i, str) and names.get(i, i) != i else f'"{i}"' for i in idents]
    return either(said, {}, **kwargs)


def named(ident: Any, names: Mapping[str, str] | None = None) -> str:
    """One id by the name the game gives it (the id itself where the game gives none)."""
    return value_said(ident, names)


def prose_names(data: Mapping[str, Any]) -> dict[str, str]:
    """The ids a line may say bare and still mean the thing: the characters', quests' and stories' (names of people
    and places), and the dice's and decks' where the id is not a plain word ("skill-tripitaka", not "attack")."""
    found = names_in([data.get("characters") or [], data.get("quests") or [], data.get("stories") or []])
    for entity in [*(data.get("dice") or []), *(data.get("decks") or [])]:
        if isinstance(entity, Mapping) and "-" in str(entity.get("id")) and entity.get("name"):
            found.setdefault(entity["id"], entity["name"])
    return found


def names_in(data: Any) -> dict[str, str]:
    """Every id the rules data gives a name: each entry with an "id" and a "name" in its lists (characters, quests,
    dice, decks, stories, conditions, ...), at any depth."""
    found: dict[str, str] = {}

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            ident, name = value.get("id"), value.get("name")
            if isinstance(ident, str) and isinstance(name, str) and name and ident not in found:
                found[ident] = name
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(data)
    return found


def schema_problem(error: Any, names: Mapping[str, str] | None = None) -> str:
    """One JSON Schema validation error (jsonschema's ``ValidationError``) in words, its values as people say them."""
    kind, instance, expected = getattr(error, "validator", None), getattr(error, "instance", None), getattr(error, "validator_value", None)
    if kind == "enum":
        return f"{_given(instance, names)} is not one of {either(expected, names)}"
    if kind == "required":
        absent = [key for key in expected if isinstance(instance, Mapping) and key not in instance]
        return f"{listed([f'{key}' for key in absent])} {'is' if len(absent) == 1 else 'are'} required"
    if kind == "additionalProperties" and isinstance(instance, Mapping):
        known = set((error.schema.get("properties") or {}))
        extra = [key for key in instance if key not in known]
        return f"{listed(extra)} {'is not a field' if len(extra) == 1 else 'are not fields'} it takes (its fields: {listed(sorted(known), most=12)})"
    if kind == "type":
        return f"{_given(instance, names)} is not {either(expected if isinstance(expected, list) else [expected])}"
    return plain_literals(str(getattr(error, "message", error)), names)


def _given(value: Any, names: Mapping[str, str] | None) -> str:
    if isinstance(value, str):
        return f'"{value}"'  # what the request sent, quoted as it was sent
    return value_said(value, names)


def plain_literals(text: str, names: Mapping[str, str] | None = None) -> str:
    """A line's Python literals said in words (a list, dict or tuple; None, True, False; a single-quoted id the game
    names), the JSON it quotes left as it is."""
    names = names or {}

    def said(part: str) -> str:
        part = _brackets_said(part, names)
        part = re.sub(r"\b(None|True|False)\b(?!\s+[a-z])", lambda m: _WORDS[m.group(1)], part)  # "None of them" is English
        return re.sub(r"'([^'\s][^']*)'", lambda m: names.get(m.group(1), m.group(0)), part)

    return _outside_json(text, said)


def _brackets_said(text: str, names: Mapping[str, str]) -> str:
    """Each bracketed Python literal in the text said in words ("A, B and C"; "Tigress: Move"); words in parentheses
    and JSON elisions ([...]) stay as they are."""
    out, i = [], 0
    while i < len(text):
        end = _closing(text, i) if text[i] in _OPEN else None
        if end is not None:
            span = text[i : end + 1]
            value = _literal(span)
            if isinstance(value, (list, tuple, set, dict)):
                offered = re.search(r"\b(one of|either|choose|choices:?)\s*$", "".join(out), re.I) and not isinstance(value, dict)
                words = choices(value, names) if offered and all(isinstance(v, str) for v in value) else _literal_words(value, names)
                out.append(f"({words})" if span.startswith("(") else words)
            else:
                out.append(span[0] + _brackets_said(span[1:-1], names) + span[-1])
            i = end + 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _literal(span: str) -> Any:
    if "..." in span:
        return None  # an elision in an example ([...]), not a value
    try:
        return ast.literal_eval(span)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None


def _literal_words(value: Any, names: Mapping[str, str]) -> str:
    if isinstance(value, Mapping):
        return "; ".join(f"{names.get(k, k) if isinstance(k, str) else k}: {_literal_words(v, names)}" for k, v in value.items()) if value else "none"
    if isinstance(value, (list, tuple, set, frozenset)):
        return listed([_literal_words(v, names) for v in (sorted(value, key=str) if isinstance(value, (set, frozenset)) else value)])
    return value_said(value, names)


def refusal_said(title: str, detail: str | None, names: Mapping[str, str]) -> tuple[str, str | None]:
    """A refusal's title and detail as prose: Python literals in words, the game's ids by their names (outside the JSON
    it quotes, which the table sends as it is). ``names``: the ids a line may say bare (``prose_names``); a die or deck
    whose id is a plain word ("red" is a die and a point) is named by the line that speaks of it."""

    def said(text: str) -> str:
        return _outside_json(plain_literals(text, names), lambda part: _ids_named(part, names))

    return said(title), (said(detail) if detail else detail)


def errors_said(errors: Mapping[str, Any] | None, names: Mapping[str, str]) -> dict[str, Any] | None:
    """A problem's ``errors`` (each field's path and its messages) with every message said as a refusal's prose is
    (``refusal_said``): the paths stay as the request spelt them, a message that is not text is said in words."""
    if not errors:
        return errors

    def message(text: Any) -> str:
        return refusal_said(text if isinstance(text, str) else value_said(text, names), None, names)[0]

    return {path: [message(m) for m in said] if isinstance(said, (list, tuple)) else message(said) for path, said in errors.items()}


def _ids_named(text: str, names: Mapping[str, str]) -> str:
    """Whole ids said by name, except inside a path or a URL the table sends as it is (components.characters.<id>.stats)."""
    for key in sorted(names, key=len, reverse=True):
        if key in text and names[key] != key:
            text = re.sub(rf"(?<![\w./-]){re.escape(key)}(?![\w-]|\.\w|/)", lambda _m, said=names[key]: said, text)
    return text


def _outside_json(text: str, change: Any) -> str:
    """``change`` applied to the text between its double-quoted strings (JSON the table sends), those left as they are."""
    out, at = [], 0
    for quoted in _QUOTED_JSON.finditer(text):
        out.append(change(text[at : quoted.start()]))
        out.append(quoted.group(0))
        at = quoted.end()
    out.append(change(text[at:]))
    return "".join(out)
