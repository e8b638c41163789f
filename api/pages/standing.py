"""A campaign's standing as a player reads it at a glance: sentences and small tables, never a nested dump.

The wording is the game's own: its standing view's ``said`` (tracker/rulesets/engine/view.py) turns the answer into
sections of ``{"title", "sentences", "tables"}``; a table is ``{"caption", "headers", "rows"}`` of plain words and
numbers. A view that says nothing of its own (or progress a quest's end carried over, for a game that keeps no
standing view) still reads as a table of words (keys as words, ids as names, yes / no).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.engine.view import View
from tracker.core.wording import key_said, value_said


def sections(view: View | None, standing: Mapping[str, Any], names: Mapping[str, str], progress: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """``standing``: the answer of the game's standing ``view`` (None: the progress itself); ``progress``: what the
    last quest's end carried over (the next quest)."""
    if not standing:
        return []
    said = view.said(standing, names, progress or {}) if view is not None else None
    return said if said is not None else [_table_of("Standing", standing, names)]


def _table_of(title: str, value: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    return {"title": title, "sentences": [], "tables": [{"caption": title, "headers": ["", ""],
            "rows": [[key_said(k).capitalize(), value_said(v, names)] for k, v in value.items()]}]}


def sheet_rows(sheet: Mapping[str, Any], names: Mapping[str, str], by_field: Mapping[str, Mapping[str, str]] | None = None) -> list[list[str]]:
    """A hero sheet the page has no layout for, as rows of words; ``by_field``: the names a value has only under its
    key (GameRules.field_names: a Kung Fu Panda hero's "tile" "J" is the Kitchen)."""
    by_field = by_field or {}
    return [[_first_up(key_said(k)), value_said(v, {**names, **by_field[k]} if k in by_field else names)] for k, v in sheet.items()]


def _first_up(said: str) -> str:
    """A row's label with its first letter up and the rest as said ("KO", not "Ko")."""
    return said[:1].upper() + said[1:]
