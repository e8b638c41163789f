"""The pages' charts: SVG drawn on the server by pygal, with no script and nothing fetched from elsewhere.

Each chart is returned with its text alternative (a one-line description for aria-label; the page
also shows the numbers as a table). Colour is never the only signal: series differ by line
style and dot shape as well, and trades are marked with their own series and listed in words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pygal
from markupsafe import Markup
from pygal.style import Style

from api.pages.reads import karma_by_quest

# Dark enough on white for text contrast; the two first colours also differ in lightness.
STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#222",
    foreground_strong="#111",
    foreground_subtle="#666",
    colors=("#1f5fa8", "#b5451b", "#222222", "#6a3d9a", "#2e7d32"),
    font_family="DejaVu Sans, Arial, sans-serif",
    # Drawn 400 wide and shown about 356 px wide on a 390 px phone (x 0.89): 13 px here is 11.6 px there.
    label_font_size=14,
    major_label_font_size=14,
    legend_font_size=14,
    title_font_size=15,
    value_font_size=13,
    tooltip_font_size=13,
)

_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)

COMMON = {
    "style": STYLE,
    "js": [],  # no tooltip script from a CDN: the pages work offline and run no script
    "disable_xml_declaration": True,
    "width": 400,
    "height": 320,
    "legend_at_bottom": True,
    "legend_at_bottom_columns": 2,
    "truncate_legend": -1,
    "margin": 8,
}


def _svg(chart: Any, description: str) -> Markup:
    # pygal writes its settings into a <script> for its tooltips; the pages run no script at all.
    svg = _SCRIPT.sub("", chart.render(is_unicode=True))
    # The SVG is an image with a text alternative; the table beside it holds the numbers.
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{_attr(description)}" ', 1)
    return Markup(svg)


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def integer_ticks(top: float, most: int = 8) -> list[int]:
    """Whole-number ticks from 0 to at least ``top``, at most ``most`` of them (counts have no halves)."""
    top = max(1, int(-(-top // 1)))
    step = max(1, -(-top // most))
    return list(range(0, top + step, step))


def karma_chart(pilgrim: str, points: Sequence[Mapping[str, Any]], slots: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Good and Bad Karma of one Pilgrim at the end of each quest played (the x-axis is the campaign's quests),
    trades marked, a fresh start drawn as a reset (a gap), the axis fitted to the values."""
    slots = list(slots if slots is not None else karma_by_quest(list(points)))
    values = [v for s in slots for v in (s["good"], s["bad"]) if v is not None]
    top = max(values + [1])
    chart = pygal.Line(
        y_title="Karma",  # the figure's caption names the Pilgrim: no title to wrap on a phone
        range=(0, top),
        y_labels=integer_ticks(top),
        include_x_axis=True,
        allow_interruptions=True,
        x_label_rotation=0 if len(slots) <= 3 else 30,
        truncate_label=-1,
        dots_size=4,
        **{**COMMON, "legend_at_bottom_columns": 3, "margin_right": 36, "margin_left": 12},  # the last quest's name whole
    )
    chart.x_labels = [s["label"] for s in slots]
    chart.add("Good", [s["good"] for s in slots], stroke_style={"width": 3})  # short legends stay whole at 390 px
    chart.add("Bad", [s["bad"] for s in slots], stroke_style={"width": 3, "dasharray": "8, 5"})
    chart.add("Trade", [{"value": max(s["good"], s["bad"]), "label": "; ".join(s["trades"])} if s["trades"] else None for s in slots],
              stroke=False, dots_size=9)
    traded = [(s["label"], t) for s in slots for t in s["trades"]]
    resets = sum(1 for s in slots if s["reset"])
    now = next((s for s in reversed(slots) if not s["reset"]), {"good": 0, "bad": 0})
    description = (
        f"Line chart of {pilgrim}'s Good and Bad Karma over {len(slots) - resets} quest(s): now {now['good']} Good and {now['bad']} Bad; "
        + (f"{len(traded)} trade(s): " + "; ".join(f"{t} in {q}" for q, t in traded) if traded else "no trades")
        + (f"; {resets} fresh start(s), where both wheels began again at 0" if resets else "")
        + ". The table below lists every change."
    )
    flat = len(set(values)) <= 1
    return {"svg": _svg(chart, description), "description": description, "flat": flat}


def conquest_threat_chart(quest: str, steps: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Conquest and threat over a quest's events: whole-number ticks fitted to the values, at most eight
    event labels on the x-axis (every step is in the table beside it)."""
    top = max([s["conquest"] or 0 for s in steps] + [s["threat"] or 0 for s in steps] + [1])
    labels = [f"#{s['position']}" for s in steps]
    every = max(1, -(-len(labels) // 8))
    chart = pygal.Line(
        y_title="Tokens",
        include_x_axis=True,
        range=(0, top),
        y_labels=integer_ticks(top),
        dots_size=4,
        x_title="Event",
        show_minor_x_labels=False,
        truncate_label=-1,
        **{**COMMON, "margin_right": 24},
    )
    chart.x_labels = labels
    chart.x_labels_major = labels[::every]
    chart.add("Conquest", [s["conquest"] for s in steps], stroke_style={"width": 3})
    chart.add("Threat", [s["threat"] for s in steps], stroke_style={"width": 3, "dasharray": "8, 5"})
    last = steps[-1] if steps else {"conquest": None, "threat": 0}
    description = (
        f"Line chart of conquest and threat over {len(steps)} changes in {quest}: "
        f"conquest ends at {last['conquest']}, threat at {last['threat']}. The table below lists every step."
    )
    return {"svg": _svg(chart, description), "description": description}


def dice_luck_chart(luck: Mapping[str, Any]) -> dict[str, Any]:
    """Observed against expected counts of each face, whole-number ticks, short face labels (they never overlap)."""
    source = "digital rolls" if luck["source"] == "digital" else "rolls reported from the table"
    top = max([row["observed"] for row in luck["faces"]] + [row["expected"] or 0 for row in luck["faces"]] + [1])
    chart = pygal.Bar(
        title=f"{luck['name']}: {luck['rolls']} dice",
        y_title="Times rolled",
        include_x_axis=True,
        range=(0, top),
        y_labels=integer_ticks(top),
        truncate_label=-1,
        x_label_rotation=0 if len(luck["faces"]) <= 8 else 45,
        **{**COMMON, "legend_at_bottom_columns": 2},
    )
    chart.x_labels = [row["face"] for row in luck["faces"]]
    chart.add("Observed", [row["observed"] for row in luck["faces"]])
    if luck["layout_known"]:
        chart.add("Expected (fair die)", [row["expected"] for row in luck["faces"]])
    described = ", ".join(
        f"{row['face']}: {row['observed']}" + (f" (expected {row['expected']})" if row["expected"] is not None else "") for row in luck["faces"]
    )
    description = (
        f"Bar chart of how often each face of {luck['name']} came up in {luck['rolls']} {source}: {described}."
        + ("" if luck["layout_known"] else " The die's face layout is not known, so no expected counts.")
    )
    return {"svg": _svg(chart, description), "description": description}
