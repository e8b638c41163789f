"""What a refusal says, read as a person at the table reads it: Python reprs and ids where the game has names.

A refusal's title and detail are prose: a list said as "A, B and C", a name as the game prints it. JSON the table is
told to send ("faces": {"attack": [...]}) is quoted with double quotes and is not prose; everything else is checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

# A Python repr: a list or dict of single-quoted strings, a dict entry, an empty list or dict outside JSON, None.
REPRS = (
    (re.compile(r"[\[{(]\s*'"), "a Python list, dict or tuple of strings"),
    (re.compile(r"[{,]\s*'[^']+'\s*:\s"), "a Python dict entry"),
    (re.compile(r"(?<!\": )(?<!\":)(\[\]|\{\})"), "an empty Python list or dict"),
    (re.compile(r"\bNone\b"), "None"),
    (re.compile(r"\b(True|False)\b"), "a Python bool"),
    (re.compile(r"dict_keys\(|dict_values\(|<[a-zA-Z_.]+ object at"), "a Python object"),
)
QUOTED_JSON = re.compile(r'"(?:[^"\\]|\\.)*"')


def prose(text: str) -> str:
    """The text without the JSON it quotes (double-quoted strings), which is what the table sends, not what it reads."""
    return QUOTED_JSON.sub('""', text or "")


def reprs_in(text: str) -> list[str]:
    said = prose(text)
    return [what for pattern, what in REPRS if pattern.search(said)]


def names(document: Mapping[str, Any]) -> dict[str, str]:
    """The ids a ruleset document gives names to, where the name is not the id: characters and quests always; dice
    and decks (whose ids are often plain words: "attack", "power") only where the id is hyphenated."""
    found = {}
    for kind in ("characters", "quests", "dice", "decks"):
        for entity in document.get(kind) or []:
            ident, name = entity.get("id"), entity.get("name")
            if not ident or not name or name == ident:
                continue
            if kind in ("dice", "decks") and "-" not in ident:
                continue
            found[ident] = name
    return found


def ids_in(text: str, named: Mapping[str, str]) -> list[str]:
    """The ids the text says where the game has a name for them (whole ids, outside quoted JSON and outside the paths
    and URLs a table sends as they are: components.characters.<id>.stats)."""
    said = prose(text)
    return sorted(ident for ident in named if re.search(rf"(?<![\w./-]){re.escape(ident)}(?![\w-]|\.\w|/)", said))


def faults(problem: Mapping[str, Any], named: Mapping[str, str]) -> list[str]:
    """Everything a person could not read as prose in a problem's title, detail and ``errors`` messages (each field's
    messages are prose too; the field paths are the request's own spelling and are not read)."""
    found = []
    parts = [("title", problem.get("title") or ""), ("detail", problem.get("detail") or "")]
    for path, messages in (problem.get("errors") or {}).items():
        for message in messages if isinstance(messages, list) else [messages]:
            parts.append((f"errors.{path}", message if isinstance(message, str) else repr(message)))
    for part, text in parts:
        found += [f"{part}: {what}" for what in reprs_in(text)]
        found += [f"{part}: the id {ident} where the game says {named[ident]}" for ident in ids_in(text, named)]
    return found


def sweep(problems: Iterable[tuple[Any, Mapping[str, Any]]], named: Mapping[str, str]) -> list[str]:
    """Each (request, problem) whose title or detail a person could not read as prose, with what is wrong."""
    return [f"{request}: {fault}\n    title: {problem.get('title')}\n    detail: {problem.get('detail')}"
            for request, problem in problems for fault in faults(problem, named)]
