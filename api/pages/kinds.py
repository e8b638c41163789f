"""What each kind of a game's view shows on the campaign page: one builder and one partial template per view KIND.

The campaign page walks the views the campaign's game registers (``Ruleset.views``, in the order the game
declares them) and shows each whose kind it knows, through ``templates/kinds/<kind>.html``: a fifth game's
view of a known kind appears on the page without a line here. The game's own words come from its view
(``View.said``, ``View.hero_said``); nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from api.pages import charts, reads
from api.pages import standing as standing_said
from tracker.rulesets.engine.view import View


class Shown:
    """What a builder reads: the campaign, its names, the view store and the side the visitor reads as."""

    def __init__(self, campaign_id: str, names: Mapping[str, str], store: Any, viewer: str | None, progress: Callable[[], Mapping[str, Any]]) -> None:
        self.campaign_id, self.names, self.store, self.viewer, self.progress = campaign_id, names, store, viewer, progress


def karma_series(view: View, shown: Shown) -> dict[str, Any]:
    """Per hero, both wheels after every change: a chart and its table."""
    named = shown.names
    series = reads.karma_series(view.read(shown.store, shown.campaign_id), named)
    return {"karma": [{"hero": hero, "name": named.get(hero, hero), "points": points, "chart": charts.karma_chart(named.get(hero, hero), points)}
                      for hero, points in series.items()]}


def conquest(view: View, shown: Shown) -> dict[str, Any]:
    """Per quest, the conquest and threat tracks: a chart and every step as a table."""
    tracks = []
    for quest in view.read(shown.store, shown.campaign_id, shown.viewer):
        steps = reads.conquest_and_threat_steps(quest)
        name = shown.names.get(quest["quest"], quest["quest"])
        tracks.append({**quest, "name": name, "steps": steps, "chart": charts.conquest_threat_chart(name, steps)})
    return {"tracks": tracks}


def treachery_ledger(view: View, shown: Shown) -> dict[str, Any]:
    """Per quest, the treachery granted and spent, as the visitor's side may see it."""
    ledger = view.read(shown.store, shown.campaign_id, shown.viewer)
    return {"treachery": [{**q, "name": shown.names.get(q["quest"], q["quest"])} for q in ledger], "viewer": shown.viewer}


def standing(view: View | None, shown: Shown) -> dict[str, Any]:
    """The game's standing in its own words; for a game that keeps no standing view, the progress its quests' ends
    recorded (what the next quest reads)."""
    progress = shown.progress()
    answer = view.read(shown.store, shown.campaign_id) if view is not None else None
    if not answer:  # nothing folded yet: the progress, said as a table of words
        return {"standing": standing_said.sections(None, progress, shown.names)}
    return {"standing": standing_said.sections(view, answer, shown.names, progress)}


# The kinds the campaign page shows, each by its partial templates/kinds/<kind>.html. Hero progress is shown as
# the heroes' cards (and each hero's sheet on the hero page), not here.
CAMPAIGN_PAGE: dict[str, Callable[[Any, Shown], dict[str, Any]]] = {
    "karma-series": karma_series,
    "treachery-ledger": treachery_ledger,
    "conquest": conquest,
    "standing": standing,
}


def campaign_parts(views: tuple[View, ...], shown: Shown) -> list[dict[str, Any]]:
    """The sections the campaign page shows for a game's views, in the order the game declares them; a game that
    shows none of these kinds still shows its standing (the progress its quests' ends recorded)."""
    parts = [{"kind": view.kind, **CAMPAIGN_PAGE[view.kind](view, shown)} for view in views if view.kind in CAMPAIGN_PAGE]
    return parts or [{"kind": "standing", **standing(None, shown)}]


def hero_cards(view: View | None, heroes: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, list[str]]:
    """Each hero's card on the campaign page, in the words of the game's hero-progress view."""
    return {hero: view.hero_said(sheet, names) for hero, sheet in heroes.items()} if view is not None else {}
