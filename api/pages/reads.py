"""What the pages show, assembled from the read models: the projected views (timeline, dice faces,
game events) and the application's campaign queries. Nothing here replays a log into views."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from projections import timeline
from tracker.core import wording
from projections.store import ViewStore
from tracker.rulesets.engine.ruleset import Ruleset

WINS = ("victory", "heroic-victory")
OUTCOME_WORDS = {"victory": "Victory", "heroic-victory": "Heroic victory", "defeat": "Defeat", None: "In play"}


def session_timeline(store: ViewStore, session: Mapping[str, Any], side: str | None) -> list[dict[str, Any]]:
    """Every timeline entry of a session as ``side`` may see it (None: the owner's eyes): all of it once the
    quest is over, ended or abandoned, since the seed is revealed either way."""
    ended = session["status"] != "in-progress"
    return store.timeline(session["id"], 0, 100_000, viewer=None if ended else side)


def names(ruleset: Ruleset) -> dict[str, str]:
    """Character and quest ids to the names the game gives them."""
    found = {c["id"]: c.get("name") or c["id"] for c in ruleset.data.get("characters", [])}
    found.update({q["id"]: q.get("name") or q["id"] for q in ruleset.data.get("quests", [])})
    found.update({s["id"]: s.get("name") or s["id"] for s in ruleset.data.get("stories", []) if isinstance(s, Mapping) and "id" in s})
    return found



def session_lengths(store: ViewStore, campaign_id: str) -> dict[str, dict[str, Any]]:
    rows = store.query(
        "SELECT session_id, COUNT(*) AS events, MIN(occurred_at) AS first_at, MAX(occurred_at) AS last_at "
        "FROM {view_timeline} WHERE campaign_id = %s GROUP BY session_id",
        (campaign_id,),
    )
    return {r["session_id"]: {"events": r["events"], "duration": duration(r["first_at"], r["last_at"]), "started": _when(r["first_at"]),
                              "date": str(r["first_at"])[:10]} for r in rows}


def duration(first: str, last: str) -> str:
    seconds = int((datetime.fromisoformat(last) - datetime.fromisoformat(first)).total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {seconds:02d} s" if minutes else f"{seconds} s"


def quest_chain(campaign: Mapping[str, Any], quest_names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Each quest of the chain (then any quest played off it) with its plays and their outcomes."""
    plays: dict[str, list[dict[str, Any]]] = {}
    for session in campaign["sessions"]:
        plays.setdefault(session["quest"], []).append(session)
    order = list(campaign["chain"]) + [q for q in plays if q not in campaign["chain"]]
    chain = []
    for number, quest in enumerate(order, start=1):
        played = plays.get(quest, [])
        outcomes = [s["outcome"] for s in played]
        chain.append(
            {
                "number": number,
                "quest": quest,
                "name": quest_names.get(quest, quest),
                "plays": [{"session_id": s["id"], "outcome": s["outcome"], "said": _said(s), "ruling": s.get("ruling")} for s in played],
                "replayed": len(played) > 1,
                "won": any(o in WINS for o in outcomes),
                "next": quest == campaign["next_quest"],
            }
        )
    return chain


def sessions(campaign: Mapping[str, Any], store: ViewStore, quest_names: Mapping[str, str]) -> list[dict[str, Any]]:
    lengths = session_lengths(store, campaign["id"])
    return [
        {
            "id": s["id"],
            "number": n,
            "quest": quest_names.get(s["quest"], s["quest"]),
            "outcome": s["outcome"],
            "said": _said(s),
            "ruling": s.get("ruling"),
            **lengths.get(s["id"], {"events": 0, "duration": "–", "started": None, "date": None}),
        }
        for n, s in enumerate(campaign["sessions"], start=1)
    ]


def event_link(session_id: str, position: int) -> str:
    return f"/pages/sessions/{session_id}#e{position}"


# -- a karma-series view (Journey's): karma across the campaign ------------------------------------

def karma_series(series: Mapping[str, list[Mapping[str, Any]]], quest_names: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Journey's karma-series view as the page says it: per Pilgrim, Good and Bad Karma after every change to either
    wheel, in campaign order; a trade (10 Karma for a skill, or for a weapon level and Corruption) marked with what it bought."""
    return {hero: [_karma_point(point, quest_names) for point in points] for hero, points in series.items()}


def _karma_point(point: Mapping[str, Any], quest_names: Mapping[str, str]) -> dict[str, Any]:
    change = point["change"]
    set_up = change["kind"] == "pilgrim-set-up"
    return {
        "good": point["good"],
        "bad": point["bad"],
        "quest": quest_names.get(point["quest"], point["quest"]),
        "session_id": point["session_id"],
        "position": point["position"],
        "trade": _trade_said(change) if change["kind"] == "karma-traded" else None,
        "said": "set up (" + str(change.get("start", "")) + ")" if set_up else _karma_said(change),
        "link": event_link(point["session_id"], point["position"]),
    }


def _said(session: Mapping[str, Any]) -> str:
    """A session's result as people say it; a table ruling is shown as one, never as a plain result
    (its reason beside it, in the page: see the ruling macro)."""
    if session.get("abandoned"):
        return f"Abandoned: {session['abandoned'].get('reason')}"  # not played, not a result
    said = OUTCOME_WORDS.get(session["outcome"], session["outcome"])
    return f"{said} by table ruling" if session.get("ruling") else said


def _karma_said(change: Mapping[str, Any]) -> str:
    wheel = "Good" if change["wheel"] == "good" else "Bad"
    if change["kind"] == "karma-gained":
        return f"+{change['amount']} {wheel} Karma ({change.get('source')})"
    if change["kind"] == "karma-lost":
        return f"−{change.get('applied', change['amount'])} {wheel} Karma ({change.get('source')})"
    return f"traded {change['cost']} {wheel} Karma"


def _trade_said(change: Mapping[str, Any]) -> str:
    wheel = "Good" if change["wheel"] == "good" else "Bad"
    return f"Traded {change['cost']} {wheel} Karma for {str(change['trade']).replace('-', ' ')}"


def sheet_links(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """For one hero of a hero-progress view that names the events behind its values (Journey's): the event behind each wheel's value now (the last that changed
    it), and behind each card held (the one that gave it)."""
    behind = sheet.get("events_behind") or {}
    wheels = {wheel: event_link(behind[field][-1]["session_id"], behind[field][-1]["position"])
              for wheel, field in (("good", "good_karma"), ("bad", "bad_karma")) if behind.get(field)}
    cards = {card: event_link(ref["session_id"], ref["position"]) for card, ref in (sheet.get("cards_behind") or {}).items()}
    return {"wheels": wheels, "cards": cards}


# -- dice luck --------------------------------------------------------------------------------------


def dice_luck(faces: Iterable[Mapping[str, Any]], dice: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per die and source (digital, reported): how often each face came up against how often it
    should, where the die's face layout is known (expected = rolls x faces showing it / faces)."""
    counted: dict[tuple[str, str], Counter[str]] = {}
    for row in faces:
        counted.setdefault((row["die"], row["source"]), Counter())[str(row["face"])] += row["count"]
    out = []
    for (die, source), counts in sorted(counted.items()):
        rolls = sum(counts.values())
        if rolls <= 0:
            continue
        spec = dice.get(die)
        layout = [str(f) for f in spec.faces] if spec is not None and spec.faces else None
        results = [str(r) for r in spec.results] if spec is not None else []
        order = list(dict.fromkeys(results + sorted(counts)))
        rows = [
            {
                "face": face,
                "observed": counts.get(face, 0),
                "expected": round(rolls * layout.count(face) / len(layout), 2) if layout else None,
            }
            for face in order
        ]
        out.append(
            {
                "die": die,
                "name": spec.name if spec is not None else die,
                "source": source,
                "rolls": rolls,
                "layout_known": layout is not None,
                "faces": rows,
            }
        )
    return out


# -- Descent: conquest and threat on one axis of event positions ----------------------------------


def conquest_and_threat_steps(quest: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Both tracks of one quest merged in event order, each step carrying the other track's total."""
    steps: list[dict[str, Any]] = []
    conquest = threat = None
    merged = sorted([("conquest", s) for s in quest["conquest"]] + [("threat", s) for s in quest["threat"]], key=lambda t: t[1]["position"])
    for track, step in merged:
        if track == "conquest":
            conquest = step["total"]
        else:
            threat = step["total"]
        steps.append(
            {
                "position": step["position"],
                "track": track,
                "delta": step["delta"],
                "reason": step["reason"],
                "conquest": conquest,
                "threat": threat if threat is not None else 0,
                "link": event_link(quest["session_id"], step["position"]),
            }
        )
    return steps


# -- the play page and the timeline ------------------------------------------------------------------


def said_key(key: str) -> str:
    """An action type or code key as words: "pilgrim-attack" -> "Pilgrim attack"."""
    return wording.key_said(key).capitalize()


def deck_name(ruleset: Ruleset, deck_id: str) -> str:
    named = {d["id"]: d.get("name") for d in ruleset.data.get("decks", [])}
    return named.get(deck_id) or wording.key_said(deck_id).capitalize()


def dice_for_play(ruleset: Ruleset, components: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each die the table may roll: its name, the faces it shows, and whether the service can roll it
    (only when its face layout is known; faces rolled on the table can always be entered)."""
    return [
        {"id": spec.id, "name": spec.name, "results": [str(r) for r in spec.results], "digital": bool(spec.faces)}
        for spec in ruleset.dice(components).values()
    ]


def hand_of(decks: list[dict[str, Any]], side: str | None, ruleset: Ruleset) -> list[dict[str, Any]]:
    """The cards held from each deck, by holder, as the viewer's side may see them (the decks come through the
    one redaction already: a hidden hand arrives as a count under "hidden")."""
    hands = []
    heroes = names(ruleset)
    sides = set(getattr(ruleset.rules, "sides", ()) or ())

    def said(holder: str) -> str:
        # a side holds by its name ("The overlord"), never by a deck that shares its id (Descent's "overlord" deck)
        return f"The {wording.key_said(holder)}" if holder in sides and holder not in heroes else heroes.get(holder, holder)

    for deck in decks:
        for holder, cards in (deck.get("held") or {}).items():
            hands.append({"deck": deck["name"], "holder": holder, "said": said(holder), "cards": cards})
        for holder, count in ((deck.get("hidden") or {}).get("held") or {}).items():
            hands.append({"deck": deck["name"], "holder": holder, "said": said(holder), "count": count, "hidden": True})
    return hands


TURN_ENDS = {"TurnEnded"}
ROUND_STARTS = {"RoundStarted"}
CORRECTIONS = {"EntryCorrected", "ValueCorrected"}


def timeline_groups(entries: list[dict[str, Any]], named: Mapping[str, str], commands: Mapping[int, Any] | None = None,
                    rounds: bool | None = None) -> list[dict[str, Any]]:
    """The timeline as people tell it: grouped by turn (or round: ``rounds``, the game's GameRules.played_in_rounds,
    else whether a round started), one line per thing done at the table (a command: an action with what it caused, a
    roll, a draw), undone ones marked, corrections and table rulings marked."""
    commands = commands or {}
    groups: list[dict[str, Any]] = []
    turn = 1
    rounds = any(e["event_type"] in ROUND_STARTS for e in entries) if rounds is None else rounds
    current = {"label": "Setting up" if rounds else f"Turn {turn}", "lines": []}
    groups.append(current)
    line: dict[str, Any] | None = None
    for entry in entries:
        kind = entry["event_type"]
        command = commands.get(entry["position"])
        if kind in ROUND_STARTS:
            current = {"label": wording.names_said(entry["summary"].split(":")[0], named), "lines": []}
            if line is not None and command is not None and line["command"] == command:
                groups[-1]["lines"].remove(line)  # the action that started the round opens it
                current["lines"].append(line)
            else:
                line = None
            groups.append(current)
        said = wording.names_said(entry["summary"], named)
        if line is not None and command is not None and line["command"] == command:
            if line["action_only"]:
                line.update(parts=[], action_only=False)
            line["parts"].append({"position": entry["position"], "said": said})
            line["positions"].append(entry["position"])
            line["undone_by"] = line["undone_by"] or entry.get("undone_by")
        else:
            line = {
                "position": entry["position"],
                "positions": [entry["position"]],
                "command": command,
                "label": said if kind == "ActionTaken" else None,
                "parts": [{"position": entry["position"], "said": said}],
                "action_only": kind == "ActionTaken",
                "kind": kind,
                "undone_by": entry.get("undone_by"),
                "correction": kind in CORRECTIONS or kind == "ActionTaken" and said.lower().startswith("correct"),
                "ruling": kind == "OutcomeRuled",
                "verdict": kind == "QuestDecided",
                "who": entry.get("who"),
                "when": entry.get("when"),
                "occurred_at": entry.get("occurred_at"),
            }
            current["lines"].append(line)
        if kind in TURN_ENDS and not rounds:
            turn += 1
            current = {"label": f"Turn {turn}", "lines": []}
            groups.append(current)
            line = None
    for group in groups:
        for item in group["lines"]:
            seen: set[str] = set()  # a sentence said twice in one line (a set-up's) is said once
            item["parts"] = [p for p in item["parts"] if not (p["said"] in seen or seen.add(p["said"]))]
            item["said"] = "; ".join(part["said"] for part in item["parts"])
            if item["label"] and item["said"] == item["label"]:
                item["label"] = None
    return [g for g in groups if g["lines"]]


def command_end(commands: Mapping[int, Any], position: int) -> int:
    """The last event the command of the event at ``position`` recorded (an action's request, then its effects)."""
    command = commands.get(position)
    if command is None:
        return position
    return max(p for p, c in commands.items() if c == command)


def last_lines(groups: list[dict[str, Any]], count: int, parts: int = 4) -> list[dict[str, Any]]:
    """The timeline's last ``count`` lines, in their groups, each said in at most ``parts`` parts (the rest counted):
    what just happened, short enough for the foot of a phone's screen."""
    kept: list[dict[str, Any]] = []
    left = count
    for group in reversed(groups):
        if left <= 0:
            break
        lines = group["lines"][-left:]
        left -= len(lines)
        trimmed = []
        for line in lines:
            if len(line["parts"]) > parts:
                more = len(line["parts"]) - parts
                line = {**line, "parts": [*line["parts"][:parts], {"position": line["parts"][parts]["position"], "said": f"and {more} more"}]}
            trimmed.append(line)
        kept.insert(0, {**group, "lines": trimmed})
    return kept


def commands_of(events: Iterable[Any]) -> dict[int, Any]:
    """Each event's command (the position of its command's first event, in its metadata): the events
    one roll, draw or action recorded, which the timeline says as one line."""
    return {e.originator_version: (getattr(e, "meta", None) or {}).get("command") for e in events}


def session_span(entries: list[Mapping[str, Any]]) -> dict[str, Any] | None:
    """When a session was played: its first and last event's date and time, and how long between."""
    if not entries:
        return None
    first, last = entries[0]["occurred_at"], entries[-1]["occurred_at"]
    return {"started": _when(first), "last": _when(last), "length": duration(first, last), "date": first[:10]}


def _when(at: str) -> str:
    return at.replace("T", " ")[:16] + " UTC"


def karma_by_quest(points: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One Pilgrim's Karma per quest played, for the chart: each session's Good and Bad Karma when it
    stopped (its last change), the trades made in it, and a reset where a quest started the wheels afresh
    (individual quests start from 0: "resets" are drawn as a gap, not as a loss)."""
    slots: list[dict[str, Any]] = []
    by_session: dict[str, dict[str, Any]] = {}
    plays: Counter[str] = Counter()
    for point in points:
        slot = by_session.get(point["session_id"])
        if slot is None:
            fresh = point["said"].startswith("set up (fresh")
            if fresh and slots and (slots[-1]["good"] or slots[-1]["bad"]):
                slots.append({"label": "↺ reset", "reset": True, "good": None, "bad": None, "trades": []})
            plays[point["quest"]] += 1
            label = point["quest"] + (f" ({plays[point['quest']]})" if plays[point["quest"]] > 1 else "")
            slot = {"label": label, "quest": point["quest"], "session_id": point["session_id"], "reset": False, "trades": []}
            by_session[point["session_id"]] = slot
            slots.append(slot)
        slot.update(good=point["good"], bad=point["bad"], link=point["link"])
        if point["trade"]:
            slot["trades"].append(point["trade"])
    return slots


def turn_starts(entries: list[Mapping[str, Any]], rounds: bool | None = None) -> list[dict[str, Any]]:
    """Where each turn (or round) begins in the log, to jump to: the event after a turn ends, or a round's start."""
    if not entries:
        return []
    rounds = any(e["event_type"] in ROUND_STARTS for e in entries) if rounds is None else rounds
    starts = [{"label": "Setting up" if rounds else "Turn 1", "position": entries[0]["position"]}]
    turn = 1
    for i, entry in enumerate(entries):
        if rounds and entry["event_type"] in ROUND_STARTS:
            starts.append({"label": entry["summary"].split(":")[0], "position": entry["position"]})
        elif not rounds and entry["event_type"] in TURN_ENDS and i + 1 < len(entries):
            turn += 1
            starts.append({"label": f"Turn {turn}", "position": entries[i + 1]["position"]})
    return starts


def heroes_at(game: Mapping[str, Any], named: Mapping[str, str], by_field: Mapping[str, Mapping[str, str]] | None = None) -> dict[str, Any] | None:
    """Each hero in a game state as a table of words (the games keep them under "heroes"): a row per value, in the
    order the hero's sheet keeps them, and a column per hero by name, so four heroes fit a phone's width; ``by_field``:
    the names a value has only under its key (GameRules.field_names: a Kung Fu Panda "tile" "J" is the Kitchen)."""
    heroes = game.get("heroes")
    if not isinstance(heroes, Mapping) or not heroes:
        return None
    sheets = {h: s for h, s in heroes.items() if isinstance(s, Mapping)}
    keys = list(dict.fromkeys(k for s in sheets.values() for k in s if not isinstance(s[k], (Mapping, list)) or len(str(s[k])) < 80))
    return {
        "headers": ["", *[named.get(h, h) for h in sheets]],
        "rows": [[_stat_said(k), *[wording.value_said(s.get(k), field_named(k, named, by_field)) for s in sheets.values()]] for k in keys],
    }


def field_named(key: str, named: Mapping[str, str], by_field: Mapping[str, Mapping[str, str]] | None) -> Mapping[str, str]:
    """The names a value under ``key`` is said by: the game's ids, and the names only that field's values have."""
    return {**named, **by_field[key]} if by_field and key in by_field else named


def _stat_said(key: str) -> str:
    said = wording.key_said(key)
    return said[:1].upper() + said[1:]


def game_facts(game: Mapping[str, Any], named: Mapping[str, str], by_field: Mapping[str, Mapping[str, str]] | None = None) -> list[list[str]]:
    """The rest of a game state (not its heroes), as rows of words: the short facts a table looks at (``by_field`` as
    heroes_at's)."""
    rows = []
    for key, value in game.items():
        if key == "heroes":
            continue
        said = wording.value_said(value, field_named(key, named, by_field))
        if len(said) <= 200:
            rows.append([wording.key_said(key).capitalize(), said])
    return rows


def fresh_entries(events: list[Any], side: str | None, ended: bool) -> list[dict[str, Any]]:
    """The timeline's entries read straight from the session's events (the play page answers right after a
    command, before the projected view may have caught up), said by the same function the view stores
    (projections.timeline), and hidden from another side by the same rule the view applies."""
    undone: dict[int, int] = {}
    for event in events:
        if type(event).__name__ == "ActionUndone":
            for reverted in event.reverses["events"]:
                undone[reverted["position"]] = event.originator_version
    entries = []
    for event in events:
        secret = timeline.secret_of(event)
        hidden = side is not None and not ended and secret is not None and secret != side
        meta = getattr(event, "meta", None) or {}
        entries.append({
            "position": event.originator_version,
            "event_type": type(event).__name__,
            "summary": timeline.public_summary(event, secret) if hidden else timeline.describe(event),
            "issued_by": meta.get("issued_by"),
            "occurred_at": event.timestamp.isoformat(),
            "undone_by": undone.get(event.originator_version),
        })
    return entries


FIGURE_FIELDS = ("target", "defender", "figure", "demon", "attacker", "foe")
# in_play: Yōkai Quest keeps the yōkai on the board as counts by kind (a kind at 0 has none left there)
FIGURE_SOURCES = ("demons", "figures", "monsters", "foes", "yokai", "enemies", "in_play")


def ids_in_play(game: Mapping[str, Any]) -> dict[str, list[str]]:
    """The quest's ids a form may name, by field: a ``gate`` from the state's gates, a ``villager`` from its
    villager tokens, a ``target`` from the figures on the board (the keys the game state keeps them under)."""
    found: dict[str, list[str]] = {}

    def ids(value: Any) -> list[str]:
        if isinstance(value, Mapping):
            return [str(k) for k, v in value.items() if v != 0]  # a count of none is not on the board
        if isinstance(value, list):
            return [v for v in value if isinstance(v, str)]
        return []

    for key, value in game.items():
        if key.endswith("s") and key not in ("heroes",):
            listed = ids(value)
            if listed:
                found.setdefault(key[:-1], []).extend(listed)
    tokens = game.get("tokens")
    if isinstance(tokens, Mapping):
        for kind, listed in tokens.items():
            found.setdefault(kind, []).extend(ids(listed))
    figures = [i for source in FIGURE_SOURCES for i in ids(game.get(source))]
    for field in FIGURE_FIELDS:
        if figures:
            found.setdefault(field, []).extend(figures)
    return {field: list(dict.fromkeys(listed)) for field, listed in found.items() if listed}


def allowed_types(allowed: Any) -> list[str] | None:
    """The action types legal now, from the session state's ``allowed`` (each entry a type, or ``{"type", ...}``
    with who may take it); None when the game does not say."""
    if not isinstance(allowed, list):
        return None
    return [a["type"] if isinstance(a, Mapping) else str(a) for a in allowed]
