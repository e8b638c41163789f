"""Yōkai Quest's standing as a player reads it at a glance: the stories, the scenes played, the heroes now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.core.wording import key_said, value_said

RESULT = {"won": "Won", "lost": "Lost", "victory": "Victory", "failed": "Failed", "completed": "Completed", "in-progress": "In progress"}


def standing_said(s: Mapping[str, Any], names: Mapping[str, str], progress: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The standing view (standing.py), with what the campaign carries into its next scene (its progress), as sections
    of sentences and tables: ``{"title", "sentences", "tables"}``, a table ``{"caption", "headers", "rows"}``."""
    if "scenes" not in s:
        return None
    sentences = []
    if progress.get("next_scene"):
        sentences.append(f"Next scene: {value_said(progress['next_scene'], names)}" + (f" (attempt {progress['attempt']})" if progress.get("attempt") else "") + ".")
    if "treasure_reserve" in progress:
        sentences.append(f"Treasure reserve now: {progress['treasure_reserve']}.")
    if progress.get("health_policy"):
        sentences.append(f"Health between scenes: {key_said(progress['health_policy'])}.")
    if progress.get("full_energy_next_story"):
        sentences.append("The heroes start the next story with full energy.")
    carried = progress.get("stories") or {}
    stories = []
    for story, counts in (s.get("stories") or {}).items():
        status = (carried.get(story) or {}).get("status")
        stories.append(f"{value_said(story, names)}: {counts['scenes_won']} of {counts['scenes_played']} scene(s) played won, "
                       f"{counts['reattempts']} reattempt(s)" + (f", {RESULT.get(status, key_said(str(status)))}" if status else ""))
    rows = [[value_said(p["story"], names), value_said(p["scene"], names), p["attempt"],
             RESULT.get(p["result"], key_said(str(p["result"]))) if p["result"] else "Not ended",
             RESULT.get(p["outcome"], key_said(str(p["outcome"]))) if p["outcome"] else "In play"] for p in s["scenes"]]
    out = [{"title": "Stories", "sentences": sentences + ([("Stories: " + "; ".join(stories) + ".")] if stories else []), "tables": [{
        "caption": "Scenes played", "headers": ["Story", "Scene", "Attempt", "Scene's end", "Session's end"], "rows": rows}] if rows else []}]
    heroes = s.get("heroes") or {}
    if heroes:
        out.append({"title": "Heroes now", "sentences": [], "tables": [{
            "caption": "Each hero: abilities and cards as the latest scene left them; treasure cards drawn and defeats in all",
            "headers": ["Hero", "Abilities", "Hand", "Equipped", "Treasure cards drawn, in all", "Defeats, in all", "Revivals, in all"],
            "rows": [[value_said(h, names), value_said(sheet["abilities"], names) or "none", value_said(sheet["latest"]["hand"], names) or "none",
                      value_said([c for c in sheet["latest"]["equipped"].values() if c], names) or "none",
                      sheet["treasures_drawn"], sheet["defeats"], sheet["revivals"]] for h, sheet in heroes.items()]}]})
    achievements = s.get("achievements") or []
    if achievements:
        out.append({"title": "Achievements", "sentences": [], "tables": [{"caption": "Achievements earned", "headers": ["Scene", "Achievement"],
                    "rows": [[value_said(a["scene"], names), value_said(a["achievement"], names)] for a in achievements]}]})
    return out
