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


def details_said(fields: Mapping[str, Any], names: Mapping[str, str] | None = None, skip: tuple[str, ...] = ()) -> str:
    """A record's fields as "target Berrok; faces 1, X" (keys as words, values as people say them)."""
    return "; ".join(f"{key_said(k)} {value_said(v, names)}" for k, v in fields.items() if k not in skip and v not in (None, [], {}))


_WORDS = {"None": NOT_STATED, "True": "yes", "False": "no"}
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def plain(line: str, names: Mapping[str, str] | None = None) -> str:
    """A line with any Python literal in it (a dict, a list, None, True) said in words, snake_case keys as
    words, and the game's ids said by their names."""

    line = _literals_said(line, names or {})
    line = re.sub(r"\b(None|True|False)\b", lambda m: _WORDS[m.group(1)], line)
    line = _SNAKE.sub(lambda m: key_said(m.group(0)), line)
    return names_said(line, names or {})


_OPEN, _CLOSE = "[{(", "]})"


def _literals_said(text: str, names: Mapping[str, str]) -> str:
    """Each Python literal in the text ({...}, [...], or a tuple) said in words: the outermost bracket that
    parses as one is said whole; a bracket that does not (words in parentheses) is looked into."""
    out, i = [], 0
    while i < len(text):
        if text[i] in _OPEN:
            end = _closing(text, i)
            if end is not None:
                span = text[i : end + 1]
                said = _literal_said(span, names)
                out.append(said if said is not None else span[0] + _literals_said(span[1:-1], names) + span[-1])
                i = end + 1
                continue
        out.append(text[i])
        i += 1
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
