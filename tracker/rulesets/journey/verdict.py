"""Whether the rules have decided a Journey quest, and whether an end the table asks for is one the text allows.

Each quest's conditions are data (``outcomes`` in ruleset.json, every one with the seed line it quotes): the
alternatives that end the quest, every condition of a Heroic Victory and of a Victory (all needed: the text's
"must (1) ... (2) ..."), and the conditions of a Defeat (any one; ``defeat_otherwise`` where the text makes every
other end a defeat). This module only says what each named fact is, from the recorded game state, or from a fact
the table reports with the end when the log cannot know it (a Pilgrim stepping onto the Fiery Bridge).

A fact is True, False, or None: None when only the table can say (a reported fact not stated), so an outcome
that depends on it is left for the end, where the refusal names the fact to state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Fact = Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any] | None], bool | None]
FACTS: dict[str, Fact] = {}
OUTCOMES = ("heroic-victory", "victory")

# Facts only the table knows, by the key the end's "reported" states them with: True or False.
REPORTED = {
    "house-cleared": ("house_cleared", "every Demon in the Villagers' house is removed"),
    "demon-entered-village": ("demon_entered_village", "a Demon crossed the bridge into the village"),
    "fiery-bridge-reached": ("fiery_bridge_reached", "a Pilgrim stepped onto the Fiery Bridge"),
    "kei-lun-killed": ("kei_lun_killed", "Kei Lun was Killed"),
}


def fact(name: str) -> Callable[[Fact], Fact]:
    def register(fn: Fact) -> Fact:
        FACTS[name] = fn
        return fn

    return register


def _record(game: Mapping[str, Any]) -> Mapping[str, Any]:
    return game.get("record") or {}


def _who(game: Mapping[str, Any], who: str) -> list[str]:
    return list(game.get("heroes") or {}) if who in ("any", "all") else [who]


def _reported_heroes(game: Mapping[str, Any], reported: Mapping[str, Any] | None, key: str) -> set[str]:
    """Pilgrims the table reports Defeated or Killed: accepted only for a Pilgrim whose Health the log does not
    track (its HP was lost and never supplied or reported), since otherwise the log itself says it."""
    named = set((reported or {}).get(key) or [])
    return {hero for hero in named if hero in (game.get("heroes") or {}) and game["heroes"][hero].get("hp") is None}


@fact("pilgrim-defeated")
def _pilgrim_defeated(game, cond, reported):
    defeated = set(_record(game).get("defeated") or []) | _reported_heroes(game, reported, "defeated")
    return any(hero in defeated for hero in _who(game, cond["who"]))


def _dead(game, reported) -> set[str]:
    return {h for h, sheet in (game.get("heroes") or {}).items() if sheet.get("status") == "dead"} | _reported_heroes(game, reported, "killed")


@fact("pilgrim-killed")
def _pilgrim_killed(game, cond, reported):
    return any(hero in _dead(game, reported) for hero in _who(game, cond["who"]))


@fact("no-pilgrim-killed")
def _no_pilgrim_killed(game, cond, reported):
    return not _pilgrim_killed(game, cond, reported)


@fact("villagers-rescued")
def _villagers_rescued(game, cond, reported):
    rescued = {v for sheet in (game.get("heroes") or {}).values() for v in sheet.get("villagers") or []}
    tokens = game.get("tokens") or {}
    rescuable = set(tokens.get("villager") or []) - set(tokens.get("safe_house") or [])
    return rescuable <= rescued


@fact("meditated")
def _meditated(game, cond, reported):
    return cond["who"] in (_record(game).get("meditated") or [])


@fact("skill-card-played")
def _skill_card_played(game, cond, reported):
    return bool(_record(game).get("skills_played"))


@fact("pilgrim-revived")
def _pilgrim_revived(game, cond, reported):
    return cond["who"] in (_record(game).get("revived") or [])


@fact("gates-sealed")
def _gates_sealed(game, cond, reported):
    states = list((game.get("gates") or {}).values())
    closed = states.count("closed")
    return closed == len(states) if cond.get("all") else closed >= cond["min"]


@fact("gates-inactive")
def _gates_inactive(game, cond, reported):
    return "active" not in (game.get("gates") or {}).values()


@fact("sutras-held")
def _sutras_held(game, cond, reported):
    return sum(len(sheet.get("sutras") or []) for sheet in (game.get("heroes") or {}).values()) >= cond["min"]


@fact("karma-reached")
def _karma_reached(game, cond, reported):
    return any(r["wheel"] == cond["wheel"] and r["value"] >= cond["value"] for r in game.get("reached_ten") or [])


@fact("no-demons")
def _no_demons(game, cond, reported):
    return not game.get("demons")


@fact("demon-attacked")
def _demon_attacked(game, cond, reported):
    return cond["character"] in (_record(game).get("attacked") or [])


@fact("demon-defeated")
def _demon_defeated(game, cond, reported):
    return (_record(game).get("defeats") or {}).get(cond["character"], 0) >= cond["times"]


@fact("kei-lun-calmed")
def _kei_lun_calmed(game, cond, reported):
    return bool(_record(game).get("kei_lun_calmed"))


@fact("sealing-ritual")
def _sealing_ritual(game, cond, reported):
    return bool(_record(game).get("sealing_ritual"))


def _reported(name: str) -> Fact:
    key, _ = REPORTED[name]

    def check(game, cond, reported):
        if reported is None or key not in reported:
            return None
        return reported[key] is True

    return check


for _name in REPORTED:
    FACTS[_name] = _reported(_name)


@fact("house-cleared")
def _house_cleared(game, cond, reported):
    """L710: "The Quest ends immediately when the Demons in the house are removed". The log keeps no squares, so it
    cannot tell a Demon in the house from one outside it; but with no Demon in play at all (the state holds none), none
    is in the house: the log decides. While Demons are in play, only the table sees where: its word ("house_cleared")."""
    if not game.get("demons"):
        return True
    return _reported("house-cleared")(game, cond, reported)


@fact("kei-lun-killed")
def _kei_lun_killed(game, cond, reported):
    """Logged when the group supplied his Health and the Demons' attacks took it (L942); else the table's word."""
    if _record(game).get("kei_lun_killed"):
        return True
    if (game.get("kei_lun") or {}).get("hp") is not None:
        return False
    return _reported("kei-lun-killed")(game, cond, reported)


@fact("kei-lun-survived")
def _kei_lun_survived(game, cond, reported):
    killed = _kei_lun_killed(game, cond, reported)
    return None if killed is None else not killed

REPORTED_KEYS = {"kei-lun-survived": "kei_lun_killed", **{name: key for name, (key, _) in REPORTED.items()}}

WHO = {"any": "a Pilgrim", "all": "every Pilgrim", "tripitaka": "Tripitaka", "cho-hakkai": "Cho Hakkai"}
WORDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "pilgrim-defeated": lambda c: f"{WHO[c['who']]} Defeated (reduced to 0 Health)",
    "pilgrim-killed": lambda c: f"{WHO[c['who']]} Killed",
    "no-pilgrim-killed": lambda c: "all the Pilgrims survive" if c["who"] == "all" else f"{WHO[c['who']]} survives",
    "villagers-rescued": lambda c: "all the Villagers rescued",
    "meditated": lambda c: f"{WHO[c['who']]} Meditated",
    "skill-card-played": lambda c: "a Pilgrim played a Skill Card",
    "pilgrim-revived": lambda c: f"{WHO[c['who']]} Revived",
    "gates-sealed": lambda c: "all the Gates sealed" if c.get("all") else f"at least {c['min']} Gate(s) sealed",
    "gates-inactive": lambda c: "every Gate inactive",
    "sutras-held": lambda c: f"at least {c['min']} Sutra Token(s) held",
    "karma-reached": lambda c: f"a Pilgrim reached {c['value']} {c['wheel'].capitalize()} Karma",
    "no-demons": lambda c: "no Demons in play",
    "demon-attacked": lambda c: f"the Pilgrims attacked {c['character']}",
    "demon-defeated": lambda c: f"{c['character']} Defeated" + (f" {c['times']} times" if c["times"] > 1 else ""),
    "kei-lun-calmed": lambda c: "Tripitaka calmed Kei Lun",
    "sealing-ritual": lambda c: "Tripitaka completed the Sealing Ritual",
    "kei-lun-survived": lambda c: "Kei Lun survived",
    **{name: (lambda c, words=words: words) for name, (_, words) in REPORTED.items()},
}


def describe(cond: Mapping[str, Any]) -> str:
    key = REPORTED_KEYS.get(cond["fact"])
    stated = f' (a fact for the table to state: "reported": {{"{key}": true or false}})' if key else ""
    return f"{WORDS[cond['fact']](cond)} ({cond['line']}){stated}"


def holds(game: Mapping[str, Any], cond: Mapping[str, Any], reported: Mapping[str, Any] | None) -> bool | None:
    return FACTS[cond["fact"]](game, cond, reported)


def _all(game, conds, reported) -> bool | None:
    values = [holds(game, c, reported) for c in conds]
    if False in values:
        return False
    return None if None in values else True


def _first(game, conds, reported) -> dict[str, Any] | None:
    return next((c for c in conds if holds(game, c, reported)), None)


def _ended(game, outcomes, reported) -> list[dict[str, Any]] | None:
    """The end alternative that holds (every one of its conditions), or None while the quest goes on."""
    return next((alt for alt in outcomes["ends"] if _all(game, alt, reported)), None)


Said = Callable[[Mapping[str, Any]], str]  # a condition in the words a verdict's reason records


def decide(game: Mapping[str, Any], outcomes: Mapping[str, Any], reported: Mapping[str, Any] | None,
           said: Verdicts | None = None) -> dict[str, str] | None:
    """The outcome the rules give for this state, or None while undecided (or while it hangs on a fact only the
    table can state). ``reported`` None: from the log alone. ``said``: the words the reason records (the version's)."""
    said = said or RECORDED_BEFORE_1_5_0
    lost = _first(game, outcomes["defeat"], reported)
    if lost is not None:
        return {"outcome": "defeat", "reason": said.lost(lost)}
    ended = _ended(game, outcomes, reported)
    if ended is None:
        return None
    for outcome in OUTCOMES:
        conds = outcomes.get(outcome)
        if not conds:
            continue
        met = _all(game, conds, reported)
        if met is None:
            return None  # the level of the win hangs on a fact the table states with the end
        if met:
            return {"outcome": outcome, "reason": said.won(ended, conds)}
    if outcomes.get("defeat_otherwise"):
        return {"outcome": "defeat", "reason": said.otherwise(ended, outcomes["defeat_otherwise"])}
    return None


class Verdicts:
    """How a verdict's reason says its conditions. Rules data before 1.5.0 recorded the wording of ``describe``
    (with the JSON a table sends for a fact it states, a Demon by its id, and the quest's end said apart from the
    conditions it met, so a condition could be said twice); their sessions re-derive and verify with it."""

    def __init__(self, condition: Said) -> None:
        self.condition = condition

    def lost(self, cond: Mapping[str, Any]) -> str:
        return self.condition(cond)

    def won(self, ended: list[Mapping[str, Any]], conds: list[Mapping[str, Any]]) -> str:
        because = "; ".join(self.condition(c) for c in ended)
        return f"the quest ended ({because}) with " + "; ".join(self.condition(c) for c in conds)

    def otherwise(self, ended: list[Mapping[str, Any]], line: str) -> str:
        because = "; ".join(self.condition(c) for c in ended)
        return f"the quest ended ({because}) without either set of Victory Conditions ({line})"


RECORDED_BEFORE_1_5_0 = Verdicts(describe)


class InWords(Verdicts):
    """Rules data 1.5.0's reasons, in the players' words: characters by name, a fact the table may state said as
    the fact (no JSON), and each condition once, with every line that names it (Quest 1's end and its Victory both ask that
    the house be cleared: L710, L712)."""

    def __init__(self, names: Mapping[str, str]) -> None:
        super().__init__(lambda cond: said_words(cond, names))

    def _merged(self, conds: list[Mapping[str, Any]]) -> str:
        lines: dict[str, list[str]] = {}
        for cond in conds:
            at = lines.setdefault(self.condition(cond), [])
            if cond["line"] not in at:
                at.append(cond["line"])
        return "; ".join(f"{words} ({', '.join(at)})" for words, at in lines.items())

    def lost(self, cond):
        return self._merged([cond])

    def won(self, ended, conds):
        return f"the quest ended: {self._merged([*ended, *conds])}"

    def otherwise(self, ended, line):
        return f"the quest ended: {self._merged(ended)}, without either set of Victory Conditions ({line})"


def said_words(cond: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A condition in the players' words (no line: InWords adds the lines once per condition). A fact the table may
    state is said as the fact, whoever told it: the log decides some of them itself (an empty board clears the house)."""
    named = {**cond, "character": names.get(cond["character"], cond["character"])} if cond.get("character") else cond
    return WORDS[cond["fact"]](named)


# The lists of Pilgrims the table reports Defeated or Killed, where the log does not track their Health
# (_reported_heroes): keyed by the facts that read them.
REPORTED_HEROES = {
    "pilgrim-defeated": ("defeated", "the Pilgrims the table reports Defeated (reduced to 0 Health), accepted only for one whose Health the log does not track"),
    "pilgrim-killed": ("killed", "the Pilgrims the table reports Killed, accepted only for one whose Health the log does not track"),
    "no-pilgrim-killed": ("killed", "the Pilgrims the table reports Killed, accepted only for one whose Health the log does not track"),
}


def _conditions(outcomes: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [c for alt in outcomes.get("ends", []) for c in alt] + [
        c for key in ("heroic-victory", "victory", "defeat") for c in outcomes.get(key) or []]


def reported_facts(outcomes: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The facts a quest's end may take from the table (its ``reported_schema``): each fact its conditions name that
    only the table sees, by the key the end states it with, with the lines that name it."""
    facts: dict[str, dict[str, Any]] = {}
    lines: dict[str, list[str]] = {}
    for cond in _conditions(outcomes):
        if cond["fact"] in REPORTED_KEYS:
            key = REPORTED_KEYS[cond["fact"]]
            words = next(w for k, (name, w) in REPORTED.items() if name == key)
            facts[key] = {"type": "boolean", "description": words}
        elif cond["fact"] in REPORTED_HEROES:
            key, words = REPORTED_HEROES[cond["fact"]]
            facts[key] = {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "description": words}
        else:
            continue
        lines.setdefault(key, [])
        if cond["line"] not in lines[key]:
            lines[key].append(cond["line"])
    for key, fact in facts.items():
        fact["description"] = f"{fact['description']} ({', '.join(lines[key])})"
    return facts


def awaited(game: Mapping[str, Any], outcomes: Mapping[str, Any]) -> list[str]:
    """The table's facts an undecided quest waits on: those its end conditions name that the log cannot say now."""
    keys = []
    for alt in outcomes.get("ends", []):
        for cond in alt:
            if cond["fact"] in REPORTED_KEYS and holds(game, cond, None) is None and REPORTED_KEYS[cond["fact"]] not in keys:
                keys.append(REPORTED_KEYS[cond["fact"]])
    return keys


def verdict(game: Mapping[str, Any], outcomes: Mapping[str, Any], said: Verdicts | None = None) -> dict[str, str] | None:
    return decide(game, outcomes, None, said)


def end_refusal(game: Mapping[str, Any], outcomes: Mapping[str, Any], outcome: str, reported: Mapping[str, Any]) -> str | None:
    """Why ending in ``outcome`` contradicts the state and the facts the table reports, or None when the text allows it."""
    lost = _first(game, outcomes["defeat"], reported)
    ended = _ended(game, outcomes, reported)
    if outcome == "defeat":
        if lost is not None:
            return None
        if outcomes.get("defeat_otherwise") and ended is not None and not any(_all(game, outcomes.get(o) or [], reported) for o in OUTCOMES if outcomes.get(o)):
            return None  # the text makes every other end a defeat
        return "no condition of a Defeat holds: " + " or ".join(describe(c) for c in outcomes["defeat"])
    if not outcomes.get(outcome):
        return "there are only Heroic Victories against the Bull Demon King (L1062, L1101)"
    if lost is not None:
        return f"the rules give defeat: {describe(lost)}"
    if ended is None:
        ends = " or ".join(" and ".join(describe(c) for c in alt) for alt in outcomes["ends"])
        return f"the quest has not ended: it ends when {ends}"
    missing = [describe(c) for c in outcomes[outcome] if not holds(game, c, reported)]
    if missing:
        return f"not every condition of a {outcome.replace('-', ' ')} holds: still needed {'; '.join(missing)}"
    if outcome == "victory" and outcomes.get("heroic-victory") and _all(game, outcomes["heroic-victory"], reported):
        return "every condition of a Heroic Victory holds: end it as one"
    return None
