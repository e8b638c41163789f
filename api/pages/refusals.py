"""A refusal as the play page says it to the players: what was refused, the hint, and what to change, in the
game's words. The API's problem+json keeps its full text (paths, field names, example bodies) for programs; a
person at the table gets none of that: no JSON, no request paths, no ids, no Python lists.

- the title and detail are cut into sentences; a sentence that speaks to a program (a request path, JSON, the
  problem's 'errors') is left out, the rest said in words (tracker.core.wording.plain: ids by name, lists as lists);
- each field the refusal names (its ``errors``) is said as the form labels it, with what the rules want there;
- a fact the rulebooks lost (``unknown``) says what the table does instead: enter the faces rolled, or the cards drawn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tracker.core import wording
from tracker.core.errors import TrackerError

# What speaks to a program, not to a person at the table.
_PROGRAM = re.compile(r"(\b(POST|GET|PUT|PATCH|DELETE)\s+/|/campaigns/|/sessions/|\{|\}|\"\w+\"\s*:|'errors'|\berrors\b|\bJSON\b|\bcomponent data\b)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def said(problem: TrackerError, names: Mapping[str, str]) -> dict[str, Any]:
    """``{"title", "hint", "change"}``: the refusal's title, its hint (the sentences of its detail a person can use)
    and what to change, field by field."""
    return {
        "title": _title(problem.title, names),
        "hint": _words(problem.detail or "", names),
        "change": _changes(problem, names),
    }


def _title(text: str, names: Mapping[str, str]) -> str:
    """The title, cut before anything in it that speaks to a program (a title is one line: nothing to leave out)."""
    text = str(text)
    found = _PROGRAM.search(text)
    if found:
        text = text[: found.start()].rstrip(" :;,(")
    return _quoted_ids(wording.plain(text, names), names).strip() or "The rules refused this"


def _words(text: str, names: Mapping[str, str]) -> str:
    kept = [s for s in _SENTENCE.split(str(text).strip()) if s and not _PROGRAM.search(s)]
    line = " ".join(wording.plain(s, names) for s in kept)
    return _quoted_ids(line, names).strip()


def _quoted_ids(line: str, names: Mapping[str, str]) -> str:
    """'berrok-1' in quotes: the figure by its name, Berrok 1."""
    def name(match: re.Match[str]) -> str:
        value = match.group(1)
        kind, dash, number = value.rpartition("-")
        if value in names:
            return names[value]
        if dash and number.isdigit() and kind in names:
            return f"{names[kind]} {number}"
        return value
    line = re.sub(r"'([\w-]+)'", name, line)
    return re.sub(r'"([a-z_]+)"', lambda m: wording.key_said(m.group(1)), line)  # a field's name, as words


def _changes(problem: TrackerError, names: Mapping[str, str]) -> list[str]:
    out = []
    for path, messages in (problem.errors or {}).items():
        if str(path).startswith("components."):
            continue  # said below, as what the table does instead of supplying the lost fact
        label = _field_label(str(path), names)
        listed = messages if isinstance(messages, list) else [messages]
        words = [w for w in (_words(str(m), names) for m in listed) if w]
        if words:
            out.append(f"{label}: {' '.join(words)}")
    unknown = problem.unknown or {}
    if "die" in unknown:
        die = names.get(unknown["die"]) or wording.key_said(unknown["die"])
        die = die if re.search(r"\b(die|dice)$", die, re.I) else f"{die} die"  # "Action Die", not "Action Die die"
        out.append(f"The faces of the {die} are not known here: roll it at the table and enter the faces it shows.")
    elif "deck" in unknown:
        deck = names.get(unknown["deck"]) or wording.key_said(unknown["deck"])
        deck = deck if re.search(r"\b(deck|cards)$", deck, re.I) else f"{deck} deck"
        out.append(f"The cards of the {deck} are not known here: draw at the table and enter the cards drawn.")
    return out


def _field_label(path: str, names: Mapping[str, str]) -> str:
    """A field path as the form labels it: "targets.0.defender" -> "Targets, 1: defender"."""
    parts = []
    for part in path.split("."):
        if part.isdigit():
            parts.append(str(int(part) + 1))
        else:
            parts.append(names.get(part) or wording.key_said(part))
    said = ", ".join(parts)
    return said[:1].upper() + said[1:]
