"""Descent's campaign reads, folded from the projected game events: the treachery ledger, conquest and threat
timelines per quest, and each hero's standing. Every figure names the event positions behind it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tracker.rulesets.descent.hidden import secret_to


def _visible(rows: Iterable[Mapping[str, Any]], viewer: str | None) -> list[Mapping[str, Any]]:
    """The heroes see an overlord secret only once its quest has ended (the session has an outcome)."""
    return [r for r in rows if viewer in (None, "overlord") or r["outcome"] is not None or secret_to(r["change"]) in (None, viewer)]


def _sessions(rows: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    sessions: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        sessions.setdefault(row["session_id"], []).append(row)
    return sessions


def treachery_ledger(rows: Iterable[Mapping[str, Any]], viewer: str | None = None) -> list[dict[str, Any]]:
    quests = []
    for session_id, events in _sessions(_visible(rows, viewer)).items():
        entry: dict[str, Any] = {"session_id": session_id, "quest": events[0]["quest"], "outcome": events[0]["outcome"],
                                 "granted": None, "spent": {"event": 0, "trap": 0, "monster": 0}, "swaps": [], "dark_glyphs": [],
                                 "unspent": None, "opening_hand": None, "events": []}
        for row in events:
            c, pos = row["change"], row["position"]
            if c["kind"] == "quest-set-up":
                entry["granted"] = dict(c["treachery"])
            elif c["kind"] == "treachery-card-swapped":
                entry["spent"][c["colour"]] += c["cost"]
                entry["swaps"].append({"added": c["added"], "removed": c["removed"], "colour": c["colour"], "cost": c["cost"], "position": pos})
            elif c["kind"] == "dark-glyph-bought":
                for colour, n in c["paid"].items():
                    entry["spent"][colour] += n
                entry["dark_glyphs"].append({"glyph": c["glyph"], "paid": c["paid"], "position": pos})
            elif c["kind"] == "opening-hand-set":
                entry["unspent"], entry["opening_hand"] = c["unspent"], c["hand_size"]
            else:
                continue
            entry["events"].append(pos)
        quests.append(entry)
    return quests


def conquest_and_threat(rows: Iterable[Mapping[str, Any]], viewer: str | None = None) -> list[dict[str, Any]]:
    out = []
    for session_id, events in _sessions(_visible(rows, viewer)).items():
        conquest, threat = [], []
        result: dict[str, Any] | None = None
        for row in events:
            c, pos = row["change"], row["position"]
            if c["kind"] == "quest-set-up":
                conquest.append({"position": pos, "delta": c["conquest"], "reason": "starting conquest", "total": c["conquest"]})
            elif c["kind"] == "conquest-changed":
                conquest.append({"position": pos, "delta": c["delta"], "reason": c["reason"], "total": c["total"]})
            elif c["kind"] in ("threat-gained", "threat-spent"):
                sign = 1 if c["kind"] == "threat-gained" else -1
                total = (threat[-1]["total"] if threat else 0) + sign * c["amount"]
                threat.append({"position": pos, "delta": sign * c["amount"], "reason": c.get("source") or c.get("purpose"), "total": total})
            elif c["kind"] in ("quest-won", "quest-lost") and result is None:  # the rules' verdict, before the session's outcome
                result = {"position": pos, "won": c["kind"] == "quest-won", "because": c.get("award") or c.get("reason"), "conquest": c["conquest"]}
        out.append({"session_id": session_id, "quest": events[0]["quest"], "outcome": events[0]["outcome"], "result": result, "conquest": conquest, "threat": threat})
    return out


def hero_standing(rows: Iterable[Mapping[str, Any]], viewer: str | None = None) -> dict[str, Any]:
    heroes: dict[str, dict[str, Any]] = {}

    def hero(name: str) -> dict[str, Any]:
        return heroes.setdefault(name, {"curses_gained": 0, "frost_gained": 0, "dark_relics": [], "chest_items": [], "deaths": [], "corrections": [], "events": []})

    for row in _visible(rows, viewer):
        c, where = row["change"], {"session_id": row["session_id"], "quest": row["quest"], "position": row["position"]}
        kind = c["kind"]
        if kind == "curses-gained":
            hero(c["hero"])["curses_gained"] += c["count"]
        elif kind == "cursed-item-equipped":
            hero(c["hero"])["curses_gained"] += 1
        elif kind == "frost-gained":
            hero(c["hero"])["frost_gained"] += c["count"]
        elif kind == "dark-relic-equipped":
            hero(c["hero"])["dark_relics"].append({"relic": c["relic"], **where})
        elif kind == "chest-opened":
            for name, cards in c["treasure"].items():
                hero(name)["chest_items"] += [{"card": card, "chest": c["chest"], **where} for card in cards]
        elif kind == "hero-killed":
            hero(c["hero"])["deaths"].append({"conquest_value": c["conquest_value"], **where})
        elif kind == "value-corrected":  # shown as a correction: what was recorded, what it is, and why
            hero(c["hero"])["corrections"].append({key: c.get(key) for key in ("field", "was", "to", "reason", "refers_to")} | where)
        else:
            continue
        for name in {c.get("hero"), *c.get("treasure", {})} - {None}:
            hero(name)["events"].append(where)
    return heroes
