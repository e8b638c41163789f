"""The registry of rulesets: one package per game, each validated data plus pure resolvers."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from tracker.core import wording
from tracker.core.errors import NotFound, Unprocessable
from tracker.rulesets.engine import archive
from tracker.rulesets.engine.ruleset import Ruleset

# Earlier versions of each ruleset, kept so campaigns pinned to them still play and verify: versions/<ruleset id>/,
# each version stored once, as its difference from the one before it (tracker/rulesets/engine/archive.py).
ARCHIVE = archive.ROOT


def games() -> list[str]:
    """The games this server plays: every package beside this file whose ``__init__`` offers ``load()``.
    A fifth game is its own package and nothing else (README.md here); no list names them."""
    return sorted(found.name for found in pkgutil.iter_modules(__path__)
                  if found.ispkg and callable(getattr(importlib.import_module(f"{__name__}.{found.name}"), "load", None)))


def _loads() -> list[Callable[..., Ruleset]]:
    """Each game package's ``load(data=None)``: its ruleset over its own data, or over the data it is given."""
    return [importlib.import_module(f"{__name__}.{game}").load for game in games()]


@cache
def registry() -> dict[str, Ruleset]:
    """Each game's ruleset by its id, its package found and loaded once per process."""
    rulesets = [load() for load in _loads()]
    return {ruleset.id: ruleset for ruleset in rulesets}


def loader(ruleset_id: str) -> Callable[[dict[str, Any]], Ruleset]:
    """The ``load`` of the game whose ruleset has this id: it builds the game's rules over other data (archived())."""
    return next(load for load in _loads() if load().id == ruleset_id)


def get(ruleset_id: str) -> Ruleset:
    try:
        return registry()[ruleset_id]
    except KeyError:
        raise Unprocessable(
            f"Unknown ruleset '{ruleset_id}'",
            detail=f"Rulesets: {wording.listed(sorted(registry()))}. GET /rulesets lists them.",
            errors={"ruleset": [f"Unknown ruleset: {ruleset_id}"]},
        ) from None


def resolve(pin: Mapping[str, str]) -> Ruleset | None:
    """The ruleset a campaign pinned (id, version, hash): the code's own if the hash matches, else an
    archived version (the code's actions and game rules over its data); None if no version here has that hash."""
    current = registry().get(pin.get("id", ""))
    if current is None:
        return None
    if current.hash == pin.get("hash"):
        return current
    return next((ruleset for ruleset in archived(current.id) if ruleset.hash == pin.get("hash")), None)


def pinned(pin: Mapping[str, str]) -> Ruleset:
    """The pinned ruleset if this server has it, else the code's current one (verification then says the rules changed)."""
    return resolve(pin) or get(pin["id"])


@cache
def archived(ruleset_id: str) -> tuple[Ruleset, ...]:
    """Each archived version, built by its game's ``load`` over that version's data: its game rules judge by the
    data its campaigns pinned (quest outcomes, carry-over, end refusals), as its actions do (``ctx.ruleset.data``)."""
    return tuple(_as_published(loader(ruleset_id)(data), contract) for data, contract in archive.stored(ruleset_id, ARCHIVE))


def _as_published(ruleset: Ruleset, contract: Mapping[str, Any]) -> Ruleset:
    """An archived version with what it published besides its data (``contract()`` as it was): when the code's
    actions or events have grown since, it still hashes to the pin its campaigns hold."""
    ruleset.published = dict(contract)
    return ruleset


def get_or_404(ruleset_id: str) -> Ruleset:
    """For reads of /rulesets/{id}: an unknown id there is a missing resource, not a bad request."""
    try:
        return registry()[ruleset_id]
    except KeyError:
        raise NotFound(f"Unknown ruleset '{ruleset_id}'", detail=f"Rulesets: {wording.listed(sorted(registry()))}.") from None


def describe_change(ruleset_id: str | None, change: dict) -> str | None:
    ruleset = registry().get(ruleset_id or "")
    return ruleset.rules.describe(change) if ruleset else None
