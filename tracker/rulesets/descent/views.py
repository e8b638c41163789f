"""Descent's read views: the treachery ledger, conquest and threat per quest, and each hero's standing, folded by
the projections as the log grows (tracker/rulesets/engine/view.py). The overlord's choices stay hidden from the heroes
until their quest ends: each answer is kept in full and as the heroes may see it, secret to the overlord."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.rulesets.descent import ledger
from tracker.rulesets.descent.common import OVERLORD
from tracker.rulesets.descent.events import CHANGES
from tracker.rulesets.engine.view import At, CampaignFold

DESCENT = "descent"
GAME_EVENTS = tuple(CHANGES.events.values())
HEROES = "heroes"


class _DescentFold(CampaignFold):
    game = DESCENT
    handles = GAME_EVENTS
    secret_sides = (HEROES,)
    secret_to = OVERLORD
    reads: frozenset[str] = frozenset()  # the kinds whose changes the fold reads whole

    def keep(self, event: Any, at: At) -> dict[str, Any] | None:
        change = event.change
        # Every game event keeps its place (a quest's entry follows its first); only the kinds read keep their change.
        return {"change": change if change["kind"] in self.reads else {"kind": change["kind"]}}


class TreacheryLedger(_DescentFold):
    """Per quest: treachery granted, spent by colour, cards swapped in and out, dark glyphs, unspent and the opening hand."""

    name = "descent-treachery-ledger"
    kind = "treachery-ledger"
    reads = frozenset({"quest-set-up", "treachery-card-swapped", "dark-glyph-bought", "opening-hand-set"})

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
        return ledger.treachery_ledger(records, viewer)


class ConquestAndThreat(_DescentFold):
    """Per quest: the conquest and threat timelines, each step with its event position, and the rules' verdict."""

    name = "descent-conquest"
    kind = "conquest"
    reads = frozenset({"quest-set-up", "conquest-changed", "threat-gained", "threat-spent", "quest-won", "quest-lost"})

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
        return ledger.conquest_and_threat(records, viewer)


class HeroStanding(_DescentFold):
    """Each hero across the campaign: curses, frost, dark relics, chest items, deaths, and the corrections the table
    made to their sheet, with the events behind them."""

    name = "descent-hero-standing"
    kind = "hero-progress"
    version = 2  # 2: each hero's sheet carries the corrections the table made to it
    reads = frozenset({"curses-gained", "cursed-item-equipped", "frost-gained", "dark-relic-equipped", "chest-opened", "hero-killed", "value-corrected"})

    def keep(self, event: Any, at: At) -> dict[str, Any] | None:
        change = event.change
        return {"change": change} if change["kind"] in self.reads else None

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> dict[str, Any]:
        return ledger.hero_standing(records, viewer)

    def hero_said(self, sheet: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
        return [f"Curses gained: {sheet['curses_gained']} · Frost gained: {sheet['frost_gained']} · Deaths: {len(sheet['deaths'])}"]


VIEWS = (TreacheryLedger(), ConquestAndThreat(), HeroStanding())
