"""The pages' charts: SVG drawn on the server by pygal, with no script and nothing fetched from elsewhere.

Each chart is returned with its text alternative (a one-line description for aria-label; the page
also shows the numbers as a table). Colour is never the only signal: series differ by line
style and dot shape as well, and trades are marked with their own series and listed in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import re

import pygal
from markupsafe import Markup
from pygal.style import Style

# Dark enough on white for text contrast; the two first colours also differ in lightness.
STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#222",
    foreground_strong="#111",
    foreground_subtle="#666",
    colors=("#1f5fa8", "#b5451b", "#222222", "#6a3d9a", "#2e7d32"),
    font_family="DejaVu Sans, Arial, sans-serif",
    label_font_size=13,
    major_label_font_size=13,
    legend_font_size=14,
    title_font_size=16,
    value_font_size=12,
    tooltip_font_size=13,
)

_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)

COMMON = {
    "style": STYLE,
    "js": [],  # no tooltip script from a CDN: the pages work offline and run no script
    "disable_xml_declaration": True,
    "width": 520,
    "height": 340,
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
    return Markup(svg)  # noqa: S704 - pygal escapes the labels it writes; the label above is escaped


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def karma_chart(pilgrim: str, points: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Good and Bad Karma of one Pilgrim after each change, trades marked."""
    chart = pygal.Line(
        title=f"{pilgrim}: Karma across the campaign",
        y_title="Karma",
        range=(0, 12),
        include_x_axis=True,
        show_minor_x_labels=False,
        x_label_rotation=0,
        dots_size=3,
        **COMMON,
    )
    labels, quest = [], None
    for point in points:
        labels.append(point["quest"] if point["quest"] != quest else "")
        quest = point["quest"]
    chart.x_labels = labels
    chart.x_labels_major = [label for label in labels if label]
    chart.add("Good Karma", [p["good"] for p in points], stroke_style={"width": 3})
    chart.add("Bad Karma", [p["bad"] for p in points], stroke_style={"width": 3, "dasharray": "8, 5"})
    trades = [
        {"value": p["good"] if "Good" in p["trade"] else p["bad"], "label": p["trade"]} if p["trade"] else None for p in points
    ]
    chart.add("Trade", trades, stroke=False, dots_size=8)
    traded = [p for p in points if p["trade"]]
    now = points[-1] if points else {"good": 0, "bad": 0}
    description = (
        f"Line chart of {pilgrim}'s Good and Bad Karma over {len(points)} changes: now {now['good']} Good and {now['bad']} Bad; "
        + (f"{len(traded)} trade(s): " + "; ".join(f"{t['trade']} in {t['quest']}" for t in traded) if traded else "no trades")
        + ". The table below lists every value."
    )
    return {"svg": _svg(chart, description), "description": description}


def conquest_threat_chart(quest: str, steps: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    chart = pygal.Line(
        title=f"{quest}: conquest and threat",
        y_title="Tokens",
        include_x_axis=True,
        dots_size=4,
        x_title="Event",
        **COMMON,
    )
    chart.x_labels = [f"#{s['position']}" for s in steps]
    chart.add("Conquest (heroes)", [s["conquest"] for s in steps], stroke_style={"width": 3})
    chart.add("Threat (overlord)", [s["threat"] for s in steps], stroke_style={"width": 3, "dasharray": "8, 5"})
    last = steps[-1] if steps else {"conquest": None, "threat": 0}
    description = (
        f"Line chart of conquest and threat over {len(steps)} changes in {quest}: "
        f"conquest ends at {last['conquest']}, threat at {last['threat']}. The table below lists every step."
    )
    return {"svg": _svg(chart, description), "description": description}


def dice_luck_chart(luck: Mapping[str, Any]) -> dict[str, Any]:
    source = "digital rolls" if luck["source"] == "digital" else "rolls reported from the table"
    chart = pygal.Bar(
        title=f"{luck['name']}: {source} ({luck['rolls']} dice)",
        y_title="Times rolled",
        print_values=True,
        include_x_axis=True,
        **COMMON,
    )
    chart.x_labels = [row["face"] for row in luck["faces"]]
    chart.add("Observed", [row["observed"] for row in luck["faces"]])
    if luck["layout_known"]:
        chart.add("Expected", [row["expected"] for row in luck["faces"]])
    described = ", ".join(
        f"{row['face']}: {row['observed']}" + (f" (expected {row['expected']})" if row["expected"] is not None else "") for row in luck["faces"]
    )
    description = (
        f"Bar chart of how often each face of {luck['name']} came up in {luck['rolls']} {source}: {described}."
        + ("" if luck["layout_known"] else " The die's face layout is not known, so no expected counts.")
    )
    return {"svg": _svg(chart, description), "description": description}
