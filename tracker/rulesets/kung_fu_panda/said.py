"""Kung Fu Panda's standing as a player reads it at a glance: sentences and small tables, never a nested dump."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.wording import key_said, value_said

RESULT = {"won": "Won", "lost": "Lost", None: "In play"}


def standing_said(s: Mapping[str, Any], names: Mapping[str, str]) -> list[dict[str, Any]] | None:
    """The standing view (standing.py) as sections of sentences and tables: ``{"title", "sentences", "tables"}``, a table
    ``{"caption", "headers", "rows"}``; values say whether they are totals ("in all") or current ("now")."""
    if "missions" not in s:
        return None
    missions = s["missions"]
    won, lost = len([m for m in missions if m["result"] == "won"]), len([m for m in missions if m["result"] == "lost"])
    sentences = [f"{won} mission{'s' if won != 1 else ''} won and {lost} lost, of {len(missions)} played."]
    if s.get("lost"):
        sentences.append("Losses, in all: " + ", ".join(f"{n} by {key_said(loss)}" for loss, n in s["lost"].items()) + ".")
    held = s.get("special_moves_held") or {}
    sentences.append("Special Move cards held now: " + ("; ".join(f"{value_said(h, names)} holds {card}" for h, card in held.items()) if held else "none") + ".")
    out = [{"title": "Missions", "sentences": sentences, "tables": [{
        "caption": "Each mission played",
        "headers": ["Mission", "Result", "Rounds used", "How the rounds were entered"],
        "rows": [[value_said(m["mission"], names), RESULT.get(m["result"], key_said(str(m["result"])))
                  + (f" ({key_said(m['loss'])}{': ' + m['condition'] if m.get('condition') else ''})" if m["result"] == "lost" else ""),
                  m["rounds_used"], ", ".join(sorted({key_said(r["entry"]) for r in m["rounds"]})) or "—"] for m in missions],
    }]}]
    knocked = s.get("enemies_knocked_out") or {}
    out.append({"title": "Enemies knocked out, in all", "sentences": [] if knocked else ["None yet."], "tables": [{
        "caption": "Knock-outs by enemy", "headers": ["Enemy", "Knocked out"], "rows": [[value_said(e, names), n] for e, n in knocked.items()]}] if knocked else []})
    faces = s.get("dice_faces") or {}
    if faces:
        out.append({"title": "Faces rolled, in all", "sentences": [], "tables": [{
            "caption": f"{key_said(source).capitalize()} rolls", "headers": ["Face", "Times"], "rows": [[f, n] for f, n in counts.items()]}
            for source, counts in faces.items()]})
    return out
