"""A campaign's standing as a player reads it at a glance: sentences and small tables, never a nested dump.

Each game's standing (Kung Fu Panda's from its events, Yōkai Quest's from the progress its scenes'
ends recorded) becomes sections of ``{"title", "sentences", "tables"}``; a table is
``{"caption", "headers", "rows"}`` of plain words and numbers. Values say whether they are totals
("Enemies knocked out, in all") or current ("Treasure reserve now"). Anything a game adds that this
module does not know yet still reads as a table of words (keys as words, ids as names, yes / no).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.wording import key_said, value_said

RESULT = {"won": "Won", "lost": "Lost", None: "In play", "victory": "Victory", "failed": "Failed", "completed": "Completed", "in-progress": "In progress"}


def sections(game: str, standing: Mapping[str, Any], names: Mapping[str, str], progress: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """``standing``: the game's standing view; ``progress``: what the last quest's end carried over (the next quest)."""
    if not standing:
        return []
    if game == "kung-fu-panda" and "missions" in standing:
        return _kung_fu_panda(standing, names)
    if game == "yokai-quest" and "scenes" in standing:
        return _yokai_quest(standing, names, progress or {})
    return [_table_of("Standing", standing, names)]


def _name(value: Any, names: Mapping[str, str]) -> str:
    return value_said(value, names)


def _kung_fu_panda(s: Mapping[str, Any], names: Mapping[str, str]) -> list[dict[str, Any]]:
    missions = s["missions"]
    won, lost = len([m for m in missions if m["result"] == "won"]), len([m for m in missions if m["result"] == "lost"])
    sentences = [f"{won} mission{'s' if won != 1 else ''} won and {lost} lost, of {len(missions)} played."]
    if s.get("lost"):
        sentences.append("Losses, in all: " + ", ".join(f"{n} by {key_said(loss)}" for loss, n in s["lost"].items()) + ".")
    held = s.get("special_moves_held") or {}
    sentences.append("Special Move cards held now: " + ("; ".join(f"{_name(h, names)} holds {card}" for h, card in held.items()) if held else "none") + ".")
    out = [{"title": "Missions", "sentences": sentences, "tables": [{
        "caption": "Each mission played",
        "headers": ["Mission", "Result", "Rounds used", "How the rounds were entered"],
        "rows": [[_name(m["mission"], names), RESULT.get(m["result"], key_said(str(m["result"])))
                  + (f" ({key_said(m['loss'])}{': ' + m['condition'] if m.get('condition') else ''})" if m["result"] == "lost" else ""),
                  m["rounds_used"], ", ".join(sorted({key_said(r["entry"]) for r in m["rounds"]})) or "—"] for m in missions],
    }]}]
    knocked = s.get("enemies_knocked_out") or {}
    out.append({"title": "Enemies knocked out, in all", "sentences": [] if knocked else ["None yet."], "tables": [{
        "caption": "Knock-outs by enemy", "headers": ["Enemy", "Knocked out"], "rows": [[_name(e, names), n] for e, n in knocked.items()]}] if knocked else []})
    faces = s.get("dice_faces") or {}
    if faces:
        out.append({"title": "Faces rolled, in all", "sentences": [], "tables": [{
            "caption": f"{key_said(source).capitalize()} rolls", "headers": ["Face", "Times"], "rows": [[f, n] for f, n in counts.items()]}
            for source, counts in faces.items()]})
    return out


def _yokai_quest(s: Mapping[str, Any], names: Mapping[str, str], progress: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Yōkai Quest's standing view, with what the campaign carries into its next scene (its progress)."""
    sentences = []
    if progress.get("next_scene"):
        sentences.append(f"Next scene: {_name(progress['next_scene'], names)}" + (f" (attempt {progress['attempt']})" if progress.get("attempt") else "") + ".")
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
        stories.append(f"{_name(story, names)}: {counts['scenes_won']} of {counts['scenes_played']} scene(s) played won, "
                       f"{counts['reattempts']} reattempt(s)" + (f", {RESULT.get(status, key_said(str(status)))}" if status else ""))
    rows = [[_name(p["story"], names), _name(p["scene"], names), p["attempt"],
             RESULT.get(p["result"], key_said(str(p["result"]))) if p["result"] else "Not ended",
             RESULT.get(p["outcome"], key_said(str(p["outcome"]))) if p["outcome"] else "In play"] for p in s["scenes"]]
    out = [{"title": "Stories", "sentences": sentences + ([("Stories: " + "; ".join(stories) + ".")] if stories else []), "tables": [{
        "caption": "Scenes played", "headers": ["Story", "Scene", "Attempt", "Scene's end", "Session's end"], "rows": rows}] if rows else []}]
    heroes = s.get("heroes") or {}
    if heroes:
        out.append({"title": "Heroes now", "sentences": [], "tables": [{
            "caption": "Each hero: abilities and cards as the latest scene left them; treasure cards drawn and defeats in all",
            "headers": ["Hero", "Abilities", "Hand", "Equipped", "Treasure cards drawn, in all", "Defeats, in all", "Revivals, in all"],
            "rows": [[_name(h, names), value_said(sheet["abilities"], names) or "none", value_said(sheet["latest"]["hand"], names) or "none",
                      value_said([c for c in sheet["latest"]["equipped"].values() if c], names) or "none",
                      sheet["treasures_drawn"], sheet["defeats"], sheet["revivals"]] for h, sheet in heroes.items()]}]})
    achievements = s.get("achievements") or []
    if achievements:
        out.append({"title": "Achievements", "sentences": [], "tables": [{"caption": "Achievements earned", "headers": ["Scene", "Achievement"],
                    "rows": [[_name(a["scene"], names), value_said(a["achievement"], names)] for a in achievements]}]})
    return out


def _table_of(title: str, value: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    return {"title": title, "sentences": [], "tables": [{"caption": title, "headers": ["", ""],
            "rows": [[key_said(k).capitalize(), value_said(v, names)] for k, v in value.items()]}]}


def sheet_rows(sheet: Mapping[str, Any], names: Mapping[str, str]) -> list[list[str]]:
    """A hero sheet the page has no layout for, as rows of words."""
    return [[key_said(k).capitalize(), value_said(v, names)] for k, v in sheet.items()]
