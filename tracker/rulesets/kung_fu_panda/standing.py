"""A campaign's standing, folded from its sessions' game events in log order: missions won and
lost (with the loss type), Special Move cards held, enemies knocked out by type, rounds used per
mission (and how each was entered), and the faces rolled where rolls were entered."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def standing(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    attempts: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    held: dict[str, str] = {}
    knocked_out: dict[str, int] = {}
    faces: dict[str, dict[str, int]] = {}
    for record in records:
        change, session = record["change"], record["session_id"]
        kind = change["kind"]
        if kind == "mission-set-up":
            order.append(session)
            attempts[session] = {"session_id": session, "mission": change["mission"], "result": None, "loss": None, "condition": None, "rounds": []}
            held = dict(change.get("special_moves") or {})
            continue
        attempt = attempts.get(session)
        if attempt is None:
            continue
        if kind == "round-started":
            attempt["rounds"].append({"round": change["round"], "entry": change["entry"]})
        elif kind in ("pool-rolled", "round-summarised") and attempt["rounds"]:
            current = attempt["rounds"][-1]
            entered = "detail" if kind == "pool-rolled" else "summary"
            if current["entry"] != entered:
                current["entry"] = "mixed"
        if kind == "pool-rolled":
            counts = faces.setdefault(change["source"], {})
            for face in change["results"]:
                counts[face] = counts.get(face, 0) + 1
        elif kind == "enemy-knocked-out":
            knocked_out[change["enemy"]] = knocked_out.get(change["enemy"], 0) + change["count"]
        elif kind == "entry-corrected":
            for enemy, delta in change["amend"].get("knocked_out", {}).items():
                knocked_out[enemy] = knocked_out.get(enemy, 0) + delta
        elif kind == "mission-won":
            attempt["result"] = "won"
            held = {}
        elif kind == "mission-lost":
            attempt.update(result="lost", loss=change["loss"], condition=change.get("condition"))
    missions = []
    for session in order:
        attempt = attempts[session]
        missions.append({**attempt, "rounds_used": len(attempt["rounds"])})
    rounds_per_mission: dict[str, int] = {}
    for attempt in missions:
        rounds_per_mission[attempt["mission"]] = rounds_per_mission.get(attempt["mission"], 0) + attempt["rounds_used"]
    lost: dict[str, int] = {}
    for attempt in missions:
        if attempt["result"] == "lost":
            lost[attempt["loss"]] = lost.get(attempt["loss"], 0) + 1
    return {
        "missions": missions,
        "won": [a["mission"] for a in missions if a["result"] == "won"],
        "lost": lost,
        "special_moves_held": held,
        "enemies_knocked_out": {enemy: n for enemy, n in sorted(knocked_out.items()) if n},
        "rounds_per_mission": rounds_per_mission,
        "dice_faces": {source: dict(sorted(counts.items())) for source, counts in sorted(faces.items())},
    }
