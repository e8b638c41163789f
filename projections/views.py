"""Every view the runner keeps: the service's own, then each game's (contributed by its ruleset package)."""

from __future__ import annotations

from functools import cache
from typing import Any

from projections import dice_statistics, game_events, sessions, standing, timeline
from tracker import rulesets
from tracker.rulesets.engine.view import Table, View

# In this order: the digest reads the tables in it, as it did before views were modules.
CORE: tuple[View, ...] = (sessions.VIEW, timeline.VIEW, dice_statistics.VIEW, game_events.VIEW, standing.VIEW)


@cache
def registered() -> tuple[View, ...]:
    games = [view for ruleset in rulesets.registry().values() for view in ruleset.views]
    return (*CORE, *games)


def of_game(ruleset_id: str, kind: str) -> Any:
    """The view of ``kind`` a game keeps for its campaigns ("hero-progress", "standing", ...), or None."""
    return next((view for view in rulesets.get(ruleset_id).views if view.kind == kind), None)


def tables() -> dict[str, Table]:
    found: dict[str, Table] = {}
    for view in registered():
        for name, table in view.tables.items():
            if name in found:
                raise ValueError(f"two views declare the table {name}")
            found[name] = table
    return found


def statements(attribute: str) -> dict[str, Any]:
    """One attribute (writes, copied, summed, latest) of every view, merged; a statement name belongs to one view."""
    merged: dict[str, Any] = {}
    for view in registered():
        for statement, value in getattr(view, attribute).items():
            if statement in merged:
                raise ValueError(f"two views declare the statement {statement}")
            merged[statement] = value
    return merged


def creating() -> tuple[str, ...]:
    return tuple(statement for view in registered() for statement in view.creating)


def schema_version() -> int:
    """A number that changes when any view's tables or rows change (a view's version, its columns): stored
    beside the views, a different one makes the store drop them and the runner rebuild them from the log."""
    import hashlib

    described = [(view.name, view.version, sorted((name, table.columns) for name, table in view.tables.items())) for view in registered()]
    return int.from_bytes(hashlib.sha256(repr(described).encode()).digest()[:4], "big") >> 1
